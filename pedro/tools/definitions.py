"""search's find_definition: where a name is defined, with the unit's own lines and the lines that call it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pedro.safety.secretfiles import is_secret_path
from pedro.tools.base import ToolContext, ToolFailure
from pedro.tools.ripgrep import base_argv, child_env, collect_lines, first_line
from pedro.tools.symbols import Symbol, find_definitions

# find_definition parses at most this many candidate files, and none larger than MAX_PARSE_BYTES.
MAX_CANDIDATE_FILES = 2000
MAX_PARSE_BYTES = 4 * 1024 * 1024
# Where a name has at most this many definitions, each one's lines are shown: the usual next step is to read them,
# and in a module of thousands of lines the unit is what matters, never the whole file.
UNITS_SHOWN = 2
# A unit longer than this shows its first lines and says which lines hold the rest.
UNIT_LINES = 40
# Lines that call the name (or, for a value or a type, use it), outside its own definitions.
CALLERS_SHOWN = 10
MAX_LINE_CHARS = 200

_IDENTIFIER = re.compile(r"^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$")
_CALLED_KINDS = frozenset({"function", "method"})
# A line that defines some other thing of the same name (another class's method, a Go method's receiver before it).
_DEFINES = r"\b(?:def|func|function|fn|class|struct|interface|type)\s+(?:\([^)]*\)\s*)?"
_DEFINITION_WORDS = re.compile(r"^(?:def|class|func|function|fn|type|struct|interface|const|let|var)\s+")


@dataclass(frozen=True)
class _Found:
    """One definition and the text of the file it is in."""

    rel: str
    symbol: Symbol
    lines: list[str]


def find_definition(ctx: ToolContext, raw_name: str, target: Path, *, limit: int = 100) -> str:
    """Where a name is defined: `path:line: kind name` rows from tree-sitter tags or the regex fallback; where there
    are few, each definition's own lines; then the lines that call it, as `path:line: text` rows."""
    name = _clean_name(raw_name)
    leaf = name.rsplit(".", 1)[-1]
    candidates = _files_mentioning(ctx, leaf, target)
    found: list[_Found] = []
    texts: dict[str, list[str]] = {}
    for rel in candidates[:MAX_CANDIDATE_FILES]:
        source = _read_source(ctx.root / rel)
        if source is None:
            continue
        texts[rel] = source.decode("utf-8", errors="replace").splitlines()
        found += [_Found(rel, symbol, texts[rel]) for symbol in find_definitions(source, rel, name)]
    if not found:
        if not candidates:
            return f"{name!r} does not occur in any searched file; check the spelling or use search grep"
        sample = ", ".join(candidates[:5])
        return (
            f"no definition of {name!r} found; it is mentioned in {len(candidates)} file(s) ({sample}); "
            f"use search grep with pattern {leaf!r} to see where"
        )
    rows = [_row(one) for one in found[:limit]]
    if len(found) <= UNITS_SHOWN:
        rows = [row for one in found for row in ("", _row(one), *_unit_rows(one))][1:]
    if len(found) > limit:
        rows.append(f"… {len(found) - limit} more definitions not shown; pass `path` to narrow the search")
    if len(candidates) > MAX_CANDIDATE_FILES:
        rows.append(f"(only the first {MAX_CANDIDATE_FILES} of {len(candidates)} files were parsed; pass `path`)")
    rows += _caller_rows(name, found, texts)
    return "\n".join(rows)


def _row(one: _Found) -> str:
    return f"{one.rel}:{one.symbol.start_line}: {one.symbol.kind} {one.symbol.qualified_name}"


def _unit_rows(one: _Found) -> list[str]:
    """The definition's own lines, as `path:line: text` rows, the first UNIT_LINES of a longer one."""
    start, end = one.symbol.start_line, min(one.symbol.end_line, len(one.lines))
    shown_end = min(end, start + UNIT_LINES - 1)
    rows = [f"{one.rel}:{number}: {_cut(one.lines[number - 1])}" for number in range(start, shown_end + 1)]
    if shown_end < end:
        rows.append(f"… {end - shown_end} more lines: read {one.rel} lines {shown_end + 1}-{end}")
    return rows


def _caller_rows(name: str, found: list[_Found], texts: dict[str, list[str]]) -> list[str]:
    """The lines outside the name's definitions that call it (a function or a method) or use it (a class, a type,
    a value), as `path:line: text` rows, at most CALLERS_SHOWN and a count of the rest."""
    leaf = name.rsplit(".", 1)[-1]
    called = all(one.symbol.kind in _CALLED_KINDS for one in found)
    pattern, defining = _use_patterns(name, called=called)
    inside = {(one.rel, number) for one in found for number in range(one.symbol.start_line, one.symbol.end_line + 1)}
    hits = [
        f"{rel}:{index}: {_cut(line)}"
        for rel, lines in texts.items()
        for index, line in enumerate(lines, start=1)
        if (rel, index) not in inside and pattern.search(line) and not defining.search(line)
    ]
    if not hits:
        return []
    heading = "called at" if called else "used at"
    rows = ["", f"{heading} ({len(hits)} line{'s' if len(hits) != 1 else ''}):", *hits[:CALLERS_SHOWN]]
    if len(hits) > CALLERS_SHOWN:
        rows.append(f"… {len(hits) - CALLERS_SHOWN} more; search grep with pattern {leaf!r} shows them all")
    return rows


def _use_patterns(name: str, *, called: bool) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A line that calls (or uses) the name, and a line that defines another thing of its name."""
    leaf = name.rsplit(".", 1)[-1]
    # A qualified name (Calc.mul) is called as an attribute; a plain one may be either.
    before = r"\." if "." in name else "" if leaf.startswith("$") else r"\b"
    use = re.compile(before + re.escape(leaf) + (r"\s*\(" if called else r"\b"))
    return use, re.compile(_DEFINES + re.escape(leaf) + r"\b")


def _cut(line: str) -> str:
    return line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS] + " …"


def _clean_name(raw: str) -> str:
    name = _DEFINITION_WORDS.sub("", raw.strip()).removesuffix("()").strip()
    if not _IDENTIFIER.match(name):
        raise ToolFailure(
            f'{raw!r} is not a name; give a bare identifier such as "mul" or a qualified one such as "Calc.add" '
            "(use search grep for other text)"
        )
    return name


def _files_mentioning(ctx: ToolContext, word: str, target: Path) -> list[str]:
    # Secret files are left out by name, as grep leaves them out: ripgrep never opens one to look for the word.
    argv = base_argv(ctx, hide_secrets=not target.is_file())
    argv += ["--files-with-matches", "--fixed-strings", "--case-sensitive"]
    if "$" not in word:
        # \b cannot sit next to `$`, so JavaScript names like $el are matched as plain substrings.
        argv.append("--word-regexp")
    argv += ["-e", word, "--", ctx.rel(target)]
    paths, outcome = collect_lines(argv, cwd=ctx.root, env=child_env(ctx))
    if outcome.returncode == 2 and not paths:
        raise ToolFailure(f"search failed: {first_line(outcome.stderr)}")
    if not target.is_file():
        paths = [path for path in paths if not is_secret_path(path)]  # and never named
    paths.sort()
    return paths


def _read_source(path: Path) -> bytes | None:
    try:
        if path.stat().st_size > MAX_PARSE_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    return None if b"\x00" in data[:8192] else data
