"""Each role's task variables, built from what was asked: the symptom and its command (debug), the changes to review,
the log to triage. Every front end (the CLI, pedro mcp) builds its jobs' tasks here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pedro.errors import UsageError
from pedro.prompts import render_prompt

LOG_TAIL_LINES = 300
"""The lines of a log the model is shown: its end, where a failing run's summary is."""


def debug_task(description: str, test: str | None, log: str) -> dict[str, Any]:
    """The debugger's task variables: the symptom, the command that reproduces it, the log's end."""
    return {
        "description": description.strip() or "Make the failing check pass.",
        "test_section": render_prompt("tasks/sections/test_command.md", command=test) if test else "",
        "log_section": _log_section(log) if log else "",
    }


def review_task(root: Path, compared: Any, description: str) -> dict[str, Any]:
    """The reviewer's task variables for the changes since `compared` (pedro.reviewbase.find_review_base); a
    UsageError when there is nothing to review. Its checks' section says none ran until review sets it."""
    stat = _git(root, "diff", "--stat", "--no-ext-diff", "--no-textconv", compared.commit, "--")
    if not stat.strip():
        raise UsageError(
            f"there is nothing to review: no difference between {compared.ref} ({compared.commit[:7]}) and the "
            "working tree; pass --base REF to choose another base"
        )
    return {
        "base": compared.commit,
        "files_changed": stat.strip().splitlines()[-1].strip(),
        "diff_stat": stat.rstrip(),
        "description": description.strip() or "Report every real problem you find.",
        "checks": checks_section([]),
    }


def checks_section(findings: list[Any]) -> str:
    """What the checks found, for the model to build on rather than repeat."""
    if not findings:
        return render_prompt("tasks/sections/review_checks_none.md").strip()
    from pedro.findings import findings_markdown

    return render_prompt("tasks/sections/review_checks.md", findings=findings_markdown(findings).rstrip()).strip()


def triage_task(log: str, parsed: Any, description: str) -> dict[str, Any]:
    """The triager's task variables: the log's end and what pedro read from it (pedro.triage.logparse)."""
    lines = log.splitlines()[-LOG_TAIL_LINES:]
    return {
        "log": "\n".join(lines),
        "log_lines": len(lines),
        "parsed": _parsed_section(parsed),
        "description": description.strip() or "The log below is from a failing run.",
    }


def _parsed_section(parsed: Any) -> str:
    """What pedro found in the log, for the model to start from."""
    if parsed is None or not parsed.failures:
        return render_prompt("tasks/sections/triage_none.md").strip()
    listed = "\n".join(
        f"- {f.name}"
        + (f" ({f.file}:{f.line})" if f.file and f.line else f" ({f.file})" if f.file else "")
        + (f": {f.message}" if f.message else "")
        for f in parsed.failures[:20]
    )
    return render_prompt("tasks/sections/triage_parsed.md", runner=parsed.runner, failures=listed).strip()


def _log_section(text: str) -> str:
    lines = text.splitlines()[-LOG_TAIL_LINES:]
    return render_prompt("tasks/sections/log.md", count=len(lines), log="\n".join(lines))


def _git(root: Path, *args: str) -> str:
    """A question for git through the git layer; its stdout, or "" when git cannot answer."""
    from pedro import gitlayer

    try:
        result = gitlayer.run(root, *args, timeout=60)
    except gitlayer.GitError:
        return ""
    return result.out if result.ok else ""
