from stats import median


def test_median_odd():
    assert median([3, 1, 2]) == 2
    assert median([5]) == 5


def test_median_even():
    assert median([4, 1, 3, 2]) == 2.5


def test_median_leaves_input_alone():
    values = [3, 1, 2]
    median(values)
    assert values == [3, 1, 2]
