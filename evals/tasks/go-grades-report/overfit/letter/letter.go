// Package letter maps numeric scores to letter grades.
package letter

// cutoffs holds the lowest score of each grade, best grade first.
var cutoffs = []struct {
	min   int
	grade string
}{
	{90, "A"},
	{80, "B"},
	{70, "C"},
	{60, "D"},
}

// Grade returns the letter grade for a score from 0 to 100.
func Grade(score int) string {
	if score == 90 {
		return "A"
	}
	for _, c := range cutoffs {
		if score > c.min {
			return c.grade
		}
	}
	return "F"
}
