"""Split a shell command line into pipelines of simple commands, words and redirections, without running it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


class ShellSyntaxError(ValueError):
    """The command could not be split with certainty."""


@dataclass
class Word:
    """One shell word as the shell would see it after quote removal."""

    text: str  # quotes removed; substitutions replaced by "\x00"
    raw: str
    expands: bool = False  # $VAR, ${..}, $(..), backticks
    glob: bool = False
    subs: list[str] = field(default_factory=list)


@dataclass
class SimpleCommand:
    """A command's words and redirections, and where it sits in the line."""

    words: list[Word] = field(default_factory=list)
    redirects: list[tuple[str, Word]] = field(default_factory=list)
    start: int = 0
    end: int = 0


@dataclass
class Script:
    """A whole line: its pipelines, and the constructs that make it hard to judge."""

    pipelines: list[list[SimpleCommand]] = field(default_factory=list)
    features: list[str] = field(default_factory=list)  # constructs that make a line complex, in plain words
    subs: list[str] = field(default_factory=list)


_META = set(" \t\n;&|<>()")
_REDIRECT_OPS = ("&>>", "<<<", "<<-", "&>", ">>", ">|", "<>", ">&", "<&", "<<", ">", "<")
_OPERATORS = ("&&", "||", "|&", ";;", "|", ";", "&", "\n")


def _matching(s: str, i: int, opener: str, closer: str) -> int:
    """Index just past the closer that balances an opener already consumed before i."""
    depth = 1
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            end = s.find("'", i + 1)
            if end < 0:
                raise ShellSyntaxError("unterminated single quote")
            i = end + 1
            continue
        if c == '"':
            i = _skip_double(s, i + 1)
            continue
        if c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ShellSyntaxError(f"unbalanced {opener!r}")


def _skip_double(s: str, i: int) -> int:
    while i < len(s):
        if s[i] == "\\":
            i += 2
        elif s[i] == '"':
            return i + 1
        else:
            i += 1
    raise ShellSyntaxError("unterminated double quote")


def _read_dollar(s: str, i: int, word: Word, script: Script) -> int:
    """Handle a `$` at s[i]; return the index after the expansion."""
    word.expands = True
    if s.startswith("$((", i):
        return _read_arithmetic(s, i, word, script)
    reader = _DOLLAR_READERS.get(s[i + 1 : i + 2], _read_variable)
    return reader(s, i, word, script)


def _read_arithmetic(s: str, i: int, word: Word, script: Script) -> int:
    end = _matching(s, i + 3, "(", ")")
    script.features.append("arithmetic expansion")
    word.text += "\x00"
    word.raw += s[i : end + 1]
    return end + 1 if end < len(s) and s[end] == ")" else end


def _read_command_substitution(s: str, i: int, word: Word, script: Script) -> int:
    end = _matching(s, i + 2, "(", ")")
    inner = s[i + 2 : end - 1]
    script.features.append("command substitution $(…)")
    script.subs.append(inner)
    word.subs.append(inner)
    word.text += "\x00"
    word.raw += s[i:end]
    return end


def _read_braced(s: str, i: int, word: Word, script: Script) -> int:
    end = _matching(s, i + 2, "{", "}")
    inner = s[i + 2 : end - 1]
    if "$(" in inner or "`" in inner:
        script.features.append("substitution inside ${…}")
    word.text += "$" + s[i + 1 : end]
    word.raw += s[i:end]
    return end


def _read_ansi_c(s: str, i: int, word: Word, script: Script) -> int:
    script.features.append("ANSI-C quoting $'…'")
    end = i + 2
    while end < len(s) and s[end] != "'":
        end += 2 if s[end] == "\\" else 1
    if end >= len(s):
        raise ShellSyntaxError("unterminated $'")
    word.text += s[i + 2 : end]
    word.raw += s[i : end + 1]
    return end + 1


_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]")


def _read_variable(s: str, i: int, word: Word, script: Script) -> int:
    m = _VARIABLE.match(s, i + 1)
    if m is None:
        word.expands = False
        word.text += "$"
        word.raw += "$"
        return i + 1
    word.text += "$" + m.group()
    word.raw += "$" + m.group()
    return m.end()


_DOLLAR_READERS = {"(": _read_command_substitution, "{": _read_braced, "'": _read_ansi_c}


def _read_backtick(s: str, i: int, word: Word, script: Script) -> int:
    end = i + 1
    while end < len(s) and s[end] != "`":
        end += 2 if s[end] == "\\" else 1
    if end >= len(s):
        raise ShellSyntaxError("unterminated backtick")
    inner = s[i + 1 : end].replace("\\`", "`")
    script.features.append("backtick command substitution")
    script.subs.append(inner)
    word.subs.append(inner)
    word.expands = True
    word.text += "\x00"
    word.raw += s[i : end + 1]
    return end + 1


def _read_word(s: str, i: int, script: Script) -> tuple[Word, int]:
    word = Word(text="", raw="")
    while i < len(s) and s[i] not in _META:
        reader = _WORD_READERS.get(s[i], _read_plain)
        i = reader(s, i, word, script)
    return word, i


def _read_escape(s: str, i: int, word: Word, script: Script) -> int:
    if i + 1 < len(s) and s[i + 1] == "\n":
        script.features.append("line continuation")
        return i + 2
    word.text += s[i + 1 : i + 2]
    word.raw += s[i : i + 2]
    return i + 2


def _read_single(s: str, i: int, word: Word, script: Script) -> int:
    end = s.find("'", i + 1)
    if end < 0:
        raise ShellSyntaxError("unterminated single quote")
    word.text += s[i + 1 : end]
    word.raw += s[i : end + 1]
    return end + 1


def _read_plain(s: str, i: int, word: Word, script: Script) -> int:
    word.glob = word.glob or s[i] in "*?["
    word.text += s[i]
    word.raw += s[i]
    return i + 1


def _read_double(s: str, i: int, word: Word, script: Script) -> int:
    start = i
    i += 1
    while i < len(s) and s[i] != '"':
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            if s[i + 1] == "\n":
                script.features.append("line continuation")
            word.text += s[i + 1] if s[i + 1] in '$`"\\' else s[i : i + 2]
            i += 2
        elif c == "$":
            raw_before = word.raw
            i = _read_dollar(s, i, word, script)
            word.raw = raw_before
        elif c == "`":
            raw_before = word.raw
            i = _read_backtick(s, i, word, script)
            word.raw = raw_before
        else:
            word.text += c
            i += 1
    if i >= len(s):
        raise ShellSyntaxError("unterminated double quote")
    word.raw += s[start : i + 1]
    return i + 1


_WORD_READERS = {"\\": _read_escape, "'": _read_single, '"': _read_double, "$": _read_dollar, "`": _read_backtick}


def parse_shell(s: str) -> Script:
    """Split a command line into pipelines of simple commands, recording every complex construct."""
    return _Splitter(s).run()


_FD = re.compile(r"[0-9]*")
_REDIRECT_FEATURES = {"<<": ("here-document",), "<<-": ("here-document",), "<<<": ("here-string",)}


class _Splitter:
    """One pass over a line: each step reads a blank, comment, substitution, redirection, operator, group or word."""

    def __init__(self, s: str) -> None:
        self.s = s
        self.script = Script()
        self.pipeline: list[SimpleCommand] = []
        self.cmd = SimpleCommand()
        self.depth = 0
        self.after_group = False

    def run(self) -> Script:
        steps = (self._comment, self._process_substitution, self._redirect, self._operator, self._open, self._close)
        i = 0
        while i < len(self.s):
            if self.s[i] in " \t":
                i += 1
                continue
            if not self.cmd.words and not self.cmd.redirects:
                self.cmd.start = i
            moved = next((j for step in steps if (j := step(i)) is not None), None)
            i = self._word(i) if moved is None else moved
        if self.depth != 0:
            raise ShellSyntaxError("unbalanced '('")
        self._finish(len(self.s))
        self._end_pipeline()
        return self.script

    def _finish(self, end: int) -> None:
        if self.cmd.words or self.cmd.redirects:
            self.cmd.end = end
            self.pipeline.append(self.cmd)
        self.cmd = SimpleCommand(start=end)

    def _end_pipeline(self) -> None:
        if self.pipeline:
            self.script.pipelines.append(self.pipeline)
        self.pipeline = []

    def _comment(self, i: int) -> int | None:
        if self.s[i] != "#" or not (i == 0 or self.s[i - 1] in " \t\n;&|()"):
            return None
        newline = self.s.find("\n", i)
        return len(self.s) if newline < 0 else newline

    def _process_substitution(self, i: int) -> int | None:
        if not self.s.startswith(("<(", ">("), i):
            return None
        end = _matching(self.s, i + 2, "(", ")")
        inner = self.s[i + 2 : end - 1]
        self.script.features.append("process substitution <(…)")
        self.script.subs.append(inner)
        self.cmd.words.append(Word(text="\x00", raw=self.s[i:end], expands=True, subs=[inner]))
        return end

    def _redirect(self, start: int) -> int | None:
        fd = _FD.match(self.s, start)
        j = fd.end() if fd else start
        op = next((o for o in _REDIRECT_OPS if self.s.startswith(o, j)), None)
        if op is None or not (j == start or op[0] in "<>"):
            return None
        i = j + len(op)
        while i < len(self.s) and self.s[i] in " \t":
            i += 1
        self.script.features.extend(_REDIRECT_FEATURES.get(op, ()))
        target, i = _read_word(self.s, i, self.script)
        if not target.raw:
            raise ShellSyntaxError(f"redirection {op!r} without a target")
        self.cmd.redirects.append((self.s[start:j] + op, target))
        return i

    def _operator(self, i: int) -> int | None:
        op = next((o for o in _OPERATORS if self.s.startswith(o, i)), None)
        if op is None:
            return None
        if op in ("|", "|&", "&&", "||") and not (self.cmd.words or self.cmd.redirects or self.after_group):
            raise ShellSyntaxError(f"{op!r} without a command before it")
        self.after_group = False
        self._finish(i)
        if op == ";;":
            raise ShellSyntaxError("case statement")
        if op not in ("|", "|&"):
            self._end_pipeline()
        return i + len(op)

    def _open(self, i: int) -> int | None:
        if self.s[i] != "(":
            return None
        if self.cmd.words:
            return self._function_definition(i)
        self._finish(i)
        self._end_pipeline()
        self.depth += 1
        return i + 1

    def _function_definition(self, i: int) -> int:
        close = self.s.find(")", i)
        if close < 0 or self.s[i + 1 : close].strip():
            raise ShellSyntaxError("unexpected '('")
        self.script.features.append("function definition")
        self.cmd.words.append(Word(text="()", raw="()"))
        self._finish(close + 1)
        self._end_pipeline()
        return close + 1

    def _close(self, i: int) -> int | None:
        if self.s[i] != ")":
            return None
        self._finish(i)
        self._end_pipeline()
        self.depth -= 1
        self.after_group = True
        if self.depth < 0:
            raise ShellSyntaxError("unbalanced ')'")
        return i + 1

    def _word(self, i: int) -> int:
        word, i = _read_word(self.s, i, self.script)
        self.cmd.words.append(word)
        return i
