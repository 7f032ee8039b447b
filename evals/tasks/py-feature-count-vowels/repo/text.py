"""Small string helpers."""


def word_count(s):
    """Return how many whitespace-separated words s holds."""
    return len(s.split())


def shout(s):
    """Return s in capitals, with an exclamation mark."""
    return s.upper() + "!"
