"""A result with one empty item too many at one end, the rest as expected: `derivative` returns `[0, 1, 4, 12, 20]`
where `[1, 4, 12, 20]` was wanted, the constant term's zero kept. The failure shows which end (progress.extra_ends,
which counts only a zero or an empty item: a real one dropped would merely fit the test); each value the unit returns
has that end's item dropped; Python, JavaScript and Go."""

from __future__ import annotations

import re

from pedro.repair.locate import RETURN_LINE, RowChange

_PLAIN = re.compile(r"[\w$.]+(?:\((?:[^()]|\([^()]*\))*\)|\[[^\[\]]*\]|\.[\w$]+)*")
"""A value that takes a slice as written: a name, a call, an index, a comprehension in brackets."""
_DROPPED = {
    ("python", "first"): "{v}[1:]",
    ("python", "last"): "{v}[:-1]",
    ("javascript", "first"): "{v}.slice(1)",
    ("javascript", "last"): "{v}.slice(0, -1)",
    ("go", "first"): "{v}[1:]",
    ("go", "last"): "{v}[:len({v})-1]",
}


def trimmed_results(lines: list[str], language: str, ends: frozenset[str]) -> list[RowChange]:
    """Each `return value` with the item at each of `ends` dropped from the value; `lines` are the unit's, its
    signature first."""
    language = "javascript" if language == "typescript" else language
    found: list[RowChange] = []
    for row, text in enumerate(lines):
        returned = RETURN_LINE.match(text)
        if returned is None or returned["value"] in {"None", "null", "nil", "[]", "undefined"}:
            continue
        value = returned["value"]
        plain = value.startswith("[") and value.endswith("]") or _PLAIN.fullmatch(value) is not None
        if language == "go" and not re.fullmatch(r"[A-Za-z_]\w*", value):
            continue  # Go slices a name only: `len(v)` of anything else would compute it twice
        for end in sorted(ends):
            form = _DROPPED.get((language, end))
            if form is None:
                continue
            dropped = form.format(v=value if plain else f"({value})")
            new = f"{returned['head']}{dropped}{returned['tail']}"
            found.append(
                RowChange(row, new, f"the {end} item of what `return` gives dropped: the failure has one more")
            )
    return found
