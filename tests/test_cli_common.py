"""CommonFlags.from_options: a command's parameters become the shared flags, whatever else it takes."""

from __future__ import annotations

from pathlib import Path

from pedro.cli.flags import BackendChoice, CommonFlags


def test_the_common_flags_are_picked_out_of_a_commands_parameters() -> None:
    options = {
        "description": "Fix add()",
        "backend": BackendChoice("ollama"),
        "model": "qwen3:8b",
        "base_url": None,
        "repo": Path("/tmp/x"),
        "no_input": True,
        "read_root": [Path("/opt/docs"), Path("/srv/data")],
        "full_access": False,
    }
    flags = CommonFlags.from_options(options)
    assert flags == CommonFlags(
        backend=BackendChoice("ollama"),
        model="qwen3:8b",
        repo=Path("/tmp/x"),
        no_input=True,
        read_roots=(Path("/opt/docs"), Path("/srv/data")),
    )


def test_stream_json_alone_means_json_too() -> None:
    assert CommonFlags.from_options({"stream_json": True, "read_root": None}).json is True
    assert CommonFlags.from_options({}).read_roots == ()


def test_the_tool_calling_flags_are_the_top_config_layer(tmp_path: Path) -> None:
    from pedro.config import load_config

    flags = CommonFlags.from_options({"tool_use_mode": "disabled", "sampling_profile": "precise", "read_root": None})
    assert flags.config_layer()["tool_calling"] == {"tool_use_mode": "disabled", "sampling_profile": "precise"}
    env = {"PEDRO_TOOL_CALLING__TOOL_USE_MODE": "enforced", "PEDRO_TOOL_CALLING__SAMPLING_PROFILE": "creative"}
    config = load_config(None, env=env, user_file=tmp_path / "none.toml", flags=flags.config_layer())
    assert (config.tool_calling.tool_use_mode, config.tool_calling.sampling_profile) == ("disabled", "precise")
    assert CommonFlags().config_layer()["tool_calling"] == {}
