"""`pedro build --with-test`: where a test of the new code goes, the first words of the model's test (the imports
and the test's head, as the project's own tests write them), and the test file taken from the answer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from pedro.build.place import Place
from pedro.repair.answers import FENCE_NAMES
from pedro.repair.candidate import code_pieces, parses
from pedro.repair.frames import is_test_file

_PY_FROM = r"^from\s+([\w.]+)\s+import\b"
_GO_PACKAGE = re.compile(r"^package\s+(\w+)", re.M)


def test_path(place: Place, listed: Sequence[str]) -> str:
    """Where the test goes: beside the project's own tests of the file's language (Python: in their folder), named
    after the function; never over a file that exists."""
    source = PurePosixPath(place.path)
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", place.name).lower()
    if place.language == "go":
        wanted = source.parent / f"{snake}_pedro_test.go"
    elif place.language == "python":
        tests = [PurePosixPath(p) for p in listed if p.endswith(".py") and is_test_file(p)]
        folder = tests[0].parent if tests else source.parent
        wanted = folder / f"test_{snake}.py"
    else:
        wanted = source.parent / f"{place.name}.test{source.suffix}"
    path = str(wanted)
    return path if path not in listed else str(wanted.with_name(f"pedro_{wanted.name}"))


def test_opening(place: Place, root: Path, listed: Sequence[str], source_text: str) -> str:
    """The test's first words: the imports the project's tests use, and the test function's head."""
    fence = f"```{FENCE_NAMES[place.language]}\n"
    imported = place.owner or place.name
    if place.language == "python":
        module = _python_module(place, root, listed)
        call = f"{place.name}(" if not place.owner else ""
        return f"{fence}from {module} import {imported}\n\n\ndef test_{place.name.lower()}():\n    assert {call}"
    if place.language == "go":
        package = _GO_PACKAGE.search(source_text)
        name = place.name[:1].upper() + place.name[1:]
        head = f'package {package.group(1) if package else "main"}\n\nimport "testing"\n\n'
        return f"{fence}{head}func Test{name}(t *testing.T) {{\n\t"
    stem = PurePosixPath(place.path).stem
    if _esm(root, place.path, source_text):
        head = (f'import test from "node:test";\nimport assert from "node:assert/strict";\n'
                f'import {{ {imported} }} from "./{stem}{PurePosixPath(place.path).suffix}";\n')  # fmt: skip
    else:
        head = (f'const test = require("node:test");\nconst assert = require("node:assert/strict");\n'
                f'const {{ {imported} }} = require("./{stem}");\n')  # fmt: skip
    return f'{fence}{head}\ntest("{place.name}", () => {{\n  assert.'


def test_code(reply: str, place: Place) -> str | None:
    """The test file from the answer (the opening included): its first code block, when it parses."""
    for piece in code_pieces(reply, place.language):
        text = piece.rstrip() + "\n"
        if parses(text, place.language):
            return text
        closed = _closed(text, place)
        if closed is not None:
            return closed
    return None


def _closed(text: str, place: Place) -> str | None:
    """A JavaScript or Go test the stop cut before its last closing brackets, closed."""
    if place.language == "python":
        return None
    for ending in ("});\n", "}\n", "\n});\n"):
        if parses(text + ending, place.language):
            return text + ending
    return None


def _python_module(place: Place, root: Path, listed: Sequence[str]) -> str:
    """The module path the project's tests import the file by (`from pkg.stats import …`), else its stem."""
    stem = PurePosixPath(place.path).stem
    for path in listed:
        if not (path.endswith(".py") and is_test_file(path)):
            continue
        try:
            text = (root / path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for module in re.findall(_PY_FROM, text, re.M):
            if module.rsplit(".", 1)[-1] == stem:
                return str(module)
    return stem


def _esm(root: Path, path: str, source: str) -> bool:
    """Whether the JavaScript file is an ES module: .mjs, `export` statements, or "type": "module"."""
    if path.endswith(".mjs") or re.search(r"^export\s", source, re.M):
        return True
    try:
        return '"type": "module"' in (root / "package.json").read_text(encoding="utf-8")
    except OSError:
        return False
