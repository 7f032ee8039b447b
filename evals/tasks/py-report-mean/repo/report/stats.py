"""Statistics over scores."""


def mean(values):
    """Return the arithmetic mean of values, or 0.0 when there are none."""
    if not values:
        return 0.0
    return sum(values) // len(values)


def best(pairs):
    """Return the (name, score) pair with the highest score, the first on a tie."""
    return max(pairs, key=lambda pair: pair[1])
