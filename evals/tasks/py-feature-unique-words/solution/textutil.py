"""Small text utilities."""


def count_words(text, unique=False):
    """Return how many words text holds; unique counts each word once, ignoring case."""
    words = text.split()
    if unique:
        return len({word.lower() for word in words})
    return len(words)


def shout(text):
    """Return text in capitals, with an exclamation mark."""
    return text.upper() + "!"
