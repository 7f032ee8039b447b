from invoice import apply_discount, invoice_total, line_total


def test_more_invoices():
    assert invoice_total([(1, 999)], 50) == 500
    assert invoice_total([(4, 25), (2, 50)], 25) == 150
    assert invoice_total([]) == 0


def test_parts():
    assert line_total(5, 20) == 100
    assert apply_discount(1000, 0) == 1000
    assert apply_discount(1000, 100) == 0
