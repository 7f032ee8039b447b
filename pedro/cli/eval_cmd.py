"""`pedro eval`: the offline suite, the live task matrix and autotune; results under .pedro/evals/<UTC time>/."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pedro.cli.common import load
from pedro.cli.flags import CommonFlags, takes
from pedro.errors import UsageError

if TYPE_CHECKING:
    from pedro.config import PedroConfig
    from pedro.eval.autotune import Standing
    from pedro.eval.results import EvalStore
    from pedro.eval.runner import PlannedRun, Runner, Target

INTERRUPTED_EXIT = 130
TASKS_FOLDER = Path("evals") / "tasks"


class SuiteChoice(StrEnum):
    offline = "offline"
    tasks = "tasks"


@dataclass(frozen=True)
class Limits:
    """How many runs, how many at once, and how long and far each may go."""

    trials: int = 1
    jobs: int = 1
    time_limit_s: float = 300.0
    max_rounds: int = 4
    resume: Path | None = None
    """The folder of an evaluation to go on with."""

    def settings(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if key != "resume"}


@takes("backend", "base_url", "model", "repo")
def eval_command(
    suite: Annotated[
        SuiteChoice | None,
        typer.Option(
            "--suite",
            help="offline: scripted scenarios, no model; tasks: evals/tasks (the default with --autotune).",
        ),
    ] = None,
    tasks: Annotated[
        str, typer.Option("--tasks", metavar="ID,...", help="Only these tasks (or offline scenarios).")
    ] = "",
    tiers: Annotated[str, typer.Option("--tiers", metavar="TIER,...", help="Only tasks of these tiers.")] = "",
    model_file: Annotated[
        list[Path] | None,
        typer.Option(
            "--model-file",
            metavar="PATH",
            help="A .gguf file pedro serves with llama-server (repeat for several models).",
        ),
    ] = None,
    profiles: Annotated[
        str, typer.Option("--profiles", metavar="NAME,...", help="Sampling profiles to run (default: default).")
    ] = "",
    modes: Annotated[
        str,
        typer.Option(
            "--modes",
            metavar="MODE,...",
            help="repair (pedro as shipped), loop (no repair), variants (repair without the model), probe (the whole "
            "file and the failing assertion to the model, no agent).",
        ),
    ] = "repair",
    trials: Annotated[int, typer.Option("--trials", min=1, max=100, help="Runs of each combination.")] = 1,
    jobs: Annotated[
        int, typer.Option("--jobs", min=1, max=64, help="Runs at once (a managed llama-server gets as many slots).")
    ] = 1,
    time_limit: Annotated[float, typer.Option("--time-limit", min=1, help="Seconds one run may take.")] = 300.0,
    max_rounds: Annotated[int, typer.Option("--max-rounds", min=1, help="Round limit of each task run.")] = 4,
    autotune: Annotated[
        bool,
        typer.Option("--autotune", help="Try each call format and profile; write the best to your config file."),
    ] = False,
    scenarios: Annotated[
        Path | None, typer.Option("--scenarios", help="A folder of offline scenario files (default: built-in).")
    ] = None,
    tasks_dir: Annotated[
        Path | None, typer.Option("--tasks-dir", help="The task suite's folder (default: evals/tasks here).")
    ] = None,
    list_only: Annotated[bool, typer.Option("--list", help="List the scenarios or tasks and exit.")] = False,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            metavar="FOLDER",
            help="Go on with an evaluation stopped half way (.pedro/evals/<time>): the same flags, the runs it has "
            "not made.",
        ),
    ] = None,
    *,
    flags: CommonFlags,
) -> None:
    """Measure pedro: the offline suite (scripted replies, no model), the task suite against real models
    (models × profiles × modes × trials), or --autotune a model's call format and sampling profile."""
    flags = replace(flags, no_input=True)  # nobody answers during a measurement
    # Autotune measures a model, so it runs the real tasks unless told otherwise; scripted replies would be the
    # same whatever the model (with --suite offline it only checks the tuning itself).
    suite = suite or (SuiteChoice.tasks if autotune else SuiteChoice.offline)
    if autotune:
        _check_autotune(suite, model_file, resume)
    root, config = load(flags, need_git=False)
    items = _suite_items(suite, root, _split(tasks), _split(tiers), scenarios, tasks_dir, autotune=autotune)
    if list_only:
        for name, text in items_listing(items):
            sys.stdout.write(f"{name:36} {text}\n")
        return
    files = [path.expanduser().resolve() for path in model_file or []]
    for path in files:
        if not path.is_file():
            raise UsageError(f"--model-file {path} does not exist; give the path of a .gguf file")
    limits = Limits(trials=trials, jobs=jobs, time_limit_s=time_limit, max_rounds=max_rounds, resume=resume)
    if autotune:
        code = _autotune(root, config, suite, items, files, flags, _split(profiles), limits)
    elif suite is SuiteChoice.offline:
        code = _offline(root, items, limits)
    else:
        targets = _targets(config, files, flags)
        code = _tasks(root, config, items, targets, _split(profiles), _split(modes), limits)
    raise typer.Exit(code)


def _check_autotune(suite: SuiteChoice, model_file: list[Path] | None, resume: Path | None) -> None:
    if suite is SuiteChoice.offline and model_file:
        raise UsageError(
            "--autotune --suite offline plays scripted replies, so it cannot tell how a model does; "
            "drop --suite offline to tune the model on real tasks"
        )
    if resume is not None:
        raise UsageError("--resume goes on with a measurement; --autotune starts its own: drop one of them")


def _suite_items(
    suite: SuiteChoice,
    root: Path,
    selection: list[str],
    tiers: list[str],
    scenarios: Path | None,
    tasks_dir: Path | None,
    *,
    autotune: bool,
) -> list[Any]:
    """The offline cases, or the tasks, the flags select."""
    if suite is SuiteChoice.offline:
        from pedro.eval.scenarios import SCENARIOS_DIR, load_scenarios

        return list(load_scenarios(scenarios or SCENARIOS_DIR, only=selection))
    from pedro.eval.tasks import load_suite

    folder = tasks_dir or root / TASKS_FOLDER
    if tasks_dir is None and not folder.is_dir():
        raise UsageError(f"no task suite at {folder}; pass --tasks-dir DIR (the folder of evals/tasks)")
    if autotune and not selection and not tiers:
        from pedro.eval.autotune import AUTOTUNE_TASKS

        selection = list(AUTOTUNE_TASKS)
    return list(load_suite(folder, only=tuple(selection), tiers=tuple(tiers)))


def items_listing(items: Sequence[Any]) -> list[tuple[str, str]]:
    """(id, one line about it) for each case or task."""
    from pedro.eval.scenarios import Case

    rows = []
    for item in items:
        if isinstance(item, Case):
            rows.append((item.id, item.scenario.description.strip().splitlines()[0]))
        else:
            rows.append((item.id, f"{item.tier}: {item.title}"))
    return rows


def _offline(root: Path, cases: Sequence[Any], limits: Limits) -> int:
    from pedro.eval.plan import offline_plan

    planned = offline_plan(cases, trials=limits.trials)
    settings = {**limits.settings(), "scenarios": [case.id for case in cases]}
    with tempfile.TemporaryDirectory(prefix="pedro-eval-config-") as config_home:
        store, runner = _prepare(root, "offline", planned, settings, limits, config_home=Path(config_home))
        interrupted = _execute(store, runner, [(None, planned)], ctx_size=0)
    if interrupted:
        return INTERRUPTED_EXIT
    return 0 if all(record.ok for record in store.records) else 1


def _tasks(
    root: Path,
    config: PedroConfig,
    task_list: Sequence[Any],
    targets: Sequence[Target],
    profiles: Sequence[str],
    modes: Sequence[str],
    limits: Limits,
) -> int:
    from pedro.eval.plan import TaskGrid, check_modes, check_profiles, task_plan

    profiles = check_profiles(profiles, config.sampling_profiles)
    modes = check_modes(modes)
    parts: list[tuple[Target | None, list[PlannedRun]]] = []
    first = 1
    for target in targets:
        planned = task_plan(task_list, TaskGrid(target.label, profiles, modes), trials=limits.trials, first_id=first)
        parts.append((target, planned))
        first += len(planned)
    settings = {
        "models": [target.label for target in targets],
        "profiles": list(profiles),
        "modes": list(modes),
        **limits.settings(),
        "tasks": [task.id for task in task_list],
    }
    all_planned = [item for _, planned in parts for item in planned]
    store, runner = _prepare(root, "tasks", all_planned, settings, limits)
    interrupted = _execute(store, runner, parts, ctx_size=config.backend.context_window or 8192)
    return INTERRUPTED_EXIT if interrupted else 0


def _autotune(
    root: Path,
    config: PedroConfig,
    suite: SuiteChoice,
    items: Sequence[Any],
    files: Sequence[Path],
    flags: CommonFlags,
    wanted_profiles: Sequence[str],
    limits: Limits,
) -> int:
    from pedro.config import user_config_path
    from pedro.eval.autotune import autotune_plan, formats_for, rank, write_preset
    from pedro.eval.plan import check_profiles
    from pedro.presets import BUILTIN_PROFILES

    name = _autotune_model(config, files, flags)
    listed = list(wanted_profiles) or [*BUILTIN_PROFILES, *config.sampling_profiles]
    profiles = check_profiles(list(dict.fromkeys(listed)), config.sampling_profiles)
    if suite is SuiteChoice.offline:
        kind = "llamacpp" if all(case.scenario.backend == "llamacpp" for case in items) else "openai"
        items = _autotune_cases(items)
    else:
        kind = "llamacpp" if files else config.backend.kind
    formats = formats_for(kind)
    config_file = user_config_path()
    write_preset(config_file, name, {}, dry_run=True)  # a file that cannot take the preset fails before the runs
    targets = _targets(config, files, flags) if suite is SuiteChoice.tasks else []
    planned = autotune_plan(items, name, formats, profiles, offline=suite is SuiteChoice.offline, trials=limits.trials)
    settings = {
        "autotune": name,
        "formats": list(formats),
        "profiles": profiles,
        **limits.settings(),
    }
    parts: list[tuple[Target | None, list[PlannedRun]]] = [(targets[0] if targets else None, planned)]
    with tempfile.TemporaryDirectory(prefix="pedro-eval-config-") as config_home:
        home = Path(config_home) if suite is SuiteChoice.offline else None
        store, runner = _prepare(root, suite.value, planned, settings, limits, config_home=home)
        if _execute(store, runner, parts, ctx_size=config.backend.context_window or 8192, show_summary=False):
            return INTERRUPTED_EXIT
    return _keep_winner(rank(store.records), name, config_file)


def _autotune_model(config: PedroConfig, files: Sequence[Path], flags: CommonFlags) -> str:
    """The one model --autotune tunes: --model, else the model file's name, else the configured model."""
    if len(files) > 1:
        raise UsageError("--autotune tunes one model: give one --model-file (or --model with the backend flags)")
    name = flags.model or (files[0].stem if files else config.backend.model)
    if not name:
        raise UsageError("--autotune needs the model's name: pass --model NAME (or --model-file PATH)")
    return name


def _keep_winner(standings: list[Standing], name: str, config_file: Path) -> int:
    """Show the standings and write the winner's settings as the model's preset; 1 when no format made a call."""
    from pedro.cli.eval_view import print_standings
    from pedro.eval.autotune import margin, write_preset

    print_standings(standings)
    best = standings[0] if standings else None
    if best is None or (best.ok == 0 and best.ok_calls == 0):
        sys.stdout.write("no call format made a successful tool call: nothing written to your config\n")
        return 1
    sys.stdout.write(
        f"winner for {name}: {best.call_format} calls with the {best.profile} profile, {best.ok}/{best.runs} ok; "
        f"{margin(standings)}\n"
    )
    preset = best.preset()
    write_preset(config_file, name, preset)
    keys = ", ".join(f"{key} = {_toml_value(value)}" for key, value in preset.items())
    sys.stdout.write(f'wrote [models."{name}"] to {config_file}: {keys}\n')
    return 0


def _autotune_cases(cases: Sequence[Any]) -> list[Any]:
    """The autotune scenarios (all, when none is marked), each once: its first variant, with any expected call
    format dropped, since the format is what autotune varies."""
    from dataclasses import replace

    tuned = [case for case in cases if case.scenario.autotune] or list(cases)
    first: dict[str, Any] = {}
    for case in tuned:
        first.setdefault(case.scenario.id, case)
    return [
        replace(case, variant=replace(case.variant, expect=replace(case.variant.expect, formats=None)))
        for case in first.values()
    ]


def _prepare(
    root: Path,
    suite: str,
    planned: Sequence[PlannedRun],
    settings: dict[str, Any],
    limits: Limits,
    *,
    config_home: Path | None = None,
) -> tuple[EvalStore, Runner]:
    """The evaluation's folder and its runner; with `config_home` (offline) runs read no user config, so every
    machine checks the same behaviour."""
    from pedro.eval.plan import offline_env, task_env
    from pedro.eval.runner import Runner

    store = _store(root, suite, len(planned), settings, limits.resume)
    if config_home is not None:
        env = offline_env(os.environ, config_home)
    else:
        env = task_env(os.environ, Path(sys.executable).parent)
    runner = Runner(
        store=store, env=env, jobs=limits.jobs, time_limit_s=limits.time_limit_s, max_rounds=limits.max_rounds
    )
    return store, runner


def _store(root: Path, suite: str, planned: int, settings: dict[str, Any], resume: Path | None) -> EvalStore:
    """A new evaluation's folder, or the one --resume names, checked to have been started as this one is."""
    from pedro.eval.results import EvalStore, utc_stamp
    from pedro.eval.resume import code_identity, reopen

    if resume is not None:
        store = reopen(resume.expanduser().resolve(), suite=suite, settings=settings)
        store.meta.update(finished=None, complete=False, resumed=[*store.meta.get("resumed", ()), _now()])
        return store
    started = time.time()
    meta = {
        "suite": suite,
        "started": utc_stamp(started),
        "finished": None,
        "complete": False,
        "runs_planned": planned,
        "settings": settings,
        "pedro": code_identity(),
    }
    return EvalStore(root, started=started, meta=meta)


def _execute(
    store: EvalStore,
    runner: Runner,
    parts: Sequence[tuple[Target | None, Sequence[PlannedRun]]],
    *,
    ctx_size: int,
    show_summary: bool = True,
) -> bool:
    """Make the runs with a progress bar, write the final summaries and show them; True when Ctrl-C stopped it."""
    from pedro.cli.eval_view import EvalProgress, print_summary
    from pedro.eval.resume import remaining
    from pedro.eval.runner import serving

    # Resumed, only the runs not made yet; a model none of them needs is not served.
    parts = [(target, left) for target, planned in parts if (left := remaining(planned, store.records))]
    total = sum(len(planned) for _, planned in parts)
    interrupted = False
    with EvalProgress(total) as progress:
        runner.on_start = progress.started
        runner.on_done = progress.finished
        try:
            for target, planned in parts:
                if target is None:
                    runner.run(planned)
                else:
                    with serving(target, jobs=runner.jobs, ctx_size=ctx_size, on_notice=progress.notice) as args:
                        runner.run(planned, args)
                if runner.interrupted:
                    break
        except KeyboardInterrupt:
            runner.cancel.fire()
        interrupted = runner.interrupted
    complete = not interrupted and len(store.records) == store.meta["runs_planned"]
    store.finish(finished=_now(), complete=complete)
    if show_summary:
        import json

        print_summary(json.loads(store.summary_path.read_text()), json.loads(store.by_scenario_path.read_text()))
    if interrupted:
        sys.stderr.write(
            f"interrupted: partial results ({len(store.records)} of {store.meta['runs_planned']} runs) written to "
            f"{store.folder}; `pedro eval --resume {store.folder}` with the same flags makes the rest\n"
        )
    else:
        sys.stdout.write(f"results: {store.summary_path} and {store.by_scenario_path.name}\n")
    return interrupted


def _targets(config: PedroConfig, files: Sequence[Path], flags: CommonFlags) -> list[Target]:
    """Each --model-file served by pedro, or the server the backend flags and config name."""
    from pedro.eval.runner import Target

    if files:
        return [Target(label=path.stem, model_file=path) for path in files]
    if not config.backend.model:
        raise UsageError(
            "no model to evaluate: pass --model-file PATH (repeatable) or --model NAME with the backend flags "
            "(--backend, --base-url) of a running server"
        )
    args: list[str] = []
    for flag, value in (("--backend", flags.backend), ("--base-url", flags.base_url), ("--model", flags.model)):
        if value is not None:
            args += [flag, str(value)]
    return [Target(label=config.backend.model, backend_args=tuple(args))]


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _now() -> str:
    from pedro.eval.results import utc_stamp

    return utc_stamp(time.time())


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)
