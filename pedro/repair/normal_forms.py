"""Parameters put in the form a function promises to work on, where it starts: one case (`text = text.lower()`),
no surrounding spaces (`name = name.strip()`), sorted (`values = sorted(values)`), each value once (`values =
list(dict.fromkeys(values))`), for a Python or JavaScript function that is to ignore case, surrounding spaces, order
or repeats and does not. The failing test or the function's own docstring
says so, and the failure may show nothing of it (`count_word("The cat saw the dog", "the")`: `assert 1 == 2`)."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from pedro.repair.locate import RowChange, indent_of, is_docstring

IGNORES_CASE = re.compile(
    r"ignor(?:e|es|ed|ing)[\s_-]+(?:the[\s_-]+)?(?:letter[\s_-]+)?case|case[\s_-]*insensitiv|regardless[\s_-]+of[\s_-]+"
    r"(?:letter[\s_-]+)?case|case[\s_-]*fold",
    re.I,
)
"""Words that say case is not to count: `ignoring case`, `test_count_ignores_case`, `case-insensitive`."""
_SPACE = r"(?:white[\s_-]*)?spac"
_START, _END = r"(?<![A-Za-z0-9])", r"(?![A-Za-z0-9])"
"""A word's edges, where `_` parts words as a space does (a test's name)."""
IGNORES_SPACE = re.compile(
    rf"(?:surrounding|leading|trailing|outer)[\s_-]+(?:and[\s_-]+trailing[\s_-]+)?{_SPACE}|{_SPACE}\w*[\s_-]+around"
    rf"|{_START}strip(?:s|ped|ping)?[\s_-]+(?:of[\s_-]+)?(?:the[\s_-]+)?(?:surrounding[\s_-]+)?{_SPACE}"
    rf"|{_START}trim(?:s|med|ming)?{_END}|{_SPACE}\w*[\s_-]*insensitiv",
    re.I,
)
"""Words that say spaces around a value are not to count: `surrounding spaces are ignored`, `test_trims_name`."""
WANTS_ORDER = re.compile(
    rf"{_START}(?:once|when|after[\s_-]+being)[\s_-]+sorted{_END}|{_START}in[\s_-]+sorted[\s_-]+order{_END}"
    rf"|{_START}un(?:sorted|ordered){_END}|{_START}in[\s_-]+any[\s_-]+order{_END}|{_START}out[\s_-]+of[\s_-]+order{_END}",
    re.I,
)
"""Words that say values are to be taken in order whatever order they come in: `the middle value once sorted`,
`test_median_of_unsorted_values`."""
WANTS_UNIQUE = re.compile(
    rf"{_START}(?:unique|distinct|dedup\w*){_END}|{_START}(?:without|no|ignor\w*|remov\w*|drop\w*|skip\w*)[\s_-]+"
    rf"(?:the[\s_-]+|any[\s_-]+)?(?:duplicat|repeat)\w*|{_START}(?:each|every)[\s_-]+\w+[\s_-]+only[\s_-]+once{_END}",
    re.I,
)
"""Words that say each value is to count once: `sorted unique elements`, `test_dedupes`, `duplicates removed`."""
IGNORED = {"case": IGNORES_CASE, "space": IGNORES_SPACE, "order": WANTS_ORDER, "duplicates": WANTS_UNIQUE}
"""What a function may be told to ignore, and the words that say so."""
_HANDLES_CASE = re.compile(r"\.(?:lower|upper|casefold)\(|IGNORECASE|\bre\.I\b|\w*case\w*\s*[=,)]", re.I)
"""Code that already deals with case (a call that sets it, a regex flag, a parameter named for it): the slip is
elsewhere, not a parameter never folded."""
_JS_HANDLES_CASE = re.compile(
    r"to(?:Locale)?(?:Lower|Upper)Case\(|localeCompare|sensitivity|\w*[cC]ase\w*\s*[=,)]|/[^/\n]+/[a-z]*i[a-z]*\b"
)
"""The same for JavaScript: a call that sets case, a comparison that ignores it, a regular expression's `i` flag."""
# A JavaScript function's head up to the brace that opens its body, at a line's end: `function f(a, b) {`, a
# method `  count(a, b) {`, an arrow `const f = (a, b) => {`.
JS_HEAD = re.compile(r"^[^\n]*?\((?P<params>[^()]*)\)\s*(?:=>\s*)?\{[ \t]*$", re.M)
_JS_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
"""A JavaScript comment: what it says of case is prose, not code that deals with case."""
_JS_NOT_TEXT = re.compile(r"^(?:-?\d|null\b|undefined\b|true\b|false\b|\[|\{)")
_MOST = 4
"""Parameters folded at most, together or one at a time."""
_NOT_TEXT = (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)


@dataclass(frozen=True)
class Form:
    """A form parameters may be put in where a function starts: what it ignores (case, space, order), the code that
    puts a parameter in it in Python and JavaScript (`{name}` stands for the parameter; "" where the language has no
    plain way), the code that shows a function deals with it already, and the words for the change."""

    ignores: str
    python: str
    javascript: str
    handled: re.Pattern[str]
    js_handled: re.Pattern[str]
    said: str
    sequences: bool = False
    """Whether the parameters it applies to hold sequences (sorting), rather than text."""


_HANDLES_SPACE = re.compile(r"\.(?:strip|lstrip|rstrip|trim|trimStart|trimEnd)\(")
_HANDLES_ORDER = re.compile(r"\bsorted\(|\.sort\(|\bheapq\b|\bbisect\b")
# A copy sorted in the order `<` gives, numbers as numbers (a bare `.sort()` compares them as text) and text as text.
_JS_SORTED = "[...{name}].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))"
_HANDLES_DUPLICATES = re.compile(r"\bset\(|\bfromkeys\(|\bCounter\(|\bnew Set\(|\b(?:seen|unique|distinct)\b")
FORMS = {
    "lower": Form("case", "{name}.lower()", "{name}.toLowerCase()", _HANDLES_CASE, _JS_HANDLES_CASE,
                  "made lower case where the function starts, as case is to be ignored"),
    "upper": Form("case", "{name}.upper()", "{name}.toUpperCase()", _HANDLES_CASE, _JS_HANDLES_CASE,
                  "made upper case where the function starts, as case is to be ignored"),
    "space": Form("space", "{name}.strip()", "{name}.trim()", _HANDLES_SPACE, _HANDLES_SPACE,
                  "stripped of surrounding spaces where the function starts, as they are to be ignored"),
    "order": Form("order", "sorted({name})", _JS_SORTED, _HANDLES_ORDER, _HANDLES_ORDER,
                  "sorted where the function starts, as it is to take the values in order", sequences=True),
    "duplicates": Form("duplicates", "list(dict.fromkeys({name}))", "[...new Set({name})]", _HANDLES_DUPLICATES,
                       _HANDLES_DUPLICATES,
                       "with its repeats left out where the function starts, as each value is to count once",
                       sequences=True),
}  # fmt: skip
"""Each form by name: `lower` and `upper` for case."""


def normalised_parameters(unit_text: str, tree: ast.Module, form: Form) -> list[RowChange]:
    """The function's parameters put in `form` before its first statement (text ones, or sequences for sorting: no
    default or a default of their kind): all of them at once first, then each alone; none for a function whose body
    shares the `def` line, nor for one whose code deals with the form already."""
    function = tree.body[0] if tree.body else None
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) or form.handled.search(_code(function)):
        return []
    first = _first_statement(function)
    lines = unit_text.splitlines()
    if first is None or first.lineno == function.lineno or first.lineno > len(lines):
        return []
    names = _normalised_names(function, form)
    line, head = lines[first.lineno - 1], lines[function.lineno - 1]
    indent = indent_of(line)
    if not names or len(indent) <= len(head) - len(head.lstrip()):
        return []
    groups = [tuple(names), *(combinations(names, 1) if len(names) > 1 else ())]
    return [_normalised(first.lineno - 1, indent, line, group, form.python, form.said) for group in groups]


def normalised_js_parameters(unit_text: str, form: Form) -> list[RowChange]:
    """normalised_parameters for a JavaScript function whose body opens at the end of its head's line (`text =
    text.toLowerCase();` before its first line), for the parameters of the form's kind (_js_names); none where its
    code deals with the form already or JavaScript has no plain way to it."""
    head = JS_HEAD.search(unit_text)
    if not form.javascript or head is None:
        return []
    row = unit_text.count("\n", 0, head.end()) + 1
    lines = unit_text.splitlines()
    body = "\n".join(lines[row:])
    # The code, not the function's name: `const unique = (l) => {` deals with no repeats by being called so.
    if (
        row >= len(lines)
        or not lines[row].strip()
        or form.js_handled.search(_JS_COMMENT.sub("", f"{head['params']}\n{body}"))
    ):
        return []
    names = _js_names(js_parameters(head.group("params")), body, form)
    line = lines[row]
    indent = indent_of(line)
    groups = [tuple(names), *(combinations(names, 1) if len(names) > 1 else ())] if names else []
    return [_normalised(row, indent, line, group, form.javascript + ";", form.said) for group in groups]


def stripped_pieces(line: str, language: str) -> list[tuple[str, str]]:
    """The line with the pieces of one of its splits stripped of surrounding spaces (`[piece.strip() for piece in
    text.split(",")]`, `text.split(",").map((piece) => piece.trim())`), and the change in words; none on a line that
    strips already. Where spaces are to be ignored, a split on a comma leaves them around each piece."""
    if _HANDLES_SPACE.search(line) or language not in {"python", "javascript", "typescript"}:
        return []
    found = []
    for match in _SPLIT.finditer(line):
        call = match.group("call")
        pieces = (
            f"[piece.strip() for piece in {call}]" if language == "python" else f"{call}.map((piece) => piece.trim())"
        )
        change = f"the pieces of `{call}` stripped of surrounding spaces, as they are to be ignored"
        found.append((line[: match.start()] + pieces + line[match.end() :], change))
    return found


_SPLIT = re.compile(r"(?<![\w$.])(?P<call>[A-Za-z_$][\w$.]*\.split\([^()]+\))")
"""A split with a separator, of a name or an attribute: `text.split(",")`, `self.line.split(sep)`."""


def handles_case(code: str, language: str = "python") -> bool:
    """Whether code (without its prose) deals with case already: a call that sets it, a regex flag, a name for it."""
    return (_JS_HANDLES_CASE if language in {"javascript", "typescript"} else _HANDLES_CASE).search(code) is not None


def ignored(text: str) -> frozenset[str]:
    """What `text` (a test's name and message, a docstring) says is to be ignored: case, space, order, duplicates."""
    return frozenset(what for what, words in IGNORED.items() if words.search(text))


def js_parameters(params: str) -> list[tuple[str, str]]:
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


def _js_names(parameters: list[tuple[str, str]], body: str, form: Form) -> list[str]:
    """The parameters of the form's kind the body reads: sequences (no default, or an empty list), or text (no
    default or a string one, never read as a number)."""
    if form.sequences:
        return [name for name, default in parameters if default in ("", "[]") and _js_sequence(name, body)][:_MOST]
    return [name for name, default in parameters
            if not _JS_NOT_TEXT.match(default) and re.search(rf"(?<![\w$.]){name}(?![\w$])", body)
            and not _js_number(name, body)][:_MOST]  # fmt: skip


def _js_sequence(name: str, body: str) -> bool:
    """Whether JavaScript code reads `name` as a sequence: indexes it, measures it, spreads or iterates it, or calls
    an array's method on it."""
    word = rf"(?<![\w$.]){re.escape(name)}"
    return (
        re.search(rf"{word}(?:\[|\.length\b|\.{_ARRAY_METHODS}\()|\.\.\.{word}|\bof\s+{word}(?![\w$])", body)
        is not None
    )


_ARRAY_METHODS = r"(?:sort|map|filter|forEach|reduce|slice|includes|indexOf|some|every|find|join|concat)"


def _code(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """The function's parameters and statements, without its docstring and comments."""
    body = function.body[1:] if _first_statement(function) is not function.body[0] else function.body
    return "\n".join([ast.unparse(function.args), *(ast.unparse(statement) for statement in body)])


def _normalised_names(function: ast.FunctionDef | ast.AsyncFunctionDef, form: Form) -> list[str]:
    """The parameters of the form's kind the function reads: text never read as a number, or sequences it indexes,
    iterates or measures."""
    if form.sequences:
        used = _read_as_sequences(function)
        return [name for name in _parameters(function, _may_be_sequence) if name in used][:_MOST]
    read = {node.id for node in ast.walk(function) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    numbers = _read_as_numbers(function)
    return [name for name in _parameters(function, _may_be_text) if name in read and name not in numbers][:_MOST]


def _read_as_sequences(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names the function indexes (`values[mid]`), iterates (`for v in values`) or hands to a function of sequences
    (`len(values)`)."""
    found: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Subscript):
            parts = [node.value]
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            parts = [node.iter]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _OF_SEQUENCES:
            parts = list(node.args)
        else:
            continue
        found.update(part.id for part in parts if isinstance(part, ast.Name))
    return found


_OF_SEQUENCES = frozenset(
    {"len", "sum", "min", "max", "list", "tuple", "enumerate", "zip", "iter", "reversed", "sorted", "set"}
)


def _normalised(row: int, indent: str, line: str, names: tuple[str, ...], code: str, said: str) -> RowChange:
    """`names` each set to `code` (`{name}.lower()`) before `line`; `said` is what the change does, in words."""
    added = "".join(f"{indent}{name} = {code.format(name=name)}\n" for name in names)
    who = " and ".join(f"`{name}`" for name in names)
    return RowChange(row, added + line, f"{who} {said}")


def _first_statement(function: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.stmt | None:
    """The body's first statement after its docstring."""
    body = function.body
    rest = body[1:] if is_docstring(body[0]) else body
    return rest[0] if rest else None


def _parameters(function: ast.FunctionDef | ast.AsyncFunctionDef, kind: Callable[[ast.expr | None], bool]) -> list[str]:
    """Parameters that may hold a value of a kind (`kind` reads the default, None for none): not `self` or `cls`."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: dict[str, ast.expr | None] = {arg.arg: None for arg in positional}
    for arg, default in zip(reversed(positional), reversed(arguments.defaults), strict=False):
        defaults[arg.arg] = default
    for arg, keyword_default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
        defaults[arg.arg] = keyword_default
    return [name for name, default in defaults.items() if name not in {"self", "cls"} and kind(default)]


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


def _may_be_sequence(default: ast.expr | None) -> bool:
    """No default, or a list or tuple: not a string, a number or None."""
    return default is None or isinstance(default, ast.List | ast.Tuple)


def _may_be_text(default: ast.expr | None) -> bool:
    if default is None:
        return True
    if isinstance(default, ast.Constant):
        return isinstance(default.value, str)
    return not isinstance(default, _NOT_TEXT)
