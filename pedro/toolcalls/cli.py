"""CLI-style calls in a bash block (dialect `cli`): `file PATH`, `search -t PATTERN [PATH]`, `navigate [PATH]`,
`code_edit -f FILE -l START:END -r TEXT`, as the Go design that pedro descends from has its models write them.

A block is read this way only when every command in it is one: a command whose first word is `search`, `navigate`
or `code_edit` (a registered tool, and no program a job would mean to run), or `file` followed by exactly one
path that the caller's `text_file` check finds to be a text file in the repository. Anything else (`git status`,
`test -f x`, `file a b`, `file` on a binary or a missing path, a pipe, a redirection) stays a shell command. The
grammar is in docs/tool-calling.md and docs/toolcall-formats.md §8.5."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any

from pedro.toolcalls.model import Candidate, Found, Issue
from pedro.toolcalls.names import Registry

DIALECT = "cli"
USAGE = "cli_usage"
"""The error of a malformed call (prompts/feedback/format/detail/cli_usage.md states the grammar)."""

_OPERATORS = set(";&|<>`")
Parser = Callable[[list[str]], dict[str, Any] | None]


class _Usage(Exception):
    """The words do not fit the tool's grammar."""


def read_block(body: str, registry: Registry) -> list[Found] | None:
    """The calls of a bash block whose every command is a CLI-style call; None when it stays a shell command."""
    commands = _commands(body)
    if not commands:
        return None
    found: list[Found] = []
    for command in commands:
        item = _read_command(command, registry)
        if item is None:
            return None
        found.append(item)
    return found


def _read_command(command: str, registry: Registry) -> Found | None:
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if not words or words[0] not in registry.schemas:
        return None
    name, rest = words[0], words[1:]
    if name == "file":
        # `file` is also the Unix command: only one operand naming a text file in the repository is a read
        if len(rest) != 1 or rest[0].startswith("-") or registry.text_file is None or not registry.text_file(rest[0]):
            return None
        return Candidate(name, {"action": "read", "path": rest[0]}, DIALECT, command)
    parser = _PARSERS.get(name)
    if parser is None:
        return None
    try:
        arguments = parser(rest)
    except _Usage:
        return Issue("invalid_arguments", DIALECT, command[:400], name=name, error=USAGE)
    return Candidate(name, arguments or {}, DIALECT, command)


def _commands(body: str) -> list[str] | None:
    """The body cut into commands at newlines outside quotes; None when a shell operator, a substitution, a
    comment or an unclosed quote shows it is shell syntax, not a list of calls."""
    commands: list[str] = []
    current: list[str] = []
    quote = ""
    escaped = False
    for index, char in enumerate(body):
        after = body[index + 1 : index + 2]
        if escaped:
            escaped = False
        elif quote == "'":
            quote = _after_quoted(quote, char)
        elif char == "\\":
            escaped = True
        elif quote == '"':
            if char == "`" or _opens_substitution(char, after):
                return None  # a substitution inside double quotes
            quote = _after_quoted(quote, char)
        elif char in "'\"":
            quote = char
        elif _shell_syntax(char, after, current):
            return None
        elif char == "\n":
            commands.append("".join(current))
            current = []
            continue
        current.append(char)
    if quote or escaped:
        return None
    commands.append("".join(current))
    return [command.strip() for command in commands if command.strip()]


def _after_quoted(quote: str, char: str) -> str:
    """The quote still open after `char` inside it: none once `char` is the closing quote."""
    return "" if char == quote else quote


def _opens_substitution(char: str, after: str) -> bool:
    """Whether `char` and the one after it open a `$(…)` or `${…}` substitution."""
    return char == "$" and after in ("(", "{")


def _shell_syntax(char: str, after: str, current: list[str]) -> bool:
    """Whether an unquoted character makes the command shell syntax: an operator, a substitution, a comment."""
    if char in _OPERATORS or _opens_substitution(char, after):
        return True
    return char == "#" and (not current or current[-1] in " \t")


def _options(words: list[str], valued: set[str], flags: set[str]) -> tuple[dict[str, str], list[str]]:
    """Options (`-x VALUE`, `-y`) and operands; _Usage for an unknown option, a repeated one or a missing value."""
    options: dict[str, str] = {}
    operands: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word == "--":
            operands += words[index + 1 :]
            break
        if word.startswith("-") and len(word) > 1 and not operands:
            if word in options or (word not in valued and word not in flags):
                raise _Usage
            if word in valued:
                if index + 1 >= len(words):
                    raise _Usage
                options[word] = words[index + 1]
                index += 2
                continue
            options[word] = ""
        else:
            operands.append(word)
        index += 1
    return options, operands


def _number(text: str) -> int:
    if not text.strip().isdigit():
        raise _Usage
    return int(text)


def _lines(text: str) -> tuple[int, int]:
    start, _, end = text.partition(":")
    return _number(start), _number(end) if end else _number(start)


def _search(words: list[str]) -> dict[str, Any]:
    """`search -t PATTERN [PATH]` (grep; `-g GLOB`, `-i`), `search -f GLOB`, `search -d NAME`."""
    options, operands = _options(words, {"-t", "-f", "-d", "-g"}, {"-i"})
    modes = [mode for mode in ("-t", "-f", "-d") if mode in options]
    if len(modes) != 1 or len(operands) > 1 or (modes != ["-t"] and ("-g" in options or "-i" in options)):
        raise _Usage
    mode = modes[0]
    arguments: dict[str, Any]
    if mode == "-t":
        arguments = {"action": "grep", "pattern": options["-t"]}
        if "-g" in options:
            arguments["glob"] = options["-g"]
        if "-i" in options:
            arguments["ignore_case"] = True
    elif mode == "-f":
        arguments = {"action": "find_files", "pattern": options["-f"]}
    else:
        arguments = {"action": "find_definition", "name": options["-d"]}
    if operands:
        arguments["path"] = operands[0]
    return arguments


def _navigate(words: list[str]) -> dict[str, Any]:
    """`navigate [PATH]` (a directory's tree, a file's outline), `navigate -d DEPTH [PATH]`, `navigate -o FILE`,
    `navigate -i FILE` (imports)."""
    options, operands = _options(words, {"-d"}, {"-o", "-i"})
    if len(operands) > 1 or len(options) > 1:
        raise _Usage
    arguments: dict[str, Any] = {"path": operands[0]} if operands else {"action": "list_dir"}
    if "-d" in options:
        arguments.update(action="list_dir", depth=_number(options["-d"]))
    elif options:
        if not operands:
            raise _Usage
        arguments["action"] = "outline" if "-o" in options else "imports"
    return arguments


def _code_edit(words: list[str]) -> dict[str, Any]:
    """`code_edit -f FILE` with `-l START:END -r TEXT` (replace those lines), `-l START:END -d` (delete them),
    `-i LINE -r TEXT` (insert after LINE, 0 = the top) or `-o OLD -r NEW` (replace that text)."""
    options, operands = _options(words, {"-f", "-l", "-r", "-i", "-o"}, {"-d"})
    if operands or "-f" not in options:
        raise _Usage
    path = options.pop("-f")
    shape = tuple(sorted(options))
    if shape == ("-l", "-r"):
        start, end = _lines(options["-l"])
        return {"path": path, "action": "replace_lines", "start_line": start, "end_line": end, "new": options["-r"]}
    if shape == ("-d", "-l"):
        start, end = _lines(options["-l"])
        return {"path": path, "action": "delete_lines", "start_line": start, "end_line": end}
    if shape == ("-i", "-r"):
        return {"path": path, "action": "insert", "line": _number(options["-i"]), "content": options["-r"]}
    if shape == ("-o", "-r"):
        return {"path": path, "action": "replace", "old": options["-o"], "new": options["-r"]}
    raise _Usage


_PARSERS: dict[str, Parser] = {"search": _search, "navigate": _navigate, "code_edit": _code_edit}
