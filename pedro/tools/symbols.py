"""Find a source file's definitions: tree-sitter where a grammar wheel is installed, line regexes elsewhere."""

from __future__ import annotations

import hashlib
import importlib
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePath
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

LanguageName = Literal["python", "go", "javascript", "typescript", "tsx"]

EXTENSIONS: dict[str, LanguageName] = {
    ".py": "python",
    ".pyi": "python",
    ".go": "go",
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
}

# language -> (grammar package, function returning the language pointer)
_GRAMMARS: dict[LanguageName, tuple[str, str]] = {
    "python": ("tree_sitter_python", "language"),
    "go": ("tree_sitter_go", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
}

# Kinds that are values rather than structure: found by find_definition, left out of an outline.
VALUE_KINDS = frozenset({"const", "variable", "macro"})


@dataclass(frozen=True)
class Symbol:
    """One definition: its name, kind, 1-based inclusive line range and the definition it sits in."""

    name: str
    kind: str
    start_line: int
    end_line: int
    depth: int = 0
    parent: str | None = None

    @property
    def qualified_name(self) -> str:
        return f"{self.parent}.{self.name}" if self.parent else self.name


def detect_language(path: str | PurePath) -> LanguageName | None:
    """The tree-sitter language for a file name, or None when only the regex fallback applies."""
    return EXTENSIONS.get(PurePath(path).suffix.lower())


@lru_cache(maxsize=8)
def load_parser(language: LanguageName) -> Parser | None:
    """A parser for `language`, or None when its grammar wheel (or tree-sitter itself) is not installed."""
    module_name, function_name = _GRAMMARS[language]
    try:
        import tree_sitter

        grammar = importlib.import_module(module_name)
        return tree_sitter.Parser(tree_sitter.Language(getattr(grammar, function_name)()))
    except (ImportError, AttributeError, ValueError, TypeError):
        # A missing wheel or one built for another tree-sitter ABI: fall back to regexes, never fail.
        return None


def has_grammar(path: str | PurePath) -> bool:
    """Whether the file's language has an installed tree-sitter grammar (exact ranges, not regex guesses)."""
    language = detect_language(path)
    return language is not None and load_parser(language) is not None


def parse_root(source: bytes, language: LanguageName | None) -> Node | None:
    """The syntax tree's root node, or None when no parser is available for the language."""
    parser = load_parser(language) if language else None
    if parser is None:
        return None
    return parser.parse(source).root_node


def extract_symbols(source: bytes, path: str | PurePath, *, use_tree_sitter: bool = True) -> list[Symbol]:
    """Every definition in a file, in source order."""
    language = detect_language(path) if use_tree_sitter else None
    # An agent outlines and searches the same files again and again; the symbols depend only on the text and
    # the language, so a digest of the text finds them again without parsing (most of the cost).
    key = (language, len(source), hashlib.blake2b(source, digest_size=16).digest())
    with _SYMBOL_CACHE_LOCK:
        cached = _SYMBOL_CACHE.get(key)
        if cached is not None:
            _SYMBOL_CACHE.move_to_end(key)
            return list(cached)
    symbols = _extract(source, language)
    with _SYMBOL_CACHE_LOCK:
        _SYMBOL_CACHE[key] = tuple(symbols)
        if len(_SYMBOL_CACHE) > _SYMBOL_CACHE_FILES:
            _SYMBOL_CACHE.popitem(last=False)
    return symbols


# Files whose symbols are remembered, least recently used first.
_SYMBOL_CACHE_FILES = 512
_SYMBOL_CACHE: OrderedDict[tuple[LanguageName | None, int, bytes], tuple[Symbol, ...]] = OrderedDict()
_SYMBOL_CACHE_LOCK = threading.Lock()


def clear_symbol_cache() -> None:
    """Forget every remembered file's symbols (benchmarks time cold parses with it)."""
    with _SYMBOL_CACHE_LOCK:
        _SYMBOL_CACHE.clear()


def _extract(source: bytes, language: LanguageName | None) -> list[Symbol]:
    root = parse_root(source, language)
    if root is None or language is None:
        return regex_symbols(source.decode("utf-8", errors="replace"))
    visitor = _VISITORS["python" if language == "python" else "go" if language == "go" else "js"]
    symbols = list(_walk(root, visitor))
    symbols.sort(key=lambda s: (s.start_line, s.depth))
    return symbols


def find_definitions(source: bytes, path: str | PurePath, name: str, *, use_tree_sitter: bool = True) -> list[Symbol]:
    """The definitions of `name` in a file; `Class.method` matches a qualified name."""
    leaf = name.rsplit(".", 1)[-1]
    if leaf.encode() not in source:
        return []
    language = detect_language(path)
    # Parsing is most of the cost, and most files that mention a name only use it: skip those whose text has
    # no line that could define it.
    if (
        language == "python"
        and use_tree_sitter
        and load_parser(language) is not None
        and not _python_may_define(leaf).search(source)
    ):
        return []
    found = extract_symbols(source, path, use_tree_sitter=use_tree_sitter)
    if "." in name:
        return [s for s in found if s.qualified_name == name or s.qualified_name.endswith("." + name)]
    return [s for s in found if s.name == name]


@lru_cache(maxsize=64)
def _python_may_define(name: str) -> re.Pattern[bytes]:
    """Text every Python definition of `name` that the tree-sitter walk reports must contain.

    `def name`, `class name`, `type name`, or `name` starting a statement and followed by `=` or `:` (an
    assignment or annotation); a backslash may continue any of them onto the next line.
    """
    word = re.escape(name.encode())
    return re.compile(
        rb"\b(?:def|class|type)[\s\\]+" + word + rb"\b|(?:^|[;:])[ \t]*" + word + rb"[ \t\\]*[:=]",
        re.MULTILINE,
    )


# ---- tree-sitter walk -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Scope:
    """Where the walk is: the enclosing definition and whether it is a function body (locals are skipped)."""

    parent: Symbol | None = None
    in_function: bool = False


# A visitor looks at one node and returns the symbols it defines and whether to walk into its children.
_Visit = Callable[["Node", _Scope], tuple[list[Symbol], bool]]


def _walk(root: Node, visit: _Visit) -> Iterator[Symbol]:
    # Iterative, so deeply nested expressions cannot hit Python's recursion limit.
    stack: list[tuple[Node, _Scope]] = [(root, _Scope())]
    while stack:
        node, scope = stack.pop()
        symbols, descend = visit(node, scope)
        yield from symbols
        if not descend:
            continue
        inner = scope
        if symbols and symbols[-1].kind not in VALUE_KINDS:
            last = symbols[-1]
            inner = _Scope(parent=last, in_function=last.kind in ("function", "method") or scope.in_function)
        stack.extend((child, inner) for child in reversed(node.named_children))


def _text(node: Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", errors="replace")


def _make(node: Node, name: str, kind: str, scope: _Scope, *, parent: str | None = None) -> Symbol:
    owner = scope.parent
    return Symbol(
        name=name,
        kind=kind,
        start_line=node.start_point.row + 1,
        end_line=node.end_point.row + 1,
        depth=owner.depth + 1 if owner else 0,
        parent=parent if parent is not None else (owner.qualified_name if owner else None),
    )


_PY_CONTAINERS = frozenset(
    {
        "module",
        "block",
        "decorated_definition",
        "if_statement",
        "elif_clause",
        "else_clause",
        "try_statement",
        "except_clause",
        "finally_clause",
        "with_statement",
        "for_statement",
        "while_statement",
    }
)


# What a nested definition in a function body must contain: `def`, `class` or `type` (an alias; tree-sitter
# also reads some `type(x).attr = …` lines as one).
_PY_NESTED = re.compile(rb"\b(?:def|class|type)\b")


def _visit_python(node: Node, scope: _Scope) -> tuple[list[Symbol], bool]:
    kind = node.type
    if kind == "function_definition":
        owner = scope.parent
        what = "method" if owner is not None and owner.kind == "class" else "function"
        # Inside a function only nested definitions count, and most bodies have none: reading the body's
        # text is far cheaper than visiting each of its statements.
        body = node.child_by_field_name("body")
        nests = body is not None and body.text is not None and _PY_NESTED.search(body.text) is not None
        return [_make(node, _text(node.child_by_field_name("name")), what, scope)], nests
    if kind == "class_definition":
        return [_make(node, _text(node.child_by_field_name("name")), "class", scope)], True
    if kind == "type_alias_statement":
        left = node.child_by_field_name("left") or (node.named_children[0] if node.named_children else None)
        return [_make(node, _text(left), "type", scope)], False
    if kind == "expression_statement":
        return _python_assignment(node, scope), False
    return [], kind in _PY_CONTAINERS


def _python_assignment(node: Node, scope: _Scope) -> list[Symbol]:
    """The name a module or class statement assigns (`LIMIT = 3`: a const; `cache = {}`: a variable), if any."""
    if scope.in_function or not node.named_children:
        return []
    target = node.named_children[0]
    if target.type != "assignment":
        return []
    left = target.child_by_field_name("left")
    if left is None or left.type != "identifier":
        return []
    name = _text(left)
    return [_make(node, name, "const" if name.isupper() else "variable", scope)]


def _go_receiver(node: Node) -> str | None:
    receiver = node.child_by_field_name("receiver")
    if receiver is None:
        return None
    match = re.search(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*\)\s*$", _text(receiver))
    return match.group(1) if match else None


_GO_CONTAINERS = frozenset({"source_file", "type_declaration", "const_declaration", "var_declaration"})
_GO_TYPE_KINDS = {"struct_type": "struct", "interface_type": "interface"}


def _visit_go(node: Node, scope: _Scope) -> tuple[list[Symbol], bool]:
    kind = node.type
    if kind == "function_declaration":
        return [_make(node, _text(node.child_by_field_name("name")), "function", scope)], False
    if kind == "method_declaration":
        name = _text(node.child_by_field_name("name"))
        return [_make(node, name, "method", scope, parent=_go_receiver(node) or "")], False
    if kind in ("type_spec", "type_alias"):
        type_node = node.child_by_field_name("type")
        what = _GO_TYPE_KINDS.get(type_node.type if type_node is not None else "", "type")
        symbol = _make(node, _text(node.child_by_field_name("name")), what, scope)
        if type_node is not None and type_node.type == "interface_type":
            members = [
                _make(child, _text(child.child_by_field_name("name")), "method", _Scope(parent=symbol))
                for child in type_node.named_children
                if child.type in ("method_elem", "method_spec")
            ]
            return [symbol, *members], False
        return [symbol], False
    if kind in ("const_spec", "var_spec"):
        what = "const" if kind == "const_spec" else "variable"
        names = [n for n in node.children_by_field_name("name") if n.type == "identifier"]
        return [_make(node, _text(n), what, scope) for n in names], False
    return [], kind in _GO_CONTAINERS


_JS_FUNCTION_VALUES = frozenset(
    {"arrow_function", "function_expression", "function", "generator_function", "generator_function_expression"}
)
_JS_SKIP = frozenset({"string", "template_string", "comment", "regex", "number", "jsx_text", "import_statement"})
_JS_SIMPLE = {
    "function_declaration": "function",
    "generator_function_declaration": "function",
    "function_signature": "function",
    "class_declaration": "class",
    "abstract_class_declaration": "class",
    "class": "class",
    "method_signature": "method",
    "abstract_method_signature": "method",
    "interface_declaration": "interface",
    "type_alias_declaration": "type",
    "enum_declaration": "enum",
    "internal_module": "module",
    "module": "module",
}


def _visit_js(node: Node, scope: _Scope) -> tuple[list[Symbol], bool]:
    kind = node.type
    if kind in _JS_SIMPLE:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return [], True
        name = _text(name_node).strip("\"'")
        return [_make(node, name, _JS_SIMPLE[kind], scope)], kind not in ("type_alias_declaration", "enum_declaration")
    if kind == "method_definition":
        return [_make(node, _text(node.child_by_field_name("name")), "method", scope)], True
    if kind in ("field_definition", "public_field_definition"):
        value = node.child_by_field_name("value")
        name_node = node.child_by_field_name("property") or node.child_by_field_name("name")
        if value is None or value.type not in _JS_FUNCTION_VALUES or name_node is None:
            return [], False
        return [_make(node, _text(name_node), "method", scope)], True
    if kind == "variable_declarator":
        return _visit_js_declarator(node, scope)
    if kind == "assignment_expression":
        return _visit_js_assignment(node, scope)
    return [], kind not in _JS_SKIP


def _visit_js_declarator(node: Node, scope: _Scope) -> tuple[list[Symbol], bool]:
    name_node = node.child_by_field_name("name")
    if name_node is None or name_node.type != "identifier":
        return [], True
    value = node.child_by_field_name("value")
    value_type = value.type if value is not None else ""
    if value_type in _JS_FUNCTION_VALUES:
        return [_make(node, _text(name_node), "function", scope)], True
    if value_type == "class":
        return [_make(node, _text(name_node), "class", scope)], True
    if scope.in_function:
        return [], True
    keyword = node.parent.children[0].type if node.parent is not None and node.parent.children else ""
    return [_make(node, _text(name_node), "const" if keyword == "const" else "variable", scope)], True


def _visit_js_assignment(node: Node, scope: _Scope) -> tuple[list[Symbol], bool]:
    # `exports.run = function () {}` and `Foo.prototype.bar = () => {}` define names as well.
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None or left.type != "member_expression" or right.type not in _JS_FUNCTION_VALUES:
        return [], True
    prop = left.child_by_field_name("property")
    owner = _text(left.child_by_field_name("object"))
    if owner.endswith(".prototype"):
        return [_make(node, _text(prop), "method", scope, parent=owner.removesuffix(".prototype"))], True
    return [_make(node, _text(prop), "function", scope)], True


_VISITORS: dict[str, _Visit] = {"python": _visit_python, "go": _visit_go, "js": _visit_js}


# ---- regex fallback ---------------------------------------------------------------------------------------

_MODIFIERS = (
    r"(?:(?:export|default|pub(?:\([^)]*\))?|public|private|protected|internal|static|abstract|final|async|"
    r"unsafe|extern|inline|virtual|override|open|sealed|data|local|declare|partial|const(?=\s+fn))\s+)*"
)
_KEYWORD_KINDS = {
    "def": "function",
    "fn": "function",
    "func": "function",
    "function": "function",
    "fun": "function",
    "sub": "function",
    "proc": "function",
    "class": "class",
    "struct": "struct",
    "union": "struct",
    "record": "class",
    "object": "class",
    "interface": "interface",
    "protocol": "interface",
    "trait": "trait",
    "enum": "enum",
    "type": "type",
    "typedef": "type",
    "impl": "impl",
    "module": "module",
    "mod": "module",
    "namespace": "module",
    "let": "variable",
    "var": "variable",
    "val": "variable",
    "const": "const",
    "static": "const",
}
_KEYWORD_LINE = re.compile(
    rf"^(?P<indent>[ \t]*){_MODIFIERS}(?P<kw>{'|'.join(sorted(_KEYWORD_KINDS, key=len, reverse=True))})"
    r"(?:<[^>]*>)?\s+(?:mut\s+)?(?:self\.)?(?:<[^>]*>\s*)?(?P<name>[A-Za-z_$][\w$]*[!?]?)"
)
# A C-family function definition: a return type then `name(` at column 0, not a call statement ending in `;`.
_C_FUNCTION = re.compile(
    r"^(?P<indent>)(?!(?:if|while|for|switch|return|else|do)\b)[A-Za-z_][\w\s\*&:<>,]*?"
    r"\b(?P<name>[A-Za-z_]\w*)\s*\([^;]*$"
)
_DEFINE = re.compile(r"^(?P<indent>)#\s*define\s+(?P<name>[A-Za-z_]\w*)")
_CLOSERS = re.compile(r"^\s*(?:[}\])]+[;,)]*|end\b.*|fi|done|esac)\s*$")


def regex_symbols(text: str) -> list[Symbol]:
    """Definitions found by line patterns (def/class/func/fn/struct/…), with ranges from indentation."""
    lines = text.splitlines()
    symbols: list[Symbol] = []
    open_blocks: list[Symbol] = []
    for index, indent, kind, name in _definition_lines(lines):
        end = index + 1 if kind in VALUE_KINDS else _block_end(lines, index, indent)
        while open_blocks and open_blocks[-1].end_line < index + 1:
            open_blocks.pop()
        parent = open_blocks[-1] if open_blocks else None
        if kind == "function" and parent is not None and parent.kind in ("class", "struct", "impl", "trait"):
            kind = "method"
        symbol = Symbol(
            name=name,
            kind=kind,
            start_line=index + 1,
            end_line=end,
            depth=parent.depth + 1 if parent else 0,
            parent=parent.qualified_name if parent else None,
        )
        symbols.append(symbol)
        if kind not in VALUE_KINDS:
            open_blocks.append(symbol)
    return symbols


def _definition_lines(lines: list[str]) -> list[tuple[int, int, str, str]]:
    """(line index, indent, kind, name) of each line that starts a definition, by keyword or C's shapes."""
    found: list[tuple[int, int, str, str]] = []
    for index, line in enumerate(lines):
        match = _KEYWORD_LINE.match(line)
        if match and _is_definition(match, line):
            kind = _KEYWORD_KINDS[match.group("kw")]
            found.append((index, _indent_width(match.group("indent")), kind, match.group("name")))
            continue
        match = _C_FUNCTION.match(line) or _DEFINE.match(line)
        if match:
            kind = "macro" if line.lstrip().startswith("#") else "function"
            found.append((index, 0, kind, match.group("name")))
    return found


def _is_definition(match: re.Match[str], line: str) -> bool:
    # `static`/`const` also start C declarations (`static int add(...)`); only `NAME:` or `NAME =` define NAME.
    if match.group("kw") not in ("static", "const"):
        return True
    return re.match(r"\s*[:=]", line[match.end() :]) is not None


def _indent_width(indent: str) -> int:
    return len(indent.expandtabs(4))


def _block_end(lines: list[str], start: int, indent: int) -> int:
    """The last line (1-based) of a block: up to the next line indented no deeper, keeping a closing brace."""
    last = start
    for index in range(start + 1, len(lines)):
        line = lines[index]
        if not line.strip():
            continue
        width = _indent_width(line[: len(line) - len(line.lstrip())])
        if width <= indent:
            if width == indent and _CLOSERS.match(line):
                return index + 1
            # K&R-less C puts the opening brace on its own line at column 0; it belongs to the definition.
            if line.strip() == "{" and index == last + 1:
                last = index
                continue
            break
        last = index
    return last + 1
