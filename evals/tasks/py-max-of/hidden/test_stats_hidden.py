from stats import max_of


def test_max_of_more():
    assert max_of([-4, -1, -9]) == -1
    assert max_of([1, 1, 2]) == 2
    assert max_of([9, 8, 7]) == 9
