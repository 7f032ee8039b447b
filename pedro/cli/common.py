"""What every command shares: the common flags, loading config, and finding the repository."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pedro.backends import BACKENDS

if TYPE_CHECKING:
    from pedro.backends.discovery import FoundServer, SoleModel
    from pedro.config import PedroConfig


BackendChoice = StrEnum("BackendChoice", {kind: kind for kind in BACKENDS})  # type: ignore[misc]
"""--backend's choices: the backends' registry (pedro.backends.BACKENDS)."""


BackendOpt = Annotated[BackendChoice | None, typer.Option("--backend", help="Wire protocol (PEDRO_BACKEND).")]
BaseUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--base-url", help="Server URL: with /v1 for openai, the server root for ollama/llamacpp (PEDRO_BASE_URL)."
    ),
]
ModelOpt = Annotated[str | None, typer.Option("--model", help="Model name on the server (PEDRO_MODEL).")]
ModelFileOpt = Annotated[
    Path | None,
    typer.Option("--model-file", help="A .gguf file: pedro starts llama-server with it (PEDRO_MODEL_FILE)."),
]
MaxRoundsOpt = Annotated[
    int | None, typer.Option("--max-rounds", min=1, help="Most model requests (PEDRO_MAX_ROUNDS).")
]
TimeLimitOpt = Annotated[
    float | None,
    typer.Option(
        "--time-limit",
        min=0,
        metavar="SECONDS",
        help="Most seconds the job may take, repair and tests included; 0 for none (PEDRO_AGENT__TIME_LIMIT_S).",
    ),
]
ToolUseModeOpt = Annotated[
    str | None,
    typer.Option(
        "--tool-use-mode",
        metavar="MODE",
        help="relaxed (default); enforced: the run fails without a successful tool call; disabled: chat only, no "
        "tools (PEDRO_TOOL_CALLING__TOOL_USE_MODE).",
    ),
]
SamplingProfileOpt = Annotated[
    str | None,
    typer.Option(
        "--sampling-profile",
        metavar="NAME",
        help="default, precise, creative, qwen_recommended, gemma_recommended, smollm_recommended or one of your "
        "[sampling_profiles.NAME]; wins over a [models] preset (PEDRO_TOOL_CALLING__SAMPLING_PROFILE).",
    ),
]
RepoOpt = Annotated[Path, typer.Option("--repo", help="The repository to work in.")]
NoInputOpt = Annotated[bool, typer.Option("--no-input", help="Never prompt: whatever would ask is refused.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Events as JSON lines on stdout; human text on stderr.")]


def json_flag(prints: str) -> Any:
    """--json for a command that runs no job, so prints no events: `prints` says what it prints instead."""
    return typer.Option("--json", help=prints)


VerboseOpt = Annotated[
    bool, typer.Option("--verbose", "-v", help="Show pedro's own debug log (also kept in the job's debug.log).")
]
StreamJsonOpt = Annotated[
    bool, typer.Option("--stream-json", help="JSON events (as --json) plus model.delta events as text arrives.")
]
AllowOutsideGitOpt = Annotated[
    bool, typer.Option("--allow-outside-git", help="Run in a directory that is not a git repository.")
]
FullAccessOpt = Annotated[
    bool,
    typer.Option(
        "--full-access", help="No sandbox limits on network or protected files for this run (never from config)."
    ),
]
ReadOnlyOpt = Annotated[bool, typer.Option("--read-only", help="The model may read and run read-only commands only.")]
NoCommitOpt = Annotated[
    bool,
    typer.Option(
        "--no-commit", help="Leave the job's change uncommitted on pedro/<job> ([agent].commit; PEDRO_AGENT__COMMIT)."
    ),
]
PrOpt = Annotated[
    bool,
    typer.Option(
        "--pr",
        help="After a completed, committed job: push pedro/<job> to origin and open a pull request with gh, once you "
        "approve (under --no-input only with --full-access).",
    ),
]
ReadRootOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--read-root", metavar="DIR", help="An extra directory the tools may read outside the repository (repeatable)."
    ),
]


@dataclass(frozen=True)
class CommonFlags:
    """The flags every agent command takes."""

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
    continues_job: bool = False
    """Not a flag: the command continues a job on the server it recorded, so pedro looks for no other."""

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> CommonFlags:
        """The common flags among a command's parameters (pass its `locals()`); the rest are the command's own.

        Typer needs every option spelled out in each command's signature; this keeps the collecting in one place.
        """
        names = {field.name for field in fields(cls)}
        chosen = {name: value for name, value in options.items() if name in names and value is not None}
        if options.get("json_out") is not None:
            chosen["json"] = options["json_out"]
        if chosen.get("stream_json"):
            chosen["json"] = True  # the deltas are JSON events: --stream-json alone means both
        chosen["read_roots"] = tuple(options.get("read_root") or ())
        return cls(**chosen)

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


def load(flags: CommonFlags, *, need_git: bool = True, find_server: bool = True) -> tuple[Path, PedroConfig]:
    """Find the repository and load the layered configuration for it.

    With `find_server` (commands that talk to a model) and no server configured anywhere, pedro looks for one and
    says which it chose; commands that never reach a model pass False.
    """
    root, config, found, sole = load_and_find_server(flags, need_git=need_git, find_server=find_server)
    for said in (found, sole):
        if said is not None:
            notice(flags, said.describe())
    return root, config


def load_and_find_server(
    flags: CommonFlags, *, need_git: bool = True, find_server: bool = True
) -> tuple[Path, PedroConfig, FoundServer | None, SoleModel | None]:
    """`load` without the notices: also the server pedro found on its own and the model it chose because the server
    lists only that one (backends/discovery.py), where it did."""
    from pedro.config import config_layers, merge_layers, server_configured
    from pedro.workspace import find_repo_root

    # The repository decides which .pedro.toml applies, and that file may itself allow a non-git directory.
    allow = flags.allow_outside_git or not need_git
    root = find_repo_root(flags.repo, allow_outside_git=True)
    layers = config_layers(root, flags=flags.config_layer())
    config = merge_layers(layers)
    if not allow and not config.safety.allow_outside_git:
        root = find_repo_root(flags.repo, allow_outside_git=False)
    if not find_server or flags.continues_job:
        return root, config, None, None
    from pedro.backends.discovery import find_server as look_for_server
    from pedro.backends.discovery import sole_model

    found = None if server_configured(layers) else look_for_server()
    config = found.apply(config) if found is not None else config
    sole = None if config.backend.model or config.backend.model_file else sole_model(config)
    if sole is not None:
        # As if --model named it, so that its [models] preset applies as it would to a model given.
        chosen = flags.config_layer()
        chosen["backend"] = {**chosen["backend"], "model": sole.name}
        config = merge_layers(config_layers(root, flags=chosen))
        config = found.apply(config) if found is not None else config
    return root, config, found, sole


def notice(flags: CommonFlags, message: str) -> None:
    """Tell the person something before the job's own events start, where the job's notices go."""
    from pedro.cli.render import make_renderer

    make_renderer(json_mode=flags.json, stream_json=flags.stream_json).notice(message)
