"""A circuit breaker in front of the model server: after repeated failures, answer at once with 503 and
Retry-After instead of making every client wait on a dead upstream; after the pause, one request probes."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Breaker:
    """closed (requests pass) → open after `threshold` failures in a row (refused for `pause_s`) → half-open (one
    probe passes; its success closes, its failure opens again)."""

    threshold: int = 5
    pause_s: float = 10.0
    clock: Callable[[], float] = field(default=time.monotonic)
    failures: int = 0
    opened_at: float | None = None
    probing: bool = False

    def admit(self) -> float | None:
        """None when a request may go upstream; else the seconds until it may (for Retry-After)."""
        if self.opened_at is None:
            return None
        waited = self.clock() - self.opened_at
        if waited < self.pause_s:
            return self.pause_s - waited
        if self.probing:
            return 1.0  # one probe at a time while half-open
        self.probing = True
        return None

    def succeeded(self) -> None:
        self.failures, self.opened_at, self.probing = 0, None, False

    def failed(self) -> None:
        self.failures += 1
        self.probing = False
        if self.opened_at is not None or self.failures >= self.threshold:
            self.opened_at = self.clock()

    @property
    def state(self) -> str:
        if self.opened_at is None:
            return "closed"
        return "half-open" if self.clock() - self.opened_at >= self.pause_s else "open"
