"""Word statistics for plain text."""
