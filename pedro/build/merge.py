"""An answer put into its file: the function the build asked for (with the helpers and imports it brings), added
where it belongs or in place of the one it changes; the rest of the file stays as it is, whatever else the answer
rewrote."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from pedro.build.place import FUNCTION_KINDS, Place
from pedro.repair.candidate import SUFFIXES, code_pieces, parses
from pedro.tools.symbols import LanguageName, Symbol, extract_symbols

_PY_IMPORT = re.compile(r"^(?:import [\w., ]+|from [\w.]+ import [\w., ()]+)\s*$")
_GO_IMPORT_LINE = re.compile(r'^\s*import\s+(?:\w+\s+)?"[^"]+"\s*$')
_GO_IMPORT_SPEC = re.compile(r'^\s*(?:\w+\s+)?"[^"]+"\s*$')
_INDENT = re.compile(r"[ \t]*")


@dataclass(frozen=True)
class Merged:
    """The file with the answer in it, and the function as the answer wrote it (what is compared and shown)."""

    text: str
    code: str


def merge(reply: str, place: Place, file_text: str) -> Merged | str:
    """The file with the answer's function in place; or why the answer cannot be used."""
    for piece in code_pieces(reply, place.language):
        found = _definition(piece, place)
        if found is None:
            continue
        symbols, symbol = found
        lines = piece.splitlines()
        code = textwrap.dedent("\n".join(lines[_first_line(lines, symbol, place.language) - 1 : symbol.end_line]))
        if not parses(code, place.language) and not (place.owner and place.language != "go"):
            return f"the answer's {place.name} is not valid {place.language} code"
        helpers = _helpers(piece, symbols, symbol, code, file_text, place)
        text = _placed(file_text, place, code, helpers)
        text = _with_imports(text, piece, place.language)
        if place.language in ("javascript", "typescript") and not place.exists and not place.owner:
            text = _exported(text, place.name)
        if text.strip() == file_text.strip():
            return "the answer leaves the file as it was"
        if not parses(text, place.language):
            return f"with the answer in place, {place.path} is not valid {place.language} code"
        return Merged(text, code)
    return _why_no_definition(reply, place)


def _why_no_definition(reply: str, place: Place) -> str:
    """Why no piece of the answer gave a definition to use: it wrote one that does not parse, or none at all."""
    written = [
        piece for piece in code_pieces(reply, place.language) if re.search(rf"\b{re.escape(place.name)}\s*\(", piece)
    ]
    if written and not any(parses(piece, place.language) for piece in written):
        return f"the answer's {place.name} is not valid {place.language} code"
    return f"the answer has no {place.name} definition"


def _definition(piece: str, place: Place) -> tuple[list[Symbol], Symbol] | None:
    """The piece's symbols and the first definition of the function asked for."""
    symbols = extract_symbols(piece.encode(), f"answer{SUFFIXES[place.language]}")
    for symbol in symbols:
        if symbol.name == place.name and symbol.kind in FUNCTION_KINDS:
            return symbols, symbol
    return None


def _first_line(lines: list[str], symbol: Symbol, language: LanguageName) -> int:
    """The definition's first line, its decorators (Python) or doc comment (Go, JavaScript) included."""
    start = symbol.start_line
    prefixes = ("@",) if language == "python" else ("//", "/*", "*")
    while start > 1 and lines[start - 2].strip().startswith(prefixes):
        start -= 1
    return start


def _helpers(piece: str, symbols: list[Symbol], target: Symbol, code: str, file_text: str, place: Place) -> list[str]:
    """Top-level functions of the answer that its function calls and the file does not define yet."""
    defined = {symbol.name for symbol in extract_symbols(file_text.encode(), f"file{SUFFIXES[place.language]}")}
    lines = piece.splitlines()
    helpers: list[str] = []
    for symbol in symbols:
        if symbol is target or symbol.depth or symbol.kind not in FUNCTION_KINDS or symbol.name in defined:
            continue
        if symbol.name == place.name or not re.search(rf"\b{re.escape(symbol.name)}\s*\(", code):
            continue
        helper = textwrap.dedent("\n".join(lines[_first_line(lines, symbol, place.language) - 1 : symbol.end_line]))
        if parses(helper, place.language):
            helpers.append(helper)
    return helpers


def _placed(file_text: str, place: Place, code: str, helpers: list[str]) -> str:
    """The file with `code` in place of the function it changes, inside its class, or after the last definition."""
    lines = file_text.rstrip("\n").splitlines()
    symbols = extract_symbols(file_text.encode(), place.path)
    replaced = _replaced(lines, symbols, place, code) if place.exists else None
    if replaced is not None:
        return replaced
    owner = next((s for s in symbols if s.name == place.owner and s.kind not in FUNCTION_KINDS), None)
    if owner is not None and place.language != "go":
        return _into_owner(lines, symbols, owner, place, code, helpers)
    block = [*helpers, code] if place.language != "go" else [code, *helpers]
    return _appended(lines, block, place.language)


def _replaced(lines: list[str], symbols: list[Symbol], place: Place, code: str) -> str | None:
    """The file with `code` in place of the function it changes; None when the file no longer defines it."""
    old = next((s for s in symbols if s.name == place.name and s.kind in FUNCTION_KINDS and
                (s.parent or "") == place.owner), None)  # fmt: skip
    if old is None:
        return None
    indent = _INDENT.match(lines[old.start_line - 1]).group(0)  # type: ignore[union-attr]
    start = old.start_line
    if not (place.language == "python" and not code.lstrip().startswith("@")):
        start = _first_line(lines, old, place.language)  # the answer's decorators replace the original's
    new = _indented(code, indent)
    return _joined([*lines[: start - 1], *new, *lines[old.end_line :]])


def _into_owner(
    lines: list[str], symbols: list[Symbol], owner: Symbol, place: Place, code: str, helpers: list[str]
) -> str:
    """A method at the end of its class, indented as the class's other members."""
    members = [s for s in symbols if s.parent == owner.name and s.kind in FUNCTION_KINDS]
    base = _INDENT.match(lines[owner.start_line - 1]).group(0)  # type: ignore[union-attr]
    indent = _INDENT.match(lines[members[0].start_line - 1]).group(0) if members else base + "    "  # type: ignore[union-attr]
    if place.language == "python":
        method = _indented(code, indent)
        end = owner.end_line
        out = [*lines[:end], "", *method, *lines[end:]]
    else:
        method = _indented(re.sub(r"^(\s*)(?:async\s+)?function\s+", r"\1", code, count=1), indent)
        close = owner.end_line - 1  # the line with the class's closing brace
        out = [*lines[:close], "", *method, *lines[close:]]
    if helpers:
        return _appended(out, helpers, place.language)
    return _joined(out)


def _appended(lines: list[str], block: list[str], language: LanguageName) -> str:
    """`block` after the file's last definition: before a closing `module.exports = …` in JavaScript."""
    gap = ["", ""] if language == "python" else [""]
    at = len(lines)
    if language in ("javascript", "typescript"):
        exports = [i for i, line in enumerate(lines) if re.match(r"^(?:module\.)?exports\b|^export\s*\{", line)]
        if exports:
            at = exports[0]
            while at > 0 and not lines[at - 1].strip():
                at -= 1
    inserted: list[str] = []
    for piece in block:
        inserted += [*gap, *piece.splitlines()]
    tail = lines[at:]
    while tail and not tail[0].strip():
        tail = tail[1:]
    return _joined([*lines[:at], *inserted, *([*gap, *tail] if tail else [])])


def _with_imports(text: str, piece: str, language: LanguageName) -> str:
    """The answer's imports that the file lacks, added beside the file's own (Python, Go)."""
    if language == "python":
        wanted = [line.strip() for line in piece.splitlines() if _PY_IMPORT.match(line)]
        lines = text.splitlines()
        missing = [line for line in dict.fromkeys(wanted) if line not in {x.strip() for x in lines}]
        if not missing:
            return text
        imports = [i for i, line in enumerate(lines) if _PY_IMPORT.match(line)]
        last = imports[-1] if imports else _after_docstring(lines)
        block = missing if imports or last < 0 else ["", *missing]
        return _joined([*lines[: last + 1], *block, *lines[last + 1 :]])
    if language == "go":
        return _go_imports(text, piece)
    return text


def _after_docstring(lines: list[str]) -> int:
    """The index of the module docstring's last line, or -1: where a first import goes."""
    if not lines or not lines[0].lstrip().startswith(('"""', "'''")):
        return -1
    quote = lines[0].lstrip()[:3]
    if lines[0].count(quote) >= 2:
        return 0
    return next((i for i, line in enumerate(lines[1:], 1) if quote in line), -1)


def _go_imports(text: str, piece: str) -> str:
    """The Go packages the answer imports and the file does not, added to the file's import block."""
    wanted = [spec.strip() for spec in _go_specs(piece)]
    have = {spec.strip() for spec in _go_specs(text)}
    missing = [spec for spec in dict.fromkeys(wanted) if spec not in have]
    if not missing:
        return text
    lines = text.splitlines()
    block = next((i for i, line in enumerate(lines) if re.match(r"^import\s*\($", line)), None)
    if block is not None:
        return _joined([*lines[: block + 1], *(f"\t{spec}" for spec in missing), *lines[block + 1 :]])
    return _single_go_imports(lines, missing)


def _single_go_imports(lines: list[str], missing: list[str]) -> str:
    """A file with no import block: one `import` line per missing package, after its others or its package line."""
    package = next((i for i, line in enumerate(lines) if line.startswith("package ")), 0)
    single = [i for i, line in enumerate(lines) if _GO_IMPORT_LINE.match(line)]
    at = single[-1] if single else package
    return _joined([*lines[: at + 1], *([""] if not single else []), *(f"import {spec}" for spec in missing),
                    *lines[at + 1 :]])  # fmt: skip


def _go_specs(text: str) -> list[str]:
    """The import specs of Go source: `"strings"`, `str "strings"`."""
    specs: list[str] = []
    inside = False
    for line in text.splitlines():
        if re.match(r"^\s*import\s*\($", line):
            inside = True
        elif inside and line.strip() == ")":
            inside = False
        elif inside and _GO_IMPORT_SPEC.match(line):
            specs.append(line.strip())
        elif _GO_IMPORT_LINE.match(line):
            specs.append(re.sub(r"^\s*import\s+", "", line).strip())
    return specs


def _exported(text: str, name: str) -> str:
    """A new JavaScript function exported as its file exports the others (CommonJS or ES modules)."""
    listed = re.search(r"module\.exports\s*=\s*\{(?P<names>[^}]*)\}", text)
    if listed is not None:
        names = listed.group("names")
        if re.search(rf"\b{re.escape(name)}\b", names):
            return text
        inner = names.rstrip()
        trailing = names[len(inner) :]
        joined = (
            f"{inner}, {name}{trailing}" if inner.strip() and not inner.endswith(",") else f"{inner} {name}{trailing}"
        )
        if "\n" in names:
            indent = re.search(r"\n([ \t]*)\S", names)
            pad = indent.group(1) if indent else "  "
            joined = f"{inner.rstrip(',')},\n{pad}{name},\n"
        return text[: listed.start("names")] + joined + text[listed.end("names") :]
    if re.search(r"^exports\.\w+\s*=", text, re.M):
        return text.rstrip("\n") + f"\nexports.{name} = {name};\n"
    if re.search(r"^module\.exports\.\w+\s*=", text, re.M):
        return text.rstrip("\n") + f"\nmodule.exports.{name} = {name};\n"
    esm_list = re.search(r"^export\s*\{(?P<names>[^}]*)\}", text, re.M)
    if esm_list is not None and not re.search(rf"\b{re.escape(name)}\b", esm_list.group("names")):
        inner = esm_list.group("names").rstrip()
        return text[: esm_list.start("names")] + f"{inner}, {name} " + text[esm_list.end("names") :]
    if re.search(r"^export\s+(?:async\s+)?(?:function|const|class)\b", text, re.M):
        return re.sub(rf"^((?:async\s+)?function\s+{re.escape(name)}\b)", r"export \1", text, count=1, flags=re.M)
    return text


def _indented(code: str, indent: str) -> list[str]:
    return [indent + line if line.strip() else "" for line in code.splitlines()]


def _joined(lines: list[str]) -> str:
    return "\n".join(lines).rstrip("\n") + "\n"
