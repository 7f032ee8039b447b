"""Helpers for lists of numbers."""


def max_of(items):
    """Return the largest value in items, which must not be empty."""
    best = items[0]
    for item in items[1:]:
        if item < best:
            best = item
    return best


def min_of(items):
    """Return the smallest value in items, which must not be empty."""
    best = items[0]
    for item in items[1:]:
        if item < best:
            best = item
    return best
