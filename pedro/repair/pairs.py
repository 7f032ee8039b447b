"""Pairs of candidates that failed alone, applied together: a bug that needs two edits shows nothing for either
alone, and candidates that each moved a failure closer to passing are the likeliest halves."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pedro.repair.edits import Edit
from pedro.repair.locate import Unit


@dataclass(frozen=True)
class Tested:
    """A candidate that was applied, tested and undone: material for a pair. `nearer` when its failing tests came
    closer to passing (a value nearer the expected one) without any moving away."""

    n: int
    unit: Unit
    text: str
    nearer: bool = False
    gap: float | None = None
    """How far its failing tests stayed from passing (progress.remaining), where their failures say."""
    later: bool = False
    """Its failing tests now fail at a later assertion (progress.failed_later): one half of a fix in two places."""
    alike: bool = False
    """Its failing tests failed exactly as before (progress.fails_alike): it changed nothing the first failing
    assertion reaches, as the other half of such a fix does."""
    kind: str = ""
    """The kind of slip it undid (slip_kind), where its change says one."""


_SWAPPED_TOKEN = re.compile(r"^`(?P<old>[^`]+)` → `(?P<new>[^`]+)`$")


def slip_kind(change: str) -> str:
    """The kind of slip a variant's change undoes, where two of one kind are likelier halves of one fix than two of
    different kinds (a bug written into two branches is often the same slip twice): an operand dropped, two items
    swapped, one token made another (`+` → `-`); "" for any other."""
    if change.endswith(" dropped"):
        return "dropped"
    if change.endswith(" swapped"):
        return "swapped"
    token = _SWAPPED_TOKEN.match(change)
    return f"{token['old']} → {token['new']}" if token else ""


def pairings(tested: Sequence[Tested], limit: int) -> list[tuple[Tested, Tested, list[Edit]]]:
    """Pairs of tested candidates at two different locations, as the edits that apply both (two units'
    replacements, or one unit with both candidates' changed lines when they touch different lines): pairs of two
    candidates that each came nearer first, then those with one, each group earliest first."""
    ranked = sorted(tested, key=lambda one: not one.nearer)  # stable: earliest first within each group
    found: list[tuple[int, tuple[Tested, Tested, list[Edit]]]] = []
    for k, first in enumerate(ranked):
        for second in ranked[k + 1 :]:
            edits = joined(first, second)
            if edits is not None:
                found.append((-(first.nearer + second.nearer), (first, second, edits)))
    found.sort(key=lambda pair: pair[0])
    return [pair for _rank, pair in found[:limit]]


def joined(first: Tested, second: Tested) -> list[Edit] | None:
    """The edits that apply both candidates, or None when they touch the same lines."""
    if first.unit.key != second.unit.key:
        if first.unit.path != second.unit.path or _apart(first.unit, second.unit):
            return [(first.unit, first.text), (second.unit, second.text)]
        return None
    merged = _merge_lines(first.unit.text, first.text, second.text)
    return None if merged is None else [(first.unit, merged)]


def _apart(one: Unit, other: Unit) -> bool:
    return one.end_line < other.start_line or other.end_line < one.start_line


def _merge_lines(original: str, one: str, other: str) -> str | None:
    """`original` with the lines `one` changed and the lines `other` changed, when each changed different lines of
    the same count; else None."""
    base, a, b = original.splitlines(), one.splitlines(), other.splitlines()
    if not len(base) == len(a) == len(b):
        return None
    changed_a = {i for i, (x, y) in enumerate(zip(base, a, strict=True)) if x != y}
    changed_b = {i for i, (x, y) in enumerate(zip(base, b, strict=True)) if x != y}
    if not changed_a or not changed_b or changed_a & changed_b:
        return None
    return "\n".join(b[i] if i in changed_b else a[i] for i in range(len(base)))
