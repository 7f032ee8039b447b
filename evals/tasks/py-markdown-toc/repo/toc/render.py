"""The table of contents of a document."""

from toc.headings import headings
from toc.links import entry


def table_of_contents(text):
    """Return the table of contents of Markdown text, one line per heading."""
    return "\n".join(entry(level, title) for level, title in headings(text))
