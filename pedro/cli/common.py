"""What every command shares: loading config and finding the repository (the shared flags are pedro.cli.flags)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pedro.cli.flags import CommonFlags

NO_MODEL_GIVEN = (
    "no model given: pass --model NAME for a running server (or set [backend].model / PEDRO_MODEL; `ollama list` "
    "or the server's /v1/models shows the names), or --model-file PATH to a .gguf file, which pedro serves itself"
)
"""What a job that names no model is told: both ways of naming one."""

if TYPE_CHECKING:
    from pathlib import Path

    from pedro.backends.discovery import FoundServer, SoleModel
    from pedro.config import PedroConfig


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
