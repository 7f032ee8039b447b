// Package grades turns exam scores into a class report.
package grades

import (
	"fmt"
	"strings"

	"example.com/grades/letter"
	"example.com/grades/stats"
)

// Student is one exam result.
type Student struct {
	Name  string
	Score int
}

// Report returns one line per student, such as "Ana: 93 A", then a line with the class average.
func Report(students []Student) string {
	var b strings.Builder
	scores := make([]int, 0, len(students))
	for _, s := range students {
		fmt.Fprintf(&b, "%s: %d %s\n", s.Name, s.Score, letter.Grade(s.Score))
		scores = append(scores, s.Score)
	}
	fmt.Fprintf(&b, "average: %.1f\n", stats.Mean(scores))
	return b.String()
}
