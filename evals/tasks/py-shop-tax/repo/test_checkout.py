from shop.cart import Cart
from shop.checkout import checkout_total, receipt


def make_cart():
    cart = Cart()
    cart.add("apple", 2)
    cart.add("bread")
    return cart


def test_total_without_tax():
    assert checkout_total(make_cart()) == 350


def test_total_with_tax():
    assert checkout_total(make_cart(), 0.2) == 420


def test_receipt():
    assert receipt(make_cart(), 0.2) == "Total: 4.20"
