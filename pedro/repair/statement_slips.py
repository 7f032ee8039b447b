"""Slips of a whole statement that no one-token variant reaches: a string meant to format values that does not
(`"Hello, {name}!"` without its `f`, `"${name}"` in quotes where backticks format), a value computed and dropped where
it was to be returned (`price * (1 + rate);` in an arrow function's block), and a `return` left inside the loop it was
to follow (`return -1` one level too deep, so the loop ends after its first item), a list, dict or set default that
every call shares (`items=[]`, changed in place), and the result of a method that changes its object in place returned
as if it were the object (`return ans.sort()`, which is None), or the other way, a new value's method called as if it
changed its object (`s.strip()`, `values.filter(…);` alone on their lines); and a step too many (`i *= n` in a loop
that was only to read `i`) or done twice (`out.append(n)` just after `out.append(i)`), taken out."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from pedro.repair.candidate import REMOVED
from pedro.repair.locate import RowChange, indent_of, is_docstring
from pedro.repair.mutants import PYTHON_IN_PLACE

_PLACEHOLDER = re.compile(r"\{(?P<name>[A-Za-z_]\w*)(?:[.\[][^{}]*)?(?:![rsa])?(?::[^{}]*)?\}")
"""A placeholder an f-string fills: `{name}`, `{user.name}`, `{total:.2f}`."""
_STRAY_PREFIX = re.compile(r"(?<![A-Za-z\\])f(?=\{[A-Za-z_])")
"""An `f` alone before a placeholder: the f-string's prefix, written inside the quotes."""
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
_JS_IN_PLACE = re.compile(
    r"^(?P<indent>[ \t]*)return\s+(?P<call>(?P<target>[\w$]+(?:\.[\w$]+)*)\.(?:push|unshift|forEach)\(.*\));?\s*$"
)
"""A JavaScript `return` of a method that changes its array and returns its length or nothing: `return xs.push(x)`."""
_JS_UPDATE = re.compile(
    r"^[ \t]*[A-Za-z_$][\w$]*(?:\.[\w$]+)*\s*(?:(?:\+|-|\*|/|%|\*\*)=\s*[^=;][^;]*|\+\+|--)\s*;\s*$"
)
"""A JavaScript line that only updates a value in place: `i *= n;`, `this.total += x;`, `ind--;`."""
_JS_ADD = re.compile(r"^[ \t]*(?P<target>[A-Za-z_$][\w$]*(?:\.[\w$]+)*)\.(?:push|unshift|add)\(.*\);?\s*$")
"""A JavaScript line that only adds to an array or a set: `out.push(x);`."""
_JS_ASSIGN = re.compile(r"^[ \t]*[A-Za-z_$][\w$]*(?:\.[\w$]+|\[[^\]\n]+\])*\s*=(?!=)[^;]*;?\s*$")
"""A JavaScript line that only assigns, with no declaration: `p[j] = p[ind]`."""
_GO_UPDATE = re.compile(r"^[ \t]*[A-Za-z_]\w*(?:\.\w+)*\s*(?:(?:\+|-|\*|/|%|<<|>>|&|\||\^)=\s*[^=\s].*|\+\+\s*|--\s*)$")
"""A Go line that only updates a value in place: `i *= n`, `s.total += x`, `ind--`."""
_GO_ADD = re.compile(r"^[ \t]*(?P<target>[A-Za-z_]\w*(?:\.\w+)*)\s*=\s*append\((?P=target)\s*,.*\)\s*$")
"""A Go line that only appends to a slice: `out = append(out, x)`."""
_UPDATES = {"javascript": _JS_UPDATE, "typescript": _JS_UPDATE, "go": _GO_UPDATE}
_ADDING = {"javascript": _JS_ADD, "typescript": _JS_ADD, "go": _GO_ADD}
_ADDS = frozenset({"append", "appendleft", "add", "insert", "extend"})
"""Python methods that add to a list or a set."""
_FLAG = {
    "python": re.compile(r"^(?P<indent>[ \t]*)(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>True|False)\s*(?:#.*)?$"),
    "javascript": re.compile(
        r"^(?P<indent>[ \t]*)(?:(?:let|var)\s+)?(?P<name>[A-Za-z_$][\w$]*)\s*=\s*(?P<value>true|false)\s*;?\s*$"
    ),
    "go": re.compile(
        r"^(?P<indent>[ \t]*)(?:var\s+)?(?P<name>[A-Za-z_]\w*)(?:\s+bool)?\s*:?=\s*(?P<value>true|false)\s*$"
    ),
}
"""A line that sets a flag: `found = False`, `let isPalindrome = false`, `t := false`."""
_FLIPPED = {"True": "False", "False": "True", "true": "false", "false": "true"}
_OTHERS_IN_BLOCK = 2
"""A statement is taken out only from a block of at least this many: the block keeps a statement of its own."""
_PYTHON_EFFECTS = (ast.Call, ast.Await, ast.Yield, ast.YieldFrom, ast.Constant, ast.JoinedStr, ast.NamedExpr)
"""Expressions a statement of their own is worth: a call, a wait, a yield; a string is a docstring or a comment."""


def unformatted_python(source: str, tree: ast.Module, lines: list[str]) -> list[RowChange]:
    """Each one-line string with a placeholder for a name the function knows (`"Hello, {name}!"`) and no `f`, made
    an f-string; not a docstring, nor a string `.format()` or `%` fills. `source` is what `tree` was parsed from
    (the unit dedented); `lines` the unit's own lines."""
    known = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    known |= {arg.arg for node in ast.walk(tree) if isinstance(node, ast.arguments) for arg in _all_arguments(node)}
    filled = _filled_elsewhere(tree)
    found = [
        change
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in filled
        and (change := _f_string(node, source, lines, known)) is not None
    ]  # fmt: skip
    return sorted(found, key=lambda change: change.row)


def _filled_elsewhere(tree: ast.Module) -> set[int]:
    """The strings that are no f-string's slip: those `.format()` or `%` fills, docstrings, an f-string's parts."""
    filled: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "format" or isinstance(node, ast.Expr):
            filled.add(id(node.value))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            filled.add(id(node.left))
        elif isinstance(node, ast.JoinedStr):
            filled.update(id(part) for part in node.values)
    return filled


def _f_string(node: ast.Constant, source: str, lines: list[str], known: set[str]) -> RowChange | None:
    """The string made an f-string on its line, when it names a name the function knows and stands on one line
    with no prefix."""
    names = {match["name"] for match in _PLACEHOLDER.finditer(str(node.value))} & known
    segment = ast.get_source_segment(source, node)
    if not names or node.lineno != node.end_lineno or segment is None or segment[0] not in "\"'":
        return None
    line = lines[node.lineno - 1]
    at = line.find(segment)
    if at < 0 or at > 0 and (line[at - 1].isalnum() or line[at - 1] == "_"):
        return None
    # An `f` standing alone before a placeholder is the prefix written inside the quotes (`'value: f{obj}'`).
    written = _STRAY_PREFIX.sub("", segment, count=1)
    new = line[:at] + "f" + written + line[at + len(segment) :]
    return RowChange(node.lineno - 1, new, f"{segment} made an f-string, as it names {_listed(names)}")


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
        indent = indent_of(line)
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


_NEW_VALUE_METHODS = {
    "python": ("strip", "lstrip", "rstrip", "lower", "upper", "title", "capitalize", "casefold", "swapcase", "replace",
               "removeprefix", "removesuffix", "zfill", "center", "ljust", "rjust", "split", "rsplit", "splitlines",
               "join", "format", "encode", "decode", "copy", "union", "intersection", "difference"),
    "javascript": ("filter", "map", "slice", "concat", "flat", "flatMap", "trim", "trimStart", "trimEnd",
                   "toUpperCase", "toLowerCase", "replace", "replaceAll", "padStart", "padEnd", "repeat", "substring",
                   "toSorted", "toReversed", "toSpliced", "with"),
}  # fmt: skip
"""Methods that return a new value and leave their object as it was: a call of one alone on its line drops it."""
_DROPPED_RESULT = {
    language: re.compile(
        r"^(?P<indent>[ \t]*)(?P<call>(?P<target>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\."
        rf"(?:{'|'.join(methods)})\(.*\))(?P<end>;?)\s*$"
    )
    for language, methods in _NEW_VALUE_METHODS.items()
}
_PYTHON_NEW_VALUE_CALL = re.compile(
    r"^(?P<indent>[ \t]*)(?P<call>(?:sorted|reversed)\((?P<target>[A-Za-z_]\w*)\b.*\))\s*$"
)


def dropped_results(lines: list[str], language: str) -> list[RowChange]:
    """Each call alone on its line of a method that returns a new value (`s.strip()`, `values.filter(…);`,
    `sorted(xs)`), as if it changed its object in place: its result stored back in the object's name."""
    dialect = "javascript" if language == "typescript" else language
    pattern = _DROPPED_RESULT.get(dialect)
    if pattern is None:
        return []
    found: list[RowChange] = []
    for row, line in enumerate(lines):
        match = pattern.match(line) or (_PYTHON_NEW_VALUE_CALL.match(line) if dialect == "python" else None)
        if match is None or row == 0 or not _balanced(match["call"]):
            continue
        end = match.groupdict().get("end") or ""
        text = f"{match['indent']}{match['target']} = {match['call']}{end}"
        found.append(RowChange(row, text, f"`{match['target']}` given the new value `{match['call']}` returns"))
    return found


def _balanced(code: str) -> bool:
    """Whether the brackets of `code` (strings left out) close on the line."""
    depth = 0
    for char in _without_strings(code):
        depth += (char in "([{") - (char in ")]}")
        if depth < 0:
            return False
    return depth == 0


def excess_steps_python(tree: ast.Module, lines: list[str]) -> list[RowChange]:
    """Each one-line update of a value (`i *= n`, `total += x`) in a block of other statements, taken out: a step too
    many, which leaves the name as the lines before it made it."""
    found: list[RowChange] = []
    for block in _blocks(tree):
        for statement in block:
            if isinstance(statement, ast.AugAssign) and statement.lineno == statement.end_lineno:
                row = statement.lineno - 1
                found.append(RowChange(row, REMOVED, f"`{lines[row].strip()}` taken out, a step too many"))
    return sorted(found, key=lambda change: change.row)


def doubled_steps_python(tree: ast.Module, lines: list[str]) -> list[RowChange]:
    """A step done twice, the second taken out: an item added to a collection just after another was added to it
    (`out.append(i)` then `out.append(n)`), or an assignment written again further down its block (`p[j] = p[ind]`
    once more after a swap)."""
    found: list[RowChange] = []
    for block in _blocks(tree):
        seen: set[str] = set()
        for before, statement in zip([None, *block], block, strict=False):
            row, one_line = statement.lineno - 1, statement.lineno == statement.end_lineno
            if one_line and _adds_to(statement) is not None and _adds_to(statement) == _adds_to(before):
                found.append(RowChange(row, REMOVED, f"`{lines[row].strip()}` taken out, an item added twice"))
            elif one_line and isinstance(statement, ast.Assign) and ast.dump(statement) in seen:
                found.append(RowChange(row, REMOVED, f"`{lines[row].strip()}` taken out, a step done twice"))
            seen.add(ast.dump(statement))
    return sorted(found, key=lambda change: change.row)


def _blocks(tree: ast.Module) -> Iterator[list[ast.stmt]]:
    """Every block of statements that keeps one of its own when one is taken out."""
    for node in ast.walk(tree):
        for block in (getattr(node, name, None) for name in ("body", "orelse", "finalbody")):
            if isinstance(block, list) and len(block) >= _OTHERS_IN_BLOCK:
                yield block


def _adds_to(statement: ast.stmt | None) -> str | None:
    """The collection a statement only adds to (`out.append(x)`, `seen.add(x)`), as its code; else None."""
    if not isinstance(statement, ast.Expr) or not isinstance(statement.value, ast.Call):
        return None
    method = statement.value.func
    if not isinstance(method, ast.Attribute) or method.attr not in _ADDS:
        return None
    return ast.dump(method.value)


def excess_steps_lines(lines: list[str], language: str) -> list[RowChange]:
    """Each line that only updates a value (JavaScript's `i *= n;`, Go's `total += x`), taken out."""
    update = _UPDATES.get(language)
    return [
        RowChange(row, REMOVED, f"`{line.strip()}` taken out, a step too many")
        for row, line in enumerate(lines)
        if row and update is not None and update.match(line)
    ]


def doubled_steps_lines(lines: list[str], language: str) -> list[RowChange]:
    """As doubled_steps_python, for JavaScript and Go read line by line: an item added just after another was added
    to the same array or slice (`out.push(x);`, `out = append(out, x)`), or a one-line assignment written again
    further down its block, taken out."""
    adding = _ADDING.get(language)
    if adding is None:
        return []
    found: list[RowChange] = []
    for row, line in enumerate(lines):
        added = adding.match(line)
        if row and added is not None and _adds_at_indent(adding, lines[row - 1], line) == added["target"]:
            found.append(RowChange(row, REMOVED, f"`{line.strip()}` taken out, an item added twice"))
        elif row and _JS_ASSIGN.match(line) and _written_before_in_block(lines, row):
            found.append(RowChange(row, REMOVED, f"`{line.strip()}` taken out, a step done twice"))
    return found


def _adds_at_indent(adding: re.Pattern[str], line: str, after: str) -> str | None:
    """The collection `line` adds to, where it stands at the indent of `after`; else None."""
    match = adding.match(line)
    return match["target"] if match is not None and indent_of(line) == indent_of(after) else None


def _written_before_in_block(lines: list[str], row: int) -> bool:
    """Whether the line at `row` stands, the same, above it in its block (no line less indented between)."""
    indent, text = indent_of(lines[row]), lines[row].strip().rstrip(";")
    for above in reversed(lines[:row]):
        if above.strip() and len(indent_of(above)) < len(indent):
            return False
        if indent_of(above) == indent and above.strip().rstrip(";") == text:
            return True
    return False


def inverted_flags(lines: list[str], language: str) -> list[RowChange]:
    """Each flag the unit sets both ways (`found = False`, later `found = True`), every setting of it flipped at once:
    a flag that starts where it should end and ends where it should start."""
    pattern = _FLAG.get("javascript" if language == "typescript" else language)
    if pattern is None:
        return []
    settings: dict[str, list[tuple[int, re.Match[str]]]] = {}
    for row, line in enumerate(lines):
        if (match := pattern.match(line)) is not None:
            settings.setdefault(match["name"], []).append((row, match))
    found: list[RowChange] = []
    for name, rows in settings.items():
        if len({match["value"] for _, match in rows}) < 2:
            continue
        flipped = [(row, _flipped(lines[row], match)) for row, match in rows]
        (first, text), *others = flipped
        found.append(RowChange(first, text, f"`{name}` set the other way wherever it is set", tuple(others)))
    return found


def _flipped(line: str, match: re.Match[str]) -> str:
    return line[: match.start("value")] + _FLIPPED[match["value"]] + line[match.end("value") :]


def returned_in_place_python(source: str, tree: ast.Module, lines: list[str]) -> list[RowChange]:
    """Each one-line `return xs.sort()` (a method that changes its object in place and returns None): the call made,
    then the object returned; and the object returned without the call, where the call was the slip. `source` is
    what `tree` was parsed from."""
    found: list[RowChange] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Return) or node.lineno != node.end_lineno:
            continue
        value = node.value
        if not isinstance(value, ast.Call):
            continue
        method = value.func
        if not isinstance(method, ast.Attribute) or method.attr not in PYTHON_IN_PLACE:
            continue
        target, call = ast.get_source_segment(source, method.value), ast.get_source_segment(source, value)
        if not isinstance(method.value, ast.Name | ast.Attribute) or target is None or call is None:
            continue
        found += _returned_object(node.lineno - 1, indent_of(lines[node.lineno - 1]), call, target)
    return sorted(found, key=lambda change: change.row)


def returned_in_place_javascript(lines: list[str]) -> list[RowChange]:
    """Each one-line `return xs.push(x)` (the new length, not the array): the call made, then the array returned;
    and the array returned without the call."""
    found: list[RowChange] = []
    for row, line in enumerate(lines):
        match = _JS_IN_PLACE.match(line)
        if match is not None:
            found += _returned_object(row, match["indent"], match["call"] + ";", match["target"] + ";")
    return found


def _returned_object(row: int, indent: str, call: str, target: str) -> list[RowChange]:
    """The two readings of a returned in-place call: made, then its object returned; its object returned alone."""
    words = target.rstrip(";")
    return [
        RowChange(
            row, f"{indent}{call}\n{indent}return {target}", f"`{words}` returned after the call, not the call's result"
        ),
        RowChange(row, f"{indent}return {target}", f"`{words}` returned without the call"),
    ]


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
        indent = indent_of(head)
        found.append(RowChange(row, indent + lines[row].strip(), "the `return` moved out of the loop, to follow it"))
    return sorted(found, key=lambda change: change.row)


def shared_defaults(source: str, tree: ast.Module, lines: list[str]) -> list[RowChange]:
    """A parameter whose default is a list, dict or set the function changes (`items=[]`, then `items.append(x)`):
    one object shared by every call that gives none, so each call sees the last one's changes. The default becomes
    None and the body starts with `if items is None: items = []`. `source` is what `tree` was parsed from."""
    function = tree.body[0] if tree.body else None
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return []
    first = next((statement for statement in function.body if not is_docstring(statement)), None)
    if first is None or first.lineno == function.lineno:
        return []
    changed = _changed_in_place(function)
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    pairs = [*zip(positional[len(positional) - len(arguments.defaults) :], arguments.defaults, strict=True),
             *((arg, default) for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)
               if default is not None)]  # fmt: skip
    shift = len(lines[0]) - len(source.splitlines()[0])  # what dedenting took from each line
    found: list[RowChange] = []
    for arg, default in pairs:
        segment = ast.get_source_segment(source, default)
        if arg.arg not in changed or segment is None or not _is_shared(default) or default.lineno != default.end_lineno:
            continue
        row, at = default.lineno - 1, default.col_offset + shift
        if lines[row][at : at + len(segment)] != segment:
            continue
        signature = lines[row][:at] + "None" + lines[row][at + len(segment) :]
        body_row = first.lineno - 1
        line = lines[body_row]
        indent = indent_of(line)
        guard = f"{indent}if {arg.arg} is None:\n{indent}    {arg.arg} = {segment}\n{line}"
        change = f"`{arg.arg}={segment}` → `{arg.arg}=None` and a new {segment} made on each call"
        found.append(RowChange(body_row, guard, change, also=((row, signature),)))
    return found


def _is_shared(default: ast.expr) -> bool:
    """A default that is one mutable object: a list, dict or set display, or `list()`, `dict()`, `set()`."""
    if isinstance(default, ast.List | ast.Dict | ast.Set):
        return True
    return (isinstance(default, ast.Call) and isinstance(default.func, ast.Name)
            and default.func.id in {"list", "dict", "set"} and not default.args)  # fmt: skip


def _changed_in_place(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names the function changes in place: a mutating method called on them, an item or slice assigned, `+=`."""
    found: set[str] = set()
    for node in ast.walk(function):
        target: ast.expr | None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS:
            target = node.func.value
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.Delete):
            targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
            found.update(t.value.id for t in targets if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name))
            target = node.target if isinstance(node, ast.AugAssign) else None
        else:
            continue
        if isinstance(target, ast.Name):
            found.add(target.id)
    return found


_MUTATORS = frozenset({"append", "extend", "insert", "update", "add", "setdefault", "pop", "popitem", "remove",
                       "discard", "clear", "sort", "reverse"})  # fmt: skip


def _all_arguments(arguments: ast.arguments) -> list[ast.arg]:
    extra = [arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None]
    return [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, *extra]


def _without_strings(code: str) -> str:
    return re.sub(r"""(["'`])(?:(?!\1)[^\\]|\\.)*\1""", '""', code)


def _listed(names: set[str]) -> str:
    return " and ".join(f"`{name}`" for name in sorted(names))
