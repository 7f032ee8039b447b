package shop

import (
	"testing"

	"example.com/shop/quote"
	"example.com/shop/shipping"
)

func TestShippingSteps(t *testing.T) {
	for grams, want := range map[int]int{0: 499, 1000: 499, 1001: 649, 2000: 649, 3000: 799, 3001: 949} {
		if got := shipping.Cost(grams); got != want {
			t.Errorf("Cost(%d) = %d, want %d", grams, got, want)
		}
	}
	items := []quote.Item{{Qty: 3, Cents: 100, Grams: 700}}
	if got := Summary(items); got != "3 items, 2100 g: $10.99" {
		t.Errorf("Summary() = %q", got)
	}
}
