"""A separator added after every item, the last one's included: taken off once the loop ends, in every language,
left alone where the second value changes with the item, and an intersperse fixed by it through the real repair."""

from __future__ import annotations

from pathlib import Path

from repo_util import commit_files
from test_mutants import tried_changes
from test_repairer import repair

from pedro.repair.locate import Unit
from pedro.repair.trailing_separators import trailing_separators

INTERSPERSE = (
    "def intersperse(numbers, delimiter):\n"
    '    """The numbers with the delimiter between each two of them."""\n'
    "    result = []\n"
    "    for n in numbers:\n"
    "        result.append(n)\n"
    "        result.append(delimiter)\n"
    "\n"
    "    return result\n"
)


def unit(language: str, text: str) -> Unit:
    return Unit("f", "f", "f", language, 1, len(text.splitlines()), text)  # type: ignore[arg-type]


def test_a_separator_after_every_item_is_taken_off_after_the_loop() -> None:
    ((line, text, change),) = trailing_separators(unit("python", INTERSPERSE))
    assert (line, text) == (6, "        result.append(delimiter)\n    del result[-1:]")
    assert change == "the separator after `result`'s last item taken off"
    js = "const join = (words) => {\n  let out = [];\n  for (const w of words) {\n"
    js += "    out.push(w, ', ');\n  }\n  return out;\n}"
    assert [text for _, text, _ in trailing_separators(unit("javascript", js))] == ["  }\n  out.pop();"]
    go = (
        "func Intersperse(numbers []int, delimiter int) []int {\n\tresult := []int{}\n"
        "\tfor _, x := range numbers {\n\t\tresult = append(result, x, delimiter)\n\t}\n\treturn result\n}"
    )
    assert [text for _, text, _ in trailing_separators(unit("go", go))] == [
        "\t}\n\tif len(result) > 0 {\n\t\tresult = result[:len(result)-1]\n\t}"
    ]


def test_pairs_whose_second_value_changes_and_loops_already_trimmed_are_left_alone() -> None:
    pairs = "function pairs(m) {\n  const out = [];\n  for (const k of Object.keys(m)) {\n    const v = m[k];\n"
    pairs += "    out.push(k, v);\n  }\n  return out;\n}"
    indexed = (
        "def f(xs):\n    out = []\n    for i in range(len(xs)):\n        out.append(i)\n        out.append(xs[i])\n"
    )
    trimmed = INTERSPERSE.replace("\n    return result", "    result.pop()\n    return result")
    nested = "def f(xs, sep):\n    out = []\n    for x in xs:\n        if x:\n            out.append(x)\n"
    nested += "            out.append(sep)\n    return out\n"
    assert trailing_separators(unit("javascript", pairs)) == []
    assert trailing_separators(unit("python", indexed)) == trailing_separators(unit("python", trimmed)) == []
    assert trailing_separators(unit("python", nested)) == []


def test_an_intersperse_that_ends_on_its_delimiter_is_fixed_by_taking_the_last_one_off(repo: Path) -> None:
    commit_files(
        repo,
        {
            "seq.py": INTERSPERSE,
            "test_seq.py": (
                "from seq import intersperse\n\n\ndef test_intersperse():\n"
                "    assert intersperse([], 7) == []\n"
                "    assert intersperse([5, 6, 3, 2], 8) == [5, 8, 6, 8, 3, 8, 2]\n"
                "    assert intersperse([2, 2, 2], 2) == [2, 2, 2, 2, 2]\n"
            ),
        },
    )
    outcome, backend, events = repair(repo, [], coverage=True, mutants=60, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    tried = tried_changes(events)
    assert tried[0][1:] == ("the separator after `result`'s last item taken off", "fixed"), tried
    assert "        result.append(delimiter)\n    del result[-1:]\n" in (repo / "seq.py").read_text()
