package clock

import "fmt"

// Format returns minutes since midnight as "HH:MM", two digits each.
func Format(minutes int) string {
	return fmt.Sprintf("%d:%02d", minutes/60, minutes%60)
}

// AddMinutes returns the time delta minutes after the time text, wrapping past midnight.
func AddMinutes(text string, delta int) (string, error) {
	start, err := Parse(text)
	if err != nil {
		return "", err
	}
	return Format((start + delta) % (24 * 60)), nil
}
