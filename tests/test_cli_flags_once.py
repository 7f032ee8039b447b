"""The shared flags are declared once (pedro.cli.flags.FLAGS): every command that takes one spells it, its help,
its type and its default as the declaration does, under the same parameter name."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer

from pedro.cli.app import app
from pedro.cli.flags import FLAGS, CommonFlags, takes

ROOT = Path(__file__).resolve().parent.parent

OWN_MEANING = {
    # pedro eval measures a matrix of runs: its --model-file is repeatable (several models), and its --time-limit
    # and --max-rounds bound each run of the matrix, with defaults of their own.
    ("eval", "--model-file"),
    ("eval", "--time-limit"),
    ("eval", "--max-rounds"),
}


def _declared() -> dict[str, Any]:
    """Each shared flag as Typer makes it from the declaration, by its option's name."""
    probe = typer.Typer(add_completion=False)

    @probe.command()
    @takes(*FLAGS)
    def every(*, flags: CommonFlags) -> None:
        """Takes every shared flag."""

    return {param.opts[0]: param for param in typer.main.get_command(probe).params}


def _commands(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    if hasattr(command, "commands"):
        for name, sub in command.commands.items():
            yield from _commands(sub, (*path, name))
    else:
        yield " ".join(path), command


def _facts(param: Any) -> dict[str, Any]:
    """What a person sees of an option and what the command receives: names, help, type, bounds, default."""
    facts = {key: value for key, value in vars(param).items() if key not in ("type_descriptor", "_runtime_param")}
    described = param.type_descriptor
    return {**facts, "annotation": repr(described.annotation), "shown_metavar": described.parameter_info.metavar}


def test_every_command_spells_a_shared_flag_as_declared() -> None:
    declared = _declared()
    assert set(declared) == {_long(flag) for flag in FLAGS.values()}
    drifted = []
    taken = 0
    for path, command in _commands(typer.main.get_command(app)):
        stream_json = any("--stream-json" in param.opts for param in command.params)
        for param in command.params:
            flag = next((opt for opt in param.opts if opt in declared), None)
            if flag is None or (path, flag) in OWN_MEANING:
                continue
            taken += 1
            want, have = _facts(declared[flag]), _facts(param)
            if flag == "--json" and not stream_json:
                want["help"] = have["help"]  # a command that runs no job says what its --json prints, not events
            if want != have:
                drifted.append(f"pedro {path} {flag}: {have} is not the declaration's {want}")
    assert taken > 100  # the job commands' blocks of flags are read
    assert not drifted, drifted


def test_no_command_module_spells_a_shared_option_itself() -> None:
    """Only pedro/cli/flags.py names a shared flag's option; the commands name the flags they take."""
    declared = {_long(flag) for flag in FLAGS.values()}
    spelled = []
    for module in sorted((ROOT / "pedro").rglob("*.py")):
        if module == ROOT / "pedro/cli/flags.py":
            continue
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "Option":
                names = {arg.value for arg in node.args if isinstance(arg, ast.Constant)} & declared
                own = {(module.stem.removesuffix("_cmd"), name) for name in names} - OWN_MEANING
                spelled += [f"{module.relative_to(ROOT)}:{node.lineno} {name}" for _, name in sorted(own)]
    assert not spelled, spelled


def test_a_command_gets_the_flags_it_names_as_one_object() -> None:
    from typer.testing import CliRunner

    probe = typer.Typer()
    seen: list[CommonFlags] = []

    @probe.command()
    @takes("model", "stream_json", "read_root")
    def run(name: str, *, flags: CommonFlags) -> None:
        """Records its flags."""
        seen.append(flags)
        assert name == "x"

    result = CliRunner().invoke(probe, ["x", "--model", "m", "--stream-json", "--read-root", "/a"])
    assert result.exit_code == 0, result.output
    assert seen == [CommonFlags(model="m", stream_json=True, json=True, read_roots=(Path("/a"),))]
    run("x", model="n")  # called as a function, as /undo calls pedro undo's command
    assert seen[-1] == CommonFlags(model="n")


def _long(flag: Any) -> str:
    option = flag.annotation.__metadata__[0]
    return str(option.default if option.default is not ... else option.param_decls[0])


def test_the_help_shows_the_limits_a_job_gets_by_default(tmp_path: Path) -> None:
    from cli_util import pedro

    from pedro.config import AgentConfig

    shown = " ".join(pedro("build", "-h", env=dict(os.environ), cwd=tmp_path).stdout.split())  # unwrapped
    defaults = AgentConfig()
    assert f"Most model requests; default {defaults.max_rounds} (PEDRO_MAX_ROUNDS)" in shown, shown
    assert f"default {defaults.time_limit_s:g}, 0 for none (PEDRO_AGENT__TIME_LIMIT_S)" in shown, shown
