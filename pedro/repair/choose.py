"""Which plausible candidate stays, and what it changes beyond the tests.

Every plausible candidate (it makes the failing tests pass and breaks none), variant or model answer alike, and the
original code are called on the probes (probes.py). The candidate whose outputs agree with the most others' stays;
ties go to the one that changes the fewest outputs the tests do not pin, then to the smallest edit. What the kept
candidate changes on inputs the tests do not pin is named, `f(args): old → new`, and where plausible candidates
disagree the inputs and both outputs are named, with the test that would settle it.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from pedro.repair.native_probes import pinning_test
from pedro.repair.probes import ProbeSpec

_SHOWN = 5
_UNANIMOUS_PROBES = 2
_CONSTANT_PROBES = 4
# Where an object with no repr of its own lives (`<ResultIterator object at 0x7f22f8aef150>`): every run differs.
_ADDRESS = re.compile(r"\bat 0x[0-9a-fA-F]+")
# A text literal in any of the languages: "…", '…' or `…`, escapes included.
_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')
_TOKEN = re.compile(r"\w+|[^\w\s]")
"""A word or a sign: code's length in tokens, whatever its names' lengths."""
_MISUSE = frozenset({"TypeError", "AttributeError", "NameError", "UnboundLocalError", "ReferenceError"})
"""Errors Python and JavaScript raise on their own where code misuses a value or a name: rarely what a fix means to
raise."""


@dataclass(frozen=True)
class Passing:
    """A candidate that passed the tests: its number, the unit's new text, and its outputs on the probes."""

    n: int
    text: str
    outputs: tuple[str, ...]
    change: int = field(default=0)
    """Lines it changes against the original unit: the smaller, the likelier to be the fix."""
    new_texts: int = field(default=0)
    """Text literals it writes that the original unit has nowhere: a piece of the answer the test expects, put in
    as it stands (`+ "e" +`), fits that test and no other input."""


@dataclass(frozen=True)
class Verdict:
    """What choosing found: the candidate kept, what it changes beyond the tests, and where candidates disagree."""

    index: int
    beyond: tuple[str, ...] = ()
    """`f(args): old → new` for each input the tests do not pin whose output the kept candidate changes."""
    disputes: tuple[str, ...] = ()
    """`f(args): X (candidate a) or Y (candidate b)` for each input plausible candidates disagree on."""
    suggestion: str = ""
    """A test that would pin the first disputed input, as the kept candidate answers it."""
    unpinned: int = 0
    """How many probe inputs were beyond the tests' own."""


def changed_lines(original: str, new: str) -> int:
    """How many lines differ between the two texts (removed plus added)."""
    diff = difflib.ndiff(original.splitlines(), new.splitlines())
    return sum(1 for line in diff if line.startswith(("- ", "+ ")))


def new_texts(original: str, new: str) -> int:
    """How many distinct texts `new` quotes that `original` quotes nowhere, in whichever quotes."""
    return len({text[1:-1] for text in _QUOTED.findall(new)} - {text[1:-1] for text in _QUOTED.findall(original)})


def agreement(pool: Sequence[Passing]) -> list[int]:
    """For each candidate, on how many probe inputs its output equals another candidate's, summed over the others."""
    return [
        sum(
            sum(1 for mine, theirs in zip(one.outputs, other.outputs, strict=True) if same(mine, theirs))
            for k, other in enumerate(pool)
            if k != i
        )
        for i, one in enumerate(pool)
    ]


def choose(
    pool: Sequence[Passing],
    original: Sequence[str] | None = None,
    pinned: int = 0,
    alike: Sequence[tuple[int, int]] = (),
    documented: Sequence[tuple[int, str]] = (),
) -> int:
    """The index of the candidate most others agree with; ties go to the one that writes the fewest new texts, then
    the one that changes the fewest outputs the tests do not pin (against `original`, the unrepaired code's), then to
    the smallest change, then the earliest; and of those that answer as that one does on every probe, in as many
    lines, the one of the fewest tokens (`len(word)` over `len(word) * 1`).

    Before all that, the candidate that answers the fewest of its docstring's examples (`documented`) otherwise
    than the docstring says goes first: the function's own promise outweighs any vote. Then a candidate whose every
    output is the original's moved by one constant (`result = 1` where the
    loop skips the first price, `return x + 1`) yields to one that is not: it shifts the answers until the test's
    own one comes out, where a fix changes what is computed. Two such shifts agree with each other everywhere, and
    would otherwise outvote the fix. Then, where the code is to ignore case, the one that answers the most `alike`
    pairs of inputs (case_blind_pairs) alike goes first: that is what the function promises."""
    scores = agreement(pool)

    def blind(one: Passing) -> int:
        return sum(1 for a, b in alike if max(a, b) < len(one.outputs) and same(one.outputs[a], one.outputs[b]))

    def moved(one: Passing) -> int:
        if original is None or len(original) != len(one.outputs):
            return 0
        return sum(
            1
            for k, (old, new) in enumerate(zip(original, one.outputs, strict=True))
            if k >= pinned and not same(old, new)
        )

    best = min(range(len(pool)), key=lambda i: (len(against_docs(pool[i].outputs, documented)),
                                                shifts(pool[i].outputs, original), -blind(pool[i]), -scores[i],
                                                pool[i].new_texts, moved(pool[i]), pool[i].change, i))  # fmt: skip
    # Of the candidates that answer as the best one does everywhere, in as many lines, the fewest tokens.
    twins = [i for i, one in enumerate(pool) if one.change == pool[best].change and _alike(one, pool[best])]
    return min(twins, key=lambda i: (len(_TOKEN.findall(pool[i].text)), i))


def against_docs(outputs: Sequence[str], documented: Sequence[tuple[int, str]]) -> list[int]:
    """The probes where `outputs` differ from what the docstring's examples say the function answers; a number's
    text answers the number (prose writes `== 6.00` of a function that formats its answer as '6.00')."""
    return [
        k for k, want in documented
        if k < len(outputs) and not same(outputs[k], want) and not _says_number(outputs[k], want)
    ]  # fmt: skip


def _says_number(output: str, want: str) -> bool:
    """Whether `output` is a text that writes the number `want` is."""
    try:
        text = ast.literal_eval(output[2:]) if output.startswith("= ") else None
        number = _number(want)
        return isinstance(text, str) and number is not None and float(text) == number
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError, OverflowError):
        return False


def _alike(one: Passing, other: Passing) -> bool:
    return len(one.outputs) == len(other.outputs) and all(map(same, one.outputs, other.outputs))


def case_blind_pairs(inputs: Sequence[str]) -> list[tuple[int, int]]:
    """The pairs of probe inputs that differ by case alone (`count('The cat', 'the')`, `count('The cat', 'THE')`),
    which code that ignores case answers alike."""
    return [(i, j) for i, j in combinations(range(len(inputs)), 2)
            if inputs[i] != inputs[j] and inputs[i].casefold() == inputs[j].casefold()]  # fmt: skip


def unanimous(
    outputs: Sequence[Sequence[str]],
    original: Sequence[str] | None,
    pinned: int,
    documented: Sequence[tuple[int, str]] = (),
) -> bool:
    """Whether two or more plausible candidates give the same outputs on every probe, at least two of them beyond the
    tests' own inputs, and none of them merely shifts the original's outputs or answers an example of the docstring
    otherwise than it says: candidates reached by different edits that agree that far leave little for another rival
    to settle, so the search may stop looking."""
    if (
        len(outputs) < 2
        or len({tuple(map(_key, one)) for one in outputs}) != 1
        or len(outputs[0]) - pinned < _UNANIMOUS_PROBES
    ):
        return False
    return not shifts(outputs[0], original) and not against_docs(outputs[0], documented)


def ignores_input(outputs: Sequence[str] | None, original: Sequence[str] | None) -> str:
    """Why a candidate that passes the tests is no fix, or "": it returns one and the same value on every probe (at
    least _CONSTANT_PROBES of them), where the original's outputs differ between inputs, and that value is no bare
    yes, no or None. It answers whatever it is asked with the value the tests expect (`return f"Ada Lovelace"`)."""
    if not outputs or original is None or len(outputs) < _CONSTANT_PROBES or len(set(map(_key, outputs))) != 1:
        return ""
    value = outputs[0]
    if not value.startswith("= ") or value[2:] in {"True", "False", "None"} or len(set(map(_key, original))) < 2:
        return ""
    return (
        f"it returns {value[2:]} whatever it is given ({len(outputs)} inputs tried), where the code it replaces "
        "answers them differently"
    )


def crashes_beyond(outputs: Sequence[str] | None, original: Sequence[str] | None, spec: ProbeSpec | None,
                   expected: str = "") -> str:  # fmt: skip
    """Why a candidate that passes the tests is no fix, or "": on an input beyond the tests that the code it replaces
    answered, it raises an error the language raises on its own where code misuses a value (_MISUSE), which no test
    `expected` names. It fixes the tests' inputs by breaking what the code did on others (`None < None`, where the
    code returned None for values it could not compare)."""
    if not outputs or original is None or spec is None or len(original) != len(outputs):
        return ""
    for k in range(spec.pinned, len(outputs)):
        old, new = original[k], outputs[k]
        kind = new[2:].split(":", 1)[0].strip()
        if old.startswith("= ") and new.startswith("! ") and kind in _MISUSE and kind not in expected:
            return f"it makes {spec.call(k)} raise {new[2:]}, where the code it replaces returned {old[2:]}"
    return ""


def shifts(outputs: Sequence[str], original: Sequence[str] | None) -> bool:
    """Whether every output is a number the original's plus one and the same non-zero constant (or times one and
    the same factor other than 1), on at least two inputs."""
    numbers = _number_pairs(outputs, original)
    if numbers is None:
        return False
    deltas = {round(new - old, 9) for old, new in numbers}
    if len(deltas) == 1 and deltas != {0.0}:
        return True
    ratios = {round(new / old, 9) for old, new in numbers if old}
    return len(ratios) == 1 and ratios != {1.0} and all(old for old, _ in numbers)


def _number_pairs(outputs: Sequence[str], original: Sequence[str] | None) -> list[tuple[float, float]] | None:
    """(the original's output, this one) for every input, when there are two or more and all are numbers. An input
    both answer with the same error (`greet([])` raising UnboundLocalError before and after) says nothing of a shift
    and is passed over; `len(name) - 1` still shifts each count the original gave."""
    if original is None or len(original) != len(outputs):
        return None
    kept = [(old, new) for old, new in zip(original, outputs, strict=True) if old != new or _number(old) is not None]
    pairs = [(_number(old), _number(new)) for old, new in kept]
    numbers = [(old, new) for old, new in pairs if old is not None and new is not None]
    return numbers if len(numbers) == len(pairs) >= 2 else None


def same(one: str, other: str) -> bool:
    """Whether two probe outputs are one answer: equal, or numbers of equal value (`2` and `2.0`, as `==` holds)."""
    return one == other or _key(one) == _key(other)


def _key(output: str) -> str:
    """An output as the answer it stands for: a number by its value, anything else as it reads, less the address of
    an object that has no repr of its own."""
    number = _number(output)
    return _ADDRESS.sub("at 0x", output) if number is None else f"= {number!r}"


def _number(output: str) -> float | None:
    if not output.startswith("= "):
        return None
    try:
        value = ast.literal_eval(output[2:])
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def judge_pool(
    pool: Sequence[Passing], spec: ProbeSpec | None, original: Sequence[str] | None, *, case_blind: bool = False
) -> Verdict:
    """The candidate to keep, and what it changes and where the others disagree, in words; `case_blind`: the code is
    to ignore case (a failing test or the code says so)."""
    pinned = spec.pinned if spec is not None else 0
    alike = case_blind_pairs(spec.inputs) if case_blind and spec is not None else []
    index = choose(pool, original, pinned, alike, spec.documented if spec is not None else ())
    if spec is None:
        return Verdict(index)
    kept = pool[index]
    beyond = tuple(
        f"{spec.call(k)}: {_said(old)} → {_said(new)}"
        for k, (old, new) in enumerate(zip(original or (), kept.outputs, strict=False))
        if k >= pinned and not same(old, new)
    )
    disputes, first = _disputes(pool, kept, spec)
    # Where even the kept candidate answers an example of the docstring otherwise, that comes first.
    documented = dict(spec.documented)
    for k in reversed(against_docs(kept.outputs, spec.documented)):
        answer, promised = _said(kept.outputs[k]), _said(documented[k])
        disputes.insert(0, f"{spec.call(k)}: {answer} (candidate {kept.n}), where its docstring says {promised}")
    suggestion = ""
    if first >= 0 and kept.outputs[first].startswith("= "):
        suggestion = pinning_test(spec, first, kept.outputs[first][2:])
    unpinned = len(spec.inputs) - pinned
    return Verdict(index, beyond[:_SHOWN], tuple(dict.fromkeys(disputes))[:_SHOWN], suggestion, unpinned)


def _disputes(pool: Sequence[Passing], kept: Passing, spec: ProbeSpec) -> tuple[list[str], int]:
    """Each input another plausible candidate answers otherwise than the kept one, in words, and the first such
    input's index (-1 for none); none the docstring settles, the kept one answering as its example says, and none
    with a candidate that answers an example otherwise where the kept one answers it as it says."""
    disputes: list[str] = []
    first = -1
    settled = {k for k, want in spec.documented if k < len(kept.outputs) and same(kept.outputs[k], want)}
    for other in pool:
        if other is kept or settled & set(against_docs(other.outputs, spec.documented)):
            continue  # a rival its documentation proves wrong where the kept one is right: nothing to dispute
        for k, (mine, theirs) in enumerate(zip(kept.outputs, other.outputs, strict=True)):
            if not same(mine, theirs) and k not in settled:
                first = k if first < 0 else first
                disputes.append(
                    f"{spec.call(k)}: {_said(mine)} (candidate {kept.n}) or {_said(theirs)} (candidate {other.n})"
                )
    return disputes, first


def _said(output: str) -> str:
    """A probe's output in words: the value it returned, or the exception it raised."""
    if output.startswith("= "):
        return output[2:]
    if output.startswith("! "):
        return f"raises {output[2:]}"
    return output
