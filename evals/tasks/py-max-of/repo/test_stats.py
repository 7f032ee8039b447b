from stats import max_of, min_of


def test_max_of():
    assert max_of([3, 7, 2]) == 7
    assert max_of([5]) == 5


def test_min_of():
    assert min_of([3, 7, 2]) == 2
