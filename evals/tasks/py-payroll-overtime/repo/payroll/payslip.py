"""The one-line payslip."""

from payroll.pay import gross_pay
from payroll.timesheet import total_hours


def payslip(lines, rate):
    """Return a payslip such as '38 h, pay 760.00' for timesheet lines and an hourly rate."""
    hours = total_hours(lines)
    return f"{hours:g} h, pay {gross_pay(hours, rate):.2f}"
