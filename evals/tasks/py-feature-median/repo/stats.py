"""Descriptive statistics for lists of numbers."""


def mean(values):
    """Return the arithmetic mean of values, which must not be empty."""
    return sum(values) / len(values)


def value_range(values):
    """Return the difference between the largest and the smallest value."""
    return max(values) - min(values)
