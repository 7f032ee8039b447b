from calc import add


def test_add_more():
    assert add(10, 5) == 15
    assert add(0, 0) == 0
    assert add(2.5, 0.5) == 3.0
