"""Gross pay for a week."""

from payroll.overtime import split_hours

OVERTIME_FACTOR = 1.5


def gross_pay(hours, rate):
    """Return the pay for hours at rate per hour, overtime paid at OVERTIME_FACTOR times rate."""
    regular, overtime = split_hours(hours)
    return regular * rate + overtime * rate * OVERTIME_FACTOR
