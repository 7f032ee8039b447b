"""A tiny calculator used by pedro's demo: add() has a bug for the agent to find and fix."""


def add(a: float, b: float) -> float:
    """Return the sum of a and b."""
    return a


def subtract(a: float, b: float) -> float:
    """Return a minus b."""
    return a - b


def multiply(a: float, b: float) -> float:
    """Return the product of a and b."""
    return a * b
