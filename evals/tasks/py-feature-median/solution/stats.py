"""Descriptive statistics for lists of numbers."""


def mean(values):
    """Return the arithmetic mean of values, which must not be empty."""
    return sum(values) / len(values)


def value_range(values):
    """Return the difference between the largest and the smallest value."""
    return max(values) - min(values)


def median(values):
    """Return the median of values, which must not be empty."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2
