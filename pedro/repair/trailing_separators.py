"""A separator appended after every item, the last one's included: a loop whose last statement adds a separator that
never changes (`result.push(n, delimiter)`, `out.append(x)` then `out.append(", ")`) leaves one too many at the end,
where a join by hand was meant. The separator after the last item is taken off once the loop ends; Python,
JavaScript and Go."""

from __future__ import annotations

import re

from pedro.repair.divisor_loops import loop_body
from pedro.repair.locate import Unit, indent_of
from pedro.repair.loop_additions import Addition
from pedro.repair.loop_remainders import closing_row

_NAME = r"[A-Za-z_$][\w$]*"
_LOOPS = {
    "python": re.compile(r"^\s*for\s.+:\s*(?:#.*)?$"),
    "javascript": re.compile(r"^\s*for\s*\(.*\)\s*\{\s*$"),
    "go": re.compile(r"^\s*for\b.*\{\s*$"),
}
# What the loop's last statement adds: (the collection, the values added in one call).
_ADDS = {
    "python": re.compile(
        rf"^\s*(?P<out>{_NAME})(?:\.append\((?P<one>.+)\)|\.extend\(\[(?P<many>.+)\]\)|\s*\+=\s*\[(?P<more>.+)\])\s*$"
    ),
    "javascript": re.compile(rf"^\s*(?P<out>{_NAME})\.push\((?P<many>.+)\)\s*;?\s*$"),
    "go": re.compile(rf"^\s*(?P<out>{_NAME})\s*=\s*append\(\s*(?P=out)\s*,\s*(?P<many>.+?)(?:\.\.\.)?\)\s*$"),
}
_LITERAL = re.compile(r"""^(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`|-?\d+(?:\.\d+)?)$""")
_TRIM = {
    "python": "del {out}[-1:]",
    "javascript": "{out}.pop();",
    "go": "if len({out}) > 0 {{\n{inner}{out} = {out}[:len({out})-1]\n{indent}}}",
}


def trailing_separators(unit: Unit) -> list[Addition]:
    """For each loop whose last statement adds a separator after the item, the separator taken off after the loop:
    (the file line of the loop's last line, that line and the lines added, the change)."""
    loops, adds = _LOOPS.get(unit.language), _ADDS.get(unit.language)
    if loops is None or adds is None:
        return []
    lines = unit.text.splitlines()
    found: list[Addition] = []
    for row, text in enumerate(lines):
        if not loops.match(text):
            continue
        body_rows = _body_rows(lines, row, unit.language)
        if not body_rows:
            continue
        out = _separated_into(lines, row, body_rows, adds)
        last = body_rows[-1] + (unit.language != "python")  # the closing brace, where there is one
        if out is None or last >= len(lines) or _trimmed_after(lines[last + 1 : last + 3], out):
            continue
        indent = indent_of(text)
        trim = _TRIM[unit.language].format(out=out, indent=indent, inner=indent + "\t")
        added = "\n".join(f"{indent}{line}" if k == 0 else line for k, line in enumerate(trim.split("\n")))
        found.append(
            (unit.start_line + last, f"{lines[last]}\n{added}", f"the separator after `{out}`'s last item taken off")
        )
    return found


def _body_rows(lines: list[str], row: int, language: str) -> list[int]:
    """The rows of the loop's body that hold code, in order."""
    if language == "python":
        rows = range(row + 1, row + 1 + len(loop_body(lines, row)))
    else:
        end = closing_row(lines, row)
        rows = range(row + 1, end) if end is not None else range(0)
    return [k for k in rows if lines[k].strip() and not lines[k].strip().startswith(("#", "//"))]


def _separated_into(lines: list[str], row: int, body: list[int], adds: re.Pattern[str]) -> str | None:
    """The collection the loop's last statement adds a separator to after an item, or None."""
    last = adds.match(lines[body[-1]])
    if last is None or indent_of(lines[body[-1]]) != indent_of(lines[body[0]]):
        return None
    out = last["out"]
    groups = last.groupdict()
    values = split_arguments(groups.get("one") or groups.get("many") or groups.get("more") or "")
    if len(values) == 1 and len(body) >= 2:
        before = adds.match(lines[body[-2]])
        if before is None or before["out"] != out:
            return None
    elif len(values) < 2:
        return None
    separator = values[-1]
    changed = "\n".join(lines[k] for k in [row, *body[:-1]])
    return out if _unchanging(separator, changed) and separator not in values[:-1] else None


def _unchanging(value: str, loop: str) -> bool:
    """Whether `value` is the same each time round: a literal, or a name the loop's header and body (`loop`) never
    name (not the item, nothing set from it)."""
    if _LITERAL.match(value) is not None:
        return True
    return (
        re.fullmatch(_NAME, value) is not None and re.search(rf"(?<![\w$.]){re.escape(value)}(?![\w$])", loop) is None
    )


def split_arguments(text: str) -> list[str]:
    """A call's arguments, split at the commas outside brackets, quotes and JavaScript's pattern literals."""
    parts: list[str] = []
    depth, start, quote = 0, 0, ""
    for k, char in enumerate(text):
        if quote:
            quote = "" if char == quote and text[k - 1] != "\\" else quote
        elif char in "\"'`" or (char == "/" and not text[start:k].strip()):
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:k].strip())
            start = k + 1
    parts.append(text[start:].strip())
    return [part for part in parts if part]


def _trimmed_after(after: list[str], out: str) -> bool:
    """Whether the lines after the loop take something off `out` already."""
    trims = (f"{out}.pop(", f"{out}[:-1]", f"{out}[-1:]", f"{out}.slice(0, -1)", f"{out}[:len({out})-1]")
    return any(trim in line for line in after for trim in trims)
