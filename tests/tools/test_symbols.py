"""Symbol extraction: tree-sitter definitions for Python, Go, JavaScript and TypeScript, and the regex fallback."""

from __future__ import annotations

import pytest

from pedro.tools.symbols import detect_language, extract_symbols, find_definitions, has_grammar, regex_symbols

PYTHON = b"""\
import os

LIMIT = 10
counter = 0
type Pair = tuple[int, int]


@cache
def top(a):
    local = 1

    def inner():
        return local

    return inner


class Shape:
    sides = 0

    def area(self):
        return 0

    class Meta:
        pass


if os.name == "nt":
    def windows_only():
        pass
"""

GO = b"""\
package geo

type Point struct {
	X, Y float64
}

type Mover interface {
	Move(dx float64)
}

type Meters = float64

const (
	Zero = iota
	One
)

var Origin = Point{}

func (p *Point) Move(dx float64) {
	p.X += dx
}

func Distance(a, b Point) float64 {
	return 0
}
"""

JAVASCRIPT = b"""\
export default function main() {
  function nested() {}
  const local = 1;
  return nested;
}

export class Store extends Base {
  #items = [];
  get size() { return this.#items.length; }
  add = (item) => { this.#items.push(item); };
}

const make = function () {};
let counter = 0;
exports.publish = function () {};
Store.prototype.clear = () => {};
"""

TYPESCRIPT = b"""\
export interface Repo<T> {
  get(id: string): T;
  name: string;
}

export enum Color { Red, Green }

export type Handler = (e: Event) => void;

namespace Util {
  export function trim(s: string): string { return s.trim(); }
}

export abstract class Base<T> implements Repo<T> {
  abstract get(id: string): T;
  name = "base";
}

export const toId = <T,>(value: T): string => String(value);
"""


def _rows(source: bytes, path: str) -> list[tuple[int, int, int, str, str]]:
    return [(s.start_line, s.end_line, s.depth, s.kind, s.qualified_name) for s in extract_symbols(source, path)]


def test_languages_are_detected_by_extension() -> None:
    assert detect_language("a/b.py") == "python"
    assert detect_language("x.TSX") == "tsx"
    assert detect_language("x.mjs") == "javascript"
    assert detect_language("main.rs") is None
    assert has_grammar("x.go")
    assert not has_grammar("x.rs")


def test_python_definitions() -> None:
    assert _rows(PYTHON, "m.py") == [
        (3, 3, 0, "const", "LIMIT"),
        (4, 4, 0, "variable", "counter"),
        (5, 5, 0, "type", "Pair"),
        (9, 15, 0, "function", "top"),
        (12, 13, 1, "function", "top.inner"),
        (18, 25, 0, "class", "Shape"),
        (19, 19, 1, "variable", "Shape.sides"),
        (21, 22, 1, "method", "Shape.area"),
        (24, 25, 1, "class", "Shape.Meta"),
        (29, 30, 0, "function", "windows_only"),
    ]


def test_go_definitions() -> None:
    assert _rows(GO, "geo.go") == [
        (3, 5, 0, "struct", "Point"),
        (7, 9, 0, "interface", "Mover"),
        (8, 8, 1, "method", "Mover.Move"),
        (11, 11, 0, "type", "Meters"),
        (14, 14, 0, "const", "Zero"),
        (15, 15, 0, "const", "One"),
        (18, 18, 0, "variable", "Origin"),
        (20, 22, 0, "method", "Point.Move"),
        (24, 26, 0, "function", "Distance"),
    ]


def test_javascript_definitions() -> None:
    assert _rows(JAVASCRIPT, "store.jsx") == [
        (1, 5, 0, "function", "main"),
        (2, 2, 1, "function", "main.nested"),
        (7, 11, 0, "class", "Store"),
        (9, 9, 1, "method", "Store.size"),
        (10, 10, 1, "method", "Store.add"),
        (13, 13, 0, "function", "make"),
        (14, 14, 0, "variable", "counter"),
        (15, 15, 0, "function", "publish"),
        (16, 16, 0, "method", "Store.clear"),
    ]


def test_typescript_definitions() -> None:
    assert _rows(TYPESCRIPT, "repo.ts") == [
        (1, 4, 0, "interface", "Repo"),
        (2, 2, 1, "method", "Repo.get"),
        (6, 6, 0, "enum", "Color"),
        (8, 8, 0, "type", "Handler"),
        (10, 12, 0, "module", "Util"),
        (11, 11, 1, "function", "Util.trim"),
        (14, 17, 0, "class", "Base"),
        (15, 15, 1, "method", "Base.get"),
        (19, 19, 0, "function", "toId"),
    ]


def test_tsx_parses_jsx() -> None:
    source = b"export function App() {\n  return <div className='x'>{1}</div>;\n}\n"
    assert _rows(source, "App.tsx") == [(1, 3, 0, "function", "App")]


def test_regex_fallback_matches_tree_sitter_on_plain_python() -> None:
    source = PYTHON.decode()
    fallback = [(s.start_line, s.end_line, s.kind, s.qualified_name) for s in regex_symbols(source)]
    assert fallback == [
        (5, 5, "type", "Pair"),
        (9, 15, "function", "top"),
        (12, 13, "function", "top.inner"),
        (18, 25, "class", "Shape"),
        (21, 22, "method", "Shape.area"),
        (24, 25, "class", "Shape.Meta"),
        (29, 30, "function", "windows_only"),
    ]
    names = [s.qualified_name for s in extract_symbols(PYTHON, "m.py", use_tree_sitter=False)]
    assert names == [name for *_, name in fallback]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "pub struct Stack<T> {\n    items: Vec<T>,\n}\n\nimpl<T> Stack<T> {\n    pub fn push(&mut self, x: T) {\n"
            "        self.items.push(x);\n    }\n}\n\npub(crate) const CAP: usize = 8;\n"
            "macro_rules! hello { () => {} }\n",
            [
                (1, 3, "struct", "Stack"),
                (5, 9, "impl", "Stack"),
                (6, 8, "method", "Stack.push"),
                (11, 11, "const", "CAP"),
            ],
        ),
        (
            "#define SIZE 4\n\nstatic int add(int a, int b)\n{\n    return a + b;\n}\n\n"
            "struct node {\n    int v;\n};\n",
            [(1, 1, "macro", "SIZE"), (3, 6, "function", "add"), (8, 10, "struct", "node")],
        ),
        (
            "class Greeter\n  def self.create\n    new\n  end\n\n  def greet(name)\n    puts name\n  end\nend\n",
            [(1, 9, "class", "Greeter"), (2, 4, "method", "Greeter.create"), (6, 8, "method", "Greeter.greet")],
        ),
        (
            "public class Main {\n    public static void main(String[] args) {\n    }\n}\ninterface Shape {\n}\n",
            [(1, 4, "class", "Main"), (5, 6, "interface", "Shape")],
        ),
    ],
)
def test_regex_fallback_for_other_languages(source: str, expected: list[tuple[int, int, str, str]]) -> None:
    assert [(s.start_line, s.end_line, s.kind, s.qualified_name) for s in regex_symbols(source)] == expected


def test_find_definitions_by_plain_and_qualified_name() -> None:
    assert [(s.start_line, s.kind) for s in find_definitions(GO, "geo.go", "Move")] == [(8, "method"), (20, "method")]
    assert [s.start_line for s in find_definitions(GO, "geo.go", "Point.Move")] == [20]
    assert find_definitions(GO, "geo.go", "Nothing") == []
    assert [s.start_line for s in find_definitions(PYTHON, "m.py", "area", use_tree_sitter=False)] == [21]


def test_deeply_nested_code_does_not_exhaust_the_stack() -> None:
    expression = "(" * 1500 + "1" + ")" * 1500
    source = f"const deep = {expression};\nfunction after() {{}}\n".encode()
    names = [s.name for s in extract_symbols(source, "deep.js")]
    assert names == ["deep", "after"]


def test_broken_source_still_yields_what_parses() -> None:
    source = b"def ok():\n    pass\n\ndef broken(:\n    pass\n\nclass Later:\n    pass\n"
    names = [s.name for s in extract_symbols(source, "broken.py")]
    assert "ok" in names
    assert "Later" in names


DEFINED_EVERY_WAY = b"""\
import typing

LIMIT: int = 3
if typing.TYPE_CHECKING: Alias = int
class \\
    Spread(object):
    pass
def build():
    counter = 0

    def inner():
        if counter:
            class Local:
                pass
        return counter

    type Pair = tuple[int, int]
    return inner
"""


@pytest.mark.skipif(not has_grammar("x.py"), reason="tree-sitter-python is not installed")
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("LIMIT", [("const", "LIMIT", 3)]),
        ("Alias", [("variable", "Alias", 4)]),
        ("Spread", [("class", "Spread", 5)]),
        ("inner", [("function", "build.inner", 11)]),
        ("Local", [("class", "build.inner.Local", 13)]),
        ("Pair", [("type", "build.Pair", 17)]),
        ("counter", []),
        ("typing", []),
    ],
)
def test_find_definitions_reaches_every_python_definition_the_outline_has(
    name: str, expected: list[tuple[str, str, int]]
) -> None:
    found = find_definitions(DEFINED_EVERY_WAY, "m.py", name)
    assert [(s.kind, s.qualified_name, s.start_line) for s in found] == expected
    outlined = [s for s in extract_symbols(DEFINED_EVERY_WAY, "m.py") if s.name == name]
    assert found == outlined


@pytest.mark.skipif(not has_grammar("x.py"), reason="tree-sitter-python is not installed")
def test_definitions_nested_in_function_bodies_are_found_and_locals_are_not() -> None:
    names = [(s.qualified_name, s.kind) for s in extract_symbols(DEFINED_EVERY_WAY, "m.py")]
    assert names == [
        ("LIMIT", "const"),
        ("Alias", "variable"),
        ("Spread", "class"),
        ("build", "function"),
        ("build.inner", "function"),
        ("build.inner.Local", "class"),
        ("build.Pair", "type"),
    ]


def test_symbols_follow_the_text_and_callers_cannot_change_them() -> None:
    one = b"def one():\n    pass\n"
    first = extract_symbols(one, "m.py")
    assert [s.name for s in first] == ["one"]
    first.clear()
    assert [s.name for s in extract_symbols(one, "m.py")] == ["one"]
    assert [s.name for s in extract_symbols(b"def two():\n    pass\n", "m.py")] == ["two"]
    assert extract_symbols(one, "m.py", use_tree_sitter=False) == regex_symbols(one.decode())
    assert [s.name for s in extract_symbols(b"fn one() {}\n", "m.rs")] == ["one"]
