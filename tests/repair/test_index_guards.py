"""A condition that reads a sequence at an end, guarded by the sequence's truth where an IndexError rose on it; a
repr's hole quoted twice, left to quote itself: each read from the failure, each tried among the first."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_among_the_first

from pedro.repair.index_guards import index_guards
from pedro.repair.text_slips import requoted

TOKENS = '''\
"""Words and the marks that join them."""

JOINER = "+"


def tokens(text):
    """Each word of `text`; a word after a joiner joins the word before it."""
    result = []
    joined = False
    for word in text.split():
        if word == JOINER and result[-1]:
            joined = True
        elif joined:
            result[-1] += JOINER + word
            joined = False
        else:
            result.append(word)
    return result
'''

TOKENS_TESTS = """\
from tokens import tokens


def test_joined():
    assert tokens("a + b c") == ["a+b", "c"]


def test_a_joiner_first_is_a_word():
    assert tokens("+ a") == ["+", "a"]
"""


def test_an_index_error_on_a_condition_is_guarded_by_the_sequences_truth(repo: Path) -> None:
    fixed_among_the_first(repo, {"tokens.py": TOKENS, "test_tokens.py": TOKENS_TESTS}, "`result and` before", first=3)


def test_the_guard_joins_the_chain_before_the_term_that_reads_the_end() -> None:
    lines = [
        "        elif char == ZWJ and result[-1].chars in DATA and text[i - 1] in tree:  # why",
        "    while stack[-1] or not done:",
        "    if names and names[0] == 'x':",
        "    total = items[-1]",
    ]
    assert [change.text for change in index_guards(lines, 0)] == [
        "        elif char == ZWJ and result and result[-1].chars in DATA and text[i - 1] in tree:  # why"
    ]
    assert [change.text for change in index_guards(lines, 1)] == ["    while stack and (stack[-1] or not done):"]
    assert index_guards(lines, 2) == [] and index_guards(lines, 3) == []


PARSER = '''\
"""A reader of `key = value` lines."""


class ParseError(ValueError):
    """A line that is not `key = value`."""


def parse(text):
    """The pairs of `text`, one a line; a line with no `=` raises ParseError, naming it."""
    pairs = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if not sep:
            raise ParseError(f'Invalid line "{line!r}"')
        pairs[key.strip()] = value.strip()
    return pairs
'''

PARSER_TESTS = """\
import pytest

from parser import ParseError, parse


def test_pairs():
    assert parse("a = 1") == {"a": "1"}


def test_the_error_names_the_line():
    with pytest.raises(ParseError) as raised:
        parse("oops")
    assert str(raised.value) == "Invalid line 'oops'"
"""


def test_a_repr_quoted_twice_is_left_to_quote_itself(repo: Path) -> None:
    fixed_among_the_first(repo, {"parser.py": PARSER, "test_parser.py": PARSER_TESTS}, "a repr brings its own", first=3)


def test_quotes_around_a_repr_go_only_where_the_failure_quotes_the_literals_text() -> None:
    lines = ["    raise ValueError(f'Invalid line \"{line!r}\"')", "    log('Skipped \\'%r\\' here' % (x,))"]
    quoted = ["Invalid line \"'oops'\""]
    assert [fix[1] for fix in requoted(lines, [0, 1], quoted)] == ["    raise ValueError(f'Invalid line {line!r}')"]
    assert requoted(lines, [0, 1], ["Skipped 'x' here"])[0][1] == "    log('Skipped %r here' % (x,))"
    assert requoted(lines, [0, 1], ["something else"]) == []
