from payroll.payslip import payslip


def test_more_weeks():
    assert payslip(["mon 41"], 10) == "41 h, pay 415.00"
    assert payslip(["mon 20", "tue 20"], 10) == "40 h, pay 400.00"
    assert payslip(["mon 30", "tue 30"], 10) == "60 h, pay 700.00"
