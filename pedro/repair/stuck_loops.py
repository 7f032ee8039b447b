"""A `while` loop whose condition reads no name its body changes: once it starts it never ends (`while n < x:` where
the body only moves `power` on), so a name of the condition is likely one the body changes, written as another. Each
such name of the condition becomes each name the body assigns, or its part from that name on (`is_palindrome(text)`
→ `is_palindrome(text[start:])`), on the condition's line; Python and JavaScript.

A loop the body may leave another way (`break`, `return`, `throw`, `raise`), or whose condition reads a name the
body changes through a call or an item (`stack.pop()`, `seen[k] = 1`), is left alone.
"""

from __future__ import annotations

import ast
import re
import textwrap

from pedro.repair.locate import RowChange

_MOST = 6
"""Rewritten conditions per loop: a few names read times a few names assigned."""
_JS_WHILE = re.compile(r"^(?P<indent>[ \t]*)(?:\}\s*)?while\s*\((?P<condition>.*)\)\s*(?P<brace>\{)?\s*$")
_JS_NAME = re.compile(r"(?<![\w$.])[A-Za-z_$][\w$]*(?![\w$])")
_JS_ASSIGNED = re.compile(
    r"(?<![\w$.])(?P<name>[A-Za-z_$][\w$]*)\s*(?:(?:[-+*/%&|^]|\*\*|<<|>>)?=(?!=)|\+\+|--)|(?:\+\+|--)(?P<before>[A-Za-z_$][\w$]*)"
)
_JS_CHANGED_INSIDE = r"(?<![\w$.]){name}\s*(?:\.|\[)"
_JS_LEAVES = re.compile(r"(?<![\w$])(?:break|return|throw)(?![\w$])")
_JS_WORDS = frozenset({"true", "false", "null", "undefined", "this", "typeof", "new", "in", "of", "instanceof"})


def stuck_loops_python(unit_text: str) -> list[RowChange]:
    """The rewritten condition lines of each `while` loop that cannot end, in a Python unit."""
    lines = unit_text.splitlines()
    found: list[RowChange] = []
    for loop in _while_loops(unit_text):
        names = _stuck_python(loop)
        if names is not None:
            found += _rewritten(lines, loop.lineno - 1, *names, r"(?<![\w.]){name}(?!\w)", "{name}[{other}:]")
    return found


def stepped_counters_python(unit_text: str) -> list[RowChange]:
    """For each `while` loop that cannot end whose condition holds a number alone (`while div:`, `while n > 0:`,
    `while i < k:`), that number stepped toward the end as the body's last statement: `div -= 1` where the loop runs
    while it is above a bound, `i += 1` where below."""
    lines = unit_text.splitlines()
    found: list[RowChange] = []
    for loop in _while_loops(unit_text):
        counter = _counter(loop.test)
        body = ast.Module(body=loop.body, type_ignores=[])
        read = set(_names_in(loop.test, ast.Load))
        if counter is None or _leaves(body) or read & set(_names_in(body, ast.Store)) or _changed_inside(body, read):
            continue  # the loop may end
        name, step = counter
        last = loop.body[-1]
        row = (last.end_lineno or last.lineno) - 1
        indent = re.match(r"[ \t]*", lines[last.lineno - 1]).group(0)  # type: ignore[union-attr]
        new = f"{lines[row]}\n{indent}{name} {step} 1"
        found.append(
            RowChange(row, new, f"`{name} {step} 1` added at the end of the loop, which never moves `{name}` on")
        )
    return found


def _while_loops(unit_text: str) -> list[ast.While]:
    """The `while` loops of a Python unit (none where it does not parse)."""
    try:
        tree = ast.parse(textwrap.dedent(unit_text))
    except SyntaxError:
        return []
    return [node for node in ast.walk(tree) if isinstance(node, ast.While)]


def _counter(test: ast.expr) -> tuple[str, str] | None:
    """The name a loop's condition counts on and the step that moves it toward the end: `n` and `-=` for `n`,
    `n > 0`, `n != 0`; `i` and `+=` for `i < k`; None for any other condition."""
    if isinstance(test, ast.Name):
        return test.id, "-="
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not isinstance(test.left, ast.Name):
        return None
    bound = test.comparators[0]
    if isinstance(bound, ast.Name) and bound.id == test.left.id:
        return None
    op = test.ops[0]
    if isinstance(op, ast.Gt | ast.GtE | ast.NotEq):
        return test.left.id, "-="
    if isinstance(op, ast.Lt | ast.LtE):
        return test.left.id, "+="
    return None


def _stuck_python(loop: ast.While) -> tuple[list[str], list[str]] | None:
    """The names a Python loop's condition reads that its body never changes, and the names the body assigns; None
    where the loop may end (its body changes what the condition reads, or leaves the loop another way)."""
    read = _names_in(loop.test, ast.Load)
    called = {node.func.id for node in ast.walk(loop.test) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Name)}  # fmt: skip
    body = ast.Module(body=loop.body, type_ignores=[])
    if loop.test.lineno != loop.test.end_lineno or _leaves(body) or _changed_inside(body, set(read)):
        return None
    assigned = _names_in(body, ast.Store)
    stuck = [name for name in read if name not in called]
    return (stuck, assigned) if assigned and stuck and not set(stuck) & set(assigned) else None


def stuck_loops_javascript(lines: list[str]) -> list[RowChange]:
    """The same for a JavaScript unit's `while (…)` loops, read from their lines: the body is the block the line
    opens (to the line that closes it at the loop's indent) or the one statement below it."""
    found: list[RowChange] = []
    for row, line in enumerate(lines):
        match = _JS_WHILE.match(line)
        if match is None or match["condition"].count("(") != match["condition"].count(")"):
            continue
        body = _js_body(lines, row, match["indent"], bool(match["brace"]))
        names = _stuck_javascript(match["condition"], body) if body is not None else None
        if names is not None:
            found += _rewritten(lines, row, *names, r"(?<![\w$.]){name}(?![\w$])", "{name}.slice({other})")
    return found


def _stuck_javascript(condition: str, body: str) -> tuple[list[str], list[str]] | None:
    """_stuck_python for a JavaScript loop's condition and body, as text."""
    read = [name for name in dict.fromkeys(_JS_NAME.findall(condition)) if name not in _JS_WORDS
            and not re.search(rf"(?<![\w$.]){re.escape(name)}\s*\(", condition)]  # fmt: skip
    if not read or _JS_LEAVES.search(body):
        return None
    assigned = list(dict.fromkeys(m["name"] or m["before"] for m in _JS_ASSIGNED.finditer(body)))
    inside = any(re.search(_JS_CHANGED_INSIDE.format(name=re.escape(name)), body) for name in read)
    return (read, assigned) if assigned and not inside and not set(read) & set(assigned) else None


def _rewritten(
    lines: list[str], row: int, stuck: list[str], assigned: list[str], word: str, part: str
) -> list[RowChange]:
    """The loop's line with one name of its condition made one the body assigns, or, where the condition passes it to
    a call, made its part from there on (`part`: `{name}[{other}:]`, as a loop that looks at what is left of a text
    past a counter reads it), each such pair."""
    line = lines[row]
    at = line.find("while")
    found: list[RowChange] = []
    for name in stuck:
        pattern = re.compile(word.format(name=re.escape(name)))
        # Only a name passed to a call is a text or a list a part of which may be meant, never a number compared.
        passed = re.search(rf"[(,]\s*{re.escape(name)}\s*[,)]", line[at:]) is not None
        for other in assigned:
            for made in (other, part.format(name=name, other=other)) if passed else (other,):
                new = line[:at] + pattern.sub(made, line[at:], count=1)
                if new != line:
                    change = f"`{name}` → `{made}` in the loop's condition, which reads nothing the loop changes"
                    found.append(RowChange(row, new, change))
    return found[:_MOST]


def _leaves(body: ast.Module) -> bool:
    """Whether the loop's body may leave it other than by its condition (a nested loop's `break` leaves only that)."""
    nested = {id(node) for loop in ast.walk(body) if isinstance(loop, ast.For | ast.While | ast.AsyncFor)
              for node in ast.walk(loop) if isinstance(node, ast.Break)}  # fmt: skip
    return any(isinstance(node, ast.Return | ast.Raise) or isinstance(node, ast.Break) and id(node) not in nested
               for node in ast.walk(body))  # fmt: skip


def _changed_inside(body: ast.Module, names: set[str]) -> bool:
    """Whether the body changes one of `names` through it: a method call on it, an item or attribute stored."""
    for node in ast.walk(body):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target: ast.expr | None = node.func.value
        elif isinstance(node, ast.Subscript | ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del):
            target = node.value
        else:
            target = None
        if target is not None and set(_names_in(target)) & names:
            return True
    return False


def _names_in(node: ast.AST, context: type[ast.expr_context] = ast.expr_context) -> list[str]:
    """The names `node` holds in `context` (read, stored; any), each once, in order."""
    return list(dict.fromkeys(name.id for name in ast.walk(node)
                              if isinstance(name, ast.Name) and isinstance(name.ctx, context)))  # fmt: skip


def _js_body(lines: list[str], row: int, indent: str, brace: bool) -> str | None:
    """The loop's body: the lines to the `}` at its indent where the line opens a block, else the next line."""
    if not brace:
        return lines[row + 1] if row + 1 < len(lines) else None
    for end in range(row + 1, len(lines)):
        if lines[end].startswith(indent + "}"):
            return "\n".join(lines[row + 1 : end])
    return None
