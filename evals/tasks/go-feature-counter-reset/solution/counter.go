// Package counter provides a simple counter.
package counter

// Counter counts events; its zero value is ready to use and starts at zero.
type Counter struct {
	n int
}

// Inc adds one to the count.
func (c *Counter) Inc() {
	c.n++
}

// Value returns the current count.
func (c *Counter) Value() int {
	return c.n
}

// Reset sets the count back to zero.
func (c *Counter) Reset() {
	c.n = 0
}
