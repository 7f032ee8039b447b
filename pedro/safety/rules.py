"""Command rules read from TOML: conditions on a command's words, tried in order, each rule with its own examples."""

from __future__ import annotations

import posixpath
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cache, cached_property
from importlib.resources import files
from typing import Any


@dataclass(frozen=True)
class Words:
    """The words after a command or subcommand, seen the ways the conditions look at them."""

    args: tuple[str, ...]
    key: str = ""  # the setting a `git config` line names

    @cached_property
    def flags(self) -> frozenset[str]:
        """Single-letter flags, with combined groups (-fdx) split."""
        return frozenset(c for a in self.args if a.startswith("-") and not a.startswith("--") for c in a[1:])

    @cached_property
    def positional(self) -> tuple[str, ...]:
        return tuple(a for a in self.args if not a.startswith("-"))

    @property
    def first(self) -> str:
        return self.positional[0] if self.positional else ""


def outside_path(target: str) -> bool:
    """Whether a directory operand leaves the repository (absolute, ~, a variable or ..)."""
    return target.startswith(("/", "~", "$")) or posixpath.normpath(target).startswith("..")


def _any_glob(words: Iterable[str], patterns: tuple[str, ...]) -> bool:
    return any(fnmatchcase(word, pattern) for word in words for pattern in patterns)


# Checks that a pattern cannot say, named by `test = "…"`.
TESTS: dict[str, Callable[[Words], bool]] = {
    "paths_after_dashdash": lambda w: "--" in w.args and w.args.index("--") < len(w.args) - 1,
    "value_outside": lambda w: outside_path(w.args[0] if w.args else ""),
}
# Each condition a rule may hold, as (its value, the words) -> whether it holds.
_ATOMS: dict[str, Callable[[Any, Words], bool]] = {
    "flags": lambda v, w: bool(w.flags & set(v)),
    "flags_except": lambda v, w: bool(w.flags - set(v)),
    "args": lambda v, w: _any_glob(w.args, v),
    "long_except": lambda v, w: any(a.startswith("--") and not _any_glob([a], v) for a in w.args),
    "refs": lambda v, w: _any_glob(w.positional[1:], v),
    "first": lambda v, w: w.first in v,
    "last": lambda v, w: bool(w.args) and w.args[-1] in v,
    "no_args": lambda v, w: v == (not w.args),
    "key": lambda v, w: v.match(w.key) is not None,
    "test": lambda v, w: TESTS[v](w),
}


@dataclass(frozen=True)
class Condition:
    """Holds when any of its atoms holds."""

    atoms: tuple[tuple[str, Any], ...]

    def holds(self, words: Words) -> bool:
        return any(_ATOMS[name](value, words) for name, value in self.atoms)


@dataclass(frozen=True)
class Rule:
    """One row of a rules file: the names it covers, when it holds, what it decides and why."""

    id: str
    names: frozenset[str]
    globs: tuple[str, ...]
    when: tuple[Condition, ...]
    unless: Condition | None
    decision: str
    reason: str
    extra: Mapping[str, Any]
    match: tuple[str, ...]
    not_match: tuple[str, ...]

    def covers(self, name: str) -> bool:
        return name in self.names or any(fnmatchcase(name, glob) for glob in self.globs)

    def holds(self, words: Words) -> bool:
        return all(c.holds(words) for c in self.when) and not (self.unless and self.unless.holds(words))

    def says(self, **fields: str) -> str:
        return self.reason.format(**fields)


@dataclass(frozen=True)
class RuleFile:
    """A rules file: its named word sets, plain tables and ordered rule lists."""

    sets: Mapping[str, frozenset[str]]
    tables: Mapping[str, Any]
    lists: Mapping[str, tuple[Rule, ...]]


def word_set(*chunks: str) -> frozenset[str]:
    """The words of space-separated chunks: how the command tables are written."""
    return frozenset(word for chunk in chunks for word in chunk.split())


@cache
def load(name: str) -> RuleFile:
    """Read pedro/safety/<name> (shipped as package data) into rules, with every "@set" reference expanded."""
    data = tomllib.loads(files("pedro.safety").joinpath(name).read_text(encoding="utf-8"))
    sets = {key: word_set(value) for key, value in data.pop("sets", {}).items()}
    lists = {key: tuple(_rule(row, sets) for row in data.pop(key)) for key in list(data) if _is_rule_list(data[key])}
    return RuleFile(sets=sets, tables=data, lists=lists)


def _is_rule_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(row, dict) and "id" in row for row in value)


def _expand(values: Iterable[str], sets: Mapping[str, frozenset[str]]) -> tuple[str, ...]:
    return tuple(word for v in values for word in (sorted(sets[v[1:]]) if v.startswith("@") else [v]))


_NAME_KEYS = ("sub", "option", "names")
_PLAIN_KEYS = frozenset(("id", "when", "unless", "match", "not_match", "reason", *_NAME_KEYS))


def _rule(row: Mapping[str, Any], sets: Mapping[str, frozenset[str]]) -> Rule:
    names = _expand(next((row[k] for k in _NAME_KEYS if k in row), ()), sets)
    when = row.get("when", [])
    return Rule(
        id=row["id"],
        names=frozenset(names) - _globs(names),
        globs=tuple(sorted(_globs(names))),
        when=tuple(_condition(c, sets) for c in ([when] if isinstance(when, dict) else when)),
        unless=_condition(row["unless"], sets) if "unless" in row else None,
        decision=_decision(row),
        reason=row.get("reason", ""),
        extra={k: v for k, v in row.items() if k not in _PLAIN_KEYS},
        match=tuple(row.get("match", ())),
        not_match=tuple(row.get("not_match", ())),
    )


def _globs(names: Iterable[str]) -> frozenset[str]:
    return frozenset(n for n in names if "*" in n)


def _decision(row: Mapping[str, Any]) -> str:
    """What a rule decides: a class (`op`, `kind`) or the code that decides (`handler`)."""
    return next(str(row[k]) for k in ("op", "kind", "handler") if k in row)


def _condition(table: Mapping[str, Any], sets: Mapping[str, frozenset[str]]) -> Condition:
    atoms: list[tuple[str, Any]] = []
    for name, value in table.items():
        if name not in _ATOMS:
            raise ValueError(f"unknown condition {name!r} in a command rule")
        if name == "key":
            value = re.compile(value, re.IGNORECASE)
        elif isinstance(value, list):
            value = _expand(value, sets)
        atoms.append((name, value))
    return Condition(tuple(atoms))
