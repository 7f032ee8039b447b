from pages import page_count, page_numbers


def test_page_numbers():
    assert page_numbers(1, 3) == [1, 2, 3]
    assert page_numbers(4, 4) == [4]


def test_page_count():
    assert page_count(10, 3) == 4
    assert page_count(9, 3) == 3
