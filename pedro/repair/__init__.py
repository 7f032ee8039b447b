"""Test-driven repair: pedro runs the tests and finds the code; the model only rewrites one function."""

from pedro.repair.repairer import Repairer, RepairOutcome, RepairSettings

__all__ = ["RepairOutcome", "RepairSettings", "Repairer"]
