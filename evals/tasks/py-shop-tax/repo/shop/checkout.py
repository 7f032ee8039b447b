"""Checkout: what the customer pays."""

from shop.pricing import subtotal
from shop.tax import with_tax


def checkout_total(cart, tax_rate=0.0):
    """Return the amount due for cart in cents, tax included."""
    return with_tax(subtotal(cart), tax_rate)


def receipt(cart, tax_rate=0.0):
    """Return a one-line receipt such as 'Total: 4.20'."""
    cents = checkout_total(cart, tax_rate)
    return f"Total: {cents // 100}.{cents % 100:02d}"
