"""A call a Go function dropped, where what it called is still there and so the package does not build: a package
imported and not used (`"sort"`), each slice the function fills or is given sorted, up or down, after the loop that
fills it, before the loop that walks it or before it is returned, each text parameter put in one case or trimmed
where it starts; a check of its own declared and not used (`is_prime := func(n int) bool`), made part of a
condition on each name the condition reads."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange, indent_of
from pedro.repair.mutants import code_text
from pedro.repair.native_probes import go_parameters

# The slices the standard library sorts by name, and the named type that reverses them.
_SORTS = {"int": ("Ints", "IntSlice"), "string": ("Strings", "StringSlice"), "float64": ("Float64s", "Float64Slice")}
_FORMS = ("ToLower", "ToUpper", "TrimSpace")
"""What `strings` does to a text parameter that a function promising to ignore case or spaces forgot."""
_SIGNATURE = re.compile(r"^\s*func\s*(?:\([^)]*\)\s*)?\w+\s*(?:\[[^\]]*\])?\((?P<params>[^)]*)\)")
_DECLARED = re.compile(
    r"^\s*(?:(?P<name>\w+)\s*:=\s*(?:make\(\s*)?\[\](?P<type>\w+)\b|var\s+(?P<var>\w+)\s+\[\](?P<vartype>\w+)\b)"
)
_LOOP = re.compile(r"^\s*for\b")
_CHECK = re.compile(r"^\s*(?P<name>\w+)\s*:=\s*func\s*\(\s*\w+\s+[^,()]+\)\s*bool\s*\{\s*$")
"""A local function of one parameter that answers yes or no: a check a condition may have dropped."""
_CONDITION = re.compile(r"^(?P<head>\s*(?:\}\s*else\s+)?if\s+)(?P<condition>.+?)(?P<tail>\s*\{\s*)$")
_NAME = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?![\w(\[.])")
_KEYWORDS = frozenset({"true", "false", "nil"})
_MOST = 24
"""The most changes one function gives: every other candidate fails to build, so these are the ones worth a run."""


def dropped_calls(lines: list[str], unused: frozenset[str]) -> list[RowChange]:
    """The calls of the packages `unused` (those the failure says are imported and never used) that a Go function's
    lines may have dropped, the likeliest first."""
    found: list[RowChange] = []
    statements = _top_statements(lines)
    slices = _slices(lines)
    if "sort" in unused:
        found += _sorted(lines, statements, slices, descending=False)
        found += _sorted(lines, statements, slices, descending=True)
    if "strings" in unused and statements:
        first = statements[0]
        for name in _parameters(lines[0], "string"):
            for form in _FORMS:
                call = f"{name} = strings.{form}({name})"
                text = f"{indent_of(lines[first])}{call}\n{lines[first]}"
                found.append(RowChange(first, text, f"`{call}` added where the body starts: {_WHY.format('strings')}"))
    return found[:_MOST]


def dropped_checks(lines: list[str], unused: frozenset[str]) -> list[RowChange]:
    """For each local check the failure says is declared and not used, each `if` of the function (outside the check)
    with the check of each name its condition reads added to it, then the same negated."""
    found: list[RowChange] = []
    for row, text in enumerate(lines):
        check = _CHECK.match(text)
        if check is None or check["name"] not in unused:
            continue
        inside = range(row, _block_end(lines, row) + 1)
        conditions = [
            (k, match) for k, line in enumerate(lines) if k not in inside and (match := _CONDITION.match(line))
        ]
        for negated in ("", "!"):
            for k, match in conditions:
                condition = match["condition"]
                joined = f"({condition})" if "||" in condition else condition
                for name in dict.fromkeys(_NAME.findall(code_text(condition, "go"))):
                    if name in _KEYWORDS or name == check["name"]:
                        continue
                    call = f"{negated}{check['name']}({name})"
                    new = f"{match['head']}{joined} && {call}{match['tail']}"
                    why = f"{check['name']} is declared and not used"
                    found.append(RowChange(k, new, f"`&& {call}` added to `if {condition}`: {why}"))
    return found[:_MOST]


def _block_end(lines: list[str], row: int) -> int:
    """The row of the brace that closes the block opened on `row`."""
    depth = 0
    for k in range(row, len(lines)):
        code = code_text(lines[k], "go")
        depth += code.count("{") - code.count("}")
        if depth <= 0 and k > row:
            return k
    return len(lines) - 1


_WHY = "the file imports {} and uses it nowhere"


def _sorted(
    lines: list[str], statements: list[int], slices: dict[str, tuple[str, int]], *, descending: bool
) -> list[RowChange]:
    """Each slice sorted before each statement of the body where a sort fits: after the loop that fills it first, then
    before the return that hands it back, then before the loop that walks it."""
    found: list[tuple[int, RowChange]] = []
    for name, (kind, declared) in slices.items():
        by_name, reversed_type = _SORTS[kind]
        call = f"sort.Sort(sort.Reverse(sort.{reversed_type}({name})))" if descending else f"sort.{by_name}({name})"
        for rank, row in _places(lines, statements, name, declared):
            text = f"{indent_of(lines[row])}{call}\n{lines[row]}"
            change = f"`{call}` added before `{lines[row].strip()}`: {_WHY.format('sort')}"
            found.append((rank, RowChange(row, text, change)))
    return [change for _, change in sorted(found, key=lambda pair: pair[0])]


def _places(lines: list[str], statements: list[int], name: str, declared: int) -> list[tuple[int, int]]:
    """The rows of the body's statements a sort of `name` may go before, after the row it is declared on, each with
    its rank: 0 after the loop that fills it, 1 before a return that reads it, 2 before a loop that walks it."""
    filled = re.compile(rf"\b{name}\s*=\s*append\(\s*{name}\b")
    returned = re.compile(rf"^\s*return\b.*\b{name}\b")
    walked = re.compile(rf"\brange\s+{name}\b")
    places: list[tuple[int, int]] = []
    for k, row in enumerate(statements):
        if row <= declared:
            continue
        before = statements[k - 1] if k else -1
        code = code_text(lines[row], "go")
        if before > declared and _LOOP.match(lines[before]) and any(filled.search(line) for line in lines[before:row]):
            places.append((0, row))
        elif returned.search(code):
            places.append((1, row))
        elif walked.search(code):
            places.append((2, row))
    return places


def _top_statements(lines: list[str]) -> list[int]:
    """The rows of the statements directly in the function's body (not inside a block of theirs), by braces."""
    rows: list[int] = []
    depth = 0
    for row, line in enumerate(lines):
        code = code_text(line, "go").strip()
        if depth == 1 and code and not code.startswith("}"):
            rows.append(row)
        depth += code.count("{") - code.count("}")
    return rows


def _slices(lines: list[str]) -> dict[str, tuple[str, int]]:
    """The slices of a sortable kind the function is given or declares: name → (element type, row declared)."""
    found = {name: (kind, 0) for kind in _SORTS for name in _parameters(lines[0], f"[]{kind}")}
    for row, line in enumerate(lines[1:], start=1):
        match = _DECLARED.match(line)
        if match is None:
            continue
        name, kind = match["name"] or match["var"], match["type"] or match["vartype"]
        if kind in _SORTS and name not in found:
            found[name] = (kind, row)
    return found


def _parameters(head: str, wanted: str) -> list[str]:
    """The names of the parameters of type `wanted` in a Go function's first line (`a, b []int` gives both)."""
    match = _SIGNATURE.match(head)
    parameters = go_parameters(match["params"]) if match is not None else None
    return [name for name, kind in parameters or () if kind.replace(" ", "") == wanted]
