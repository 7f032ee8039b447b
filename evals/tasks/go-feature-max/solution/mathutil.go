// Package mathutil holds small integer helpers.
package mathutil

// Min returns the smaller of a and b.
func Min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// Max returns the larger of a and b.
func Max(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// Abs returns x without its sign.
func Abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
