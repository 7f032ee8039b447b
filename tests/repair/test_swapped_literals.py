"""A first try and its fallback taken in the wrong order: two lines that set one name by the same call, apart only in
one literal, with the two literals swapped together; left alone where the lines differ otherwise, and a split
that tries commas before spaces fixed through the real repair."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_by_a_variant, tried_changes

from pedro.repair.swapped_literals import swapped_literals

SPLIT = (
    "def split_words(text):\n"
    '    """The words of text: split on spaces where it has any, else on commas."""\n'
    '    words = text.split(",")\n'
    "    if len(words) > 1:\n"
    "        return words\n"
    '    words = text.split(" ")\n'
    "    if len(words) > 1:\n"
    "        return words\n"
    "    return [text]\n"
)


def test_the_literals_of_a_first_try_and_its_fallback_are_swapped_together() -> None:
    (change,) = swapped_literals(SPLIT.splitlines())
    assert (change.row, change.text, change.also) == (
        2,
        '    words = text.split(" ")',
        ((5, '    words = text.split(",")'),),
    )
    assert change.change == '`","` and `" "` swapped between the two lines that set `words`'
    js = [
        "const f = (txt) => {",
        "  let t = txt.split(/,/)",
        "  if (t.length > 1) { return t }",
        "  t = txt.split(/\\s/)",
    ]
    assert [(c.text, c.also) for c in swapped_literals(js)] == [
        ("  let t = txt.split(/\\s/)", ((3, "  t = txt.split(/,/)"),))
    ]
    go = ['\tt := strings.Split(txt, " ")', "\tif len(t) == 1 {", '\t\tt = strings.Split(txt, ",")']
    assert [c.text for c in swapped_literals(go)] == ['\tt := strings.Split(txt, ",")']


def test_lines_apart_in_more_than_one_literal_or_in_their_name_are_left_alone() -> None:
    lines = [
        'a = f(x, "1")',  # another argument apart too
        'a = f(y, "2")',
        'b = g("1")',  # another name
        'c = g("2")',
        "d = h(n)",  # not a literal
        "d = h(m)",
    ]
    assert swapped_literals(lines) == []


def test_a_split_that_tries_commas_before_spaces_is_fixed_by_the_two_separators_swapped(repo: Path) -> None:
    test = (
        "from words import split_words\n\n\ndef test_split_words():\n"
        '    assert split_words("Hello world!") == ["Hello", "world!"]\n'
        '    assert split_words("Hello,world!") == ["Hello", "world!"]\n'
        '    assert split_words("Hello world,!") == ["Hello", "world,!"]\n'
    )
    events = fixed_by_a_variant(repo, {"words.py": SPLIT, "test_words.py": test}, mutants=20)
    tried = tried_changes(events)
    fixed = [change for _, change, status in tried if status == "fixed"]
    assert fixed == ['`","` and `" "` swapped between the two lines that set `words`'], tried
    assert len(tried) <= 3, tried
    assert '    words = text.split(" ")\n' in (repo / "words.py").read_text()
