"""The flags commands share, each declared once, and `takes`, which gives a command the ones it names."""

from __future__ import annotations

import functools
import inspect
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from pedro.backends import BACKENDS
from pedro.limits import MAX_ROUNDS, TIME_LIMIT_S

BackendChoice = StrEnum("BackendChoice", {kind: kind for kind in BACKENDS})  # type: ignore[misc]
"""--backend's choices: the backends' registry (pedro.backends.BACKENDS)."""


@dataclass(frozen=True)
class Flag:
    """One shared flag: its parameter's type with the option (names, help), and its default."""

    annotation: Any
    default: Any = None


FLAGS: dict[str, Flag] = {
    "backend": Flag(Annotated[BackendChoice | None, typer.Option("--backend", help="Wire protocol (PEDRO_BACKEND).")]),
    "base_url": Flag(
        Annotated[
            str | None,
            typer.Option(
                "--base-url",
                help="Server URL: with /v1 for openai, the server root for ollama/llamacpp (PEDRO_BASE_URL).",
            ),
        ]
    ),
    "model": Flag(Annotated[str | None, typer.Option("--model", help="Model name on the server (PEDRO_MODEL).")]),
    "model_file": Flag(
        Annotated[
            Path | None,
            typer.Option("--model-file", help="A .gguf file: pedro starts llama-server with it (PEDRO_MODEL_FILE)."),
        ]
    ),
    "max_rounds": Flag(
        Annotated[
            int | None,
            typer.Option("--max-rounds", min=1, help=f"Most model requests; default {MAX_ROUNDS} (PEDRO_MAX_ROUNDS)."),
        ]
    ),
    "time_limit": Flag(
        Annotated[
            float | None,
            typer.Option(
                "--time-limit",
                min=0,
                metavar="SECONDS",
                help=f"Most seconds the job may take, repair and tests included; default {TIME_LIMIT_S:g}, 0 "
                "for none (PEDRO_AGENT__TIME_LIMIT_S).",
            ),
        ]
    ),
    "tool_use_mode": Flag(
        Annotated[
            str | None,
            typer.Option(
                "--tool-use-mode",
                metavar="MODE",
                help="relaxed (default); enforced: the run fails without a successful tool call; disabled: chat "
                "only, no tools (PEDRO_TOOL_CALLING__TOOL_USE_MODE).",
            ),
        ]
    ),
    "sampling_profile": Flag(
        Annotated[
            str | None,
            typer.Option(
                "--sampling-profile",
                metavar="NAME",
                help="default, precise, creative, qwen_recommended, gemma_recommended, smollm_recommended or one of "
                "your [sampling_profiles.NAME]; wins over a [models] preset (PEDRO_TOOL_CALLING__SAMPLING_PROFILE).",
            ),
        ]
    ),
    "repo": Flag(Annotated[Path, typer.Option("--repo", help="The repository to work in.")], Path()),
    "no_input": Flag(
        Annotated[bool, typer.Option("--no-input", help="Never prompt: whatever would ask is refused.")], False
    ),
    "json": Flag(
        Annotated[bool, typer.Option("--json", help="Events as JSON lines on stdout; human text on stderr.")], False
    ),
    "stream_json": Flag(
        Annotated[
            bool,
            typer.Option("--stream-json", help="JSON events (as --json) plus model.delta events as text arrives."),
        ],
        False,
    ),
    "allow_outside_git": Flag(
        Annotated[bool, typer.Option("--allow-outside-git", help="Run in a directory that is not a git repository.")],
        False,
    ),
    "full_access": Flag(
        Annotated[
            bool,
            typer.Option(
                "--full-access",
                help="No sandbox limits on network or protected files for this run (never from config).",
            ),
        ],
        False,
    ),
    "read_only": Flag(
        Annotated[bool, typer.Option("--read-only", help="The model may read and run read-only commands only.")],
        False,
    ),
    "read_root": Flag(
        Annotated[
            list[Path] | None,
            typer.Option(
                "--read-root",
                metavar="DIR",
                help="An extra directory the tools may read outside the repository (repeatable).",
            ),
        ]
    ),
    "no_commit": Flag(
        Annotated[
            bool,
            typer.Option(
                "--no-commit",
                help="Leave the job's change uncommitted on pedro/<job> ([agent].commit; PEDRO_AGENT__COMMIT).",
            ),
        ],
        False,
    ),
    "pr": Flag(
        Annotated[
            bool,
            typer.Option(
                "--pr",
                help="After a completed, committed job: push pedro/<job> to origin and open a pull request with gh, "
                "once you approve (under --no-input only with --full-access).",
            ),
        ],
        False,
    ),
    "with_test": Flag(
        Annotated[
            bool,
            typer.Option(
                "--with-test",
                help="Also write a test of the new code, kept only when it fails without the change "
                "([build].with_test; the direct way).",
            ),
        ],
        False,
    ),
    "verbose": Flag(
        Annotated[
            bool,
            typer.Option("--verbose", "-v", help="Show pedro's own debug log (also kept in the job's debug.log)."),
        ],
        False,
    ),
}
"""Each shared flag by its parameter's name, in the order --help lists them."""

SERVER = ("backend", "base_url", "model", "model_file")
"""The flags that name the model server."""
LIMITS = ("max_rounds", "time_limit")
CALLING = ("tool_use_mode", "sampling_profile")
ACCESS = ("allow_outside_git", "full_access", "read_only", "read_root")
OUTPUT = ("no_input", "json", "stream_json")
JOB = (*SERVER, *LIMITS, *CALLING, "repo", *OUTPUT, *ACCESS, "verbose")
"""The flags of every command that runs a job."""
COMMITTING = (*JOB, "no_commit", "pr")
"""A job that may commit its change: build and debug."""


def takes(*names: str, json_prints: str = "") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Give a Typer command the shared flags `names`, declared in FLAGS; the command takes them as one
    `flags: CommonFlags` and declares only its own parameters.

    `json_prints`: for a command that runs no job, so prints no events, what its --json prints instead.
    """
    unknown = set(names) - set(FLAGS)
    if unknown:
        raise ValueError(f"no shared flag {sorted(unknown)}; FLAGS declares {list(FLAGS)}")
    chosen = [name for name in FLAGS if name in names]

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        own = inspect.signature(command, eval_str=True)
        params = [param for param in own.parameters.values() if param.name != "flags"]
        for name in chosen:
            annotation = FLAGS[name].annotation
            if name == "json" and json_prints:
                annotation = Annotated[bool, typer.Option("--json", help=json_prints)]
            params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=FLAGS[name].default,
                                            annotation=annotation))  # fmt: skip

        @functools.wraps(command)
        def run(*args: Any, **given: Any) -> Any:
            shared = {name: given.pop(name) for name in chosen if name in given}
            return command(*args, **given, flags=CommonFlags.from_options(shared))

        # Typer reads the parameters from the signature (and the hints), so the shared ones show as the command's.
        run.__signature__ = own.replace(parameters=params)  # type: ignore[attr-defined]
        run.__annotations__ = {param.name: param.annotation for param in params}
        return run

    return decorate


@dataclass(frozen=True)
class CommonFlags:
    """The shared flags a command was given (FLAGS); those it does not take keep their defaults."""

    backend: BackendChoice | None = None
    base_url: str | None = None
    model: str | None = None
    model_file: Path | None = None
    max_rounds: int | None = None
    time_limit: float | None = None
    tool_use_mode: str | None = None
    sampling_profile: str | None = None
    repo: Path = Path()
    no_input: bool = False
    json: bool = False
    stream_json: bool = False
    allow_outside_git: bool = False
    full_access: bool = False
    read_only: bool = False
    read_roots: tuple[Path, ...] = ()
    verbose: bool = False
    no_commit: bool = False
    pr: bool = False
    with_test: bool = False
    continues_job: bool = False
    """Not a flag: the command continues a job on the server it recorded, so pedro looks for no other."""

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> CommonFlags:
        """The shared flags among a command's parameters, by the names FLAGS gives them."""
        names = {field.name for field in fields(cls)}
        chosen = {name: value for name, value in options.items() if name in names and value is not None}
        if chosen.get("stream_json"):
            chosen["json"] = True  # the deltas are JSON events: --stream-json alone means both
        chosen["read_roots"] = tuple(options.get("read_root") or ())
        return cls(**chosen)

    def backend_named(self) -> set[str]:
        """The [backend] keys these flags name (kind, base_url, model, model_file)."""
        named = {"kind": self.backend, "base_url": self.base_url, "model": self.model, "model_file": self.model_file}
        return {key for key, value in named.items() if value is not None}

    def config_layer(self) -> dict[str, dict[str, Any]]:
        """The flags as the top config layer; unset flags leave lower layers alone."""
        backend: dict[str, Any] = {}
        if self.backend is not None:
            backend["kind"] = self.backend.value
        if self.base_url is not None:
            backend["base_url"] = self.base_url
        if self.model is not None:
            backend["model"] = self.model
        if self.model_file is not None:
            backend["model_file"] = str(self.model_file)
        layer: dict[str, dict[str, Any]] = {"backend": backend}
        agent: dict[str, Any] = {"max_rounds": self.max_rounds, "time_limit_s": self.time_limit}
        layer["agent"] = {key: value for key, value in agent.items() if value is not None}
        if self.no_commit:
            if self.pr:
                from pedro.errors import UsageError

                raise UsageError("--pr publishes the job's commit, and --no-commit makes none; pass one of them")
            layer.setdefault("agent", {})["commit"] = False
        calling = {"tool_use_mode": self.tool_use_mode, "sampling_profile": self.sampling_profile}
        layer["tool_calling"] = {key: value for key, value in calling.items() if value is not None}
        layer["safety"] = self._safety_layer()
        if self.with_test:
            layer["build"] = {"with_test": True}
        return layer

    def _safety_layer(self) -> dict[str, Any]:
        if self.full_access and self.read_only:
            from pedro.errors import UsageError

            raise UsageError("--full-access and --read-only contradict each other; pass one of them")
        safety: dict[str, Any] = {}
        if self.allow_outside_git:
            safety["allow_outside_git"] = True
        if self.full_access:
            safety["mode"] = "full-access"
        elif self.read_only:
            safety["mode"] = "read-only"
        if self.read_roots:
            safety["read_roots"] = [str(path) for path in self.read_roots]
        if not self.interactive:
            safety["approval"] = "never"
        return safety

    @property
    def interactive(self) -> bool:
        """Whether pedro may ask the person at the terminal."""
        return not self.no_input and not os.environ.get("CI") and sys.stdin.isatty()
