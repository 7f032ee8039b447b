"""Under GitHub Actions, the runner obeys pedro's own workflow commands and none that model text or file contents
carry; read here line by line as the runner reads a step's output."""

from __future__ import annotations

import io
import json
import re
import subprocess
from pathlib import Path
from typing import Any

from cli_util import fenced, pedro
from repo_util import git

from pedro.cli.workflow import ShieldedStream

HOSTILE = (
    "::warning file=calc.py,line=1::pwned\n  ::add-mask::x\nok\r::stop-commands::tok\n"
    "see ##[add-mask]y here\n::error::forged"
)
_V2 = re.compile(r"^::([^\s:]+)(?:\s[^:]*)?::(.*)$")
_V1 = re.compile(r"##\[([^\s\]]+)[^\]]*\](.*)$")


def obeyed(output: str) -> list[str]:
    """The commands a runner would carry out, as `name::data`, following its stop-commands rule."""
    done: list[str] = []
    stopped: str | None = None
    for line in re.split(r"\r\n|\r|\n", output):
        found = _V2.match(line.lstrip()) or _V1.search(line)
        if not found:
            continue
        name, data = found.group(1), found.group(2)
        if stopped is not None:
            if name.lower() == stopped.lower():
                stopped = None
            continue
        if name == "stop-commands":
            stopped = data
            continue
        done.append(f"{name}::{data}")
    return done


def _pedro(
    args: list[str], repo: Path, env: dict[str, str], log: str | None = None
) -> subprocess.CompletedProcess[str]:
    return pedro(*args, "--no-input", cwd=repo, env={**env, "GITHUB_ACTIONS": "true"}, stdin=log or "")


def test_a_build_shows_model_text_and_file_contents_without_the_runner_obeying_them(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    (repo / "notes.md").write_text("hello\n")
    git(repo, "add", "notes.md")
    git(repo, "commit", "-qm", "notes")
    # The edit's diff preview shows the new file contents; the reply and the summary carry the same lines.
    edit = fenced("code_edit", {"path": "notes.md", "old": "hello", "new": "hello\n" + HOSTILE.replace("\r", " ")})
    server = stub_server([HOSTILE + "\n" + edit, f"TASK COMPLETE\n{HOSTILE}"])
    done = _pedro(["build", "-d", "Fix add()", "--base-url", f"{server.url}/v1", "--model", "m"], repo, cli_env)
    assert done.returncode == 0, done.stderr
    assert "::add-mask::x" in done.stdout and "::add-mask::x" in done.stderr  # shown, as text
    assert obeyed(done.stdout) == [] and obeyed(done.stderr) == []


def test_review_and_triage_keep_only_pedros_own_annotations(
    branch_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    server = stub_server([f"TASK COMPLETE\n- [major] calc.py:2 — {HOSTILE}", f"TASK COMPLETE\n{HOSTILE}"])
    url = ["--base-url", f"{server.url}/v1", "--model", "m"]
    review = _pedro(["review", "--base", "main", *url], branch_repo, cli_env)
    assert review.returncode == 0, review.stderr
    assert obeyed(review.stdout) == [] and obeyed(review.stderr) == []
    log = "FAILED test_calc.py::test_add - assert -1 == 5\n=== 1 failed, 1 passed in 0.01s ===\n"
    triage = _pedro(["triage", *url], branch_repo, cli_env, log=log)
    assert triage.returncode == 0, triage.stderr
    assert obeyed(triage.stdout) == []
    assert obeyed(triage.stderr) == ["error::assert -1 == 5"]  # pedro's annotation, and nothing else


def test_json_lines_stay_json_and_are_not_obeyed(branch_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server([f"TASK COMPLETE\n- [major] calc.py:2 — {HOSTILE}"])
    done = _pedro(["review", "--base", "main", "--base-url", f"{server.url}/v1", "--model", "m", "--json"],
                  branch_repo, cli_env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]  # every line still JSON
    assert "##[add-mask]y" in json.dumps(events[-1], ensure_ascii=False)
    assert obeyed(done.stdout) == [] and obeyed(done.stderr) == []


def test_a_shielded_stream_pauses_commands_only_around_lines_the_runner_would_obey() -> None:
    out = io.StringIO()
    shield = ShieldedStream(out)
    shield.write("plain line\n::warning::x\n")
    shield.write(json.dumps({"text": "a ##[add-mask]b"}) + "\n")
    shield.write(":")
    shield.flush()  # a partial line that cannot be a command yet is shown at once
    shield.write(":add-mask::late\n")
    shield.command("::error file=a.py::pedro's own")
    shield.write("held ##[")
    shield.finish()
    text = out.getvalue()
    assert text.startswith("plain line\n::stop-commands::")
    assert json.loads(text.splitlines()[4]) == {"text": "a ##[add-mask]b"}  # the same JSON, escaped in place
    assert obeyed(text) == ["error::pedro's own"]
    assert "::add-mask::late" not in obeyed(text) and ":add-mask::late" in text
