"""Every command line and git argv in tests/fixtures/command_verdicts.json gets the verdict it was recorded with.

The fixture pins the decisions of the classifier on every string the safety tests use plus thousands of generated
variants (record_verdicts.py): a rule that moves, loosens or changes its reason fails here, named with its input.
"""

from __future__ import annotations

import json

from record_verdicts import FIXTURE, git_verdict, shell_verdict

RECORDED: dict[str, dict[str, str]] = json.loads(FIXTURE.read_text())


def test_the_fixture_covers_the_hostile_cases() -> None:
    assert len(RECORDED["shell"]) > 10_000 and len(RECORDED["git"]) > 5_000
    assert RECORDED["shell"]["git push --force origin main"].startswith("forbidden forbidden ")
    assert RECORDED["git"]['["reset", "--hard"]'].startswith("forbidden ")


def test_every_command_line_keeps_its_recorded_verdict() -> None:
    changed = {
        command: (recorded, now)
        for command, recorded in RECORDED["shell"].items()
        if (now := shell_verdict(command)) != recorded
    }
    assert not changed, f"{len(changed)} verdicts changed, first ones: {list(changed.items())[:10]}"


def test_every_git_argv_keeps_its_recorded_verdict() -> None:
    changed = {
        args: (recorded, now)
        for args, recorded in RECORDED["git"].items()
        if (now := git_verdict(json.loads(args))) != recorded
    }
    assert not changed, f"{len(changed)} verdicts changed, first ones: {list(changed.items())[:10]}"
