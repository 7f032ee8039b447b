"""Progress finer than "fewer tests fail": one failing test, before and after a candidate, failing closer to passing."""

from __future__ import annotations

import re

from pedro.tools.testreport import FailedTest

_NUMBER = r"-?\d+(?:\.\d+)?(?:e-?\d+)?"
# (actual, expected) as runners print them: pytest's `assert 7 == 12`, Go's `got 7, want 12` (or `= 7, want 12`),
# node's `7 !== 12`, jest's `Expected: 12` / `Received: 7`.
_ACTUAL_EXPECTED = (
    re.compile(rf"\bassert (?P<actual>{_NUMBER}) == (?P<expected>{_NUMBER})\b"),
    re.compile(rf"(?:\bgot\b|=)\s*:?\s*(?P<actual>{_NUMBER}),?\s+want(?:ed)?\s*:?\s*(?P<expected>{_NUMBER})", re.I),
    re.compile(rf"^\s*(?P<actual>{_NUMBER}) !==? (?P<expected>{_NUMBER})\s*$", re.M),
)
_JEST = re.compile(rf"Expected:\s*(?P<expected>{_NUMBER})\s*\n\s*Received:\s*(?P<actual>{_NUMBER})")


def closer(before: FailedTest, after: FailedTest) -> tuple[int, str]:
    """+1 and why when `after` fails closer to passing than `before` (a later assertion in the same file, an actual
    value nearer the expected one), -1 when further, 0 when it cannot be told or nothing moved."""
    was, now = _location(before.location), _location(after.location)
    if was and now and was[0] == now[0] and was[1] != now[1]:
        if now[1] > was[1]:
            return 1, f"it now fails later, at line {now[1]} (was {was[1]})"
        return -1, f"it now fails earlier, at line {now[1]} (was {was[1]})"
    old, new = _values(before), _values(after)
    if old is None or new is None or old[1] != new[1] or old[0] == new[0]:
        return 0, ""
    if abs(new[0] - new[1]) < abs(old[0] - old[1]):
        return 1, f"the actual value {new[0]:g} is nearer the expected {new[1]:g} (was {old[0]:g})"
    return -1, f"the actual value {new[0]:g} is further from the expected {new[1]:g} (was {old[0]:g})"


def _location(location: str) -> tuple[str, int] | None:
    path, _, line = location.rpartition(":")
    return (path, int(line)) if path and line.isdigit() else None


def _values(failure: FailedTest) -> tuple[float, float] | None:
    text = f"{failure.message}\n{failure.details}"
    for pattern in (*_ACTUAL_EXPECTED, _JEST):
        match = pattern.search(text)
        if match is not None:
            try:
                return float(match.group("actual")), float(match.group("expected"))
            except ValueError:
                return None
    return None
