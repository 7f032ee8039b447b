"""Product prices, in cents."""

PRICES = {
    "apple": 50,
    "bread": 250,
    "milk": 120,
}


def price_of(name):
    """Return the unit price of a product, in cents."""
    return PRICES[name]
