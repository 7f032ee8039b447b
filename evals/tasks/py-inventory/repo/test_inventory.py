import pytest

from inventory import add_stock, remove_stock


def test_add_stock():
    assert add_stock({"pen": 2}, "pen", 3) == {"pen": 5}
    assert add_stock({}, "ink", 1) == {"ink": 1}


def test_remove_stock():
    assert remove_stock({"pen": 5}, "pen", 2) == {"pen": 3}
    with pytest.raises(ValueError, match="only 1 pen in stock"):
        remove_stock({"pen": 1}, "pen", 2)
