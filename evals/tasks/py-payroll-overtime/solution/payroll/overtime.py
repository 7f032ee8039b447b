"""Splitting a week's hours into regular hours and overtime."""

REGULAR_LIMIT = 40


def split_hours(hours):
    """Return (regular, overtime): up to REGULAR_LIMIT hours are regular, the rest overtime."""
    overtime = max(0, hours - REGULAR_LIMIT)
    regular = min(hours, REGULAR_LIMIT)
    return regular, overtime
