"""The end of a repair: the plausible candidate chosen on the probes put in place, kept changes it does not need
taken back, and the whole test command run once as the final check; without a plausible candidate, pairs of earlier
candidates tried together, then progress that led nowhere taken back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pedro.evidence import describe_test_run
from pedro.repair.choose import Passing, Verdict, agreement, changed_lines, judge_pool, new_texts
from pedro.repair.edits import Edit
from pedro.repair.judge import judge
from pedro.repair.locate import Unit
from pedro.repair.normal_forms import ignored
from pedro.repair.pairs import pairings
from pedro.repair.search import Kept, Plausible, Search, describe, pair_proposal
from pedro.tools.test import TestRun

_MAX_PAIRS = 6
"""Pairs of earlier candidates tried together before repair gives up."""


@dataclass(frozen=True)
class Settled:
    """How a repair ended: the run the code is left at, whether it is fixed, and what choosing found."""

    run: TestRun
    fixed: bool
    verdict: Verdict | None = None
    chosen: Plausible | None = None


def settle(search: Search) -> Settled:
    """Put the best-supported plausible candidate in place and check it with the whole command; else try pairs and
    take back what led nowhere."""
    if search.pool:
        return _settle_pool(search)
    if not search.editor.stopped:
        pair = _pairs(search)
        if pair is not None:
            return _settle_pool(search)
    return Settled(search.run, False)


def _settle_pool(search: Search) -> Settled:
    """The chosen candidate in place and confirmed by the whole command; the next best when it is not."""
    pool = list(search.pool)
    verdict, order = _ranked(search, pool)
    for position, index in enumerate(order):
        chosen = pool[index]
        if search.in_place is not chosen:
            search.take_back_plausible()
            moved = [unit.path for unit, _ in chosen.edits if search.editor.changed_by_someone(unit)]
            if moved:
                search.editor.stopped = f"{moved[0]} changed while pedro was repairing it; it is left as you made it"
                break
            applied, problem = search.editor.apply(chosen.edits)
            if not applied:
                search.emit("notice", message=f"candidate {chosen.n} could not be put back: {problem}")
                continue
            search.in_place = chosen
        _without_needless(search, chosen)
        final = search.runs.whole()
        search.emit("tests.run", **describe_test_run(final, "candidate", search.runs.tests.command), final=True)
        if judge(search.run, final, search.wanted)[0] == "fixed":
            return Settled(final, True, verdict if position == 0 else None, chosen)
        search.emit(
            "notice",
            message=f"candidate {chosen.n} passed {search.runs.how} but not {search.runs.tests.named}; taken back",
        )
        search.take_back_plausible()
    return Settled(search.run, False)


def _ranked(search: Search, pool: list[Plausible]) -> tuple[Verdict | None, list[int]]:
    """The probes' verdict on the pool (`repair.chosen`) and the order to try its candidates in; without probe
    outputs for all of them, the smallest change first."""
    unit = pool[0].edits[0][0]
    spec = search.probe_for(unit)
    if not all(p.outputs is not None for p in pool) or len({len(p.outputs or ()) for p in pool}) != 1:
        return None, sorted(range(len(pool)), key=lambda i: (_change(pool[i].edits), i))
    passing = [
        Passing(p.n, _text(p.edits), p.outputs or (), _change(p.edits), sum(new_texts(u.text, t) for u, t in p.edits))
        for p in pool
    ]
    case_blind = "case" in search.clues.ignored | ignored(unit.text)
    verdict = judge_pool(passing, spec, search.originals.get(unit.key), case_blind=case_blind)
    search.emit(
        "repair.chosen",
        n=pool[verdict.index].n,
        unit=describe(unit),
        candidates=[p.n for p in pool],
        agreement=agreement(passing),
        beyond=list(verdict.beyond),
        disputes=list(verdict.disputes),
        suggestion=verdict.suggestion,
        probes=len(spec.inputs) if spec is not None else 0,
    )
    return verdict, [verdict.index, *(i for i in range(len(pool)) if i != verdict.index)]


def _text(edits: Sequence[Edit]) -> str:
    return "\n".join(new for _, new in edits)


def _change(edits: Sequence[Edit]) -> int:
    return sum(changed_lines(unit.text, new) for unit, new in edits)


def _without_needless(search: Search, chosen: Plausible) -> TestRun:
    """With a fix in place after candidates kept in several units, each changed unit is put back as it was before
    repair if the tests pass without its change too: a kept change can have bent a caller to fit a bug that a later
    candidate fixed where it was. The run the code is left at."""
    run = chosen.run
    changed = _changed_units([*search.kept, Kept(chosen.n, chosen.edits, search.run)])
    for original, current, numbers in changed:
        if search.editor.stopped or search.editor.changed_by_someone(original):
            break
        applied, _ = search.editor.apply([(_with_text(original, current), original.text)])
        if not applied:
            continue
        after = search.runs.known(search.all_ids)
        search.emit("tests.run", **describe_test_run(after, "candidate", after.command), dropped=numbers)
        if judge(run, after, frozenset())[0] == "fixed":
            search.emit("repair.dropped", n=numbers, unit=describe(original), reason="the tests pass without it")
            run = after
        else:
            search.editor.restore(numbers[-1], original, original.text, current)
    return run


def _with_text(unit: Unit, text: str) -> Unit:
    return replace(unit, end_line=unit.start_line + len(text.splitlines()) - 1, text=text)


def _changed_units(kept: Sequence[Kept]) -> list[tuple[Unit, str, list[int]]]:
    """Each unit the kept candidates changed, in the order they first did: the unit as it was before repair, its
    text now, and the candidates that changed it; nothing when they changed only one unit."""
    units: dict[tuple[str, str], tuple[Unit, str, list[int]]] = {}
    for step in kept:
        for unit, new in step.edits:
            first, _, numbers = units.get((unit.path, unit.qualified_name), (unit, "", []))
            units[(unit.path, unit.qualified_name)] = (first, new, [*numbers, step.n])
    return list(units.values()) if len(units) > 1 else []


def _pairs(search: Search) -> Plausible | None:
    """Before giving up: earlier candidates at two different locations, applied together (a bug that needs two
    edits shows nothing for either alone); the first pair that is plausible."""
    for first, second, edits in pairings(search.tested, _MAX_PAIRS):
        proposal = pair_proposal(first, second, edits)
        if not search.claim_pair(proposal):
            continue  # tried while the model wrote
        search.test(proposal)
        if search.editor.stopped:
            return None
        if search.pool:
            return search.pool[-1]
    return None
