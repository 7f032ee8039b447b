"""The runs of an evaluation, planned before any starts: offline cases × trials, or tasks × profiles × modes ×
trials per target, and the settings each run receives through the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final, Literal, get_args

from pedro.errors import UsageError
from pedro.eval.offline import SCRIPTED_MODEL
from pedro.eval.records import RunSpec
from pedro.eval.runner import PlannedRun
from pedro.eval.scenarios import Case, settings_env
from pedro.eval.tasks import Task
from pedro.presets import BUILTIN_PROFILES, DEFAULT_PROFILE

# repair: pedro as shipped (test-driven repair first for a bug, the direct way first for a small model's feature, then
# the loop); loop: the loop alone ([repair].enabled = false, [build].strategy = "loop"); variants: no code the model
# writes is taken as a candidate (repair asks it nothing, [repair].candidates = 0, and a feature skips build's direct
# way, [build].strategy = "loop"), so a task this mode leaves and repair fixes is one only a model answer fixed;
# probe: no pedro job at all, the whole file and the failing assertion to the model and its answer into the file
# (pedro.eval.probe), the yardstick repair must beat.
EvalMode = Literal["repair", "loop", "variants", "probe"]
EVAL_MODES: tuple[str, ...] = get_args(EvalMode)
MODE_ENV: Final[Mapping[str, Mapping[str, str]]] = {
    "loop": {"PEDRO_REPAIR__ENABLED": "false", "PEDRO_BUILD__STRATEGY": "loop"},
    "variants": {"PEDRO_REPAIR__CANDIDATES": "0", "PEDRO_BUILD__STRATEGY": "loop"},
}
"""The settings each mode runs pedro with."""
PROFILE_ENV: Final = "PEDRO_TOOL_CALLING__SAMPLING_PROFILE"
# Settings a user may have exported that would change what the offline suite locks in.
_FOREIGN_ENV: Final = ("OPENAI_BASE_URL", "OPENAI_API_KEY", "OLLAMA_HOST")


def offline_plan(
    cases: Sequence[Case], *, trials: int = 1, first_id: int = 1, extra: Mapping[str, str] | None = None
) -> list[PlannedRun]:
    """Each case `trials` times, with its scenario's and variant's settings (and `extra` over them)."""
    planned = []
    for trial in range(1, trials + 1):
        for case in cases:
            spec = RunSpec(
                run_id="",
                suite="offline",
                scenario=case.id,
                group=case.scenario.id,
                model=SCRIPTED_MODEL,
                mode=case.variant.name,
                trial=trial,
                env={**settings_env(case.settings()), **(extra or {})},
            )
            planned.append(PlannedRun(spec, case=case))
    return _numbered(planned, first_id)


@dataclass(frozen=True)
class TaskGrid:
    """What every task of an evaluation runs under: one model, each sampling profile, each mode."""

    model: str
    profiles: Sequence[str]
    modes: Sequence[str]


def task_plan(
    tasks: Sequence[Task],
    grid: TaskGrid,
    *,
    trials: int = 1,
    first_id: int = 1,
    extra: Mapping[str, str] | None = None,
) -> list[PlannedRun]:
    """Every task under every profile and mode of `grid`, `trials` times; trial by trial, so that a stopped
    evaluation has covered every group about equally."""
    planned = []
    for trial in range(1, trials + 1):
        for mode in grid.modes:
            for profile in grid.profiles:
                for task in tasks:
                    spec = RunSpec(
                        run_id="",
                        suite="tasks",
                        scenario=task.id,
                        group=task.tier,
                        model=grid.model,
                        profile=profile,
                        mode=mode,
                        trial=trial,
                        env={PROFILE_ENV: profile, **MODE_ENV.get(mode, {}), **(extra or {})},
                    )
                    planned.append(PlannedRun(spec, task=task, probe=mode == "probe"))
    return _numbered(planned, first_id)


def check_profiles(profiles: Sequence[str], user_profiles: Mapping[str, object]) -> list[str]:
    """The profiles asked for, each a built-in or one of [sampling_profiles.NAME]; UsageError naming the choices."""
    known = [*BUILTIN_PROFILES, *(name for name in user_profiles if name not in BUILTIN_PROFILES)]
    unknown = [name for name in profiles if name not in known]
    if unknown:
        raise UsageError(
            f"no sampling profile named {', '.join(unknown)}; choose from {', '.join(known)} "
            "or define [sampling_profiles.NAME] in your config"
        )
    return list(profiles) or [DEFAULT_PROFILE]


def check_modes(modes: Sequence[str]) -> list[str]:
    unknown = [mode for mode in modes if mode not in EVAL_MODES]
    if unknown:
        raise UsageError(f"--modes {','.join(unknown)}: the modes are {', '.join(EVAL_MODES)}")
    return list(modes) or ["repair"]


def offline_env(base: Mapping[str, str], config_home: Path) -> dict[str, str]:
    """The environment of offline runs: the user's PATH and locale, but none of their pedro settings or config file,
    so that every machine checks the same behaviour."""
    env = {
        key: value
        for key, value in base.items()
        if not key.startswith("PEDRO_") and key not in _FOREIGN_ENV and key != "XDG_CONFIG_HOME"
    }
    env["XDG_CONFIG_HOME"] = str(config_home)
    return env


def task_env(base: Mapping[str, str], python_dir: Path) -> dict[str, str]:
    """The environment of task runs: the user's own (their config applies), with the Python that runs pedro first
    on PATH, since the tasks' test commands call `python`, and pytest's plugins left to the tasks that name them."""
    return {
        **base,
        "PATH": os.pathsep.join([str(python_dir), base.get("PATH", os.defpath)]),
        # The tasks use plain pytest; the plugins of the Python running pedro (hypothesis alone costs 0.5 s a
        # start) are its own tooling, not the tasks', and would be paid by every test run of every agent.
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }


def _numbered(planned: list[PlannedRun], first_id: int = 1) -> list[PlannedRun]:
    """Run ids 0001, 0002, … in plan order, from `first_id` (ids stay unique across the targets of one evaluation)."""
    return [replace(item, spec=replace(item.spec, run_id=f"{first_id + n:04d}")) for n, item in enumerate(planned)]
