// Package stats holds summary statistics for integer scores.
package stats

// Mean returns the arithmetic mean of scores, or 0 when there are none.
func Mean(scores []int) float64 {
	if len(scores) == 0 {
		return 0
	}
	total := 0
	for _, s := range scores {
		total += s
	}
	return float64(total) / float64(len(scores))
}
