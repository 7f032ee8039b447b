package mathutil

import "testing"

func TestMore(t *testing.T) {
	if got := Abs(-1); got != 1 {
		t.Errorf("Abs(-1) = %d", got)
	}
	if got := GCD(-9, -6); got != 3 {
		t.Errorf("GCD(-9, -6) = %d", got)
	}
	if got := GCD(0, 0); got != 0 {
		t.Errorf("GCD(0, 0) = %d", got)
	}
}
