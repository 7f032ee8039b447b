from parity import evens, is_even


def test_is_even_more():
    assert is_even(-2) is True
    assert is_even(101) is False


def test_evens():
    assert evens([1, 2, 3, 4]) == [2, 4]
