"""Classify a git argv: read, stage/commit, mutate, network, publish or forbidden, for bash and the git tool.

The rules live in gitrules.toml; this module only walks an argv through them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

from pedro.safety.rules import Rule, Words, load, word_set

GitOp = Literal["read", "stage_commit", "mutate", "network", "publish", "forbidden", "unknown"]

__all__ = ["GitOp", "GitVerdict", "classify_git_args", "git_rule_trace", "word_set"]


@dataclass(frozen=True)
class GitVerdict:
    """What a git argv would do, for both the bash classifier and the git tool's policy."""

    op: GitOp
    reason: str
    rule: str = field(default="", compare=False)  # the id of the rule in gitrules.toml that decided


def _verdict(rule: Rule, **fields: str) -> GitVerdict:
    return GitVerdict(cast(GitOp, rule.decision), rule.says(**fields), rule.id)


def classify_git_args(args: Sequence[str]) -> GitVerdict:
    """Classify a git argv (without the leading `git`): read, stage/commit, mutate, network, publish or forbidden."""
    return _decide(list(args), [])


def git_rule_trace(args: Sequence[str]) -> list[str]:
    """The ids of the rules that classifying `args` applied, in order: what the rule examples are checked with."""
    trace: list[str] = []
    _decide(list(args), trace)
    return trace


def _decide(args: list[str], trace: list[str]) -> GitVerdict:
    rules = load("gitrules.toml").lists
    found = _option_anywhere(args, rules["option"], trace)
    if found is None:
        found, i = _leading_options(args, rules["option"], trace)
        if found is None and i >= len(args):
            found = GitVerdict("read", "git with no subcommand prints help")
        elif found is None:
            found = _decide_sub(args[i], Words(tuple(args[i + 1 :]), _config_key(args[i + 1 :])), rules["rule"], trace)
    return found


def _option_anywhere(args: list[str], rules: Sequence[Rule], trace: list[str]) -> GitVerdict | None:
    """Options that make git run another program are refused wherever they stand."""
    for rule in (r for r in rules if r.extra.get("anywhere")):
        arg = next((a for a in args if rule.covers(a)), None)
        if arg is not None:
            trace.append(rule.id)
            return _verdict(rule, name=arg.split("=")[0])
    return None


def _leading_options(args: list[str], rules: Sequence[Rule], trace: list[str]) -> tuple[GitVerdict | None, int]:
    """Walk the options before the subcommand: a verdict when one decides, else where the subcommand starts."""
    options = [r for r in rules if not r.extra.get("anywhere")]
    i = 0
    while i < len(args) and args[i].startswith("-"):
        opt = args[i]
        rule = _option_rule(options, opt, args[i + 1 : i + 2])
        if rule is None:
            return GitVerdict("unknown", f"unknown git option {opt}"), i
        trace.append(rule.id)
        if rule.decision != "skip":
            return _verdict(rule, name=opt.split("=")[0]), i
        i += 2 if rule.extra.get("takes_value") else 1
    return None, i


def _option_rule(options: Sequence[Rule], opt: str, value: list[str]) -> Rule | None:
    return next((r for r in options if r.covers(opt) and r.holds(Words(tuple(value)))), None)


def _decide_sub(sub: str, words: Words, rules: Sequence[Rule], trace: list[str]) -> GitVerdict:
    rule = next((r for r in rules if r.covers(sub) and r.holds(words)), None)
    if rule is None:
        return GitVerdict("unknown", f"unknown git subcommand {sub!r} (it may be an alias that runs a program)")
    trace.append(rule.id)
    return _verdict(rule, sub=sub, first=words.first, key=words.key)


def _config_key(rest: list[str]) -> str:
    """The setting a `git config` line would write: `config KEY`, `config set KEY`, `config unset KEY`."""
    positional = [a for a in rest if not a.startswith("-")]
    first = positional[0] if positional else ""
    return positional[1] if first in ("set", "unset") and len(positional) > 1 else first
