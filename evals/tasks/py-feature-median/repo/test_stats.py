from stats import mean, value_range


def test_mean():
    assert mean([1, 2, 3, 4]) == 2.5


def test_value_range():
    assert value_range([4, 9, 1]) == 8
