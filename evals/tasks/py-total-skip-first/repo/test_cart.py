from cart import count, total


def test_total():
    assert total([2, 3, 4]) == 9
    assert total([]) == 0


def test_count():
    assert count([2, 3, 4]) == 3
