package mathutil

import "testing"

func TestMin(t *testing.T) {
	cases := []struct{ a, b, want int }{
		{3, 7, 3},
		{7, 3, 3},
		{-2, 1, -2},
		{4, 4, 4},
	}
	for _, c := range cases {
		if got := Min(c.a, c.b); got != c.want {
			t.Errorf("Min(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestAbs(t *testing.T) {
	for in, want := range map[int]int{-5: 5, 0: 0, 8: 8} {
		if got := Abs(in); got != want {
			t.Errorf("Abs(%d) = %d, want %d", in, got, want)
		}
	}
}
