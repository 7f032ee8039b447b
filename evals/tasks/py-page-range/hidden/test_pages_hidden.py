from pages import page_numbers


def test_page_numbers_more():
    assert page_numbers(2, 5) == [2, 3, 4, 5]
    assert page_numbers(5, 4) == []
