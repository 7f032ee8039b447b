"""Code written twice for two sets of names, where one copy parts from its twin: `m += h % 10` beside `n += d % 10`
and `while (h >= 10)` beside `while (d >= 10)` say that `h` stands for `d` and `m` for `n`, so `m += y * h + h`
beside `n += u * d` is the one place the copies differ in more than their names, where a slip went in (or was left
out of the other copy). Each line of such a pair is offered made like its twin, with its own names."""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher
from itertools import combinations

from pedro.repair.locate import RowChange
from pedro.repair.mutants import code_tokens
from pedro.tools.symbols import LanguageName

_Tokens = list[tuple[str, str, int]]
_MOST = 6
"""Changes offered per unit at most: a unit whose copies part in many places is not two copies of one code."""
_LEAST_TWINS = 2
"""Lines the same but for two names that must swap them before the two are taken for each other."""
_LIKENESS = 0.6
"""How alike a line and its twin's copy must be (difflib's ratio of their tokens) to be taken for a parted pair."""


def parted_twins(lines: list[str], language: LanguageName) -> list[tuple[RowChange, int]]:
    """For a unit with copied code, each line that parts from its twin made like it, and the twin made like it; each
    with the row of the line it was made like."""
    tokens = [code_tokens(line, language) for line in lines]
    mapping = _name_mapping(tokens)
    if not mapping:
        return []
    found: list[tuple[RowChange, int]] = []
    seen: set[tuple[int, str]] = set()
    texts = {line.strip() for line in lines}
    for row, code in enumerate(tokens):
        mirrored = _mirrored(lines[row], code, mapping)
        if mirrored is None or mirrored.strip() in texts:
            continue  # no names of the copies, or a twin of its own
        twin = _parted_twin(tokens, row, mirrored, language)
        if twin is None:
            continue
        back = _mirrored(lines[twin], tokens[twin], mapping)
        for at, new, like in ((row, back, twin), (twin, mirrored, row)):
            if new is not None and (at, new) not in seen and new != lines[at]:
                seen.add((at, new))
                said = f"`{lines[at].strip()}` → `{new.strip()}`, as its copy `{lines[like].strip()}` reads"
                found.append((RowChange(at, new, said), like))
    return found if len(found) <= _MOST else []


def _name_mapping(tokens: list[_Tokens]) -> dict[str, str]:
    """Which name stands for which in the unit's copied code (both ways), from its lines that are the same but for
    their names: each name's partner is the one most of those lines swap it with. Empty where fewer than
    _LEAST_TWINS such lines agree on a pair."""
    votes: Counter[tuple[str, str]] = Counter()
    for one, other in combinations([code for code in tokens if code], 2):
        for a, b in _swapped_names(one, other):
            votes[(a, b) if a < b else (b, a)] += 1
    mapping: dict[str, str] = {}
    for (a, b), count in votes.most_common():
        if count >= _LEAST_TWINS and a not in mapping and b not in mapping:
            mapping[a], mapping[b] = b, a
    return mapping


def _swapped_names(one: _Tokens, other: _Tokens) -> set[tuple[str, str]]:
    """The (name, name) pairs two lines differ by, where they are the same but for names, each swapped one way
    throughout; empty otherwise."""
    if len(one) != len(other) or one == other:
        return set()
    pairs: set[tuple[str, str]] = set()
    for (kind, text, _), (other_kind, other_text, _) in zip(one, other, strict=True):
        if kind != other_kind or (text != other_text and kind != "name"):
            return set()
        if text != other_text:
            pairs.add((text, other_text))
    names = [a for a, _ in pairs] + [b for _, b in pairs]
    return pairs if len(set(names)) == len(names) else set()


def _mirrored(line: str, code: _Tokens, mapping: dict[str, str]) -> str | None:
    """The line with each name of the copies made its partner, or None where it holds none."""
    names = [(start, text) for kind, text, start in code if kind == "name" and text in mapping]
    if not names:
        return None
    for start, text in reversed(names):
        line = f"{line[:start]}{mapping[text]}{line[start + len(text) :]}"
    return line


def _parted_twin(tokens: list[_Tokens], row: int, mirrored: str, language: LanguageName) -> int | None:
    """The line most like `mirrored` (the line at `row` with the copies' names swapped) that starts as it does, when
    it is alike enough; None where there is none."""
    want = [text for _, text, _ in code_tokens(mirrored, language)]
    best, best_ratio = None, _LIKENESS
    for other, code in enumerate(tokens):
        texts = [text for _, text, _ in code]
        if other == row or texts[:2] != want[:2]:
            continue
        ratio = SequenceMatcher(a=want, b=texts, autojunk=False).ratio()
        if ratio > best_ratio:
            best, best_ratio = other, ratio
    return best
