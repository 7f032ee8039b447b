// Package clock does arithmetic on times of day written as "HH:MM".
package clock

import "fmt"

// Parse returns the minutes since midnight of a time such as "08:30".
func Parse(text string) (int, error) {
	var h, m int
	if _, err := fmt.Sscanf(text, "%d:%d", &h, &m); err != nil {
		return 0, fmt.Errorf("bad time %q: %w", text, err)
	}
	return h*60 + m, nil
}
