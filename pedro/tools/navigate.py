"""The navigate tool: a gitignore-aware directory tree, a file's outline of symbols, and a file's imports."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field, model_validator

from pedro.effects import Effects
from pedro.safety.secretfiles import is_secret_path
from pedro.tools.base import ToolArgs, ToolContext, ToolDeniedError, ToolFailure
from pedro.tools.ripgrep import list_files
from pedro.tools.symbols import VALUE_KINDS, LanguageName, detect_language, extract_symbols, has_grammar, parse_root

if TYPE_CHECKING:
    from tree_sitter import Node

NavigateAction = Literal["list_dir", "outline", "imports"]

DEFAULT_DEPTH = 2
MAX_DEPTH = 8
# A tree longer than this is cut with a count; one directory shows at most MAX_FILES_PER_DIR files.
MAX_TREE_ENTRIES = 250
MAX_FILES_PER_DIR = 60
MAX_OUTLINE_ROWS = 300
MAX_IMPORT_ROWS = 200
MAX_FILE_BYTES = 4 * 1024 * 1024

_ACTION_ALIASES: dict[str, NavigateAction] = {
    "list_dir": "list_dir",
    "ls": "list_dir",
    "list": "list_dir",
    "tree": "list_dir",
    "dir": "list_dir",
    "list_directory": "list_dir",
    "list_files": "list_dir",
    "outline": "outline",
    "symbols": "outline",
    "structure": "outline",
    "list_symbols": "outline",
    "imports": "imports",
    "import": "imports",
    "deps": "imports",
    "dependencies": "imports",
}
_PATH_ALIASES = ("file_path", "filename", "file", "dir", "directory", "folder")


class NavigateArgs(ToolArgs):
    """Arguments of the navigate tool."""

    short_keys: ClassVar[tuple[str, ...]] = ("path",)

    action: NavigateAction
    path: str | None = None
    depth: int | None = Field(default=None, ge=0)

    @model_validator(mode="before")
    @classmethod
    def _infer(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        for alias in _PATH_ALIASES:
            if data.get("path") is None and data.get(alias) is not None:
                data["path"] = data[alias]
        action = data.get("action")
        if isinstance(action, str):
            normalized = action.strip().lower().replace("-", "_").replace(" ", "_")
            data["action"] = _ACTION_ALIASES.get(normalized, action)
        elif action is None:
            path = data.get("path")
            # A depth, no path, or a path without a file extension means a directory listing.
            is_file = isinstance(path, str) and bool(Path(path).suffix) and data.get("depth") is None
            data["action"] = "outline" if is_file else "list_dir"
        return data

    @model_validator(mode="after")
    def _check_needs(self) -> NavigateArgs:
        if self.action in ("outline", "imports") and not (self.path and self.path.strip()):
            raise ValueError(f'navigate {self.action} needs `path` of a file, e.g. {{"path": "src/main.py"}}')
        return self


class NavigateTool:
    """list_dir, outline and imports: the shape of the repository and of one file."""

    name: ClassVar[str] = "navigate"
    Args: ClassVar[type[ToolArgs]] = NavigateArgs

    def effects(self, args: NavigateArgs) -> Effects:
        return Effects(reads=(args.path or ".",))

    def run(self, args: NavigateArgs, ctx: ToolContext) -> str:
        raw = args.path if args.path and args.path.strip() else "."
        path = ctx.resolve(raw, must_exist=True)
        if args.action == "list_dir":
            if path.is_file():
                return f"{ctx.rel(path)} is a file, not a directory; its outline:\n" + outline(ctx, path)
            return list_dir(
                ctx, path, depth=max(1, min(DEFAULT_DEPTH if args.depth is None else args.depth, MAX_DEPTH))
            )
        if path.is_dir():
            return f"{ctx.rel(path)} is a directory, not a file; its contents:\n" + list_dir(ctx, path)
        if args.action == "outline":
            return outline(ctx, path)
        return imports(ctx, path)


# ---- list_dir ---------------------------------------------------------------------------------------------


@dataclass
class _Dir:
    dirs: dict[str, _Dir] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    count: int = 0


def list_dir(ctx: ToolContext, path: Path, *, depth: int = DEFAULT_DEPTH) -> str:
    """A tree of the files under `path` that are not ignored, directories first, expanded `depth` levels."""
    prefix = "" if path == ctx.root else ctx.rel(path) + "/"
    tree = _Dir()
    for rel in list_files(ctx, path):
        _add(tree, rel.removeprefix(prefix).split("/"))
    label = "." if path == ctx.root else ctx.rel(path)
    if tree.count == 0:
        return _explain_empty(ctx, path, label)
    lines = [f"{label}/ ({_files(tree.count)})"]
    _render(tree, depth=depth, level=1, lines=lines)
    if len(lines) > MAX_TREE_ENTRIES + 1:
        hidden = len(lines) - MAX_TREE_ENTRIES - 1
        lines = lines[: MAX_TREE_ENTRIES + 1]
        lines.append(f"… {hidden} more entries not shown; list a subdirectory or pass a smaller depth")
    return "\n".join(lines)


def _add(tree: _Dir, parts: list[str]) -> None:
    node = tree
    node.count += 1
    for part in parts[:-1]:
        node = node.dirs.setdefault(part, _Dir())
        node.count += 1
    node.files.append(parts[-1])


def _render(node: _Dir, *, depth: int, level: int, lines: list[str]) -> None:
    indent = "  " * level
    for name in sorted(node.dirs):
        child = node.dirs[name]
        if level >= depth or len(lines) > MAX_TREE_ENTRIES:
            # Beyond the depth a directory is one line with how much it holds.
            lines.append(f"{indent}{name}/ ({_files(child.count)})")
            continue
        lines.append(f"{indent}{name}/")
        _render(child, depth=depth, level=level + 1, lines=lines)
    files = sorted(node.files)
    for name in files[:MAX_FILES_PER_DIR]:
        lines.append(f"{indent}{name}")
    if len(files) > MAX_FILES_PER_DIR:
        lines.append(f"{indent}… {len(files) - MAX_FILES_PER_DIR} more files here; use search find_files to filter")


def _files(count: int) -> str:
    return _count(count, "file")


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _explain_empty(ctx: ToolContext, path: Path, label: str) -> str:
    try:
        entries = list(path.iterdir())
    except OSError as exc:
        raise ToolFailure(f"cannot list {label}: {exc.strerror or exc}") from exc
    if not entries:
        return f"{label}/ is empty"
    return (
        f"{label}/ holds {len(entries)} entries, all ignored (.gitignore) or secret-looking, so they are not listed; "
        "use file read on a specific file if you need one"
    )


# ---- outline ----------------------------------------------------------------------------------------------


def outline(ctx: ToolContext, path: Path) -> str:
    """Classes, functions and methods of a file with their line ranges, nested members indented."""
    source = _read_source(ctx, path)
    rel = ctx.rel(path)
    line_count = source.count(b"\n") + (0 if source.endswith(b"\n") or not source else 1)
    symbols = [s for s in extract_symbols(source, rel) if s.kind not in VALUE_KINDS]
    how = "" if has_grammar(rel) else ", ranges approximate (no parser for this language)"
    if not symbols:
        return f"{rel}: {_count(line_count, 'line')}; no classes or functions found{how}; use file read to see it"
    lines = [f"{rel}: {_count(line_count, 'line')}, {_count(len(symbols), 'symbol')}{how}"]
    for symbol in symbols[:MAX_OUTLINE_ROWS]:
        # A nested symbol shows its own name under its parent; a top-level one with a parent is a Go method.
        name = symbol.name if symbol.depth else symbol.qualified_name
        lines.append(f"{'  ' * symbol.depth}{symbol.start_line}-{symbol.end_line} {symbol.kind} {name}")
    if len(symbols) > MAX_OUTLINE_ROWS:
        lines.append(f"… {len(symbols) - MAX_OUTLINE_ROWS} more symbols not shown; read the file in parts")
    return "\n".join(lines)


def _read_source(ctx: ToolContext, path: Path) -> bytes:
    rel = ctx.rel(path)
    if is_secret_path(rel):
        # An outline or import list quotes the file; file read is where the user is asked about secrets.
        raise ToolDeniedError(f"{rel} may hold secrets, so navigate does not parse it; file read asks the user first")
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ToolFailure(f"{rel} is {size} bytes, too large to parse; use search grep on it instead")
        data = path.read_bytes()
    except OSError as exc:
        raise ToolFailure(f"cannot read {rel}: {exc.strerror or exc}") from exc
    if b"\x00" in data[:8192]:
        raise ToolFailure(f"{rel} is a binary file ({len(data)} bytes); it has no outline or imports")
    return data


# ---- imports ----------------------------------------------------------------------------------------------


def imports(ctx: ToolContext, path: Path) -> str:
    """The file's import statements with their line numbers."""
    source = _read_source(ctx, path)
    rel = ctx.rel(path)
    language = detect_language(rel)
    root = parse_root(source, language)
    found = (
        _tree_imports(root, language)
        if root is not None and language is not None
        else _regex_imports(source.decode("utf-8", errors="replace"))
    )
    if not found:
        return f"{rel}: no imports found"
    lines = [f"{rel}: {_count(len(found), 'import')}"]
    lines += [f"{line}: {text}" for line, text in found[:MAX_IMPORT_ROWS]]
    if len(found) > MAX_IMPORT_ROWS:
        lines.append(f"… {len(found) - MAX_IMPORT_ROWS} more imports not shown")
    return "\n".join(lines)


_PY_IMPORTS = frozenset({"import_statement", "import_from_statement", "future_import_statement"})
# Subtrees that never hold an import statement, skipped to keep the walk cheap on large files.
_NO_IMPORTS = frozenset({"string", "comment", "template_string", "number", "integer", "float"})


def _tree_imports(root: Node, language: LanguageName) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        entry = _import_of(node, language)
        if entry is not None:
            found.append((node.start_point.row + 1, entry))
            continue
        if node.type not in _NO_IMPORTS:
            stack.extend(reversed(node.named_children))
    found.sort(key=lambda item: item[0])
    return found


def _import_of(node: Node, language: LanguageName) -> str | None:
    kind = node.type
    if language == "python":
        return _squash(node) if kind in _PY_IMPORTS else None
    if language == "go":
        return _squash(node) if kind == "import_spec" else None
    if kind == "import_statement":
        return _squash(node)
    if kind == "export_statement" and node.child_by_field_name("source") is not None:
        return _squash(node)
    if kind == "call_expression" and _loads_module(node):
        return _squash(node)
    return None


def _loads_module(call: Node) -> bool:
    """Whether a JavaScript call is `require("…")` or a dynamic `import("…")` of a module named by a string."""
    function = call.child_by_field_name("function")
    arguments = call.child_by_field_name("arguments")
    called = function.type if function is not None else ""
    is_require = called == "identifier" and function is not None and function.text == b"require"
    first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
    return (is_require or called == "import") and first is not None and first.type in ("string", "template_string")


def _squash(node: Node) -> str:
    text = node.text.decode("utf-8", errors="replace") if node.text is not None else ""
    return re.sub(r"\s+", " ", text).replace("( ", "(").replace(" )", ")").replace("{ ", "{").replace(" }", "}")


_REGEX_IMPORTS = re.compile(
    r"""^\s*(?:
        (?:pub(?:\([^)]*\))?\s+)?use\s+[\w:\\{]      # Rust use, PHP use
      | extern\s+crate\s+\w                          # Rust
      | mod\s+\w+\s*;                                # Rust module declaration
      | \#\s*(?:include|import)\s*[<"]               # C, C++, Objective-C
      | import\s+[\w.*"'{(@]                         # Java, Kotlin, Scala, Swift, Dart, Haskell, Python, JS
      | from\s+[\w.]+\s+import\s                     # Python
      | using\s+(?:static\s+)?[\w.]+\s*(?:=\s*[\w.]+\s*)?;   # C#
      | (?:require|require_relative|load)\b\s*\(?\s*['"]     # Ruby, Lua
      | @import\s                                    # CSS, Objective-C
      | source\s+\S                                  # shell
    )""",
    re.VERBOSE,
)
_INLINE_REQUIRE = re.compile(r"""\brequire\s*\(\s*['"][^'"]+['"]\s*\)""")


def _regex_imports(text: str) -> list[tuple[int, str]]:
    lines = text.splitlines()
    found: list[tuple[int, str]] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if _REGEX_IMPORTS.match(line):
            statement = line.strip()
            start = index
            # `use a::{b,` or `import (` continues until the statement closes.
            while statement.count("{") + statement.count("(") > statement.count("}") + statement.count(")"):
                index += 1
                if index >= len(lines) or index - start > 50:
                    break
                statement += " " + lines[index].strip()
            found.append((start + 1, re.sub(r"\s+", " ", statement)))
        else:
            match = _INLINE_REQUIRE.search(line)
            if match:
                found.append((index + 1, line.strip()))
        index += 1
    return found
