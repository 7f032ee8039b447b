"""Weekly pay from timesheets."""
