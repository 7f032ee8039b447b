"""Messages shown to users."""


def greet(name):
    """Return the greeting shown when name signs in."""
    return "Hello" + name


def farewell(name):
    """Return the message shown when name signs out."""
    return "Goodbye, " + name + "!"
