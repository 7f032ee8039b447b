package limits

import "testing"

func TestCountAbove(t *testing.T) {
	if got := CountAbove([]int{1, 5, 5, 9}, 5); got != 1 {
		t.Errorf("CountAbove = %d, want 1", got)
	}
	if got := CountAbove(nil, 0); got != 0 {
		t.Errorf("CountAbove(nil) = %d, want 0", got)
	}
}

func TestWithin(t *testing.T) {
	if !Within(3, 3, 5) || Within(6, 3, 5) {
		t.Error("Within is wrong at the bounds")
	}
}
