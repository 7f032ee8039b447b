"""Small text utilities."""


def shout(text, times=1):
    """Return text in capitals, followed by times exclamation marks."""
    return text.upper() + "!" * times


def whisper(text):
    """Return text in lower case, trailing off with an ellipsis."""
    return text.lower() + "..."
