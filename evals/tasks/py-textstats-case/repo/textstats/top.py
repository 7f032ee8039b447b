"""The most frequent words of a text."""

from textstats.counter import word_counts


def top_words(text, n):
    """Return the n most frequent (word, count) pairs, ties in alphabetical order."""
    counts = word_counts(text)
    ranked = sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))
    return ranked[:n]
