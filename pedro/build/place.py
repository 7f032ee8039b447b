"""Where a build's change goes: the file and the function the request names, else the file that matches it best."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pedro.repair.frames import is_test_file
from pedro.safety.secretfiles import is_secret_path
from pedro.tools.symbols import LanguageName, Symbol, detect_language, extract_symbols

_FILE_NAME = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.(?:py|js|mjs|cjs|jsx|ts|tsx|go))\b")
# `median(values)`, `peek()`, `IsPalindrome(s string)`: a name the request writes as a call.
_CALLED = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\(")
_WORD = re.compile(r"[A-Za-z]+")
FUNCTION_KINDS = frozenset({"function", "method"})
"""The symbol kinds that are functions to write or change."""
_OWNER_KINDS = frozenset({"class", "struct", "type", "interface"})
# Words of a request that say what to do, not what the code is about.
_STOP_WORDS = frozenset({
    "a", "an", "and", "add", "adds", "the", "to", "in", "of", "it", "its", "that", "this", "with", "when", "which",
    "returns", "return", "function", "method", "file", "value", "values", "new", "make", "write", "should", "must",
    "is", "are", "be", "by", "for", "from", "or", "not", "each", "one", "as",
})  # fmt: skip
MAX_LISTED = 5000
"""Source files scored when the request names none: enough for a project, bounded for a monorepo."""
_MAX_BYTES = 512 * 1024


@dataclass(frozen=True)
class Place:
    """Where the change goes: the file, the function to write there, the class or type it belongs to, whether it
    replaces a function that is there, and why this file was chosen (said to the person)."""

    path: str
    language: LanguageName
    name: str
    owner: str = ""
    exists: bool = False
    why: str = ""

    @property
    def label(self) -> str:
        """`median()`, `Stack.peek()`."""
        return f"{self.owner}.{self.name}()" if self.owner else f"{self.name}()"


def find_place(description: str, root: Path, listed: Sequence[str]) -> Place | None:
    """The place for the change `description` asks for, among the repository's `listed` files (relative paths);
    None when the request names no function to write."""
    names = list(dict.fromkeys(_CALLED.findall(description)))
    named_files = _named_files(description, listed)
    listed = [path for path in listed if not is_secret_path(path)]  # never read, never written
    sources = [path for path in listed if detect_language(path) and not is_test_file(path)]
    if named_files:
        path, why = named_files[0], f"the request names {named_files[0]}"
    elif any(not is_test_file(written) for written in _FILE_NAME.findall(description)):
        return None  # it names a file that is not there yet: creating files is the loop's
    else:
        best = _best_match(description, names, root, sources[:MAX_LISTED])
        if best is None:
            return None
        path, why = best
    language = detect_language(path)
    if language is None:
        return None
    symbols = _symbols(root / path)
    return _target(names, symbols, path, language, why, description)


def _named_files(description: str, listed: Sequence[str]) -> list[str]:
    """The listed files the request names, by path or by file name, in the order it names them."""
    found: list[str] = []
    for written in _FILE_NAME.findall(description):
        written = written.lstrip("./")
        exact = [path for path in listed if path == written]
        by_name = [path for path in listed if PurePosixPath(path).name == PurePosixPath(written).name]
        for path in exact or sorted(by_name, key=len):
            if not is_test_file(path):  # the change goes into the code; a test the request names checks it
                found.append(path)
                break
    return list(dict.fromkeys(found))


def _best_match(description: str, names: Sequence[str], root: Path, sources: Sequence[str]) -> tuple[str, str] | None:
    """The source file that defines a function or class the request names, else the one whose names and words
    share the most with the request's; and why."""
    words = {w.lower() for w in _WORD.findall(description) if w.lower() not in _STOP_WORDS and len(w) > 2}
    best: tuple[int, str, str] | None = None
    for path in sources:
        scored = _match_score(path, _symbols(root / path), names, words)
        if scored is None:
            continue
        score, why = scored
        if best is None or score > best[0]:
            best = (score, path, why)
    return (best[1], best[2]) if best is not None else None


def _match_score(path: str, symbols: list[Symbol], names: Sequence[str], words: set[str]) -> tuple[int, str] | None:
    """How well a file matches the request, and why: defining a name it calls beats any count of shared words;
    None when it shares nothing with it."""
    defined = {symbol.name for symbol in symbols}
    hits = [name for name in names if name in defined]
    if hits:
        return 1000 + len(hits), f"it defines {', '.join(hits)}, which the request names"
    vocabulary = {w.lower() for symbol in symbols for w in _split_name(symbol.name)}
    vocabulary |= {w.lower() for w in _split_name(PurePosixPath(path).stem)}
    shared = sorted(words & vocabulary)
    if not shared:
        return None
    return len(shared), f"its names share the most words with the request ({', '.join(shared[:4])})"


def _split_name(name: str) -> list[str]:
    """`count_words` → count, words; `IsPalindrome` → Is, Palindrome."""
    return re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)


def _symbols(path: Path) -> list[Symbol]:
    try:
        if path.stat().st_size > _MAX_BYTES:
            return []
        return extract_symbols(path.read_bytes(), path)
    except OSError:
        return []


def _target(
    names: Sequence[str], symbols: Sequence[Symbol], path: str, language: LanguageName, why: str, description: str
) -> Place | None:
    """The function to write: the first called name the file does not define yet (a class or type the request
    names and the file defines is its owner), else the first it defines (a change to that function)."""
    functions = {symbol.name: symbol for symbol in symbols if symbol.kind in FUNCTION_KINDS}
    owners = _named_owners(symbols, description)
    owner = owners[0] if owners else ""
    for name in names:
        if name in functions or name in owners or _is_keyword(name, language):
            continue
        if not owner and _says_method(description, name):
            continue  # a method of a class the file does not define: nowhere to put it
        return Place(path, language, name, owner, exists=False, why=why)
    for name in names:
        if name in functions:
            symbol = functions[name]
            return Place(path, language, name, symbol.parent or "", exists=True, why=why)
    return None


def _named_owners(symbols: Sequence[Symbol], description: str) -> list[str]:
    """The classes and types of the file that the request names."""
    return [s.name for s in symbols if s.kind in _OWNER_KINDS and re.search(rf"\b{re.escape(s.name)}\b", description)]


def _says_method(description: str, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\s*\([^)]*\)\s*method\b", description) is not None


_KEYWORDS = frozenset({"if", "for", "while", "return", "print", "len", "str", "int", "list", "dict", "set", "e.g"})


def _is_keyword(name: str, language: LanguageName) -> bool:
    """A builtin the request calls in an example, not a function to write."""
    return name in _KEYWORDS or (language == "go" and name in {"make", "append", "len"})
