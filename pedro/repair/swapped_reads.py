"""Two values read from one sequence at each other's places, on two lines: `month, err := strconv.Atoi(split[1])` and
`day, err := strconv.Atoi(split[0])` where a date reads month first. Each line alone is a one-token variant that
breaks the other value too, so the two are swapped together."""

from __future__ import annotations

import re
from itertools import combinations

from pedro.repair.locate import RowChange
from pedro.repair.mutants import code_tokens
from pedro.tools.symbols import LanguageName

_MOST_PAIRS = 6
"""Pairs offered per unit at most: a function that reads many places of one sequence is a table, not a slip."""


def swapped_reads(lines: list[str], language: LanguageName) -> list[RowChange]:
    """Each pair of lines that each read one sequence at one literal place (`xs[1]`, a different place on each),
    both places swapped; `lines` are the unit's, its signature first."""
    reads: dict[str, list[tuple[int, int, int, str]]] = {}
    for row, text in enumerate(lines[1:], 1):
        found = _literal_reads(text, language)
        for name in {name for name, _start, _end, _index in found}:
            places = [(start, end, index) for one, start, end, index in found if one == name]
            if len(places) == 1:
                reads.setdefault(name, []).append((row, *places[0]))
    changes: list[RowChange] = []
    for name, rows in reads.items():
        pairs = [(one, other) for one, other in combinations(rows, 2) if one[3] != other[3]]
        if len(pairs) > _MOST_PAIRS:
            continue
        for (row, start, end, index), (other_row, other_start, other_end, other_index) in pairs:
            text, other_text = lines[row], lines[other_row]
            new = f"{text[:start]}{other_index}{text[end:]}"
            also = ((other_row, f"{other_text[:other_start]}{index}{other_text[other_end:]}"),)
            change = f"`{name}[{index}]` and `{name}[{other_index}]` swapped between the two lines that read them"
            changes.append(RowChange(row, new, change, also))
    return changes


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
