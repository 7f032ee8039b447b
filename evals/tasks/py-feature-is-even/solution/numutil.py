"""Small helpers for whole numbers."""


def is_positive(n):
    """Return True when n is greater than zero."""
    return n > 0


def absolute(n):
    """Return n without its sign."""
    return -n if n < 0 else n


def is_even(n):
    """Return True when n is even, False otherwise."""
    return n % 2 == 0
