package clock

import "testing"

func TestMoreTimes(t *testing.T) {
	cases := []struct {
		start string
		delta int
		want  string
	}{
		{"00:00", 0, "00:00"},
		{"12:07", 125, "14:12"},
		{"06:59", 1, "07:00"},
		{"22:15", 180, "01:15"},
	}
	for _, c := range cases {
		got, err := AddMinutes(c.start, c.delta)
		if err != nil || got != c.want {
			t.Errorf("AddMinutes(%q, %d) = %q, %v; want %q", c.start, c.delta, got, err, c.want)
		}
	}
	if got, _ := Parse("10:45"); got != 645 {
		t.Errorf("Parse(\"10:45\") = %d, want 645", got)
	}
	if got := Format(65); got != "01:05" {
		t.Errorf("Format(65) = %q, want \"01:05\"", got)
	}
}
