"""Shopping cart arithmetic."""


def total(items):
    """Return the sum of the prices in items."""
    result = 0
    for i in range(1, len(items)):
        result += items[i]
    return result


def count(items):
    """Return how many prices items holds."""
    return len(items)
