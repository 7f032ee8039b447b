"""Slips of a function that calls itself, which no one-token variant reaches: the head of a sequence dropped from what
the recursion returns (`return Concatenate(strings[1:])` where `strings[0] + Concatenate(strings[1:])` was meant), a
constant where the parameter the call counts down was meant (`1 + SumToN(n - 1)` for `n + SumToN(n - 1)`), and a
call handed its own arguments unchanged, which never ends (`IsSimplePower(x, n)` for `IsSimplePower(x / n, n)`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from pedro.repair.locate import RowChange
from pedro.repair.mutants import code_tokens
from pedro.repair.unread import parameters
from pedro.tools.symbols import LanguageName

_TAIL = {"python": "[1:]", "go": "[1:]", "javascript": ".slice(1)", "typescript": ".slice(1)"}
_FLOOR_DIVISION = {"python": "//"}


@dataclass(frozen=True)
class _Call:
    """A call of the unit's own function on one line: where it starts and ends in the text, and its arguments."""

    start: int
    end: int
    arguments: tuple[str, ...]


def recursion_slips(lines: list[str], name: str, language: LanguageName) -> tuple[list[RowChange], list[RowChange]]:
    """The changes above for a unit (`lines`, its signature first) named `name`: those of what a call's value is
    joined to (a head dropped, a constant for the parameter counted down), and those of a call that never ends."""
    params = _parameters(lines[0], language) if lines else []
    body = "\n".join(lines[1:])
    joined: list[RowChange] = []
    endless: list[RowChange] = []
    for row, text in enumerate(lines[1:], 1):
        for call in _own_calls(text, name, language):
            joined += _head_dropped(row, text, call, language)
            joined += _constant_for_counted(row, text, call, params, language)
            endless += _handed_on_unchanged(row, text, call, params, body, language)
    return joined, endless


def _parameters(signature: str, language: LanguageName) -> list[str]:
    return [name for name in parameters(signature, language) if name not in ("self", "cls")]


def _own_calls(text: str, name: str, language: LanguageName) -> Iterator[_Call]:
    """Each call of `name` (not a method of another object's) that closes on the line."""
    code = code_tokens(text, language)
    for k in range(len(code) - 1):
        if code[k][1] != name or code[k + 1][1] != "(":
            continue
        dotted = k > 0 and code[k - 1][1] == "."
        if dotted and (k < 2 or code[k - 2][1] not in ("self", "this")):
            continue
        arguments = _arguments(text, code, k + 1)
        if arguments is not None:
            start = code[k - 2][2] if dotted else code[k][2]
            yield _Call(start, arguments[1], tuple(arguments[0]))


def _arguments(text: str, code: list[tuple[str, str, int]], opening: int) -> tuple[list[str], int] | None:
    """The arguments' texts of the call opened at token `opening`, and where it ends; None when it does not close."""
    spans: list[str] = []
    depth, first = 0, opening + 1
    for k in range(opening + 1, len(code)):
        token = code[k][1]
        if depth == 0 and token in (",", ")"):
            if k > first:
                spans.append(text[code[first][2] : code[k - 1][2] + len(code[k - 1][1])])
            if token == ")":
                return spans, code[k][2] + 1
            first = k + 1
        elif token in ("(", "[", "{"):
            depth += 1
        elif token in (")", "]", "}"):
            depth -= 1
    return None


def _head_dropped(row: int, text: str, call: _Call, language: LanguageName) -> list[RowChange]:
    """`return f(xs[1:])` → `return xs[0] + f(xs[1:])`: the rest handed on, and the head it was to be joined to lost."""
    before, after = text[: call.start], text[call.end :]
    if before.strip() != "return" or after.strip() not in ("", ";"):
        return []
    tail = _TAIL.get(language, "[1:]")
    found = []
    for argument in call.arguments:
        sequence = argument.removesuffix(tail).strip()
        if argument.endswith(tail) and re.fullmatch(r"[A-Za-z_$][\w$]*", sequence):
            whole = text[call.start : call.end]
            heads = [f"{sequence}[0]", *([f"[{sequence}[0]]"] if language == "python" else [])]
            for head in heads:
                new = f"{before}{head} + {whole}{after}"
                found.append(RowChange(row, new, f"`{whole}` → `{head} + {whole}`, the head the recursion dropped"))
    return found


def _constant_for_counted(
    row: int, text: str, call: _Call, params: list[str], language: LanguageName
) -> list[RowChange]:
    """`1 + f(n - 1)` → `n + f(n - 1)`: a constant beside a call that counts a parameter down, where that parameter
    was meant."""
    counted = [p for p in params if any(re.fullmatch(rf"{re.escape(p)}\s*-\s*1", arg) for arg in call.arguments)]
    found = []
    for kind, token, start in code_tokens(text, language):
        if kind != "number" or call.start <= start < call.end:
            continue
        for p in counted:
            new = text[:start] + p + text[start + len(token) :]
            found.append(RowChange(row, new, f"`{token}` → `{p}`, the value the call counts down"))
    return found


def _handed_on_unchanged(
    row: int, text: str, call: _Call, params: list[str], body: str, language: LanguageName
) -> list[RowChange]:
    """`f(x, n)` inside `f(x, n)`: the call never ends. Each parameter made smaller in its place: divided by
    another where the function takes the remainder of one by the other, one less, or its rest."""
    if not params or list(call.arguments) != params:
        return []
    division = _FLOOR_DIVISION.get(language, "/")
    found = []
    for k, p in enumerate(params):
        smaller = [f"{p} {division} {q}" for q in params if q != p and re.search(rf"\b{p}\s*%\s*{q}\b", body)]
        smaller.append(f"{p} - 1")
        if re.search(rf"\b{re.escape(p)}\s*\[", body) or f"{p}.length" in body:
            smaller.append(p + _TAIL.get(language, "[1:]"))
        for new_argument in smaller:
            arguments = [*params[:k], new_argument, *params[k + 1 :]]
            whole = text[call.start : call.end]
            opening = whole.index("(")
            new_call = f"{whole[: opening + 1]}{', '.join(arguments)})"
            new = text[: call.start] + new_call + text[call.end :]
            found.append(RowChange(row, new, f"`{p}` → `{new_argument}`, so that the call it is handed to is smaller"))
    return found
