"""Parameters put in one case where a function starts (`text = text.lower()`, `text = text.toLowerCase();`), for a
Python or JavaScript function that is to ignore case and does not: the failing test or the function's own docstring
says so, and the failure may show no string at all (`count_word("The cat saw the dog", "the")`: `assert 1 == 2`)."""

from __future__ import annotations

import ast
import re
from itertools import combinations

from pedro.repair.locate import RowChange

IGNORES_CASE = re.compile(
    r"ignor(?:e|es|ed|ing)[\s_-]+(?:the[\s_-]+)?(?:letter[\s_-]+)?case|case[\s_-]*insensitiv|regardless[\s_-]+of[\s_-]+"
    r"(?:letter[\s_-]+)?case|case[\s_-]*fold",
    re.I,
)
"""Words that say case is not to count: `ignoring case`, `test_count_ignores_case`, `case-insensitive`."""
_HANDLES_CASE = re.compile(r"\.(?:lower|upper|casefold)\(|IGNORECASE|\bre\.I\b|\w*case\w*\s*[=,)]", re.I)
"""Code that already deals with case (a call that sets it, a regex flag, a parameter named for it): the slip is
elsewhere, not a parameter never folded."""
_JS_HANDLES_CASE = re.compile(
    r"to(?:Locale)?(?:Lower|Upper)Case\(|localeCompare|sensitivity|\w*[cC]ase\w*\s*[=,)]|/[^/\n]+/[a-z]*i[a-z]*\b"
)
"""The same for JavaScript: a call that sets case, a comparison that ignores it, a regular expression's `i` flag."""
# A JavaScript function's head up to the brace that opens its body, at a line's end: `function f(a, b) {`, a
# method `  count(a, b) {`, an arrow `const f = (a, b) => {`.
_JS_HEAD = re.compile(r"^[^\n]*?\((?P<params>[^()]*)\)\s*(?:=>\s*)?\{[ \t]*$", re.M)
_JS_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
"""A JavaScript comment: what it says of case is prose, not code that deals with case."""
_JS_NOT_TEXT = re.compile(r"^(?:-?\d|null\b|undefined\b|true\b|false\b|\[|\{)")
_MOST = 4
"""Parameters folded at most, together or one at a time."""
_NOT_TEXT = (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)


def folded_parameters(unit_text: str, tree: ast.Module, case: str) -> list[RowChange]:
    """The function's text parameters (no default, or a string one) made `case` (lower, upper) before its first
    statement: all of them at once first, then each alone; none for a function whose body shares the `def` line, nor
    for one whose code deals with case already."""
    function = tree.body[0] if tree.body else None
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) or handles_case(_code(function)):
        return []
    first = _first_statement(function)
    lines = unit_text.splitlines()
    if first is None or first.lineno == function.lineno or first.lineno > len(lines):
        return []
    names = _folded_names(function)
    line, head = lines[first.lineno - 1], lines[function.lineno - 1]
    indent = line[: len(line) - len(line.lstrip())]
    if not names or len(indent) <= len(head) - len(head.lstrip()):
        return []
    groups = [tuple(names), *(combinations(names, 1) if len(names) > 1 else ())]
    return [_folded(first.lineno - 1, indent, line, group, (f".{case}()", case)) for group in groups]


def folded_js_parameters(unit_text: str, case: str) -> list[RowChange]:
    """folded_parameters for a JavaScript function whose body opens at the end of its head's line: `text =
    text.toLowerCase();` before its first line, for the parameters with no default or a string one, read and never
    as a number; none where its code deals with case already."""
    head = _JS_HEAD.search(unit_text)
    if head is None or handles_case(_JS_COMMENT.sub("", unit_text), "javascript"):
        return []
    row = unit_text.count("\n", 0, head.end()) + 1
    lines = unit_text.splitlines()
    if row >= len(lines) or not lines[row].strip():
        return []
    body = "\n".join(lines[row:])
    names = [name for name, default in _js_parameters(head.group("params"))
             if not _JS_NOT_TEXT.match(default) and re.search(rf"(?<![\w$.]){name}(?![\w$])", body)
             and not _js_number(name, body)][:_MOST]  # fmt: skip
    line = lines[row]
    indent = line[: len(line) - len(line.lstrip())]
    groups = [tuple(names), *(combinations(names, 1) if len(names) > 1 else ())] if names else []
    return [_folded(row, indent, line, group, (f".to{case.title()}Case();", case)) for group in groups]


def handles_case(code: str, language: str = "python") -> bool:
    """Whether code (without its prose) deals with case already: a call that sets it, a regex flag, a name for it."""
    return (_JS_HANDLES_CASE if language in {"javascript", "typescript"} else _HANDLES_CASE).search(code) is not None


def _js_parameters(params: str) -> list[tuple[str, str]]:
    """(name, default) of a JavaScript parameter list's plain names; "" for no default."""
    found = []
    for part in params.split(","):
        name, _, default = part.partition("=")
        name = name.strip().split(":")[0].strip().rstrip("?")
        if re.fullmatch(r"[A-Za-z_$][\w$]*", name):
            found.append((name, default.strip()))
    return found


def _js_number(name: str, body: str) -> bool:
    """Whether JavaScript code reads `name` as a number: an index, an operand of `-`, `/`, `%` or `*`, a side of an
    order comparison."""
    word = rf"(?<![\w$.]){re.escape(name)}(?![\w$])"
    return re.search(rf"\[\s*{word}\s*\]|{word}\s*[-/%*<>]|[-/%*<>]=?\s*{word}", body) is not None


def _code(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """The function's parameters and statements, without its docstring and comments."""
    body = function.body[1:] if _first_statement(function) is not function.body[0] else function.body
    return "\n".join([ast.unparse(function.args), *(ast.unparse(statement) for statement in body)])


def _folded_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The text parameters the function reads, and never as a number."""
    read = {node.id for node in ast.walk(function) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    numbers = _read_as_numbers(function)
    return [name for name in _text_parameters(function) if name in read and name not in numbers][:_MOST]


def _folded(row: int, indent: str, line: str, names: tuple[str, ...], fold: tuple[str, str]) -> RowChange:
    """`names` folded before `line`; `fold` is what follows `name = name` (`.lower()`) and the case it sets."""
    call, case = fold
    added = "".join(f"{indent}{name} = {name}{call}\n" for name in names)
    said = " and ".join(f"`{name}`" for name in names)
    return RowChange(row, added + line, f"{said} made {case} case where the function starts, as case is to be ignored")


def _first_statement(function: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.stmt | None:
    """The body's first statement after its docstring."""
    body = function.body
    docstring = isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(
        body[0].value.value, str)  # fmt: skip
    rest = body[1:] if docstring else body
    return rest[0] if rest else None


def _text_parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """Parameters that may hold text: not `self` or `cls`, and with no default or a string one."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: dict[str, ast.expr | None] = {arg.arg: None for arg in positional}
    for arg, default in zip(reversed(positional), reversed(arguments.defaults), strict=False):
        defaults[arg.arg] = default
    for arg, keyword_default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
        defaults[arg.arg] = keyword_default
    return [name for name, default in defaults.items() if name not in {"self", "cls"} and _may_be_text(default)]


def _read_as_numbers(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names the function reads as numbers: an index or a slice's bound, `range`'s arguments, an operand of `-`, `/`,
    `//` or `**`, one side of a comparison with a number."""
    found: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Subscript):
            parts = [node.slice]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
            parts = list(node.args)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub | ast.Div | ast.FloorDiv | ast.Pow):
            parts = [node.left, node.right]
        elif isinstance(node, ast.Compare) and any(_is_number(side) for side in [node.left, *node.comparators]):
            parts = [node.left, *node.comparators]
        else:
            continue
        found.update(name.id for part in parts for name in ast.walk(part) if isinstance(name, ast.Name))
    return found


def _is_number(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool)


def _may_be_text(default: ast.expr | None) -> bool:
    if default is None:
        return True
    if isinstance(default, ast.Constant):
        return isinstance(default.value, str)
    return not isinstance(default, _NOT_TEXT)
