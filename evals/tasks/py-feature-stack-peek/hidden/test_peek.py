import pytest

from stack import Stack


def test_peek_returns_the_top_item_and_keeps_it():
    stack = Stack()
    stack.push("a")
    stack.push("b")
    assert stack.peek() == "b"
    assert len(stack) == 2
    assert stack.pop() == "b"


def test_peek_empty():
    with pytest.raises(IndexError):
        Stack().peek()
