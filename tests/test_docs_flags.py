"""The README, docs/*.md and `pedro --help` agree with the command line: every flag they show exists."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from pedro.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
_SPAN = re.compile(r"`([^`\n]+)`")
_INVOCATION = re.compile(r"(?:^|(?<=[\s/(|;&]))pedro\s+(.*)")
_FLAG = re.compile(r"^\[?(--?[A-Za-z][\w-]*)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(])")
_COMMAND_END = frozenset({"|", "||", "&&", ";", ">", "2>&1"})


def _sentences(text: str) -> Iterator[str]:
    """The prose outside code blocks, cut into sentences and table cells."""
    for line in _FENCE.sub("", text).replace("\n\n", "\n\0").split("\0"):
        for cell in line.replace("\n", " ").split(" | "):
            yield from _SENTENCE_END.split(cell)


def _mentions(text: str) -> Iterator[tuple[list[str], str]]:
    """(command path, flag) for each `pedro CMD [SUB] ... --flag` in the text's code, and for each flag shown in a
    span of its own in a sentence that names `pedro CMD` before it ("`pedro debug` takes `--test CMD`")."""
    for block in _FENCE.findall(text):
        for line in block.replace("\\\n", " ").splitlines():
            for _, path, flags in _invocations(line):
                yield from ((path, flag) for flag in flags)
    for sentence in _sentences(text):
        named: list[list[str]] = []
        for span in _SPAN.findall(sentence):
            invocations = list(_invocations(span))
            for leaf, path, flags in invocations:
                yield from ((path, flag) for flag in flags)
                if leaf:
                    named.append(path)
            if not invocations and _FLAG.match(span):
                flags = [flag.group(1) for word in span.split() if (flag := _FLAG.match(word))]
                yield from ((path, flag) for path in named for flag in flags)


def _invocations(code: str) -> Iterator[tuple[bool, list[str], list[str]]]:
    """(names a command, not a group; command path; flags) for each `pedro ...` in one line of code."""
    for found in _INVOCATION.finditer(code):
        path: list[str] = []
        flags: list[str] = []
        command = _root()
        for word in found.group(1).split():
            if word in _COMMAND_END:
                break
            flag = _FLAG.match(word)
            if flag:
                flags.append(flag.group(1))
            elif _is_group(command) and word in command.commands:
                path.append(word)
                command = command.commands[word]
            elif not path:
                break  # `pedro ...`, `pedro/<job>`: no command named
        if path or flags:
            yield not _is_group(command), path, flags


def _root() -> Any:
    return typer.main.get_command(app)


def _is_group(command: Any) -> bool:
    return hasattr(command, "commands")


def _command(path: list[str]) -> Any:
    command = _root()
    for name in path:
        command = command.commands[name]
    return command


def _flags(command: Any) -> set[str]:
    names = {"-h", "--help"}
    for param in command.params:
        names.update(getattr(param, "opts", []), getattr(param, "secondary_opts", []))
    return names


def _all_commands(command: Any, path: list[str]) -> Iterator[tuple[list[str], Any]]:
    yield path, command
    if _is_group(command):
        for name, sub in command.commands.items():
            yield from _all_commands(sub, [*path, name])


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_flag_the_docs_show_exists(doc: Path) -> None:
    missing = []
    for path, flag in _mentions(doc.read_text(encoding="utf-8")):
        command = _command(path)
        if _is_group(command) and path:
            missing.append(f"pedro {' '.join(path)} {flag}: name a subcommand of pedro {' '.join(path)}")
        elif flag not in _flags(command) and not (_is_group(command) and flag in _flags(_root())):
            missing.append(f"pedro {' '.join(path)} {flag}")
    assert not missing, f"{doc.name} shows flags the command line does not take: {missing}"


def test_the_docs_are_read() -> None:
    mentions = list(_mentions((ROOT / "README.md").read_text(encoding="utf-8")))
    assert (["review"], "--base") in mentions
    assert (["jobs", "show"], "--json") in mentions
    assert list(_mentions("```sh\nmake test 2>&1 | pedro triage --no-input --report r.json | jq -c .\n```")) == [
        (["triage"], "--no-input"),
        (["triage"], "--report"),
    ]


def test_json_options_say_what_they_print() -> None:
    """--json prints events as JSON lines only where a job runs (the commands that also take --stream-json);
    elsewhere its help says what it prints."""
    wrong = []
    for path, command in _all_commands(_root(), []):
        flags = {param.opts[0]: param for param in getattr(command, "params", []) if getattr(param, "opts", None)}
        if "--json" not in flags:
            continue
        says_event_lines = "events as json lines" in (flags["--json"].help or "").lower()
        if says_event_lines != ("--stream-json" in flags):
            wrong.append(f"pedro {' '.join(path)} --json: {flags['--json'].help}")
    assert not wrong, wrong
