"""The item a counted loop over all but the last leaves out, in Go and JavaScript: `for i := 0; i < len(xs)-1; i++`
that appends `xs[i]` each time, and nothing after it for the last (`intersperse` puts a separator after each item but
the last, and forgets the last item itself). Python's loops get the same from loop_additions.py, read by its ast."""

from __future__ import annotations

import re

from pedro.repair.locate import Unit, indent_of
from pedro.repair.loop_additions import Addition

_HEADERS = {
    "go": re.compile(r"^\s*for\s+(?P<i>\w+)\s*:=\s*0\s*;\s*(?P=i)\s*<\s*len\((?P<xs>\w+)\)\s*-\s*1\s*;"),
    "javascript": re.compile(
        r"^\s*for\s*\(\s*(?:let|var)\s+(?P<i>[\w$]+)\s*=\s*0\s*;\s*(?P=i)\s*<\s*(?P<xs>[\w$]+)\.length\s*-\s*1\s*;"
    ),
}
_APPENDS = {
    "go": re.compile(r"^\s*(?P<out>\w+)\s*=\s*append\(\s*(?P=out)\s*,\s*(?P<value>[^,()]+?)\s*\)\s*$"),
    "javascript": re.compile(r"^\s*(?P<out>[\w$]+)\.push\(\s*(?P<value>[^,()]+?)\s*\)\s*;?\s*$"),
}
_LAST = {"go": "{out} = append({out}, {xs}[len({xs})-1])", "javascript": "{out}.push({xs}[{xs}.length - 1]);"}


def loop_remainders(unit: Unit) -> list[Addition]:
    """For each loop over all but the last item of a sequence that appends its items (`xs[i]`, or a name set to it),
    the last item appended after the loop: (the file line of the loop's closing brace, that brace and the line
    added, the change)."""
    header, appends = _HEADERS.get(unit.language), _APPENDS.get(unit.language)
    if header is None or appends is None:
        return []
    lines = unit.text.splitlines()
    found: list[Addition] = []
    for row, text in enumerate(lines):
        match = header.match(text)
        end = closing_row(lines, row) if match else None
        if match is None or end is None:
            continue
        xs, i = match["xs"], match["i"]
        items = {f"{xs}[{i}]", *_names_set_to(lines[row + 1 : end], f"{xs}[{i}]")}
        outs = dict.fromkeys(
            m["out"] for line in lines[row + 1 : end] if (m := appends.match(line)) and m["value"] in items
        )
        for out in outs:
            added = _LAST[unit.language].format(out=out, xs=xs)
            if any(added.strip(";") in line for line in lines[end + 1 : end + 3]):
                continue
            new = f"{lines[end]}\n{indent_of(text)}{added}"
            found.append((unit.start_line + end, new, f"`{added}` added after the loop: its last item"))
    return found


def closing_row(lines: list[str], row: int) -> int | None:
    """The row of the `}` that closes the block opened on `row`, at that row's indent."""
    indent = indent_of(lines[row])
    return next((k for k in range(row + 1, len(lines)) if lines[k].rstrip() == f"{indent}}}"), None)


def _names_set_to(lines: list[str], value: str) -> list[str]:
    """The names the lines set to `value` alone (`n := numbers[i]`, `const n = numbers[i];`)."""
    pattern = re.compile(rf"^\s*(?:(?:let|const|var)\s+)?(?P<name>[\w$]+)\s*:?=\s*{re.escape(value)}\s*;?\s*$")
    return [m["name"] for line in lines if (m := pattern.match(line))]
