"""Small text utilities."""


def count_words(text):
    """Return how many words text holds."""
    return len(text.split())


def shout(text):
    """Return text in capitals, with an exclamation mark."""
    return text.upper() + "!"
