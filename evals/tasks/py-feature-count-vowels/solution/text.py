"""Small string helpers."""


def word_count(s):
    """Return how many whitespace-separated words s holds."""
    return len(s.split())


def shout(s):
    """Return s in capitals, with an exclamation mark."""
    return s.upper() + "!"


def count_vowels(s):
    """Return how many vowels (a, e, i, o, u, either case) s contains."""
    return sum(1 for ch in s if ch in "aeiouAEIOU")
