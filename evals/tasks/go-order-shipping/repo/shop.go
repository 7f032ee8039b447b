// Package shop prints what an order costs.
package shop

import (
	"fmt"

	"example.com/shop/money"
	"example.com/shop/quote"
)

// Summary returns a line such as "3 items, 1500 g: $12.49" for an order.
func Summary(items []quote.Item) string {
	count, grams := 0, 0
	for _, it := range items {
		count += it.Qty
		grams += it.Qty * it.Grams
	}
	return fmt.Sprintf("%d items, %d g: %s", count, grams, money.Format(quote.Total(items)))
}
