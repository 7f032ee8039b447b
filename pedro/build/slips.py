"""An answer that misses the request's example by a slip (`if a < b` where `>` was meant, a model's answer to
`Max(3, 7) returns 7`): its likeliest one-token variants, repair's, each checked as an answer of its own."""

from __future__ import annotations

from collections.abc import Sequence

from pedro.build.verdict import CHECKS, Tried
from pedro.calls.run import Call
from pedro.repair.answers import FENCE_NAMES
from pedro.repair.mutants import line_mutants
from pedro.tools.symbols import LanguageName

_MOST = 6
"""Variants tried per answer: the likeliest slips of its lines, top first (a Go variant costs a build)."""
_TIER = 1


def near_miss(tried: Tried, calls: Sequence[Call]) -> bool:
    """Whether the answer ran and gave an example a wrong value: code that computes, one slip from it perhaps. One
    that raised, that writes the example's result in, or that never reads a parameter is no near miss."""
    return tried.reached == CHECKS.index("examples") and any(
        tried.failure.startswith(f"{call.code} gives ") for call in calls
    )


def slip_answers(tried: Tried, language: LanguageName) -> list[tuple[str, str]]:
    """The answer's likeliest one-token variants as answers, each with what it changed in words."""
    if tried.merged is None:
        return []
    lines = tried.merged.code.splitlines()
    found: list[tuple[str, str]] = []
    for row, line in enumerate(lines[1:], 1):  # the signature is the request's
        for mutant in line_mutants(line, language):
            if mutant.tier <= _TIER and not mutant.formats:
                code = "\n".join([*lines[:row], mutant.line, *lines[row + 1 :]])
                found.append((f"```{FENCE_NAMES[language]}\n{code}\n```", mutant.change))
    return found[:_MOST]
