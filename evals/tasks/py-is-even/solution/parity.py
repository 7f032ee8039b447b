"""Parity checks for integers."""


def is_even(n):
    """Return True when n is divisible by two."""
    return n % 2 == 0


def is_odd(n):
    """Return True when n is not divisible by two."""
    return n % 2 != 0


def evens(numbers):
    """Return the even numbers, in their original order."""
    return [n for n in numbers if is_even(n)]
