"""One case of the offline suite: the scenario's repository, a scripted provider serving its replies, the real
`pedro build` (or `pedro triage`) against it, and the outcome checked against what the variant expects."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pedro.eval.launch import Cancel, Launched, run_pedro
from pedro.eval.outcome import Outcome, read_events, read_outcome
from pedro.eval.provider import ScriptedProvider
from pedro.eval.scenarios import Case, Scenario, unapplied_settings
from pedro.eval.taskfiles import checked_path, write_file
from pedro.eval.taskrun import commit_repository

SCRIPTED_MODEL = "scripted"
"""The model name the scripted provider answers to."""


@dataclass(frozen=True)
class CaseRun:
    """A finished case: how the process ended, what its events show, and how that differs from the expectation."""

    launched: Launched
    outcome: Outcome
    mismatches: tuple[str, ...]


def write_repository(scenario: Scenario, dest: Path) -> Path:
    """The scenario's files written to `dest` (each path checked again: a Scenario may be built by hand) and
    committed."""
    dest.mkdir(parents=True, exist_ok=True)
    for relative, text in scenario.files.items():
        write_file(dest, checked_path(relative, f"{scenario.path} [files]"), text.encode("utf-8"))
    return commit_repository(dest)


def scenario_args(scenario: Scenario, base_url: str, model: str = SCRIPTED_MODEL) -> list[str]:
    """`pedro build` (or `pedro triage --log`) with the scenario's request, pointed at the scripted provider."""
    url = f"{base_url}/v1" if scenario.backend == "openai" else base_url
    command = ["triage", "--log", scenario.log] if scenario.command == "triage" else ["build"]
    return [
        *command,
        "--description",
        scenario.request,
        "--no-input",
        "--json",
        "--max-rounds",
        str(scenario.max_rounds),
        "--backend",
        scenario.backend,
        "--base-url",
        url,
        "--model",
        model,
    ]


def run_case(
    case: Case,
    workdir: Path,
    *,
    env: Mapping[str, str],
    time_limit_s: float = 120.0,
    cancel: Cancel | None = None,
    model: str = SCRIPTED_MODEL,
) -> CaseRun:
    """Run `case` once in a fresh repository under `workdir`; `env` already holds the case's settings."""
    repo = write_repository(case.scenario, workdir / "repo")
    with ScriptedProvider(case.scenario.replies, model=model) as provider:
        args = scenario_args(case.scenario, provider.url, model)
        launched = run_pedro(args, cwd=repo, env=env, time_limit_s=time_limit_s, cancel=cancel)
    outcome = read_outcome(
        read_events(launched.stdout),
        exit_code=launched.exit_code,
        timed_out=launched.timed_out,
        interrupted=launched.interrupted,
    )
    mismatches = unapplied_settings(case.settings(), outcome.settings)
    mismatches += case.variant.expect.mismatches(outcome, provider.formats)
    if launched.timed_out:
        mismatches = (f"the run did not end within {time_limit_s:.0f} s", *mismatches)
    return CaseRun(launched, outcome, mismatches)
