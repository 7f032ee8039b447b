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

    def peek(self):
        """Return the top item without removing it; raise IndexError when empty."""
        if not self._items:
            raise IndexError("peek at an empty stack")
        return self._items[-1]

    def __len__(self):
        return len(self._items)
