"""Autotune: a micro-suite in each call format and sampling profile, the winner ranked from the run records, and
written to the user's config file as the model's [models."NAME"] preset, the rest of the file kept as it was."""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from pedro.errors import ConfigError
from pedro.eval.plan import PROFILE_ENV, TaskGrid, offline_plan, task_plan
from pedro.eval.provider import CALL_FORMATS, CallFormat
from pedro.eval.records import RunRecord
from pedro.eval.runner import PlannedRun
from pedro.eval.summary import counted, percentile

AUTOTUNE_TASKS: Final = ("py-add-sign", "py-max-of", "py-is-even")
"""The micro-suite of `--suite tasks`: one-function bugs the loop itself must fix (repair stays off)."""

# What each call format sets in [backend] (and in the preset).
FORMAT_SETTINGS: Final[Mapping[CallFormat, Mapping[str, Any]]] = {
    "native": {"tool_mode": "native", "constrain_calls": False},
    "text": {"tool_mode": "text", "constrain_calls": False},
    "grammar": {"tool_mode": "text", "constrain_calls": True},
}


@dataclass(frozen=True)
class Standing:
    """How one call format and profile did in the micro-suite."""

    call_format: str
    profile: str
    runs: int
    ok: int
    ok_calls: int
    """Tool calls that ran successfully, over all its runs: the tie-breaker when no run succeeded."""
    wall_p50: float

    @property
    def rate(self) -> float:
        return self.ok / self.runs if self.runs else 0.0

    @property
    def calls_per_run(self) -> float:
        return self.ok_calls / self.runs if self.runs else 0.0

    def preset(self) -> dict[str, Any]:
        """The [models."NAME"] keys that choose this format and profile."""
        return {**FORMAT_SETTINGS[self.call_format], "sampling_profile": self.profile}  # type: ignore[index]


def format_env(call_format: CallFormat) -> dict[str, str]:
    """The environment that makes a run use `call_format`."""
    settings = FORMAT_SETTINGS[call_format]
    return {
        "PEDRO_BACKEND__TOOL_MODE": str(settings["tool_mode"]),
        "PEDRO_BACKEND__CONSTRAIN_CALLS": "true" if settings["constrain_calls"] else "false",
    }


def autotune_plan(
    items: Sequence[Any],
    model: str,
    formats: Sequence[CallFormat],
    profiles: Sequence[str],
    *,
    offline: bool,
    trials: int = 1,
) -> list[PlannedRun]:
    """The micro-suite in every format × profile: offline cases, or tasks in loop mode (repair asks for code, not
    calls). Each run is known by its format (its mode) and profile."""
    planned: list[PlannedRun] = []
    for call_format in formats:
        for profile in profiles:
            extra = {**format_env(call_format), PROFILE_ENV: profile}
            first = len(planned) + 1
            if offline:
                batch = offline_plan(items, trials=trials, extra=extra, first_id=first)
            else:
                batch = task_plan(
                    items, TaskGrid(model, [profile], ["loop"]), trials=trials, first_id=first, extra=extra
                )
            planned += [
                replace(item, spec=replace(item.spec, model=model, profile=profile, mode=call_format)) for item in batch
            ]
    return planned


def formats_for(backend_kind: str) -> list[CallFormat]:
    """The formats worth trying: a grammar only constrains llama-server's replies."""
    return [kind for kind in CALL_FORMATS if kind != "grammar" or backend_kind == "llamacpp"]


def rank(records: Sequence[RunRecord]) -> list[Standing]:
    """Each format × profile of the records (mode holds the format), best first: the higher success rate, then
    more successful tool calls, then the order tried."""
    groups: dict[tuple[str, str], list[RunRecord]] = {}
    for record in counted(records):
        groups.setdefault((record.mode, record.profile), []).append(record)
    standings = [
        Standing(
            call_format=call_format,
            profile=profile,
            runs=len(members),
            ok=sum(record.ok for record in members),
            ok_calls=sum(call.endswith(" ok") for record in members for call in record.calls),
            wall_p50=percentile([record.wall_s for record in members], 0.5),
        )
        for (call_format, profile), members in groups.items()
    ]
    return sorted(standings, key=lambda s: (-s.rate, -s.calls_per_run))


def margin(standings: Sequence[Standing]) -> str:
    """By how much the winner beat the best other call format, and the best other profile of its own format."""
    if not standings:
        return ""
    first = standings[0]
    other = next((s for s in standings[1:] if s.call_format != first.call_format), None)
    same = next((s for s in standings[1:] if s.call_format == first.call_format), None)
    parts = []
    if other is not None:
        best_other = f"{other.call_format}/{other.profile}, {other.ok}/{other.runs}"
        parts.append(f"{_lead(first, other)} the best other format ({best_other})")
    if same is not None:
        parts.append(f"{_lead(first, same)} the next profile ({same.profile}, {same.ok}/{same.runs})")
    return "; ".join(parts) or "it was the only one tried"


def _lead(first: Standing, second: Standing) -> str:
    points = round((first.rate - second.rate) * 100)
    if points:
        return f"{points} points ahead of"
    if first.calls_per_run > second.calls_per_run:
        return f"as often ok, with {first.calls_per_run - second.calls_per_run:.1f} more successful calls per run than"
    return "tied with (and tried before)"


def write_preset(path: Path, model: str, preset: Mapping[str, Any], *, dry_run: bool = False) -> None:
    """Set [models."MODEL"] in the TOML file at `path` (created if missing), keeping every other table, key and
    comment as it was; ConfigError naming the file when it cannot be read or written. `dry_run` only checks that
    the file can take the preset."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        document = tomlkit.parse(text)
    except (OSError, UnicodeDecodeError, TOMLKitError) as exc:
        raise ConfigError(f"cannot read {path} to write the preset ({exc}); fix or move the file and retry") from exc
    models = document.get("models")
    if models is None:
        models = tomlkit.table(is_super_table=True)
        document["models"] = models
    elif not isinstance(models, dict):
        raise ConfigError(f"{path}: `models` is not a table; remove that key so the preset can be written")
    table = models.get(model)
    if table is None:
        table = tomlkit.table()
        models[model] = table
    for key, value in preset.items():
        table[key] = value
    if dry_run:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(tomlkit.dumps(document), encoding="utf-8")
        if path.is_file():
            shutil.copymode(path, tmp)  # a config file kept private stays private
        tmp.replace(path)
    except OSError as exc:
        raise ConfigError(f"cannot write {path} ({exc.strerror}); check the folder's permissions") from exc
