from cart import total


def test_total_more():
    assert total([10]) == 10
    assert total([1.5, 2.5]) == 4.0
    assert total([5, 0, 0]) == 5
