from shop.cart import Cart
from shop.checkout import checkout_total, receipt


def test_milk_with_tax():
    cart = Cart()
    cart.add("milk", 3)
    assert checkout_total(cart, 0.1) == 396
    assert receipt(cart) == "Total: 3.60"
