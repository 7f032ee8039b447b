"""A last-in, first-out stack."""


class Stack:
    def __init__(self):
        self._items = []

    def push(self, item):
        """Put item on top of the stack."""
        self._items.append(item)

    def pop(self):
        """Remove and return the top item; raise IndexError when the stack is empty."""
        if not self._items:
            raise IndexError("pop from an empty stack")
        return self._items.pop()

    def __len__(self):
        return len(self._items)
