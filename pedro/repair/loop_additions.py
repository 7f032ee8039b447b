"""Lines a Python loop may be missing, or leave unchecked: the update of a variable it reads and never moves on, the
push onto a stack it only pops, the last piece it leaves out after it ends, a plain `return True` after it that
forgets the count it kept, and a best so far it overwrites instead of keeping. Each is (the file line, its new
text: itself and a line added, or a line in its place, the change).
"""

from __future__ import annotations

import ast
import textwrap

from pedro.repair.locate import Unit, indent_of

Addition = tuple[int, str, str]
# A loop's names that could be what another should be set to, and the places to try: enough for a short loop.
_VALUES = 3
_PLACES = 4


def loop_additions(unit: Unit) -> list[Addition]:
    """Both kinds of line, for every loop of the unit: `prevnode = node` in a list's reversal that returns a
    `prevnode` it never moves on, `lines.append(text)` after a loop that appends each piece but the last."""
    if unit.language != "python":
        return []
    try:
        tree = ast.parse(textwrap.dedent(unit.text))
    except SyntaxError:
        return []
    lines = unit.text.splitlines()
    found: list[Addition] = []
    for loop in ast.walk(tree):
        if isinstance(loop, ast.While | ast.For):
            before = _assigned_before(tree, loop.lineno)
            found += _updates(unit, lines, loop, _stale(tree, loop, before))
            found += _remainders(unit, lines, loop, before | _parameters(tree))
            found += _pushes(unit, lines, loop, before)
            found += _final_checks(unit, lines, tree, loop)
            found += _best_so_far(unit, lines, tree, loop)
    return found


def _best_so_far(unit: Unit, lines: list[str], tree: ast.Module, loop: ast.While | ast.For) -> list[Addition]:
    """`longest = length + 1` in a loop that reads `longest`, set to a number before it → `longest = max(longest,
    length + 1)` (and `min`): a best so far that each step overwrites instead of keeping."""
    starts = _numbers_set_before(tree, loop.lineno)
    read = _names(loop, ast.Load)
    found: list[Addition] = []
    for node in ast.walk(loop):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        name = node.targets[0].id
        if name not in starts or name not in read or name in _names(node.value, ast.Load):
            continue
        if node.end_lineno != node.lineno:
            continue
        row = node.lineno - 1
        text = lines[row]
        indent = indent_of(text)
        value = ast.unparse(node.value)
        for best in ("max", "min"):
            kept = f"{name} = {best}({name}, {value})"
            found.append((unit.start_line + row, indent + kept, f"`{text.strip()}` → `{kept}`"))
    return found


def _pushes(unit: Unit, lines: list[str], loop: ast.While | ast.For, before: set[str]) -> list[Addition]:
    """`stack.append(value)` after each statement in the loop, for a list made before it that the function pops and
    never pushes onto (an operator stack nothing is put on), and each name the loop sets."""
    popped = _called(loop, "pop") & before
    stacks = sorted(popped - _called(loop, "append") - _called(loop, "extend"))
    values = sorted(_names(loop, ast.Store))[:_VALUES]
    places = [node for node in ast.walk(loop) if isinstance(node, ast.stmt) and node is not loop][: _PLACES * 2]
    return [
        _after(unit, lines, place, f"{stack}.append({value})", f"`{stack}.append({value})` added")
        for stack in stacks
        for value in values
        for place in places
    ]


def _final_checks(unit: Unit, lines: list[str], tree: ast.Module, loop: ast.While | ast.For) -> list[Addition]:
    """`return True` after a loop that counts (`depth += 1`, `depth -= 1`) → `return depth == 0`: the count the
    loop kept, compared with where it started."""
    starts = _numbers_set_before(tree, loop.lineno)
    counted = [name for name in sorted(_counted(loop)) if name in starts]
    found: list[Addition] = []
    for row in _plain_true_returns(tree, loop.end_lineno or loop.lineno):
        text = lines[row]
        for name in counted:
            check = f"return {name} == {starts[name]}"
            found.append((unit.start_line + row, text.replace("return True", check, 1), f"`return True` → `{check}`"))
    return found


def _numbers_set_before(tree: ast.Module, line: int) -> dict[str, str]:
    """name → the integer it is set to, by a plain assignment before `line` (`depth = 0`)."""
    return {
        node.targets[0].id: ast.unparse(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Constant) and type(node.value.value) is int and node.lineno < line
    }  # fmt: skip


def _counted(loop: ast.While | ast.For) -> set[str]:
    """The names the loop counts with (`depth += 1`)."""
    return {
        node.target.id
        for node in ast.walk(loop)
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name)
    }


def _plain_true_returns(tree: ast.Module, after: int) -> list[int]:
    """The rows (0-based) of one-line `return True` statements after line `after`."""
    return [
        node.lineno - 1
        for node in ast.walk(tree)
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Constant) and node.value.value is True
        and node.lineno > after and node.end_lineno == node.lineno
    ]  # fmt: skip


def _called(node: ast.AST, method: str) -> set[str]:
    """The names whose `method` is called in `node` (`stack` for `stack.pop()`)."""
    return {
        call.func.value.id
        for call in ast.walk(node)
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == method
        and isinstance(call.func.value, ast.Name)
    }  # fmt: skip


def _stale(tree: ast.Module, loop: ast.While | ast.For, before: set[str]) -> list[str]:
    """The names set before the loop, read as values in it and after it, that the loop neither sets nor changes
    through a method or an item (`parts.append(x)`, `table[k] = v`): a value it should have moved on."""
    read = {name for statement in loop.body for name in _names(statement, ast.Load)}
    after = {
        name.id
        for name in ast.walk(tree)
        if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Load) and name.lineno > (loop.end_lineno or 0)
    }
    # `stack.append(x)` and `table[k] = v` change what the name holds without setting it.
    owners = {
        node.value.id
        for node in ast.walk(loop)
        if isinstance(node, ast.Attribute | ast.Subscript) and isinstance(node.value, ast.Name)
        and (isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load))
    }  # fmt: skip
    return sorted((read & before & after) - _names(loop, ast.Store) - owners)


def _updates(unit: Unit, lines: list[str], loop: ast.While | ast.For, stale: list[str]) -> list[Addition]:
    """`name = value` after each statement of the loop's body, for each stale name and each name the loop sets."""
    values = sorted(_names(loop, ast.Store))[:_VALUES]
    found: list[Addition] = []
    for name in stale:
        for value in values:
            for statement in loop.body[:_PLACES]:
                found.append(_after(unit, lines, statement, f"{name} = {value}", f"`{name} = {value}` added"))
    return found


def _remainders(unit: Unit, lines: list[str], loop: ast.While | ast.For, before: set[str]) -> list[Addition]:
    """`parts.append(rest)` after the loop, where the loop appends to `parts` (made before it) and sets `rest`:
    what is left when a loop that cuts pieces off ends; and the item a loop over all but the last leaves out
    (`for n in numbers[:-1]` → `numbers[-1]`)."""
    stored = [*_left_out(loop), *sorted(_names(loop, ast.Store))[: _VALUES + 1]]
    found: list[Addition] = []
    for call in ast.walk(loop):
        if not (
            isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append"
            and isinstance(call.func.value, ast.Name) and call.func.value.id in before and len(call.args) == 1
        ):  # fmt: skip
            continue
        target = call.func.value.id
        for value in stored:
            if value != target:
                line = f"{target}.append({value})"
                found.append(_after(unit, lines, loop, line, f"`{line}` added after the loop"))
    return found


def _left_out(loop: ast.While | ast.For) -> list[str]:
    """The last item, where the loop walks all items but the last: `for x in xs[:-1]`, `for i in range(len(xs) - 1)`."""
    walked = loop.iter if isinstance(loop, ast.For) else None
    if isinstance(walked, ast.Subscript) and isinstance(walked.slice, ast.Slice):
        part = walked.slice
        if part.lower is None and part.step is None and _minus_one(part.upper):
            return [f"{ast.unparse(walked.value)}[-1]"]
    if isinstance(walked, ast.Call) and ast.unparse(walked.func) == "range" and len(walked.args) == 1:
        counted = _length_less_one(walked.args[0])
        return [f"{counted}[-1]"] if counted else []
    return []


def _length_less_one(bound: ast.expr) -> str | None:
    """`xs` where `bound` is `len(xs) - 1`."""
    if not (isinstance(bound, ast.BinOp) and isinstance(bound.op, ast.Sub) and _is_one(bound.right)):
        return None
    counted = bound.left
    if isinstance(counted, ast.Call) and ast.unparse(counted.func) == "len" and len(counted.args) == 1:
        return ast.unparse(counted.args[0])
    return None


def _minus_one(node: ast.expr | None) -> bool:
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and _is_one(node.operand)


def _is_one(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value == 1


def _after(unit: Unit, lines: list[str], statement: ast.stmt, line: str, change: str) -> Addition:
    """`line` added after `statement`, at its indentation."""
    first, last = statement.lineno - 1, (statement.end_lineno or statement.lineno) - 1
    text = lines[first]
    indent = indent_of(text)
    return (unit.start_line + last, f"{lines[last]}\n{indent}{line}", change)


def _names(node: ast.AST, context: type[ast.expr_context]) -> set[str]:
    return {name.id for name in ast.walk(node) if isinstance(name, ast.Name) and isinstance(name.ctx, context)}


def _assigned_before(tree: ast.Module, line: int) -> set[str]:
    """The names an assignment that ends before `line` sets: those a loop there starts from."""
    return {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and (node.end_lineno or node.lineno) < line
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def _parameters(tree: ast.Module) -> set[str]:
    return {
        argument.arg
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        for argument in function.args.args
    }
