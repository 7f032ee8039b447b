package shop

import (
	"testing"

	"example.com/shop/quote"
)

func TestSummary(t *testing.T) {
	items := []quote.Item{{Qty: 2, Cents: 500, Grams: 1000}, {Qty: 1, Cents: 250, Grams: 500}}
	want := "3 items, 2500 g: $20.49"
	if got := Summary(items); got != want {
		t.Errorf("Summary() = %q, want %q", got, want)
	}
}

func TestLightOrder(t *testing.T) {
	items := []quote.Item{{Qty: 1, Cents: 1000, Grams: 800}}
	if got := Summary(items); got != "1 items, 800 g: $14.99" {
		t.Errorf("Summary() = %q", got)
	}
}
