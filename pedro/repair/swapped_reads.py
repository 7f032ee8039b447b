"""Two values read from one sequence at each other's places, on two lines: `month, err := strconv.Atoi(split[1])` and
`day, err := strconv.Atoi(split[0])` where a date reads month first. Each line alone is a one-token variant that
breaks the other value too, so the two are swapped together."""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import combinations

from pedro.repair.locate import RowChange
from pedro.repair.mutants import code_tokens
from pedro.tools.symbols import LanguageName

_MOST_PAIRS = 6
"""Pairs offered per unit at most: a function that reads many places of one sequence is a table, not a slip."""


def swapped_reads(lines: list[str], language: LanguageName) -> list[RowChange]:
    """Each pair of lines that each read one sequence at one literal place (`xs[1]`, a different place on each),
    both places swapped; `lines` are the unit's, its signature first."""
    changes: list[RowChange] = []
    for name, rows in _reads(lines, language).items():
        pairs = [(one, other) for one, other in combinations(rows, 2) if one[3] != other[3]]
        if len(pairs) <= _MOST_PAIRS:
            changes += [_swapped(lines, name, one, other) for one, other in pairs]
    return changes


def reordered_reads(lines: list[str], language: LanguageName) -> list[RowChange]:
    """The pair of swapped_reads whose swap puts a sequence's places in order down the unit, where one swap does:
    `month := split[1]`, `day := split[0]`, `year := split[2]` reads the parts out of their order, which code that
    takes a sequence apart keeps unless a slip mixed two of them up."""
    changes: list[RowChange] = []
    for name, rows in _reads(lines, language).items():
        places = [int(index) for *_, index in rows]
        if len(set(places)) != len(places) or places == sorted(places):
            continue
        for one, other in combinations(range(len(rows)), 2):
            swapped = list(places)
            swapped[one], swapped[other] = swapped[other], swapped[one]
            if swapped == sorted(places):
                change = _swapped(lines, name, rows[one], rows[other])
                said = change.change.replace(
                    "between the two lines that read them", f"so that `{name}` is read in order"
                )
                changes.append(replace(change, change=said))
    return changes


def swapped_throughout(lines: list[str], language: LanguageName) -> list[RowChange]:
    """For a sequence the unit reads at two literal places only, several times (`t[0]` and `t[1]` all through a
    date's checks), the two places swapped wherever they are read: the day and the month taken each for the other."""
    places: dict[str, dict[int, list[tuple[int, int, str]]]] = {}
    for row, text in enumerate(lines[1:], 1):
        for name, start, end, index in _literal_reads(text, language):
            places.setdefault(name, {}).setdefault(row, []).append((start, end, index))
    changes: list[RowChange] = []
    for name, rows in places.items():
        indices = sorted({index for reads in rows.values() for *_, index in reads})
        if len(indices) != 2 or sum(len(reads) for reads in rows.values()) <= 2:  # noqa: PLR2004 (two are a pair)
            continue
        other = {indices[0]: indices[1], indices[1]: indices[0]}
        rewritten = []
        for row, reads in sorted(rows.items()):
            text = lines[row]
            for start, end, index in sorted(reads, reverse=True):
                text = f"{text[:start]}{other[index]}{text[end:]}"
            rewritten.append((row, text))
        (first, new), *also = rewritten
        said = f"`{name}[{indices[0]}]` and `{name}[{indices[1]}]` swapped wherever the unit reads them"
        changes.append(RowChange(first, new, said, tuple(also)))
    return changes


def crossed_attributes(lines: list[str], language: LanguageName) -> list[RowChange]:
    """Two lines near each other that each assign a name from the attribute (or key) the other line's name is
    called after, `numerator = frac.denominator` and `denominator = frac.numerator`: the two reads swapped, so that
    each name gets its own. Either line alone changed leaves both names one value."""
    assigned = [(row, match) for row, text in enumerate(lines) if (match := _ASSIGNED_READ.match(text))]
    changes = []
    for (row, one), (other_row, other) in combinations(assigned, 2):
        crossed = one["read"] == other["target"] and other["read"] == one["target"] != other["target"]
        if crossed and other_row - row <= _NEAR_ROWS and one["owner"] == other["owner"]:
            new = f"{one['head']}{other['read']}{one['tail']}"
            also = ((other_row, f"{other['head']}{one['read']}{other['tail']}"),)
            said = f"`.{one['read']}` and `.{other['read']}` swapped between the two lines that assign them"
            changes.append(RowChange(row, new, said, also))
    return changes


# `numerator = frac.denominator`, `let h = box.width;`, `w := r.Height` (a name, then one attribute read, alone).
_ASSIGNED_READ = re.compile(
    r"^(?P<head>\s*(?:(?:let|const|var)\s+)?(?P<target>[A-Za-z_$][\w$]*)\s*:?=\s*(?P<owner>[A-Za-z_$][\w$.]*)\.)"
    r"(?P<read>[A-Za-z_$][\w$]*)(?P<tail>\s*;?\s*(?:#.*|//.*)?)$"
)
_NEAR_ROWS = 3


_Read = tuple[int, int, int, str]
"""A line's one literal read of a sequence: its row, where the place starts and ends in the line, the place."""


def _reads(lines: list[str], language: LanguageName) -> dict[str, list[_Read]]:
    """Per sequence, the lines that read it at one literal place, in order."""
    reads: dict[str, list[_Read]] = {}
    for row, text in enumerate(lines[1:], 1):
        found = _literal_reads(text, language)
        for name in {name for name, _start, _end, _index in found}:
            places = [(start, end, index) for one, start, end, index in found if one == name]
            if len(places) == 1:
                reads.setdefault(name, []).append((row, *places[0]))
    return reads


def _swapped(lines: list[str], name: str, one: _Read, other: _Read) -> RowChange:
    (row, start, end, index), (other_row, other_start, other_end, other_index) = one, other
    text, other_text = lines[row], lines[other_row]
    new = f"{text[:start]}{other_index}{text[end:]}"
    also = ((other_row, f"{other_text[:other_start]}{index}{other_text[other_end:]}"),)
    change = f"`{name}[{index}]` and `{name}[{other_index}]` swapped between the two lines that read them"
    return RowChange(row, new, change, also)


def _literal_reads(text: str, language: LanguageName) -> list[tuple[str, int, int, str]]:
    """Each `name[<integer>]` the line reads (not one it assigns to): the name, where the integer starts and ends in
    the text, and the integer."""
    code = code_tokens(text, language)
    assigned_until = _assignment_at(code)
    found = []
    for k in range(len(code) - 3):
        (kind, name, _), (_, opening, _), (number_kind, index, start), (_, closing, _) = code[k : k + 4]
        subscript = kind == "name" and opening == "[" and number_kind == "number" and closing == "]"
        attribute = k > 0 and code[k - 1][1] == "."
        if subscript and not attribute and k > assigned_until and re.fullmatch(r"\d+", index):
            found.append((name, start, start + len(index), index))
    return found


def _assignment_at(code: list[tuple[str, str, int]]) -> int:
    """The index of the line's first assignment operator (`=`, `:=`), or -1: reads are what stands after it."""
    for k, (_kind, text, _start) in enumerate(code):
        if text in ("=", ":="):
            return k
    return -1
