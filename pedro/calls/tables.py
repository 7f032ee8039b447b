"""Arguments from the table a Go test loops over: `Median(c.in)` inside `for _, c := range cases`, where `cases` is a
slice (or map) of struct literals, gives each row's `in` field; the rows' values as Python values."""

from __future__ import annotations

import re
from collections.abc import Iterator

from pedro.calls.literals import BRACKETS, Arguments, balanced_end, python_literal, string_end

_FIELD = r"[A-Za-z_]\w*"
# `Median(c.in)`, `Add(tc.a, tc.b)`: a call whose arguments are all fields of one row variable.
_ROW_CALL = (
    r"(?:(?<![\w.])|(?<![\w.])[A-Za-z_]\w*\.){name}\s*\(\s*(?P<args>{field}\.{field}(?:\s*,\s*{field}\.{field})*)\s*\)"
)
# A struct type's fields: `[]struct {` (a table of its own) or `type name struct {` (a table of `[]name`).
_STRUCT = re.compile(r"(?:\[\]|map\[[^\]]+\])\s*struct\s*\{|type\s+(?P<type>[A-Za-z_]\w*)\s+struct\s*\{")


def table_arguments(text: str, name: str) -> list[Arguments]:
    """The arguments each row of a table gives a call of `name` made with fields of the row (`Median(c.in)`), in a
    Go test's text: rows written positionally (`{"odd", []float64{1, 2, 3}, 2}`) or by field (`{in: …}`)."""
    found: list[Arguments] = []
    pattern = re.compile(_ROW_CALL.format(name=re.escape(name), field=_FIELD))
    wanted = [tuple(arg.split(".")[1].strip() for arg in match["args"].split(",")) for match in pattern.finditer(text)]
    for fields in dict.fromkeys(wanted):
        for order, rows in _tables(text):
            if not set(fields) <= set(order):
                continue
            for row in rows:
                values = _row_values(row, order)
                if values is not None and all(field in values for field in fields):
                    found.append((tuple(values[field] for field in fields), {}))
    return found


def _tables(text: str) -> Iterator[tuple[list[str], list[str]]]:
    """(field names in order, each row's text) for each table of structs in `text`."""
    for match in _STRUCT.finditer(text):
        end = balanced_end(text, match.end() - 1)
        if end is None:
            continue
        order = _field_names(text[match.end() : end - 1])
        if match["type"]:
            # A named row type: its tables are `[]name{` literals anywhere in the text.
            for table in re.finditer(rf"\[\]\s*{re.escape(match['type'])}\s*\{{", text):
                yield order, _items(text, table.end() - 1)
        elif text[end : end + 1] == "{":
            yield order, _items(text, end)


def _field_names(declaration: str) -> list[str]:
    """The field names of a struct's body (`name string; a, b int`), in order."""
    names: list[str] = []
    for line in re.split(r"[\n;]", declaration):
        words = line.split("//")[0].strip()
        if not words:
            continue
        head, _, _ = words.partition(" ")
        fields = re.match(rf"\s*({_FIELD}(?:\s*,\s*{_FIELD})*)\s+\S", words)
        if fields is None:
            names.append(head)  # an embedded type
            continue
        names += [part.strip() for part in fields.group(1).split(",")]
    return names


def _items(text: str, start: int) -> list[str]:
    """The texts of the items of the braced list that opens at `start`, split at its own commas."""
    end = balanced_end(text, start)
    if end is None:
        return []
    items, depth, begin, i = [], 0, start + 1, start + 1
    while i < end - 1:
        char = text[i]
        if char in "'\"`":
            close = string_end(text, i) if char != "`" else text.find("`", i + 1)
            if close is None or close < 0:
                return []
            i = close + 1
            continue
        if char in BRACKETS:
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            items.append(text[begin:i])
            begin = i + 1
        i += 1
    items.append(text[begin : end - 1])
    return [item.strip() for item in items if item.strip()]


def _row_values(row: str, order: list[str]) -> dict[str, object] | None:
    """A row's values by field name: `{…}` (a map's row after its key `"name": {…}`), positional or by field."""
    row = re.sub(r'^(?:"(?:\\.|[^"\\])*"|`[^`]*`)\s*:\s*', "", row)  # a map table's key
    if not row.startswith("{"):
        return None
    values: dict[str, object] = {}
    for k, item in enumerate(_items(row, 0)):
        keyed = re.match(rf"({_FIELD})\s*:\s*(.+)$", item, re.S)
        field, value = (keyed.group(1), keyed.group(2)) if keyed else (order[k] if k < len(order) else "", item)
        parsed = python_literal(value)
        if field and parsed:
            values[field] = parsed[0]
    return values
