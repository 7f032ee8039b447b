"""Reading timesheet lines such as 'mon 8'."""


def total_hours(lines):
    """Return the hours worked over lines of 'day hours'; blank lines are skipped."""
    return sum(float(line.split()[1]) for line in lines if line.strip())
