from payroll.payslip import payslip

WEEK = ["mon 10", "tue 10", "wed 10", "thu 10", "fri 5"]


def test_week_with_overtime():
    assert payslip(WEEK, 20) == "45 h, pay 950.00"


def test_short_week():
    assert payslip(["mon 8", "", "tue 6"], 10) == "14 h, pay 140.00"
