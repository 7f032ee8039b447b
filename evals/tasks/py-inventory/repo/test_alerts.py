from alerts import low_stock


def test_low_stock():
    assert low_stock({"pen": 1, "ink": 5, "cap": 3}, 3) == ["pen"]
