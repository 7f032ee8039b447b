"""CI triage as a report: pedro parses the failing run's log itself, the model adds the diagnosis."""
