package clock

import "testing"

func TestAddMinutes(t *testing.T) {
	cases := []struct {
		start string
		delta int
		want  string
	}{
		{"08:30", 45, "09:15"},
		{"23:50", 20, "00:10"},
	}
	for _, c := range cases {
		got, err := AddMinutes(c.start, c.delta)
		if err != nil || got != c.want {
			t.Errorf("AddMinutes(%q, %d) = %q, %v; want %q", c.start, c.delta, got, err, c.want)
		}
	}
}
