"""Values a unit starts empty and reads but never changes, where a slip gave their change to a sibling or left it out:
a count started at 0 beside one stepped inside an `if` with no `else` (`even_count++` and never `odd_count++`) gets
its step as that `if`'s `else`; a collection started empty beside a fill of another (`values = append(values, i)`
and a `result` returned empty) takes that fill's place. Python, JavaScript, Go.
"""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange, block_header, indent_of
from pedro.repair.mutants import code_text, code_tokens
from pedro.tools.symbols import LanguageName

_STARTS = {
    "python": re.compile(r"^\s*(?P<n>[A-Za-z_]\w*)\s*=\s*0\s*$"),
    "javascript": re.compile(r"^\s*(?:let|var)\s+(?P<n>[A-Za-z_$][\w$]*)\s*=\s*0\s*;?\s*$"),
    "go": re.compile(r"^\s*(?:(?P<n>[A-Za-z_]\w*)\s*:=\s*0|var\s+(?P<v>[A-Za-z_]\w*)\s+int(?:\s*=\s*0)?)\s*$"),
}
# A step of one count, alone on its line: `n += 1`, `n++`, `n = n + 1`.
_STEP = re.compile(r"^\s*(?P<n>[A-Za-z_$][\w$]*)\s*(?:\+\+|--|[-+]=\s*1|=\s*(?P=n)\s*[-+]\s*1)\s*;?\s*$")
_EMPTY_STARTS = {
    "python": re.compile(r"^\s*(?P<n>[A-Za-z_]\w*)\s*=\s*(?:\[\]|\{\}|list\(\)|set\(\)|dict\(\))\s*$"),
    "javascript": re.compile(r"^\s*(?:let|var|const)\s+(?P<n>[A-Za-z_$][\w$]*)\s*=\s*\[\]\s*;?\s*$"),
    "go": re.compile(r"^\s*(?P<n>[A-Za-z_]\w*)\s*:=\s*(?:make\(\[\][\w.]+(?:\s*,\s*0)?\)|\[\][\w.]+\{\})\s*$"),
}
# A collection filled in place, as a statement of its own: `xs.append(x)`, `xs.push(x)`, `xs = append(xs, x)`.
_FILL = re.compile(
    r"^\s*(?P<n>[A-Za-z_$][\w$]*)(?:\.(?:append|extend|add|insert|push|unshift)\(|\s*=\s*append\(\s*(?P=n)\s*,)"
)
# What changes a collection: a fill, a store into it, a new value.
_CHANGED = (
    r"(?<![\w$.]){name}\s*(?:\.(?:append|extend|add|insert|push|unshift|update|setdefault)\("
    r"|\[[^\]]*\]\s*=(?!=)|[-+|]?=(?!=)|:=)"
)
_IF = re.compile(r"^\s*(?:\}\s*else\s+if|if|elif)\b")
_ELSE = re.compile(r"^\s*(?:\}\s*)?(?:else|elif)\b")


def still_counts(lines: list[str], language: LanguageName) -> list[RowChange]:
    """For each count started at 0, read and never moved, its step as the `else` of each `if` whose body only
    moves a sibling count."""
    start = _STARTS.get("javascript" if language == "typescript" else language)
    if start is None:
        return []
    counts = {}
    for row, line in enumerate(lines):
        if match := start.match(line):
            counts[match["n"] or match["v"]] = row
    found: list[RowChange] = []
    for name, row in counts.items():
        if _moved(lines[row + 1 :], name, language) or not _read(lines[row + 1 :], name, language):
            continue
        for at, line in enumerate(lines[row + 1 :], row + 1):
            step = _STEP.match(line)
            if step and step["n"] in counts and step["n"] != name:
                change = _as_else(lines, at, _renamed(line, step["n"], name).strip(), language)
                found += [] if change is None else [change]
    return found


def unfilled(lines: list[str], language: LanguageName) -> list[RowChange]:
    """For each collection started empty, read and never changed, each line that fills another collection made to
    fill it instead."""
    start = _EMPTY_STARTS.get("javascript" if language == "typescript" else language)
    if start is None:
        return []
    found: list[RowChange] = []
    for row, line in enumerate(lines):
        match = start.match(line)
        if match is None:
            continue
        name, later = match["n"], lines[row + 1 :]
        changed = re.compile(_CHANGED.format(name=re.escape(name)))
        if any(changed.search(code_text(text, language)) for text in later) or not _read(later, name, language):
            continue
        for at, text in enumerate(later, row + 1):
            fill = _FILL.match(code_text(text, language))
            if fill and fill["n"] != name:
                change = f"`{fill['n']}` → `{name}`: `{name}` is read and never filled"
                found.append(RowChange(at, _renamed(text, fill["n"], name), change))
    return found


def _renamed(line: str, old: str, new: str) -> str:
    """`line` with each use of the name `old` made `new`."""
    return re.sub(rf"(?<![\w$.]){re.escape(old)}(?![\w$])", new.replace("\\", "\\\\"), line)


def _moved(lines: list[str], name: str, language: LanguageName) -> bool:
    """Whether any line gives `name` a new value."""
    assigned = re.compile(rf"(?<![\w$.]){re.escape(name)}\s*(?:\+\+|--|[-+*/%]?=(?!=))")
    return any(assigned.search(code_text(line, language)) for line in lines)


def _read(lines: list[str], name: str, language: LanguageName) -> bool:
    return any(kind == "name" and text == name for line in lines for kind, text, _ in code_tokens(line, language))


def _as_else(lines: list[str], step_row: int, step: str, language: LanguageName) -> RowChange | None:
    """The `if` around the step at `step_row` given an `else` that takes `step`; None where the step is in no `if`,
    that `if` already has an `else`, or (braced) its closing brace shares its line."""
    header = block_header(lines, step_row)
    if header is None or not _IF.match(lines[header]):
        return None
    outer, inner = indent_of(lines[header]), indent_of(lines[step_row])
    end = step_row + 1
    while end < len(lines) and (not lines[end].strip() or len(indent_of(lines[end])) > len(outer)):
        end += 1
    change = f"`else` taking `{step}`: the count is read and never moved"
    if language == "python":
        if end < len(lines) and _ELSE.match(lines[end]):
            return None
        last = max(row for row in range(step_row, end) if lines[row].strip())
        return RowChange(last, f"{lines[last]}\n{outer}else:\n{inner}{step}", change)
    if end >= len(lines) or lines[end].strip() != "}":
        return None  # no brace of its own on the closing line, or an `else` already
    return RowChange(end, f"{outer}}} else {{\n{inner}{step}\n{outer}}}", change)
