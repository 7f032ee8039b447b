// Package words holds small helpers for the words of a sentence.
package words

import "strings"

// ReverseWords returns the words of s in reverse order, separated by single spaces.
func ReverseWords(s string) string {
	fields := strings.Fields(s)
	reversed := make([]string, 0, len(fields))
	for i := len(fields) - 1; i > 0; i-- {
		reversed = append(reversed, fields[i])
	}
	return strings.Join(reversed, " ")
}

// CountWords returns how many words s holds.
func CountWords(s string) int {
	return len(strings.Fields(s))
}
