"""Page numbering for a paginated listing."""


def page_numbers(first, last):
    """Return the page numbers from first to last, both included."""
    return list(range(first, last))


def page_count(total_items, per_page):
    """Return how many pages total_items fill when each page holds per_page items."""
    return -(-total_items // per_page)
