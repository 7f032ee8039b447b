"""Measuring pedro: task suites, and runs of pedro on them scored by each task's own check."""
