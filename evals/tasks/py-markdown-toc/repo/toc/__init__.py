"""A table of contents for Markdown documents."""
