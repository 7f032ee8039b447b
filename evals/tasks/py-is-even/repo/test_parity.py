from parity import is_even, is_odd


def test_is_even():
    assert is_even(4) is True
    assert is_even(7) is False
    assert is_even(0) is True


def test_is_odd():
    assert is_odd(3) is True
    assert is_odd(8) is False
