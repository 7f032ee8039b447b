"""Test-driven repair: pedro runs the tests and finds the code; variants and the model's answers are tried at once.

The pipeline is imported on first use: its sixty modules cost a job that never repairs a tenth of a second to start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pedro.repair.outcome import RepairOutcome

if TYPE_CHECKING:
    from pedro.repair.pipeline import Repairer

__all__ = ["RepairOutcome", "Repairer"]


def __getattr__(name: str) -> Any:
    if name == "Repairer":
        from pedro.repair.pipeline import Repairer

        return Repairer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
