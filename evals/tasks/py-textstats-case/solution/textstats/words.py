"""Splitting text into words for counting."""

import string


def words(text):
    """Return the words of text, without the punctuation around them."""
    found = []
    for raw in text.split():
        word = raw.strip(string.punctuation).lower()
        if word:
            found.append(word)
    return found
