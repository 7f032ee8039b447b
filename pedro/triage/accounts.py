"""What a runner printed about one failing test: where the test failed and the message, with the comparison the
runner showed (pytest's `E` lines, jest's Expected/Received, node's `1.5 !== 2`, go's `got …, want …`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pedro.repair.frames import Frame, is_test_file, stack_frames
from pedro.safety.paths import repository_path
from pedro.tools.testreport import NODE_RUNNER

MESSAGE_LINES = 6
MESSAGE_CHARS = 600

_PYTEST_ERROR = re.compile(r"^E {1,8}(?P<text>.*)$", re.MULTILINE)
_GO_LOGGED = re.compile(r"^\s+(?P<file>[\w.\-/]+\.go):(?P<line>\d+): ?(?P<text>.*)$")
_GO_PANIC = re.compile(r"^panic: (?P<text>.*?)(?: \[recovered\])?$", re.MULTILINE)
_JS_CODE_FRAME = re.compile(r"^\s*(?:>\s*)?\d+ \|")
_JS_STACK = re.compile(r"^\s*at ")
_NODE_SECTION = re.compile(r"^✖ failing tests:\s*$", re.MULTILINE)
_NODE_TEST_AT = re.compile(r"^test at (?P<file>\S+?):(?P<line>\d+):\d+\s*$")
_NODE_SPEC_FAILED = re.compile(r"^(?P<indent>\s*)✖ (?P<name>.+?) \([\d.]+ms\)\s*$")
_NODE_TAP_FAILED = re.compile(r"^(?P<indent>\s*)not ok \d+ - (?P<name>.+?)(?: # .*)?$")
_YAML_KEY = re.compile(r"^(?P<key>[A-Za-z_]+):(?: (?P<value>.*))?$")


@dataclass(frozen=True)
class Account:
    """Where a test failed and why, as far as its runner's text says."""

    file: str = ""
    line: int | None = None
    message: str = ""


def account(runner: str, block: str, root: Path | None = None) -> Account:
    """The account of one failing test from its block of the log (`root` tells the repository's test files)."""
    if runner == "pytest":
        return _pytest(block, root)
    if runner.startswith("go"):
        return _go(block, root)
    if runner in ("jest", "vitest"):
        return _jest(block, root)
    if runner == NODE_RUNNER:
        return _node(block, root)
    return Account(*_where(stack_frames(block), root))


def message_of(lines: list[str]) -> str:
    """A message from a runner's lines: stripped, blank lines dropped, at most MESSAGE_LINES and MESSAGE_CHARS."""
    kept = [line.strip() for line in lines if line.strip()][:MESSAGE_LINES]
    text = "\n".join(kept)
    return text if len(text) <= MESSAGE_CHARS else text[: MESSAGE_CHARS - 1] + "…"


def _pytest(block: str, root: Path | None) -> Account:
    return Account(*_where(stack_frames(block), root), message_of(_PYTEST_ERROR.findall(block)))


def _go(block: str, root: Path | None) -> Account:
    logged = [match for line in block.splitlines() if (match := _GO_LOGGED.match(line))]
    if logged:
        first = logged[0]
        return Account(first.group("file"), int(first.group("line")), message_of([m.group("text") for m in logged]))
    panic = _GO_PANIC.search(block)
    return Account(*_where(stack_frames(block), root), message_of([f"panic: {panic.group('text')}"] if panic else []))


def _jest(block: str, root: Path | None) -> Account:
    lines = block.splitlines()[1:]  # the first is the `● name` line
    said: list[str] = []
    for line in lines:
        if _JS_CODE_FRAME.match(line) or _JS_STACK.match(line):
            break
        said.append(line)
    return Account(*_where(stack_frames(block), root), message_of(said))


def _node(block: str, root: Path | None) -> Account:
    """A block from node_failures: its first line is `test at FILE:LINE:COL` where the reporter printed one."""
    lines = block.splitlines()
    declared = _NODE_TEST_AT.match(lines[0]) if lines else None
    if declared is not None:
        lines = lines[1:]
    if any(line.strip() == "---" for line in lines[:2]):
        return _node_tap(lines, declared, root)
    said = []
    for line in lines[1:]:
        if _JS_STACK.match(line) or line.strip().startswith("{"):
            break
        said.append(line)
    file, line_no = _where(stack_frames(block), root)
    if not file and declared is not None:
        file, line_no = declared.group("file"), int(declared.group("line"))
    return Account(file, line_no, message_of(said))


def _node_tap(lines: list[str], declared: re.Match[str] | None, root: Path | None) -> Account:
    fields = tap_fields(lines)
    error = fields.get("error", "")
    name = fields.get("name", "")
    said = [f"{name}: {error.splitlines()[0]}" if name and error else error.split("\n", 1)[0], *error.splitlines()[1:]]
    expected, actual = fields.get("expected"), fields.get("actual")
    if expected is not None and actual is not None and actual not in error:
        said.append(f"expected: {expected}, actual: {actual}")
    file, line_no = _where(stack_frames(frames_text("\n".join(lines))), root)
    location = fields.get("location", "")
    if not file and (found := re.match(r"^(?P<file>.+?):(?P<line>\d+):\d+$", location)):
        file, line_no = found.group("file"), int(found.group("line"))
    return Account(file, line_no, message_of(said))


def frames_text(block: str) -> str:
    """A failure's text with its stack in a form stack_frames reads: node's TAP reporter prints a `stack: |-` whose
    lines have no `at `; they are added to the block as `at` lines."""
    stack = tap_fields(block.splitlines()).get("stack", "")
    return "\n".join([block, *(f"at {line.strip()}" for line in stack.splitlines() if line.strip())])


def tap_fields(lines: list[str]) -> dict[str, str]:
    """The YAML block node's TAP reporter prints under `not ok`: its top-level keys, scalars unquoted and `|-`
    blocks joined, from its `---` line to its `...` line."""
    start = next((i for i, line in enumerate(lines) if line.strip() == "---"), None)
    if start is None:
        return {}
    indent = len(lines[start]) - len(lines[start].lstrip())
    fields: dict[str, str] = {}
    key = ""
    for line in lines[start + 1 :]:
        stripped, own = line.strip(), len(line) - len(line.lstrip())
        if stripped == "..." and own == indent:
            break
        if stripped and own == indent and (match := _YAML_KEY.match(stripped)) is not None:
            key, value = match.group("key"), (match.group("value") or "").strip()
            fields[key] = "" if value in ("|-", "|", ">-", ">") else _unquote(value)
        elif key:  # a line of the key's block (deeper, or blank)
            fields[key] += line[indent + 2 :] + "\n"
    return {name: value.rstrip("\n") for name, value in fields.items()}


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].replace('\\"', '"')
    return value


def node_failures(text: str) -> list[tuple[str, str]]:
    """The failing tests of node --test's output, (name, block), suites left out (they fail with their tests).

    The spec reporter lists them again under `✖ failing tests:`, each after a `test at FILE:LINE:COL` line; the
    TAP reporter gives each `not ok` a YAML block, where a suite says failureType 'subtestsFailed'."""
    lines = text.splitlines()
    section = _NODE_SECTION.search(text)
    if section is not None:
        return _spec_entries(text[section.end() :].splitlines())
    found: list[tuple[str, str]] = []
    for index, line in enumerate(lines):
        if (tap := _NODE_TAP_FAILED.match(line)) is not None:
            body = _indented_after(lines, index, len(tap.group("indent")))
            if tap_fields(body).get("failureType") != "subtestsFailed":
                found.append((tap.group("name").strip(), "\n".join([line, *body])))
        elif (spec := _NODE_SPEC_FAILED.match(line)) is not None:
            body = _indented_after(lines, index, len(spec.group("indent")))
            if any(b.strip() for b in body) and not _NODE_SPEC_FAILED.match(next(b for b in body if b.strip())):
                found.append((spec.group("name").strip(), "\n".join([line, *body])))
    return found


def _spec_entries(lines: list[str]) -> list[tuple[str, str]]:
    entries: list[tuple[str, str]] = []
    declared = ""
    for index, line in enumerate(lines):
        if _NODE_TEST_AT.match(line):
            declared = line
        elif (spec := _NODE_SPEC_FAILED.match(line)) is not None and not spec.group("indent"):
            body = _indented_after(lines, index, 0)
            block = [declared, line, *body] if declared else [line, *body]
            entries.append((spec.group("name").strip(), "\n".join(block)))
            declared = ""
    return entries


def _indented_after(lines: list[str], index: int, indent: int) -> list[str]:
    """The lines after lines[index] indented deeper than `indent` (blank lines inside included)."""
    body: list[str] = []
    for line in lines[index + 1 :]:
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        body.append(line)
    while body and not body[-1].strip():
        body.pop()
    return body


def _where(frames: list[Frame], root: Path | None) -> tuple[str, int | None]:
    """Where the test failed: the innermost frame in a test file of the repository, else the innermost frame."""
    if not frames:
        return "", None
    for frame in frames:
        path = repository_path(root, frame.path) if root is not None else frame.path
        if path and is_test_file(path) and not _outside(frame.path):
            return frame.path, frame.line
    first = next((frame for frame in frames if not _outside(frame.path)), None)
    return (first.path, first.line) if first is not None else ("", None)


def _outside(path: str) -> bool:
    """A runtime's or a dependency's file (node's internals, site-packages, node_modules)."""
    parts = PurePosixPath(path).parts
    return path.startswith("node:") or "node_modules" in parts or "site-packages" in parts


def go_file(file: str, package: str, root: Path | None) -> str:
    """go test prints a file by its name in the package's folder: the path of that file in the repository, found by
    the longest end of the package's import path that is a folder holding it (the module path is the rest)."""
    if root is None or not file or "/" in file or not package:
        return file
    parts = package.split("/")
    for start in range(len(parts)):
        folder = "/".join(parts[start:])
        if (root / folder / file).is_file():
            return f"{folder}/{file}"
    return file
