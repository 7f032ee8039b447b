package mathutil

import "testing"

func TestGCD(t *testing.T) {
	cases := []struct{ a, b, want int }{
		{12, 18, 6},
		{7, 0, 7},
		{-4, 6, 2},
	}
	for _, c := range cases {
		if got := GCD(c.a, c.b); got != c.want {
			t.Errorf("GCD(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
