package mathutil

import "testing"

func TestMax(t *testing.T) {
	cases := []struct{ a, b, want int }{
		{3, 7, 7},
		{7, 3, 7},
		{-2, -9, -2},
		{0, -1, 0},
		{4, 4, 4},
	}
	for _, c := range cases {
		if got := Max(c.a, c.b); got != c.want {
			t.Errorf("Max(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
