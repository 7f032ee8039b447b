"""A string's start compared with a short word written back to front (`s[:2] == " I"`): its characters reversed, in
every language's spelling of a prefix, left alone elsewhere, and a count of sentences that start with "I" fixed
through the real repair."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_by_a_variant, tried_changes

from pedro.repair.reversed_prefixes import reversed_prefixes

BORED = (
    "import re\n\n\n"
    "def is_bored(text):\n"
    '    """How many sentences start with the word "I"; sentences end at ".", "?" or "!"."""\n'
    '    sentences = re.split(r"[.?!]\\s*", text)\n'
    '    return sum(sentence[0:2] == " I" for sentence in sentences)\n'
)


def test_a_prefix_that_starts_with_a_space_is_written_the_other_way_round() -> None:
    lines = BORED.splitlines()[3:]
    assert [(c.row, c.text, c.change) for c in reversed_prefixes(lines)] == [
        (
            3,
            '    return sum(sentence[0:2] == "I " for sentence in sentences)',
            "` I` → `I `: a word's start with the space after it",
        )
    ]
    spelled = ['\tif len(s) >= 2 && s[:2] == " I" {', "  if (s.slice(0, 2) === ' I') {", '  if s.startswith(" I"):']
    assert [c.text.strip() for c in reversed_prefixes(spelled)] == [
        'if len(s) >= 2 && s[:2] == "I " {',
        "if (s.slice(0, 2) === 'I ') {",
        'if s.startswith("I "):',
    ]
    # the space already after the word, a piece that is not the start, and a longer text: left alone
    assert reversed_prefixes(['  a = s[:2] == "I "', '  b = s[1:3] == " I"', '  c = s[:5] == " I am"']) == []


def test_a_count_of_sentences_that_start_with_i_is_fixed_by_the_word_and_its_space_in_order(repo: Path) -> None:
    test = (
        "from bored import is_bored\n\n\ndef test_is_bored():\n"
        '    assert is_bored("Hello world") == 0\n    assert is_bored("I love it") == 1\n'
        '    assert is_bored("The sky is blue. I think so. I do") == 2\n'
    )
    events = fixed_by_a_variant(repo, {"bored.py": BORED, "test_bored.py": test}, mutants=20)
    tried = tried_changes(events)
    assert tried[0][1:] == ("` I` → `I `: a word's start with the space after it", "fixed"), tried
    assert '    return sum(sentence[0:2] == "I " for sentence in sentences)\n' in (repo / "bored.py").read_text()
