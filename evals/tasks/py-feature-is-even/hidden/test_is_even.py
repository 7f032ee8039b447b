from numutil import is_even


def test_is_even_examples():
    assert is_even(4) is True
    assert is_even(7) is False


def test_is_even_zero_and_negatives():
    assert is_even(0) is True
    assert is_even(-2) is True
    assert is_even(-3) is False
    assert is_even(1) is False
