"""The variables a unit stores and never reads, in each language, as a linter would name them."""

from __future__ import annotations

from pedro.repair.locate import Unit
from pedro.repair.unread import unread_names
from pedro.tools.symbols import LanguageName


def unread(text: str, language: LanguageName) -> frozenset[str]:
    return unread_names(Unit("f", "f", "f", language, 1, len(text.splitlines()), text))


def test_python_reads_the_code_itself() -> None:
    assert unread('def parse(text):\n    h, m = text.split(":")\n    return int(h) * 60 + int(h)\n', "python") == {"m"}
    # A parameter never read is one; `total += x` reads total; `_`, `self` and a global are no such variables.
    text = (
        "def area(self, width, height, _unused):\n    global seen\n    seen = 1\n    total = 0\n"
        "    total += width\n    for _ in range(2):\n        pass\n    return total\n"
    )
    assert unread(text, "python") == {"height"}
    assert unread("def broken(:\n", "python") == set()


def test_go_and_javascript_are_read_by_where_a_name_stands() -> None:
    go = (
        "func Parse(text string) (int, error) {\n\tvar h, m int\n"
        '\tif _, err := fmt.Sscanf(text, "%d:%d", &h, &m); err != nil {\n\t\treturn 0, err\n\t}\n'
        "\treturn h*60 + h, nil\n}\n"
    )
    assert unread(go, "go") == {"m"}  # the type that ends `var h, m int` is no variable
    # A Go parameter never read is one too, in a grouped list (`a, b int`) and after a method's receiver.
    go = "func (s *Shop) Add(arr []int, k, limit int) int {\n\ttotal := 0\n\tfor _, x := range arr {\n"
    assert unread(go + "\t\ttotal += x * limit\n\t}\n\treturn total\n}\n", "go") == {"k"}
    # The type a declaration with a value gives (`var gcd int = 1`) is no variable stored.
    assert (
        unread("func G(a int) int {\n\tvar gcd int = 1\n\tvar x, y int = a, 2\n\treturn gcd + x + y\n}\n", "go")
        == set()
    )
    js = 'function f(a, b = 2) {\n  const x = a + 1; // b\n  let y = "b";\n  return x;\n}\n'
    assert unread(js, "javascript") == {"b", "y"}  # a comment's and a string's words are not reads
    assert unread("function f(a: number, b?: string): number {\n  return a + b;\n}\n", "typescript") == set()


def test_a_local_collection_only_filled_is_unread_and_a_parameter_filled_in_place_is_not() -> None:
    text = (
        "def sort_small(values, limit, seen):\n    counts = [0] * limit\n    for v in values:\n"
        "        counts[v] += 1\n        seen.add(v)\n    found = []\n    found.append(limit)\n"
        "    return values\n"
    )
    # `counts` and `found` are filled and read nowhere; `seen` is the caller's, filled for the caller to read.
    assert unread(text, "python") == {"counts", "found"}
    assert unread("def f(x):\n    out = {}\n    out[1] = x\n    return out[1]\n", "python") == set()
