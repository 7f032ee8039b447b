package counter

import "testing"

func TestReset(t *testing.T) {
	var c Counter
	c.Inc()
	c.Inc()
	c.Reset()
	if got := c.Value(); got != 0 {
		t.Errorf("Value() after Reset = %d, want 0", got)
	}
}

func TestIncAfterReset(t *testing.T) {
	var c Counter
	c.Inc()
	c.Reset()
	c.Inc()
	if got := c.Value(); got != 1 {
		t.Errorf("Value() after Reset and Inc = %d, want 1", got)
	}
}

func TestResetOnZero(t *testing.T) {
	var c Counter
	c.Reset()
	if got := c.Value(); got != 0 {
		t.Errorf("Value() = %d, want 0", got)
	}
}
