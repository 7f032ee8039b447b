from numutil import absolute, is_positive


def test_is_positive():
    assert is_positive(3) is True
    assert is_positive(0) is False
    assert is_positive(-2) is False


def test_absolute():
    assert absolute(-5) == 5
    assert absolute(7) == 7
    assert absolute(0) == 0
