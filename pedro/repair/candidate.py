"""Read a model's answer leniently as a replacement for one unit: a fenced block or bare code, a whole
function or only its body, indented to fit the file; an answer that does not parse is no candidate."""

from __future__ import annotations

import ast
import re
import textwrap
import warnings
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from pedro.repair.locate import Unit, is_docstring
from pedro.repair.mutants import without_comment
from pedro.repair.statements import joined_statement
from pedro.tools.symbols import LanguageName, extract_symbols, parse_root

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*\n(?P<body>.*?)(?:^[ \t]*\1[ \t]*$|\Z)", re.S | re.M)
SUFFIXES: dict[LanguageName, str] = {
    "python": ".py",
    "go": ".go",
    "javascript": ".js",
    "typescript": ".ts",
    "tsx": ".tsx",
}
# A line that starts code rather than prose, for answers without a fence.
_CODE_START: dict[LanguageName, re.Pattern[str]] = {
    "python": re.compile(r"^\s*(?:@|def |async def |class |return\b|if |for |while |[\w.]+\s*=)"),
    "go": re.compile(r"^\s*(?:func |return\b|if |for |[\w.]+\s*:?=)"),
    "javascript": re.compile(r"^\s*(?:function\b|async |const |let |var |export |return\b|if |for |[\w.]+\s*=)"),
    "typescript": re.compile(r"^\s*(?:function\b|async |const |let |var |export |return\b|if |for |[\w.]+\s*=)"),
    "tsx": re.compile(r"^\s*(?:function\b|async |const |let |var |export |return\b|if |for |[\w.]+\s*=)"),
}


_NO_DEFINITION = "no definition of the function"


@dataclass(frozen=True)
class Candidate:
    """A replacement for the unit's text, ready to apply, or why the answer is none."""

    text: str | None
    problem: str = ""


def read_candidate(reply: str, unit: Unit, file_text: str, *, bodies: bool = True) -> Candidate:
    """The unit's replacement in `reply`; `file_text` is the whole file, which must still parse afterwards.
    `bodies`: code that only makes sense as the function's body is read as its new body."""
    codes = [
        textwrap.dedent(code.expandtabs(4) if unit.language == "python" else code).strip("\n")
        for code in code_pieces(reply, unit.language)
    ]
    if not codes:
        return Candidate(None, "the answer holds no code")
    problems: list[str] = []
    # A block that defines the function wins over one that only uses it; a body alone is the last resort, and
    # no resort at all when the answer did define the function (then the other blocks are examples or tests).
    for whole in (True, False):
        if not whole and (not bodies or any(p != _NO_DEFINITION for p in problems)):
            break
        for code in codes:
            text, problem = _fit(code, unit, file_text, whole=whole)
            if text is not None:
                return Candidate(text, "")
            problems.append(problem)
    # Say what was wrong with the best attempt: a definition that did not fit, else the body that did not.
    return Candidate(None, next((p for p in problems if p != _NO_DEFINITION), problems[-1]))


def read_file_candidate(reply: str, units: Sequence[Unit], file_text: str) -> list[tuple[Unit, str]]:
    """The answer read as the whole file, when it rewrites more than one of the file's functions (`units`): each
    changed function's new text, in file order, if the file still parses with all of them in place; else []. A
    function whose name the file defines twice is left as it is (the answer cannot say which one it means)."""
    if not units:
        return []
    counts = Counter(unit.name for unit in units)
    language = units[0].language
    for piece in code_pieces(reply, language):
        code = textwrap.dedent(piece.expandtabs(4) if language == "python" else piece).strip("\n")
        changed: list[tuple[Unit, str]] = []
        for unit in units:
            if counts[unit.name] > 1:
                continue
            fitted, _problem = _fit(code, unit, file_text, whole=True)
            if fitted is not None:
                changed.append((unit, fitted))
        if len(changed) > 1 and parses(_replace_all(file_text, changed), language):
            return changed
    return []


def _replace_all(file_text: str, edits: Sequence[tuple[Unit, str]]) -> str:
    """The file with each unit's lines replaced by its new text (the units do not overlap)."""
    lines = file_text.splitlines()
    for unit, new in sorted(edits, key=lambda edit: -edit[0].start_line):
        lines[unit.start_line - 1 : unit.end_line] = new.splitlines()
    return "\n".join(lines) + "\n"


def code_pieces(reply: str, language: LanguageName) -> list[str]:
    """The fenced blocks of the reply, then the bare code before its first fence (or in all of it, without one)."""
    blocks = [match.group("body") for match in _FENCE.finditer(reply) if match.group("body").strip()]
    first_fence = _FENCE.search(reply)
    lines = reply[: first_fence.start() if first_fence else len(reply)].splitlines()
    start = next((i for i, line in enumerate(lines) if _CODE_START[language].match(line)), None)
    if start is None:
        return blocks
    # Prose often follows bare code: keep the longest run of lines from the start that is valid code.
    end = next((k for k in range(len(lines), start, -1) if parses("\n".join(lines[start:k]), language)), len(lines))
    return [*blocks, "\n".join(lines[start:end])]


def _fit(code: str, unit: Unit, file_text: str, *, whole: bool) -> tuple[str | None, str]:
    """The new unit from a piece of code (`whole`: a definition of the function; else its body), indented as the
    original, or (None, why not)."""
    if whole:
        new = _function_named(code, unit)
        if new is None:
            return None, _NO_DEFINITION
    else:
        if _function_named(code, unit) is not None:
            return None, _NO_DEFINITION  # a definition is no body; the first pass said what was wrong with it
        if _defines_other_function(code, unit):
            return None, f"the answer defines another function instead of {unit.name}"
        new = _wrap_body(code, unit)
        if new is None:
            return None, f"the answer is not valid {unit.language} code"
    indent = re.match(r"[ \t]*", unit.text).group(0)  # type: ignore[union-attr]
    fitted = "\n".join(indent + line if line.strip() else "" for line in textwrap.dedent(new).splitlines())
    if whole and unit.language == "python":
        fitted = _with_own_docstring(fitted, unit)
    if fitted.strip() == unit.text.strip():
        return None, "the answer repeats the original code unchanged"
    new_file = _replace_lines(file_text, unit, fitted)
    if not parses(new_file, unit.language):
        return None, f"with the answer in place, {unit.path} is not valid {unit.language} code"
    return fitted, ""


def _function_named(code: str, unit: Unit) -> str | None:
    """The text of the definition of the unit's function in `code`, if `code` parses and has one."""
    if unit.language == "python":
        tree = _python_tree(code)
        if tree is None:
            return None
        lines = code.splitlines()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == unit.name:
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                return "\n".join(lines[first - 1 : node.end_lineno])
        return None
    if not parses(code, unit.language):
        return None
    source = code.encode()
    for symbol in extract_symbols(source, f"answer{SUFFIXES[unit.language]}"):
        if symbol.name == unit.name and symbol.kind in ("function", "method"):
            return "\n".join(code.splitlines()[symbol.start_line - 1 : symbol.end_line])
    return None


def _defines_other_function(code: str, unit: Unit) -> bool:
    if unit.language == "python":
        tree = _python_tree(code)
        return tree is not None and any(
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name != unit.name for node in tree.body
        )
    symbols = extract_symbols(code.encode(), f"answer{SUFFIXES[unit.language]}")
    return any(s.kind == "function" and s.depth == 0 and s.name != unit.name for s in symbols)


def _wrap_body(code: str, unit: Unit) -> str | None:
    """The original header around `code` when the answer is only a body, if the result parses."""
    lines = unit.text.splitlines()
    indent_of = re.compile(r"[ \t]*")
    base = indent_of.match(lines[0]).group(0)  # type: ignore[union-attr]
    if unit.language == "python":
        return _wrap_python_body(code, unit, lines, base)
    # Brace languages: the header is everything up to the body's opening brace on the signature's last line.
    opening = next((i for i, line in enumerate(lines) if line.rstrip().endswith("{")), None)
    if opening is None:
        return None
    body = "\n".join(base + "\t" + line if line.strip() else "" for line in code.splitlines())
    candidate = "\n".join([*lines[: opening + 1], body, base + "}"])
    return candidate if parses(candidate, unit.language) else None


def _wrap_python_body(code: str, unit: Unit, lines: list[str], base: str) -> str | None:
    """The Python function's header (and docstring, when the answer has none) around `code`, if the result parses."""
    tree = _python_tree(textwrap.dedent(unit.text))
    function = tree.body[0] if tree is not None and tree.body else None
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    first = function.body[0]
    keeps_docstring = is_docstring(first) and not is_docstring(_first_statement(code))
    header = lines[: (first.end_lineno or first.lineno) if keeps_docstring else first.lineno - 1]
    body_indent = base + "    "
    body = "\n".join(body_indent + line if line.strip() else "" for line in code.splitlines())
    candidate = "\n".join([*header, body])
    return candidate if _python_tree(textwrap.dedent(candidate)) is not None else None


def _with_own_docstring(fitted: str, unit: Unit) -> str:
    """A whole function the model wrote, with the original's docstring in place of its own (or of none): a fix of
    the code leaves what the user wrote about it as it was, and the question showed it to the model as it is."""
    tree, mine = _python_tree(textwrap.dedent(unit.text)), _python_tree(textwrap.dedent(fitted))
    original = tree.body[0] if tree is not None and tree.body else None
    answer = mine.body[0] if mine is not None and mine.body else None
    if not isinstance(original, ast.FunctionDef | ast.AsyncFunctionDef) or not is_docstring(original.body[0]):
        return fitted
    if not isinstance(answer, ast.FunctionDef | ast.AsyncFunctionDef):
        return fitted
    own, lines = original.body[0], fitted.splitlines()
    docstring = unit.text.splitlines()[own.lineno - 1 : own.end_lineno]
    first = answer.body[0]
    if is_docstring(first):
        rest = answer.body[1:]
        if not rest:
            return fitted
        start, after = first.lineno - 1, rest[0].lineno - 1
    else:
        start = after = first.lineno - 1
    target = lines[after][: len(lines[after]) - len(lines[after].lstrip())]
    source = docstring[0][: len(docstring[0]) - len(docstring[0].lstrip())]
    moved = [target + line[len(source) :] if line.startswith(source) else line for line in docstring]
    new = "\n".join([*lines[:start], *moved, *lines[after:]])
    return new if _python_tree(textwrap.dedent(new)) is not None else fitted


def _first_statement(code: str) -> ast.stmt | None:
    tree = _python_tree(code)
    return tree.body[0] if tree is not None and tree.body else None


def _python_tree(code: str) -> ast.Module | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes warn; only errors matter here
            return ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def parses(text: str, language: LanguageName) -> bool:
    """Whether `text` is valid code: Python's own parser, tree-sitter for the other languages."""
    if language == "python":
        return _python_tree(text) is not None
    root = parse_root(text.encode(), language)
    return root is not None and not root.has_error


def _replace_lines(file_text: str, unit: Unit, new: str) -> str:
    lines = file_text.splitlines()
    return "\n".join([*lines[: unit.start_line - 1], new, *lines[unit.end_line :]]) + "\n"


def read_line_candidate(reply: str, unit: Unit, line: int, file_text: str) -> Candidate:
    """The unit with its line `line` (a file line) replaced by the line (or expression) in `reply`; an answer that
    defines the whole function is read as one, since small models often give it anyway."""
    whole = read_candidate(reply, unit, file_text, bodies=False)
    if whole.text is not None:
        return whole
    lines = unit.text.splitlines()
    if not unit.start_line <= line < unit.start_line + len(lines):
        return Candidate(None, f"line {line} is not in {unit.name} (lines {unit.start_line}-{unit.end_line})")
    original = lines[line - unit.start_line]
    answer = _line_answer(reply, unit.language)
    if not answer:
        return Candidate(None, "the answer holds no line of code")
    indent = re.match(r"[ \t]*", original).group(0)  # type: ignore[union-attr]
    for new in _line_readings(answer, original, unit.language):
        fitted = _with_line(unit, line, indent + new)
        if fitted.strip() == unit.text.strip():
            return Candidate(None, "the answer repeats the original line unchanged")
        if parses(_replace_lines(file_text, unit, fitted), unit.language):
            return Candidate(fitted, "")
    statement = _statement_answer(answer, unit, line, file_text)
    if statement.text is not None or statement.problem:
        return statement
    return Candidate(None, f"with the answer in place of line {line}, {unit.path} is not valid {unit.language} code")


def _statement_answer(answer: str, unit: Unit, line: int, file_text: str) -> Candidate:
    """The answer in place of the whole statement that holds line `line`, where brackets carry that statement over
    several lines: a model asked about one of them writes the statement on one line (`if not (a(left) and
    a(right)):` for a condition black split in two). No candidate, and no problem, for a statement of one line."""
    top, bottom, original = joined_statement(unit.text, line - unit.start_line + 1, unit.language)
    if top == bottom:
        return Candidate(None, "")
    first, last = unit.start_line - 1 + top, unit.start_line - 1 + bottom
    lines = unit.text.splitlines()
    indent = re.match(r"[ \t]*", lines[top - 1]).group(0)  # type: ignore[union-attr]
    for new in _line_readings(answer, original, unit.language):
        if re.sub(r"\s", "", new) == re.sub(r"\s", "", original):
            return Candidate(None, f"the answer repeats the statement on lines {first}-{last} unchanged")
        fitted = "\n".join([*lines[: top - 1], indent + new, *lines[bottom:]])
        if parses(_replace_lines(file_text, unit, fitted), unit.language):
            return Candidate(fitted, "")
    return Candidate(
        None, f"with the answer in place of lines {first}-{last}, {unit.path} is not valid {unit.language} code"
    )


def mutant_candidate(
    unit: Unit, line: int, new_line: str, file_text: str, also: Sequence[tuple[int, str]] = ()
) -> Candidate:
    """The unit with its line `line` (a file line) replaced by `new_line`, and those `also` names by theirs, when the
    file still parses."""
    fitted = unit.text
    for at, text in sorted([(line, new_line), *also], reverse=True):  # the last first: an added line moves the rest
        fitted = _with_line(replace(unit, text=fitted), at, text)
    if parses(_replace_lines(file_text, unit, fitted), unit.language):
        return Candidate(fitted, "")
    return Candidate(None, f"with the variant in place of line {line}, {unit.path} is not valid {unit.language} code")


REMOVED = ""
"""A variant's new text that takes its line out (no variant leaves a line empty: a blank line changes nothing)."""


def _with_line(unit: Unit, line: int, new_line: str) -> str:
    """The unit's text with its file line `line` replaced by `new_line`, or taken out where that is REMOVED."""
    lines = unit.text.splitlines()
    kept = [] if new_line == REMOVED else [new_line]
    return "\n".join([*lines[: line - unit.start_line], *kept, *lines[line - unit.start_line + 1 :]])


def _line_answer(reply: str, language: LanguageName) -> str:
    """The one line an answer gives: its first fenced block's first code line, else its first line that is not
    prose."""
    blocks = [match.group("body") for match in _FENCE.finditer(reply) if match.group("body").strip()]
    text = blocks[0] if blocks else reply
    comment = "#" if language == "python" else "//"
    for raw in text.splitlines():
        code = raw.strip()
        if code and not code.startswith(("```", comment)):
            # Outside a fence, prose is no answer: the line must read as code on its own (or open a block).
            return code if blocks or code.endswith((":", "{")) or parses(code, language) else ""
    return ""


def _line_readings(answer: str, original: str, language: LanguageName) -> list[str]:
    """The answer as the whole line, then, when the original line is `return x`, `y = x` or `if x:` and the answer
    is only an expression, the original's head around it."""
    readings = [answer]
    head = LINE_HEAD.match(original.strip())
    if head is not None and LINE_HEAD.match(answer) is None:
        tail = ":" if language == "python" and original.rstrip().endswith(":") and not answer.endswith(":") else ""
        brace = " {" if language != "python" and original.rstrip().endswith("{") and not answer.endswith("{") else ""
        readings.insert(0, f"{head.group('head')}{answer}{tail}{brace}")
    return readings


LINE_HEAD = re.compile(
    r"^(?P<head>return\s+|(?:if|elif|while)\s+|(?:const |let |var )?[\w.\[\]]+\s*(?::=|[-+*/%]?=(?!=))\s*)"
)
"""What starts a line whose expression an answer may give alone: `return `, `if `, `total = `, `x := `."""


def bypasses(text: str, unit: Unit, suspects: Sequence[Unit]) -> str:
    """Why a candidate routes around another unit the failure points at, or "": the original calls it and the
    candidate no longer does (a mean that sums the list itself instead of calling a broken sum()). The tests may pass
    that way while the other unit stays broken for every other caller."""
    for other in suspects:
        if other.key == unit.key or other.path != unit.path and other.language != unit.language:
            continue
        call = re.compile(rf"(?<![\w.]){re.escape(other.name)}\s*\(|\.{re.escape(other.name)}\s*\(")
        if call.search(unit.text) and not call.search(text):
            return f"it no longer calls {other.name}, which the failure also points at: that hides a bug there"
    return ""


def drops_own_calls(text: str, unit: Unit, line: int, own: Collection[str]) -> str:
    """Why a line answer is no fix of its line, or "": the line calls functions of its own file (`own`: those the
    file defines, and those it imports from the project), and the answer in its place calls none of them.
    jmespath's guard `if not (_is_actual_number(left) and _is_actual_number(right)):` was answered with `if left ==
    right:`, which passes the one test that compares two strings and makes every comparison of equal numbers return
    None. (A call that should go is a variant's to drop, with the evidence dropped_calls.py asks for.)"""
    top, bottom, original = joined_statement(unit.text, line - unit.start_line + 1, unit.language)
    others = set(own) - {unit.name}
    called = _called(original) & others
    after = len(unit.text.splitlines()) - bottom  # the unit's lines below the statement, as they stand in `text`
    rows = text.splitlines()
    written = " ".join(rows[top - 1 : len(rows) - after])
    if not called or _called(written) & others:
        return ""
    names = ", ".join(sorted(called))
    return f"it no longer calls {names}, as the line did: that rewrites the line rather than fixing it"


_CALLED = re.compile(r"(?<![\w])(\w+)\s*\(")


def _called(code: str) -> set[str]:
    """The names called in a line of code (`f(`, `obj.f(`)."""
    return set(_CALLED.findall(code))


def special_cases(text: str, unit: Unit, failure_text: str) -> str:
    """Why a candidate special-cases the failing tests' own values, or "": a new comparison with, or a new return
    of, a literal the failing assertion holds that the original code does not."""
    literals = _values(failure_text) - _values(unit.text) - _TRIVIAL
    if not literals:
        return ""
    # A comment says nothing of what the line does, and small models write prose there (`mean = 3.0  # not 9.0`).
    old = {without_comment(line, unit.language).strip() for line in unit.text.splitlines()}
    for line in (without_comment(line, unit.language).strip() for line in text.splitlines()):
        if line in old:
            continue
        line = _PREFIXED.sub(r"\g<literal>", line)
        compared = _COMPARED.search(line)
        if compared and _value(compared.group("value")) in literals:
            return f"it compares with {compared.group('value')}, a value from the failing test"
        returned = _RETURNED.match(line)
        if returned and _value(returned.group("value")) in literals:
            return f"it returns {returned.group('value')}, the value the failing test expects"
        why = _constant_from(line, literals)
        if why:
            return why
    return ""


def _constant_from(line: str, literals: set[str]) -> str:
    """Why a line returns or assigns a constant made of the failing test's values (`return 2 + 3`, `average =
    6.50`), or "": it makes the test's own numbers pass, not the code."""
    for pattern, verb in ((_RETURNED_EXPRESSION, "returns"), (_ASSIGNED, "sets {target} to")):
        found = pattern.match(line)
        if found is None or _NAME.search(_LITERAL.sub("0", found.group("expression"))):
            continue
        used = sorted(literal for literal in _LITERAL.findall(found.group("expression")) if _value(literal) in literals)
        if used:
            target = found.groupdict().get("target", "")
            return f"it {verb.format(target=target)} a constant made of {', '.join(used)}, values from the failing test"
    return ""


def _values(text: str) -> set[str]:
    return {_value(literal) for literal in _LITERAL.findall(text)}


def _value(literal: str) -> str:
    """A literal as the value it stands for: 6.5 and 6.50 (or 2 and 2.0) are one number, 'a' and "a" one string
    (pytest quotes the expected value in its own quotes, the code in its)."""
    if literal[:1] in {"'", '"'}:
        return repr(literal[1:-1])
    try:
        return repr(float(literal))
    except ValueError:
        return literal


_LITERAL = re.compile(r"""-?\b\d+(?:\.\d+)?\b|"[^"\n]*"|'[^'\n]*'""")
_TRIVIAL = frozenset({"0.0", "1.0", "-1.0", "''", '""'})
_VALUE = r"""(?P<value>-?\b\d+(?:\.\d+)?\b|"[^"\n]*"|'[^'\n]*')"""
_COMPARED = re.compile(rf"\b(?:if|elif|case)\b.*(?:===?|!==?|<=|>=)\s*{_VALUE}")
_RETURNED = re.compile(rf"^return\s+{_VALUE}\s*;?$")
_RETURNED_EXPRESSION = re.compile(r"^return\s+(?P<expression>[^;]+?)\s*;?$")
_ASSIGNED = re.compile(
    r"^(?:const |let |var )?(?P<target>[\w.\[\]]+)\s*(?::=|[-+*/%]?=(?!=))\s*(?P<expression>[^;]+?)\s*;?$"
)
_NAME = re.compile(r"[A-Za-z_]")
_PREFIXED = re.compile(r"""\b[rRuUbBfF]{1,2}(?P<literal>"[^"{\n]*"|'[^'{\n]*')""")
"""A string literal with a prefix and nothing to format (`f"Ada Lovelace"`): the constant it spells."""
