"""Low-stock alerts."""


def low_stock(stock, threshold):
    """Return the names of the items with fewer than threshold units, sorted."""
    return sorted(item for item, qty in stock.items() if qty < threshold)
