"""The job's one wall-clock deadline: set when the job starts, read by the loop and by repair."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Deadline:
    """When the job's time limit passes, as a time.monotonic() value; `at` None means no limit."""

    at: float | None = None
    seconds: float | None = None
    """The limit it was set from, for messages."""

    @classmethod
    def after(cls, seconds: float | None, start: float | None = None) -> Deadline:
        """The deadline `seconds` from `start` (now by default); no deadline for None or 0."""
        if not seconds:
            return cls()
        return cls((time.monotonic() if start is None else start) + seconds, seconds)

    def left(self) -> float | None:
        """Seconds until it passes (never below 0), or None without a limit."""
        return None if self.at is None else max(0.0, self.at - time.monotonic())

    @property
    def passed(self) -> bool:
        return self.at is not None and time.monotonic() >= self.at

    def before(self, at: float, reserve_s: float = 0.0) -> float:
        """The earlier of `at` and `reserve_s` before this deadline: when a step must stop to leave room for what
        follows it."""
        return at if self.at is None else min(at, self.at - reserve_s)


NO_DEADLINE = Deadline()
