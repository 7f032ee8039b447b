"""One entry of the table of contents."""

from toc.anchors import anchor


def entry(level, title):
    """Return the list item linking to a heading, indented two spaces per level below 1."""
    return f"{'  ' * (level - 1)}- [{title}](#{anchor(title)})"
