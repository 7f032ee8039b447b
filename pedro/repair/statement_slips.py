"""Slips of a whole statement that no one-token variant reaches: a string meant to format values that does not
(`"Hello, {name}!"` without its `f`, `"${name}"` in quotes where backticks format), a value computed and dropped where
it was to be returned (`price * (1 + rate);` in an arrow function's block), and a `return` left inside the loop it was
to follow (`return -1` one level too deep, so the loop ends after its first item)."""

from __future__ import annotations

import ast
import re

from pedro.repair.locate import RowChange

_PLACEHOLDER = re.compile(r"\{(?P<name>[A-Za-z_]\w*)(?:[.\[][^{}]*)?(?:![rsa])?(?::[^{}]*)?\}")
"""A placeholder an f-string fills: `{name}`, `{user.name}`, `{total:.2f}`."""
_JS_STRING = re.compile(
    r"""(?P<quote>["'])(?P<body>(?:(?!(?P=quote))[^\\\n]|\\.)*\$\{[^}\n]+\}(?:(?!(?P=quote))[^\\\n]|\\.)*)(?P=quote)"""
)
"""A JavaScript string in quotes that holds a template's placeholder (`"Hello, ${name}!"`)."""
_JS_STATEMENT = re.compile(
    r"^(?P<indent>[ \t]*)(?!(?:return|const|let|var|if|for|while|else|switch|case|default|break|continue|throw|"
    r"function|class|import|export|await|yield|do|try|catch|finally|new|delete|typeof|void|super|this)\b)"
    r"(?P<expression>[^;{}]*[^\s;{}])\s*;\s*$"
)
"""A JavaScript line that is one statement, not a declaration or a keyword's: `price * (1 + rate);`."""
_JS_CALL = re.compile(r"^[\w$.\[\]'\"]+\s*\(|^\(.*\)\s*\(|\+\+|--")
"""A statement worth its effect: a call (`save(x)`, `(fn)(x)`), an increment."""
_ASSIGNMENT = re.compile(r"(?<![=!<>])=(?![=>])|[-+*/%&|^]=")
_PYTHON_EFFECTS = (ast.Call, ast.Await, ast.Yield, ast.YieldFrom, ast.Constant, ast.JoinedStr, ast.NamedExpr)
"""Expressions a statement of their own is worth: a call, a wait, a yield; a string is a docstring or a comment."""


def unformatted_python(source: str, tree: ast.Module, lines: list[str]) -> list[RowChange]:
    """Each one-line string with a placeholder for a name the function knows (`"Hello, {name}!"`) and no `f`, made
    an f-string; not a docstring, nor a string `.format()` or `%` fills. `source` is what `tree` was parsed from
    (the unit dedented); `lines` the unit's own lines."""
    known = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    known |= {arg.arg for node in ast.walk(tree) if isinstance(node, ast.arguments) for arg in _all_arguments(node)}
    filled = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "format"}
    filled |= {id(node.left) for node in ast.walk(tree) if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)}
    filled |= {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}  # docstrings
    filled |= {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    found: list[RowChange] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str) or id(node) in filled:
            continue
        names = {match["name"] for match in _PLACEHOLDER.finditer(node.value)}
        segment = ast.get_source_segment(source, node)
        if not names & known or node.lineno != node.end_lineno or segment is None or segment[0] not in "\"'":
            continue
        row = node.lineno - 1
        line = lines[row]
        at = line.find(segment)
        if at >= 0 and (at == 0 or not (line[at - 1].isalnum() or line[at - 1] == "_")):
            new = line[:at] + "f" + line[at:]
            found.append(RowChange(row, new, f"{segment} made an f-string, as it names {_listed(names & known)}"))
    return sorted(found, key=lambda change: change.row)


def unformatted_javascript(lines: list[str]) -> list[RowChange]:
    """Each string in quotes that holds a placeholder (`"Hello, ${name}!"`) made a template literal in backticks."""
    found: list[RowChange] = []
    for row, line in enumerate(lines):
        for match in _JS_STRING.finditer(line):
            body = match["body"]
            if "`" in body:
                continue
            new = f"{line[: match.start()]}`{body}`{line[match.end() :]}"
            found.append(RowChange(row, new, f"{match.group(0)} made a template literal, so that it fills `${{…}}`"))
    return found


def dropped_python(tree: ast.Module, lines: list[str]) -> list[RowChange]:
    """Each one-line statement that computes a value and drops it (`x * 2`, `total`), returned instead."""
    found: list[RowChange] = []
    for statement in ast.walk(tree):
        if not isinstance(statement, ast.Expr) or isinstance(statement.value, _PYTHON_EFFECTS):
            continue
        if statement.lineno != statement.end_lineno:
            continue
        row = statement.lineno - 1
        line = lines[row]
        indent = line[: len(line) - len(line.lstrip())]
        found.append(RowChange(row, f"{indent}return {line.strip()}", "the value it computes and drops returned"))
    return sorted(found, key=lambda change: change.row)


def dropped_javascript(lines: list[str]) -> list[RowChange]:
    """Each statement that computes a value and drops it (`price * (1 + rate);`), returned instead."""
    found: list[RowChange] = []
    for row, line in enumerate(lines):
        match = _JS_STATEMENT.match(line)
        if match is None or row == 0:
            continue
        expression = match["expression"]
        if _JS_CALL.search(expression) or _ASSIGNMENT.search(_without_strings(expression)):
            continue
        if expression.startswith(("}", ")", "]", '"use', "'use")):
            continue
        found.append(
            RowChange(row, f"{match['indent']}return {expression};", "the value it computes and drops returned")
        )
    return found


def returns_in_loops(tree: ast.Module, lines: list[str]) -> list[RowChange]:
    """A one-line `return` that ends a loop's body after other statements (`for ...: if ...: return i` then `return
    -1`), moved out to follow the loop: as it stands, the loop never gets past its first item."""
    found: list[RowChange] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.For | ast.AsyncFor | ast.While) or node.orelse or len(node.body) < 2:
            continue
        last = node.body[-1]
        if not isinstance(last, ast.Return) or last.lineno != last.end_lineno:
            continue
        head, row = lines[node.lineno - 1], last.lineno - 1
        indent = head[: len(head) - len(head.lstrip())]
        found.append(RowChange(row, indent + lines[row].strip(), "the `return` moved out of the loop, to follow it"))
    return sorted(found, key=lambda change: change.row)


def _all_arguments(arguments: ast.arguments) -> list[ast.arg]:
    extra = [arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None]
    return [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, *extra]


def _without_strings(code: str) -> str:
    return re.sub(r"""(["'`])(?:(?!\1)[^\\]|\\.)*\1""", '""', code)


def _listed(names: set[str]) -> str:
    return " and ".join(f"`{name}`" for name in sorted(names))
