// Package quote prices an order, shipping included.
package quote

import "example.com/shop/shipping"

// Item is one line of an order: quantity, unit price in cents and unit weight in grams.
type Item struct {
	Qty   int
	Cents int
	Grams int
}

// Total returns the order's price in cents, shipping for its total weight included.
func Total(items []Item) int {
	cents, grams := 0, 0
	for _, it := range items {
		cents += it.Qty * it.Cents
		grams += it.Qty * it.Grams
	}
	return cents + shipping.Cost(grams)
}
