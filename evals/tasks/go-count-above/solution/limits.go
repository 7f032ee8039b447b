// Package limits checks sensor readings against limits.
package limits

// CountAbove returns how many values exceed limit.
func CountAbove(values []int, limit int) int {
	n := 0
	for _, v := range values {
		if v > limit {
			n++
		}
	}
	return n
}

// Within reports whether v lies between lo and hi, both included.
func Within(v, lo, hi int) bool {
	return v >= lo && v <= hi
}
