"""The offline suite as data: each scenario file holds a repository, scripted replies in OpenAI wire shape, and
variants (settings plus the outcome they must give). docs/eval.md describes the format."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, get_args

from pedro.errors import UsageError
from pedro.eval.outcome import Outcome
from pedro.eval.provider import ANY_FORMAT, CALL_FORMATS
from pedro.eval.taskfiles import checked_path

SCENARIOS_DIR: Final = Path(__file__).resolve().parent / "scenarios"
"""The built-in scenarios, shipped with pedro."""
ScenarioBackend = Literal["openai", "llamacpp"]
ScenarioCommand = Literal["build", "triage"]
_TOP_KEYS: Final = frozenset(
    {"description", "request", "command", "log", "backend", "max_rounds", "autotune", "files", "settings", "replies"}
    | {"by_format", "variants"}
)
_EXPECT_KEYS: Final = ("status", "reason", "calls", "problems", "codes", "formats")


@dataclass(frozen=True)
class Expectation:
    """What a run must show; keys left out are not checked."""

    status: str | None = None
    reason: str | None = None
    calls: tuple[str, ...] | None = None
    """Each call in order: "name ok" or "name <error_kind>"."""
    problems: tuple[str, ...] | None = None
    """The kind of each format problem in order (a call that could not run: invalid_json, unknown_tool, …)."""
    codes: tuple[str, ...] | None = None
    """The stable error codes the model was shown, in the order first seen."""
    formats: tuple[str, ...] | None = None
    """The call format of each request the provider answered (native, text, grammar)."""

    def mismatches(self, outcome: Outcome, formats: Sequence[str] = ()) -> tuple[str, ...]:
        """Each way `outcome` (and the requests' `formats`) differ from this expectation, as "key: expected X, got
        Y"."""
        actual: dict[str, Any] = {
            "status": outcome.status,
            "reason": outcome.reason,
            "calls": outcome.calls,
            "problems": outcome.problems,
            "codes": outcome.codes,
            "formats": tuple(formats),
        }
        found = []
        for key in _EXPECT_KEYS:
            wanted = getattr(self, key)
            if wanted is not None and wanted != actual[key]:
                found.append(f"{key}: expected {_show(wanted)}, got {_show(actual[key])}")
        return tuple(found)


@dataclass(frozen=True)
class Variant:
    """One way to run a scenario: its own settings and the outcome they must give."""

    name: str
    settings: dict[str, dict[str, Any]]
    expect: Expectation


@dataclass(frozen=True)
class Scenario:
    """One scenario file."""

    id: str
    path: Path
    description: str
    request: str
    files: dict[str, str]
    replies: dict[str, tuple[dict[str, Any], ...]]
    """Replies per call format ("native", "text", "grammar") or for any ("any")."""
    variants: tuple[Variant, ...]
    backend: ScenarioBackend = "openai"
    command: ScenarioCommand = "build"
    """build (the builder, whose completion needs a change) or triage (the triager, whose does not)."""
    log: str = ""
    """triage: the file of [files] that is the failing run's log."""
    max_rounds: int = 8
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)
    autotune: bool = False
    """Part of the micro-suite `pedro eval --autotune --suite offline` runs."""


@dataclass(frozen=True)
class Case:
    """A scenario under one of its variants: one run of the offline suite."""

    scenario: Scenario
    variant: Variant

    @property
    def id(self) -> str:
        return f"{self.scenario.id}[{self.variant.name}]"

    def settings(self) -> dict[str, dict[str, Any]]:
        """The scenario's settings with the variant's over them."""
        merged = {section: dict(keys) for section, keys in self.scenario.settings.items()}
        for section, keys in self.variant.settings.items():
            merged.setdefault(section, {}).update(keys)
        return merged


def unapplied_settings(requested: Mapping[str, Mapping[str, Any]], recorded: Mapping[str, Any]) -> tuple[str, ...]:
    """The requested [tool_calling] settings that job.started shows the loop did not get: a setting that never
    reached it would make every expectation about it meaningless. Keys it does not record are not checked."""
    if not recorded:
        return ()
    found = []
    for section, keys in requested.items():
        for key, wanted in keys.items():
            got = _recorded(recorded, section, key)
            if got is not _UNRECORDED and _as_text(got) != _as_text(wanted):
                found.append(
                    f"settings: {section}.{key} = {_as_text(wanted)!r} did not reach the run "
                    f"(job.started records {_as_text(got)!r})"
                )
    return tuple(found)


_UNRECORDED: Final = object()


def _recorded(recorded: Mapping[str, Any], section: str, key: str) -> Any:
    """Where job.started keeps a [tool_calling] key the loop follows (docs/tool-calling.md), or _UNRECORDED. The
    keys that act through the backend (the tool mode, the sampling profile) show in the requests instead, which
    `formats` checks."""
    calling = recorded.get("tool_calling")
    if section != "tool_calling" or key == "sampling_profile" or not isinstance(calling, Mapping):
        return _UNRECORDED
    return calling.get(key, _UNRECORDED)


def _as_text(value: Any) -> str:
    """A setting as the environment spells it: true/false, a comma-separated list, or its text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(str(item) for item in value)
    return str(value)


def settings_env(settings: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """Config keys as the environment variables a run reads them from (PEDRO_<SECTION>__<KEY>)."""
    return {
        f"PEDRO_{section.upper()}__{key.upper()}": _as_text(value)
        for section, keys in settings.items()
        for key, value in keys.items()
    }


def load_scenarios(root: Path = SCENARIOS_DIR, *, only: Sequence[str] = ()) -> list[Case]:
    """Every case of every scenario under `root` in id order, or those named in `only` (a scenario id runs all of
    its variants, `id[variant]` one)."""
    files = sorted(root.glob("*.toml")) if root.is_dir() else []
    if not files:
        raise UsageError(f"no scenarios under {root}; give a folder of scenario .toml files (docs/eval.md)")
    scenarios = [load_scenario(file) for file in files]
    cases = [Case(scenario, variant) for scenario in scenarios for variant in scenario.variants]
    if not only:
        return cases
    known = {case.id for case in cases} | {case.scenario.id for case in cases}
    unknown = sorted(set(only) - known)
    if unknown:
        raise UsageError(f"no scenario named {', '.join(unknown)} under {root}; `pedro eval --list` names them")
    return [case for case in cases if case.id in only or case.scenario.id in only]


def load_scenario(path: Path) -> Scenario:
    """One scenario file; UsageError naming the file and the key when it is wrong."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"cannot read the scenario {path} ({exc}); fix the file or remove it") from exc
    where = str(path)
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise UsageError(f"{where}: unknown key(s) {', '.join(unknown)}; docs/eval.md lists the scenario keys")
    backend = data.get("backend", "openai")
    if backend not in get_args(ScenarioBackend):
        raise UsageError(f"{where}: backend must be openai or llamacpp")
    command, log = data.get("command", "build"), data.get("log", "")
    if command not in get_args(ScenarioCommand):
        raise UsageError(f"{where}: command must be build or triage")
    max_rounds = data.get("max_rounds", 8)
    if not isinstance(max_rounds, int) or isinstance(max_rounds, bool) or not 1 <= max_rounds <= 100:
        raise UsageError(f"{where}: max_rounds must be a whole number from 1 to 100")
    files = data.get("files", {})
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()) or not files:
        raise UsageError(f'{where}: [files] must map each path to its text, e.g. "calc.py" = "..."')
    for relative in files:
        checked_path(relative, f"{where} [files]")
    if command == "triage" and log not in files:
        raise UsageError(f'{where}: a triage scenario names its log, one of [files]: log = "ci.log"')
    return Scenario(
        id=path.stem,
        path=path,
        description=_text(data, "description", where),
        request=_text(data, "request", where),
        files=dict(files),
        replies=_replies(data, where),
        variants=_variants(data.get("variants"), where),
        backend=backend,
        command=command,
        log=log,
        max_rounds=max_rounds,
        settings=_settings(data.get("settings", {}), f"{where} [settings]"),
        autotune=bool(data.get("autotune", False)),
    )


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise UsageError(f"{where}: {key} must be a non-empty string")
    return value


def _replies(data: Mapping[str, Any], where: str) -> dict[str, tuple[dict[str, Any], ...]]:
    replies: dict[str, tuple[dict[str, Any], ...]] = {}
    if "replies" in data:
        replies[ANY_FORMAT] = _reply_list(data["replies"], f"{where} [[replies]]")
    by_format = data.get("by_format", {})
    if not isinstance(by_format, dict) or not set(by_format) <= set(CALL_FORMATS):
        raise UsageError(f"{where}: [by_format] may hold [[by_format.native]], .text and .grammar replies only")
    for kind, listed in by_format.items():
        replies[kind] = _reply_list(listed, f"{where} [[by_format.{kind}]]")
    if not replies:
        raise UsageError(f"{where}: no replies; add [[replies]] (or [[by_format.<format>]]) assistant messages")
    return replies


def _reply_list(value: Any, where: str) -> tuple[dict[str, Any], ...]:
    if not isinstance(value, list) or not value:
        raise UsageError(f"{where}: give at least one assistant message")
    for number, reply in enumerate(value, start=1):
        if not isinstance(reply, dict) or reply.get("role", "assistant") != "assistant":
            raise UsageError(f'{where} reply {number}: an assistant message (role = "assistant") is expected')
        if not isinstance(reply.get("content", ""), str):
            raise UsageError(f"{where} reply {number}: content must be a string")
        for call in reply.get("tool_calls", []):
            function = call.get("function") if isinstance(call, dict) else None
            if not isinstance(function, dict) or not isinstance(function.get("name"), str):
                raise UsageError(f"{where} reply {number}: each tool call needs function = {{ name, arguments }}")
    return tuple(dict(reply) for reply in value)


def _variants(value: Any, where: str) -> tuple[Variant, ...]:
    if not isinstance(value, list) or not value:
        raise UsageError(f"{where}: add at least one [[variants]] with a name and an [variants.expect] table")
    variants = []
    for number, item in enumerate(value, start=1):
        name = item.get("name") if isinstance(item, dict) else None
        if not isinstance(name, str) or not name.strip() or "[" in name or "]" in name:
            raise UsageError(f"{where} variant {number}: name must be a non-empty string without brackets")
        unknown = sorted(set(item) - {"name", "settings", "expect"})
        if unknown:
            raise UsageError(f"{where} variant {name}: unknown key(s) {', '.join(unknown)}; use name, settings, expect")
        expect = item.get("expect")
        if not isinstance(expect, dict) or not expect or not set(expect) <= set(_EXPECT_KEYS):
            raise UsageError(f"{where} variant {name}: [variants.expect] may set {', '.join(_EXPECT_KEYS)}")
        variants.append(
            Variant(
                name=name,
                settings=_settings(item.get("settings", {}), f"{where} variant {name} settings"),
                expect=_expectation(expect, f"{where} variant {name}"),
            )
        )
    names = [variant.name for variant in variants]
    if len(set(names)) != len(names):
        raise UsageError(f"{where}: variant names must differ ({', '.join(names)})")
    return tuple(variants)


def _expectation(expect: Mapping[str, Any], where: str) -> Expectation:
    for key in ("status", "reason"):
        if key in expect and not isinstance(expect[key], str):
            raise UsageError(f"{where}: expect.{key} must be a string")
    for key in ("calls", "problems", "codes", "formats"):
        if key in expect and not (isinstance(expect[key], list) and all(isinstance(v, str) for v in expect[key])):
            raise UsageError(f"{where}: expect.{key} must be a list of strings")
    return Expectation(
        status=expect.get("status"),
        reason=expect.get("reason"),
        calls=tuple(expect["calls"]) if "calls" in expect else None,
        problems=tuple(expect["problems"]) if "problems" in expect else None,
        codes=tuple(expect["codes"]) if "codes" in expect else None,
        formats=tuple(expect["formats"]) if "formats" in expect else None,
    )


def _settings(value: Any, where: str) -> dict[str, dict[str, Any]]:
    """Config sections of scalar keys: they travel to the run as PEDRO_<SECTION>__<KEY> variables."""
    if not isinstance(value, dict):
        raise UsageError(f"{where}: settings are config sections, e.g. [settings.agent] max_repeats = 2")
    for section, keys in value.items():
        if not isinstance(keys, dict) or not all(isinstance(v, str | int | float | bool) for v in keys.values()):
            raise UsageError(f"{where}: [{section}] may hold strings, numbers and booleans only")
    return {section: dict(keys) for section, keys in value.items()}


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(value) + "]"
    return repr(value)
