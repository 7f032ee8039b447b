// Package money formats amounts of money.
package money

import "fmt"

// Format returns cents as dollars, such as "$12.49".
func Format(cents int) string {
	return fmt.Sprintf("$%d.%02d", cents/100, cents%100)
}
