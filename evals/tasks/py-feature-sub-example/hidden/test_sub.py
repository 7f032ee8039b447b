from calc import sub


def test_sub_example():
    assert sub(5, 3) == 2


def test_sub_order_and_sign():
    assert sub(3, 5) == -2
    assert sub(0, 0) == 0
    assert sub(-4, -6) == 2
    assert sub(2.5, 1) == 1.5
