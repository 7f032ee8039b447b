"""A check a function lacks where the failing test expects it to raise: `with pytest.raises(ValueError): sqrt(-1)`
fails with "DID NOT RAISE", and the fix is a statement no one-token change writes, `if x < 0: raise ValueError(…)`
where the body starts. The test's own call says which argument and which value: a negative number, zero, None,
something empty, or a value of another type than the test's other calls pass there."""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from pedro.repair.locate import RowChange, indent_of
from pedro.repair.normal_forms import JS_HEAD, js_parameters
from pedro.repair.trailing_separators import split_arguments

NOT_RAISED = re.compile(r"DID NOT RAISE|\bnot raised\b|Missing expected (?:exception|rejection)|did not throw")
"""What pytest, unittest, node's assert and jest say when a call the test expected to raise returned."""
_MOST = 8
_PLAIN_TEXT = re.compile(r"^[\w ,.:;'!?-]{1,80}$")
"""A `match=` pattern that is plain text: the message itself, a raise can say it."""


@dataclass(frozen=True)
class Raising:
    """One argument of a call the failing test expects to raise: which exception, whose call, where the value goes
    (a position, else a keyword), its literal, the message the test matches (if plain text), and the type the test's
    other calls pass there (if they all pass one)."""

    exception: str
    function: str
    position: int | None
    keyword: str | None
    value: str
    message: str = ""
    usual_type: str = ""


def expected_raises(test_code: str) -> frozenset[Raising]:
    """The arguments of the calls a test expects to raise: in `with pytest.raises(E[, match=…]):` or
    `with self.assertRaises(E):` blocks, and `pytest.raises(E, f, *args)`, `self.assertRaises(E, f, *args)`."""
    try:
        tree = ast.parse(textwrap.dedent(test_code))
    except SyntaxError:
        return frozenset()
    found: set[Raising] = set()
    raising = list(_raising_calls(tree))
    for exception, message, call in raising:
        function = _called_name(call.func)
        if not function or any(isinstance(arg, ast.Starred) for arg in call.args):
            continue
        usual = _usual_types(tree, function, {id(node) for _, _, node in raising})
        for where, node in _arguments(call):
            value = _literal(node)
            if value is not _NOT_LITERAL:
                position = where if isinstance(where, int) else None
                keyword = where if isinstance(where, str) else None
                kind = usual.get(where, "")
                found.add(Raising(exception, function, position, keyword, repr(value), message, kind))
    return frozenset(found)


def raise_guards(lines: list[str], name: str, raising: frozenset[Raising]) -> list[RowChange]:
    """For a Python function `name` (its `lines`), `if CONDITION: raise E(…)` added where its body starts, for each
    condition the failing test's raising calls suggest; first, where they suggest several, one for each value."""
    wanted = [one for one in raising if one.function == name]
    parameters, first_row = _signature(lines)
    if not wanted or first_row is None:
        return []
    return _guarded(lines, first_row, _checks(parameters, wanted, _PYTHON), _PYTHON)


@dataclass(frozen=True)
class _Language:
    """How a language writes a check: its condition for each kind of value, its names of types, what it raises, and
    the check around that."""

    spelled: dict[str, str]
    """Per kind of value (_value_kinds), the condition that finds it, with {p} the parameter and {t} a type."""
    type_name: Callable[[str], str]
    """The language's name of a Python literal's type (int, str, …); "" where it has no check for it."""
    raised: Callable[[str, Raising], str]
    check: str
    """The check's lines, with {indent}, {condition} and {raised}."""
    said: str
    """The check in words, with {condition} and {raised}."""


def _python_raised(parameter: str, one: Raising) -> str:
    message = repr(one.message) if one.message else f'f"invalid {parameter}: {{{parameter}!r}}"'
    return f"raise {one.exception}({message})"


def _checks(parameters: list[str], wanted: list[Raising], language: _Language) -> list[list[tuple[str, str]]]:
    """The checks to try, each a list of (condition, what it raises): one for each value together first, where
    there are several, then each condition alone."""
    raises: dict[str, str] = {}
    firsts: list[str] = []
    for one in sorted(wanted, key=lambda one: (one.position is None, one.position or 0, one.keyword or "", one.value)):
        parameter = _parameter(parameters, one)
        conditions = _conditions(parameter, one, language) if parameter else []
        for condition in conditions:
            raises.setdefault(condition, language.raised(parameter, one))
        if conditions and conditions[0] not in firsts:
            firsts.append(conditions[0])
    # A value's type is checked before anything compares it.
    type_check = language.spelled["type"].partition("{p}")[0]
    firsts.sort(key=lambda condition: not condition.startswith(type_check))
    options = [firsts] if len(firsts) > 1 else []
    options += [[condition] for condition in raises]
    return [[(condition, raises[condition]) for condition in chosen] for chosen in options[:_MOST]]


def _guarded(lines: list[str], row: int, checks: list[list[tuple[str, str]]], language: _Language) -> list[RowChange]:
    """Each set of checks written before the line at `row`, the first of the body."""
    indent = indent_of(lines[row])
    changes = []
    for chosen in checks:
        added = "".join(language.check.format(indent=indent, condition=c, raised=r) for c, r in chosen)
        said = "; ".join("`" + language.said.format(condition=c, raised=r) + "`" for c, r in chosen)
        changes.append(RowChange(row, added + lines[row], f"{said} added where the body starts"))
    return changes


def _conditions(parameter: str, one: Raising, language: _Language) -> list[str]:
    """The conditions, in `language`, that find the value the test passes in `parameter`."""
    value = ast.literal_eval(one.value)
    kinds = _value_kinds(value)
    usual, own = language.type_name(one.usual_type), language.type_name(type(value).__name__)
    if usual and value is not None and usual != own:
        kinds.append("type")
    return [language.spelled[kind].format(p=parameter, t=usual) for kind in kinds]


def _value_kinds(value: Any) -> list[str]:
    """What a value a test expects a call to refuse is, of what a check looks for: none, negative, zero (and so at
    most zero), empty, blank."""
    if value is None:
        return ["none"]
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return ["negative"] if value < 0 else ["zero", "not_positive"] if value == 0 else []
    if isinstance(value, str | list | tuple | dict | set) and not value:
        return ["empty"]
    return ["blank"] if isinstance(value, str) and not value.strip() else []


_NOT_LITERAL = object()


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NOT_LITERAL


def _arguments(call: ast.Call) -> list[tuple[int | str, ast.expr]]:
    """Each argument of a call, by its position or its keyword."""
    given: list[tuple[int | str, ast.expr]] = list(enumerate(call.args))
    return given + [(keyword.arg, keyword.value) for keyword in call.keywords if keyword.arg]


def _called_name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _exception_name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _raising_calls(tree: ast.Module) -> Iterator[tuple[str, str, ast.Call]]:
    """(exception, message matched, call) for each call the test expects to raise."""
    for node in ast.walk(tree):
        if isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                expected = _expectation(item.context_expr)
                if expected is not None and not _holds_call(item.context_expr):
                    calls = (inner for statement in node.body for inner in ast.walk(statement))
                    yield from ((*expected, call) for call in calls if isinstance(call, ast.Call))
        elif isinstance(node, ast.Call) and _holds_call(node):
            expected = _expectation(node)
            if expected is not None:
                target = node.args[1]
                yield expected[0], expected[1], ast.Call(func=target, args=node.args[2:], keywords=node.keywords)


def _expectation(node: ast.expr) -> tuple[str, str] | None:
    """(exception, plain message to match) where `node` is `pytest.raises(E…)` or `assertRaises(E…)`."""
    if not isinstance(node, ast.Call) or _called_name(node.func) not in ("raises", "assertRaises") or not node.args:
        return None
    exception = _exception_name(node.args[0])
    if not exception:
        return None
    match = next((k.value for k in node.keywords if k.arg == "match"), None)
    text = match.value if isinstance(match, ast.Constant) and isinstance(match.value, str) else ""
    return exception, text if _PLAIN_TEXT.match(text) else ""


def _holds_call(node: ast.expr) -> bool:
    """Whether `raises(E, f, *args)` names the function to call itself, rather than opening a block."""
    return isinstance(node, ast.Call) and len(node.args) >= 2 and isinstance(node.args[1], ast.Name | ast.Attribute)


def _usual_types(tree: ast.Module, function: str, raising: set[int]) -> dict[int | str, str]:
    """Per argument, the type every other literal call of `function` in the test (none of the `raising` ones)
    passes there, where there is one."""
    seen: dict[int | str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and id(node) not in raising and _called_name(node.func) == function:
            for where, arg in _arguments(node):
                value = _literal(arg)
                if value is not _NOT_LITERAL and value is not None:
                    seen.setdefault(where, set()).add(type(value).__name__)
    return {where: next(iter(kinds)) for where, kinds in seen.items() if len(kinds) == 1}


def _signature(lines: list[str]) -> tuple[list[str], int | None]:
    """The function's parameters (self or cls dropped from a method) and the row its body starts at (after the
    docstring); None where it does not parse alone or its body starts on its signature's line."""
    try:
        tree = ast.parse(textwrap.dedent("\n".join(lines)))
    except SyntaxError:
        return [], None
    function = tree.body[0] if tree.body else None
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return [], None
    arguments = function.args
    names = [argument.arg for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]]
    if names and names[0] in ("self", "cls"):
        names = names[1:]
    body = function.body
    docstring = isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant)
    first = body[1] if docstring and len(body) > 1 else body[0]
    row = first.lineno - 1
    return names, row if row > function.lineno - 1 else None


def _parameter(parameters: list[str], one: Raising) -> str:
    if one.keyword is not None:
        return one.keyword if one.keyword in parameters else ""
    return parameters[one.position] if one.position is not None and one.position < len(parameters) else ""


# ---- JavaScript -------------------------------------------------------------------------------------------

_JS_THROWS = re.compile(
    r"(?:assert\.(?:throws|rejects)|expect)\(\s*(?:async\s*)?\(\)\s*=>\s*(?:\{\s*)?(?:await\s+)?"
    r"(?P<call>(?P<callee>[\w$.]+)\((?P<args>[^()]*)\))"
)
"""A call node's assert or jest's expect wraps in an arrow that must throw: `assert.throws(() => root(-4), …)`."""
_JS_ERROR = re.compile(r"\b(?P<name>[A-Z]\w*(?:Error|Exception))\b")
_JS_STATEMENT_END = re.compile(r";|\n\s*\n")
_JS_NUMBER = re.compile(r"^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$")
_JS_STRING = re.compile(r"""^(?P<q>["'`])(?P<body>[^"'`\\$]*)(?P=q)$""")


def expected_throws(statement: str, file_text: str = "") -> frozenset[Raising]:
    """expected_raises for JavaScript: the literal arguments of each call that an arrow handed to `assert.throws`,
    `assert.rejects` or jest's `expect(…).toThrow` in `statement` makes, with the error class the statement names
    (else Error); the usual types from the other calls in `file_text` (the test file), else in the statement."""
    context = file_text or statement
    inside_throws = {match.start("call") for match in _JS_THROWS.finditer(context)}
    found: set[Raising] = set()
    for match in _JS_THROWS.finditer(statement):
        end = _JS_STATEMENT_END.search(statement, match.end())
        said = _JS_ERROR.search(statement, match.end(), end.start() if end else len(statement))
        function = match["callee"].rpartition(".")[2]
        usual = _js_usual_types(context, function, inside_throws)
        for position, raw in enumerate(split_arguments(match["args"])):
            value = _js_literal(raw)
            if value is not _NOT_LITERAL:
                kind = usual.get(position, "")
                exception = said["name"] if said else "Error"
                found.add(Raising(exception, function, position, None, repr(value), "", kind))
    return frozenset(found)


def throw_guards(unit_text: str, name: str, raising: frozenset[Raising]) -> list[RowChange]:
    """raise_guards for a JavaScript function whose body opens at the end of its head's line: `if (CONDITION) {
    throw new E(…); }` where the body starts."""
    head = JS_HEAD.search(unit_text)
    lines = unit_text.splitlines()
    row = unit_text.count("\n", 0, head.end()) + 1 if head is not None else len(lines)
    wanted = [one for one in raising if one.function == name]
    if head is None or row >= len(lines) or not wanted:
        return []
    parameters = [parameter for parameter, _ in js_parameters(head["params"])]
    return _guarded(lines, row, _checks(parameters, wanted, _JAVASCRIPT), _JAVASCRIPT)


def _js_thrown(parameter: str, one: Raising) -> str:
    return f"throw new {one.exception}(`invalid {parameter}: ${{{parameter}}}`);"


def _js_literal(raw: str) -> Any:
    """The Python value of a JavaScript literal argument: a number, a plain string, null or undefined, a boolean,
    an empty array or object; _NOT_LITERAL for anything else."""
    plain: dict[str, Any] = {"null": None, "undefined": None, "true": True, "false": False, "[]": [], "{}": {}}
    if raw in plain:
        return plain[raw]
    if _JS_NUMBER.match(raw):
        return float(raw) if any(mark in raw for mark in ".eE") else int(raw)
    string = _JS_STRING.match(raw)
    return string["body"] if string else _NOT_LITERAL


def _js_usual_types(test_code: str, function: str, raising: set[int]) -> dict[int | str, str]:
    """Per position, the type every other literal call of `function` in the test code passes there."""
    seen: dict[int | str, set[str]] = {}
    for call in re.finditer(rf"(?<![\w$]){re.escape(function)}\((?P<args>[^()]*)\)", test_code):
        if call.start() in raising:
            continue
        for position, raw in enumerate(split_arguments(call["args"])):
            value = _js_literal(raw)
            if value is not _NOT_LITERAL and value is not None:
                seen.setdefault(position, set()).add(type(value).__name__)
    return {where: next(iter(kinds)) for where, kinds in seen.items() if len(kinds) == 1}


_PYTHON = _Language(
    spelled={
        "none": "{p} is None", "negative": "{p} < 0", "zero": "{p} == 0", "not_positive": "{p} <= 0",
        "empty": "not {p}", "blank": "not {p}.strip()", "type": "not isinstance({p}, {t})",
    },
    type_name=lambda name: name,
    raised=_python_raised,
    check="{indent}if {condition}:\n{indent}    {raised}\n",
    said="if {condition}: {raised}",
)  # fmt: skip
_JAVASCRIPT = _Language(
    spelled={
        "none": "{p} == null", "negative": "{p} < 0", "zero": "{p} === 0", "not_positive": "{p} <= 0",
        "empty": "{p}.length === 0", "blank": '{p}.trim() === ""', "type": 'typeof {p} !== "{t}"',
    },
    type_name=lambda name: {"int": "number", "float": "number", "str": "string"}.get(name, ""),
    raised=_js_thrown,
    check="{indent}if ({condition}) {{\n{indent}  {raised}\n{indent}}}\n",
    said="if ({condition}) {{ {raised} }}",
)  # fmt: skip
