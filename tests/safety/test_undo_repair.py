"""Undo never lands on a state repair held only while it tested a candidate it then rejected."""

from __future__ import annotations

from pathlib import Path

import pytest

from pedro.safety.snapshots import list_snapshots, take_snapshot
from pedro.safety.undo import NothingToUndo, plan_undo, undo

JOB = "j1"


def state(repo: Path, text: str, label: str) -> None:
    (repo / "shop.py").write_text(text)
    take_snapshot(repo, JOB, label, changes_by=None if label == "job start" else "pedro")


def test_undo_after_repair_put_back_every_candidate_has_nothing_to_undo(repo: Path) -> None:
    state(repo, "old\n", "job start")
    state(repo, "candidate 1\n", "after repair candidate 1")
    state(repo, "old\n", "after undo repair candidate 1")
    state(repo, "candidate 2\n", "after repair candidate 2")
    state(repo, "old\n", "after undo repair candidate 2")

    with pytest.raises(NothingToUndo, match="skipped 4 snapshots repair took around rejected candidates"):
        plan_undo(repo, list_snapshots(repo, JOB), start=False)
    assert (repo / "shop.py").read_text() == "old\n"


def test_a_step_back_passes_over_rejected_candidates_to_a_state_the_user_saw(repo: Path) -> None:
    state(repo, "old\n", "job start")
    state(repo, "candidate 1\n", "after repair candidate 1")
    state(repo, "old\n", "after undo repair candidate 1")
    state(repo, "kept candidate 2\n", "after repair candidate 2")  # kept: no undo follows
    state(repo, "round 1\n", "after round 1")

    snapshots = list_snapshots(repo, JOB)
    plan = plan_undo(repo, snapshots, start=False)
    assert plan.target.label == "after repair candidate 2" and plan.skipped == 0
    undo(repo, plan)
    assert (repo / "shop.py").read_text() == "kept candidate 2\n"

    again = plan_undo(repo, snapshots, start=False)
    assert again.target.label == "job start" and again.skipped == 2
    undo(repo, again)
    assert (repo / "shop.py").read_text() == "old\n"
