package limits

import "testing"

func TestCountAboveMore(t *testing.T) {
	if got := CountAbove([]int{3, 3, 3}, 3); got != 0 {
		t.Errorf("CountAbove = %d, want 0", got)
	}
	if got := CountAbove([]int{4, 10, -1}, 3); got != 2 {
		t.Errorf("CountAbove = %d, want 2", got)
	}
}
