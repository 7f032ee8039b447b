"""The four roles as data: prompt, task template, tools and the evidence completion needs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pedro.messages import RoleName

Evidence = Literal["none", "changes"]
RepairUse = Literal["first", "finisher", "never"]
"""When test-driven repair runs: before the loop (its fix ends the job), on a completion claim whose tests the job
broke or added (its result feeds the loop, which still needs the claim), or not at all."""


@dataclass(frozen=True)
class Role:
    """What distinguishes one agent from another; the loop is the same for all."""

    name: RoleName
    prompt: str
    """Template under prompts/ with the role's instructions."""
    task: str
    """Template under prompts/ that turns the command's inputs into the first user message."""
    tools: tuple[str, ...] | None
    """The tools the role offers, by name; None: every tool of the table (pedro.tooltable), one added later too."""
    read_only: bool
    """The role may not change files (git is limited to reading)."""
    evidence: Evidence
    """What must hold before a completion claim is accepted; with "changes" a known test command is compared with
    its baseline too (pedro.evidence)."""
    repair: RepairUse = "never"
    """When pedro runs the tests and asks the model only for replacements of the failing code."""
    fixes_failing_tests: bool = False
    """The job is to make failing tests pass: completion needs one that failed at the baseline to pass."""
    reports_findings: bool = False
    """The answer is a list of findings (severity, file:line), carried in job.finished as `findings`."""
    writes_directly: bool = False
    """Before the loop, pedro may ask the model for the code itself and check it (pedro.build), when the build's
    strategy says so ([build].strategy)."""


EVERY_TOOL = None

ROLES: dict[str, Role] = {
    # A build's job is its description: failures that were there before are not its task, so repair only finishes
    # what the loop changed. A debugger's job is the failing tests: repair goes first.
    "builder": Role(
        "builder", "roles/builder.md", "tasks/build.md", EVERY_TOOL, False, "changes", "finisher", writes_directly=True
    ),
    "debugger": Role(
        "debugger",
        "roles/debugger.md",
        "tasks/debug.md",
        EVERY_TOOL,
        False,
        "changes",
        "first",
        fixes_failing_tests=True,
    ),
    "reviewer": Role(
        "reviewer",
        "roles/reviewer.md",
        "tasks/review.md",
        ("file", "search", "navigate", "git"),
        True,
        "none",
        reports_findings=True,
    ),
    "triager": Role(
        "triager",
        "roles/triager.md",
        "tasks/triage.md",
        ("file", "search", "navigate", "git", "bash", "test"),
        True,
        "none",
    ),
}


def get_role(name: str) -> Role:
    """The role called `name`."""
    return ROLES[name]
