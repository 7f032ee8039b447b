"""CommonFlags.from_options: a command's parameters become the shared flags, whatever else it takes."""

from __future__ import annotations

from pathlib import Path

from pedro.cli.common import BackendChoice, CommonFlags


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


def test_jobs_resume_spells_json_differently() -> None:
    assert CommonFlags.from_options({"json_out": True, "read_root": None}).json is True
    assert CommonFlags.from_options({}).read_roots == ()
