"""The last item a counted loop over all but the last leaves out, in Go and JavaScript: offered after such loops
alone, and an intersperse that forgets its last item fixed through the real repair."""

from __future__ import annotations

from pathlib import Path

import pytest
from repo_util import node_test
from test_mutants import tried_by_node

from pedro.repair.locate import Unit
from pedro.repair.loop_remainders import loop_remainders

GO = (
    "func Intersperse(numbers []int, sep int) []int {\n\tresult := make([]int, 0)\n"
    "\tfor i := 0; i < len(numbers)-1; i++ {\n\t\tn := numbers[i]\n\t\tresult = append(result, n)\n"
    "\t\tresult = append(result, sep)\n\t}\n\treturn result\n}"
)
JS = (
    "function intersperse(numbers, sep) {\n  const out = [];\n  for (let i = 0; i < numbers.length - 1; i++) {\n"
    "    out.push(numbers[i]);\n    out.push(sep);\n  }\n  return out;\n}"
)


def unit(text: str, language: str, start: int = 1) -> Unit:
    name = text.split("(")[0].split()[-1]
    end = start + text.count("\n")
    return Unit("m", name, name, language, start, end, text)  # type: ignore[arg-type]


def test_the_last_item_is_appended_after_a_loop_over_all_but_the_last() -> None:
    assert loop_remainders(unit(GO, "go", start=3)) == [
        (9, "\t}\n\tresult = append(result, numbers[len(numbers)-1])",
         "`result = append(result, numbers[len(numbers)-1])` added after the loop: its last item"),
    ]  # fmt: skip
    assert [(row, new) for row, new, _ in loop_remainders(unit(JS, "javascript"))] == [
        (6, "  }\n  out.push(numbers[numbers.length - 1]);")
    ]


@pytest.mark.parametrize(
    "text",
    [
        GO.replace("len(numbers)-1", "len(numbers)"),  # a loop over every item
        GO.replace("result = append(result, n)", "result = append(result, n*2)"),  # items it does not append
        GO.replace("\treturn result", "\tresult = append(result, numbers[len(numbers)-1])\n\treturn result"),
    ],
)
def test_a_loop_that_misses_no_item_is_left_alone(text: str) -> None:
    assert loop_remainders(unit(text, "go")) == []
    assert loop_remainders(unit(JS, "python")) == []


def test_an_intersperse_that_forgets_its_last_item_is_fixed(repo: Path) -> None:
    files = {
        "sep.js": f"{JS}\n\nmodule.exports = {{ intersperse }};\n",
        "sep.test.js": node_test(
            "sep", "intersperse", "assert.deepEqual(intersperse([1, 2, 3], 0), [1, 0, 2, 0, 3]);",
            "assert.deepEqual(intersperse([5, 6], 9), [5, 9, 6]);",
        ),
    }  # fmt: skip
    tried = tried_by_node(repo, files)
    assert "added after the loop: its last item" in str(tried[-1].get("change")), [c.get("change") for c in tried]
    assert "  }\n  out.push(numbers[numbers.length - 1]);\n  return out;" in (repo / "sep.js").read_text()
