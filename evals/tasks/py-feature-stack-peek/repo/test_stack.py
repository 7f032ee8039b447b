import pytest

from stack import Stack


def test_push_and_pop():
    stack = Stack()
    stack.push(1)
    stack.push(2)
    assert stack.pop() == 2
    assert len(stack) == 1


def test_pop_empty():
    with pytest.raises(IndexError):
        Stack().pop()
