package mathutil

// GCD returns the greatest common divisor of a and b; it is never negative.
func GCD(a, b int) int {
	a, b = Abs(a), Abs(b)
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
