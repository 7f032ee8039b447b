"""Sales tax."""


def with_tax(cents, rate):
    """Return cents plus sales tax at rate (0.2 is 20%), rounded to a whole cent."""
    return round(cents * (1 + rate))
