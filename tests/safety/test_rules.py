"""Every command rule's examples: each `match` is decided (an option: applied) by its rule, no `not_match` is."""

from __future__ import annotations

import shlex

import pytest

from pedro.safety.commands import classify_command, command_rule_trace
from pedro.safety.gitcommands import git_rule_trace
from pedro.safety.rules import Rule, load

GIT_RULES = [rule for rules in load("gitrules.toml").lists.values() for rule in rules]
SHELL_RULES = list(load("shellrules.toml").lists["command"])


@pytest.mark.parametrize("rule", GIT_RULES, ids=lambda rule: rule.id)
def test_git_rule_examples(rule: Rule) -> None:
    assert rule.match and rule.not_match, "every rule shows what it must and must not decide"
    for example in rule.match:
        assert rule.id in git_rule_trace(shlex.split(example)), f"git {example} should be decided by {rule.id}"
    for example in rule.not_match:
        assert rule.id not in git_rule_trace(shlex.split(example)), f"git {example} should not reach {rule.id}"


@pytest.mark.parametrize("rule", SHELL_RULES, ids=lambda rule: rule.id)
def test_shell_rule_examples(rule: Rule) -> None:
    assert rule.match and rule.not_match, "every rule shows what it must and must not decide"
    for example in rule.match:
        assert command_rule_trace(example)[:1] == [rule.id], f"{example} should be decided by {rule.id}"
        if "handler" not in rule.extra:
            assert classify_command(example).kind == rule.decision, example
    for example in rule.not_match:
        assert rule.id not in command_rule_trace(example), f"{example} should not reach {rule.id}"


@pytest.mark.parametrize("rules", [GIT_RULES, SHELL_RULES], ids=["git", "shell"])
def test_rule_ids_are_unique(rules: list[Rule]) -> None:
    ids = [rule.id for rule in rules]
    assert len(ids) == len(set(ids))
