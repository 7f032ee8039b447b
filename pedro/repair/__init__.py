"""Test-driven repair: pedro runs the tests and finds the code; variants and the model's answers are tried at once."""

from pedro.repair.pipeline import Repairer, RepairOutcome

__all__ = ["RepairOutcome", "Repairer"]
