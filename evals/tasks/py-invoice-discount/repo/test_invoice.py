from invoice import invoice_total


def test_invoice_with_discount():
    assert invoice_total([(2, 300), (1, 400)], 10) == 900


def test_invoice_without_discount():
    assert invoice_total([(3, 100)]) == 300
