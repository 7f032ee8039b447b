package mathutil

import "testing"

func TestAbs(t *testing.T) {
	for in, want := range map[int]int{-3: 3, 4: 4, 0: 0} {
		if got := Abs(in); got != want {
			t.Errorf("Abs(%d) = %d, want %d", in, got, want)
		}
	}
}
