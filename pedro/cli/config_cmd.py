"""`pedro config`: the effective configuration and which layer set each key; `--example` prints the example file."""

from __future__ import annotations

import json
import sys
from importlib import resources
from typing import Annotated, Any

import typer

from pedro.cli.flags import CommonFlags, takes


@takes(
    "repo",
    "json",
    json_prints="Print the configuration as one JSON object: each key's value and the layer that set it.",
)
def config(
    example: Annotated[
        bool, typer.Option("--example", help="Print the example configuration: every key, its default, its meaning.")
    ] = False,
    *,
    flags: CommonFlags,
) -> None:
    """Show the effective configuration here, each key with the layer that set it (default, your config file,
    the repository's .pedro.toml, PEDRO_* variables)."""
    if example:
        sys.stdout.write(resources.files("pedro").joinpath("config.example.toml").read_text(encoding="utf-8"))
        return
    from pedro.config import config_layers, key_sources, load_config
    from pedro.workspace import find_repo_root

    root = find_repo_root(flags.repo, allow_outside_git=True)
    effective = load_config(root).model_dump(mode="json")
    sources = key_sources(config_layers(root))
    if flags.json:
        rows = {
            section: {key: {"value": value, "from": sources.get((section, key), "default")}
                      for key, value in keys.items()}
            for section, keys in effective.items()
            if isinstance(keys, dict)
        }  # fmt: skip
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
        return
    lines: list[str] = []
    for section, keys in effective.items():
        if not isinstance(keys, dict):
            continue
        lines.append(f"[{section}]")
        for key, value in keys.items():
            source = sources.get((section, key), "default")
            if value is None:  # TOML has no null: an unset key is shown as a comment
                lines.append(f"# {key} is not set    # {source}")
            else:
                lines.append(f"{_toml_key(key)} = {_toml(value)}    # {source}")
        lines.append("")
    sys.stdout.write("\n".join(lines))


def _toml_key(key: str) -> str:
    """A bare key where TOML allows one; a model pattern such as qwen* is quoted."""
    return key if key.replace("_", "").replace("-", "").isalnum() else json.dumps(key)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):  # a profile, a preset, request_overrides: an inline table without unset keys
        pairs = [f"{_toml_key(str(k))} = {_toml(v)}" for k, v in value.items() if v is not None]
        return "{ " + ", ".join(pairs) + " }" if pairs else "{}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return json.dumps(value)
