from alerts import low_stock
from inventory import add_stock


def test_restocked_item_is_no_longer_low():
    stock = {"pen": 1, "ink": 0}
    add_stock(stock, "pen", 4)
    assert stock == {"pen": 5, "ink": 0}
    assert low_stock(stock, 2) == ["ink"]
