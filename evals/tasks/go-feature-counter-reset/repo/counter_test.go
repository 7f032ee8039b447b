package counter

import "testing"

func TestZeroValue(t *testing.T) {
	var c Counter
	if got := c.Value(); got != 0 {
		t.Errorf("Value() = %d, want 0", got)
	}
}

func TestInc(t *testing.T) {
	var c Counter
	c.Inc()
	c.Inc()
	c.Inc()
	if got := c.Value(); got != 3 {
		t.Errorf("Value() = %d, want 3", got)
	}
}
