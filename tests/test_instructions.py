"""The project's AGENTS.md and kin reach the model: nearest to the working directory first, within a budget."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cli_util import pedro
from repo_util import git

from pedro.instructions import find_instruction_files, load_instructions


def test_nearest_first_then_up_to_the_root_then_copilot(repo: Path) -> None:
    (repo / "pkg" / "sub").mkdir(parents=True)
    (repo / "AGENTS.md").write_text("root rules\n")
    (repo / "CONVENTIONS.md").write_text("root conventions\n")
    (repo / "pkg" / "AGENTS.md").write_text("pkg rules\n")
    (repo / ".github").mkdir()
    (repo / ".github" / "copilot-instructions.md").write_text("copilot rules\n")
    found = [p.relative_to(repo).as_posix() for p in find_instruction_files(repo, repo / "pkg" / "sub")]
    assert found == ["pkg/AGENTS.md", "AGENTS.md", "CONVENTIONS.md", ".github/copilot-instructions.md"]
    loaded = load_instructions(repo, repo / "pkg" / "sub", max_chars=10_000)
    assert loaded is not None and not loaded.cut
    assert loaded.text.index("pkg rules") < loaded.text.index("root rules") < loaded.text.index("copilot rules")


def test_the_budget_cuts_and_says_so(repo: Path) -> None:
    (repo / "AGENTS.md").write_text("x" * 500)
    (repo / "CLAUDE.md").write_text("never shown\n")
    loaded = load_instructions(repo, repo, max_chars=100)
    assert loaded is not None and loaded.cut and loaded.files == ("AGENTS.md",)
    assert "x" * 100 in loaded.text and "x" * 101 not in loaded.text and "never shown" not in loaded.text
    assert load_instructions(repo, repo, max_chars=0) is None


def test_a_link_out_of_the_repository_is_not_read(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("a file outside the repository\n")
    (repo / "AGENTS.md").symlink_to(outside)
    assert find_instruction_files(repo, repo) == []


def test_agents_md_reaches_the_model(repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    (repo / "AGENTS.md").write_text("Always run `make check` before you finish.\n")
    git(repo, "add", "AGENTS.md")
    git(repo, "commit", "-qm", "agents")
    server = stub_server(["Nothing to do here."])
    proc = pedro(
        "build", "-d", "Tidy up", "--base-url", f"{server.url}/v1", "--model", "m", "--no-input",
        "--max-rounds", "1", env=cli_env, cwd=repo,
    )  # fmt: skip
    assert "Traceback" not in proc.stderr
    first_user = next(m for m in server.requests[0]["messages"] if m["role"] == "user")
    assert "Always run `make check` before you finish." in first_user["content"]
    assert first_user["content"].index("make check") < first_user["content"].index("Tidy up")
    assert "project instructions for the model: AGENTS.md" in proc.stdout + proc.stderr
    assert json.dumps(server.requests[0]["messages"]).count("make check") == 1
