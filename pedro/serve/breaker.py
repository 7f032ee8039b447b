"""A circuit breaker in front of the model server: after repeated failures, answer at once with 503 and
Retry-After instead of making every client wait on a dead upstream; after the pause, one short trial probes."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Breaker:
    """closed (requests pass) → open after `threshold` failures in a row (refused for `pause_s`) → half-open (one
    trial passes; its success closes, its failure opens again). The trial has `probe_timeout_s` to report back:
    the app bounds it by that, and one that never reports (its client went away) counts as failed after it, so a
    hung server holds the other requests for seconds, never for the length of a generation."""

    threshold: int = 5
    pause_s: float = 10.0
    probe_timeout_s: float = 15.0
    clock: Callable[[], float] = field(default=time.monotonic)
    failures: int = 0
    opened_at: float | None = None
    probing: bool = False
    probe_started: float = 0.0

    def admit(self) -> float | None:
        """None when a request may go upstream (`probing` then says whether it is the trial); else the seconds
        until one may (for Retry-After)."""
        if self.opened_at is None:
            return None
        now = self.clock()
        waited = now - self.opened_at
        if waited < self.pause_s:
            return self.pause_s - waited
        if self.probing:
            if now - self.probe_started < self.probe_timeout_s:
                return 1.0  # one trial at a time while half-open
            self.failed()  # the trial never reported back
            return self.pause_s
        self.probing, self.probe_started = True, now
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
