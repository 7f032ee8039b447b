"""A shopping cart: product names and quantities."""


class Cart:
    def __init__(self):
        self.lines = {}

    def add(self, name, qty=1):
        """Add qty units of a product."""
        self.lines[name] = self.lines.get(name, 0) + qty

    def items(self):
        """Return (name, qty) pairs sorted by name."""
        return sorted(self.lines.items())
