"""Review findings read from the reviewer's answer, and how review reports them off a terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cli_util import pedro
from test_review_session import REVIEW

from pedro.findings import Finding, findings_markdown, parse_findings


def test_the_conventions_small_models_write_are_all_read() -> None:
    text = (
        "Here is what I found.\n"
        "- [major] calc.py:3 — add() subtracts\n"
        "1. **Minor** `src/util.py:10`: unclear name\n"
        "* (nit) README.md line 4 - typo\n"
        "- [critical] the password is logged\n"
        "- The rest looks fine.\n"
        "Plain prose with calc.py:9 in it is not a finding.\n"
    )
    assert parse_findings(text) == [
        Finding(1, "major", "add() subtracts", "calc.py", 3),
        Finding(2, "minor", "unclear name", "src/util.py", 10),
        Finding(3, "nit", "typo", "README.md", 4),
        Finding(4, "critical", "the password is logged"),
    ]


def test_other_severity_words_map_onto_the_four_and_a_bare_location_is_a_note() -> None:
    found = parse_findings("- [high] a.py:1 — x\n- [low] b.py — y\n- c/d.go:7 — z")
    assert [(f.severity, f.location) for f in found] == [("major", "a.py:1"), ("nit", "b.py"), ("note", "c/d.go:7")]


# SmolLM2-135M's review of a branch, as it answered: the checks' list copied with pedro's labels, and its reply cut
# by [backend].reply_time_limit_s in the middle of an item.
SMOLLM2_REVIEW = (
    "The changes are:\n\n"
    "1. **major** `test_calc.py:5` — test_calc.py::test_add passes at the base and fails on the change: assert -1 == 5"
    " _(test_calc.py::test_add)_\n"
    "2. **minor** `calc.py:"
)


def test_a_copied_source_label_is_not_kept_and_a_cut_item_is_no_finding() -> None:
    assert parse_findings(SMOLLM2_REVIEW) == [
        Finding(
            1, "major", "test_calc.py::test_add passes at the base and fails on the change: assert -1 == 5",
            "test_calc.py", 5,
        ),
    ]  # fmt: skip
    # A place and a severity say nothing on what is wrong there, whether cut or written so.
    assert parse_findings("- [major] calc.py:2\n- [nit] b.py — y _(ruff E711)_") == [Finding(1, "nit", "y", "b.py")]
    # A code span that ends the text keeps its closing backtick.
    said = parse_findings("- [minor] `calc.py:10` — comparison to `None` should be `cond is None` _(ruff E711)_")
    assert said[0].text == "comparison to `None` should be `cond is None`"


def test_markdown_numbers_the_findings() -> None:
    # Read as written, not yet held to a change: the model's word, and said to be.
    said = findings_markdown(parse_findings("- [major] a.py:1 — x"))
    assert said == "1. **major** `a.py:1` — x _(model, not anchored)_\n"
    assert findings_markdown([]) == "No findings.\n"


def _review_args(server: Any) -> list[str]:
    return ["review", "--base", "main", "--backend", "openai", "--base-url", f"{server.url}/v1", "--model", "m"]


def test_review_off_a_terminal_prints_the_findings_and_exits(
    branch_repo: Path,
    stub_server: Any,
    cli_env: dict[str, str],
) -> None:
    server = stub_server([REVIEW])
    proc = pedro(*_review_args(server), env=cli_env, cwd=branch_repo, stdin="")
    assert proc.returncode == 0, proc.stderr
    assert "1. **major** `calc.py:2` — add() subtracts; return a + b" in proc.stdout
    assert "2. **nit** `calc.py:5` — mul() has no docstring" in proc.stdout
    assert len(server.requests) == 1


def test_review_json_carries_the_findings_in_job_finished(
    branch_repo: Path,
    stub_server: Any,
    cli_env: dict[str, str],
) -> None:
    server = stub_server([REVIEW])
    proc = pedro(*_review_args(server), "--json", env=cli_env, cwd=branch_repo, stdin="")
    assert proc.returncode == 0, proc.stderr
    finished = json.loads(proc.stdout.splitlines()[-1])
    assert finished["type"] == "job.finished"
    # The branch adds mul() (lines 3-6): add()'s line 2 is not part of the change, so that finding says so.
    assert finished["findings"][0] == {
        "number": 1,
        "severity": "major",
        "text": "add() subtracts; return a + b",
        "path": "calc.py",
        "line": 2,
        "origin": "model",
        "source": "model",
        "anchored": False,
        "note": "the change does not touch calc.py:2",
        "test": "",
    }
    assert finished["findings"][1]["anchored"] is True and finished["findings"][1]["note"] == ""
    assert [f["number"] for f in finished["findings"]] == [1, 2]


def test_chat_without_a_terminal_says_what_to_use_instead(branch_repo: Path, cli_env: dict[str, str]) -> None:
    proc = pedro("chat", "hello", env=cli_env, cwd=branch_repo, stdin="")
    assert proc.returncode == 2
    assert "pedro chat needs a terminal" in proc.stderr and 'pedro build "TEXT"' in proc.stderr
    assert "Traceback" not in proc.stderr
