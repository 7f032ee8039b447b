"""Small text utilities."""


def shout(text):
    """Return text in capitals, with an exclamation mark."""
    return text.upper() + "!"


def whisper(text):
    """Return text in lower case, trailing off with an ellipsis."""
    return text.lower() + "..."
