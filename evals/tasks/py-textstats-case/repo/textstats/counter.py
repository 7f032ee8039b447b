"""Counting words."""

from collections import Counter

from textstats.words import words


def word_counts(text):
    """Return a Counter of how often each word occurs in text."""
    return Counter(words(text))
