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
    nxt = s[i + 1] if i + 1 < len(s) else ""
    word.expands = True
    if s.startswith("$((", i):
        end = _matching(s, i + 3, "(", ")")
        script.features.append("arithmetic expansion")
        word.text += "\x00"
        word.raw += s[i : end + 1]
        return end + 1 if end < len(s) and s[end] == ")" else end
    if nxt == "(":
        end = _matching(s, i + 2, "(", ")")
        inner = s[i + 2 : end - 1]
        script.features.append("command substitution $(…)")
        script.subs.append(inner)
        word.subs.append(inner)
        word.text += "\x00"
        word.raw += s[i:end]
        return end
    if nxt == "{":
        end = _matching(s, i + 2, "{", "}")
        inner = s[i + 2 : end - 1]
        if "$(" in inner or "`" in inner:
            script.features.append("substitution inside ${…}")
        word.text += "$" + s[i + 1 : end]
        word.raw += s[i:end]
        return end
    if nxt == "'":
        script.features.append("ANSI-C quoting $'…'")
        end = i + 2
        while end < len(s) and s[end] != "'":
            end += 2 if s[end] == "\\" else 1
        if end >= len(s):
            raise ShellSyntaxError("unterminated $'")
        word.text += s[i + 2 : end]
        word.raw += s[i : end + 1]
        return end + 1
    m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]").match(s, i + 1)
    if m is None:
        word.expands = False
        word.text += "$"
        word.raw += "$"
        return i + 1
    word.text += "$" + m.group()
    word.raw += "$" + m.group()
    return m.end()


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
        c = s[i]
        if c == "\\":
            if i + 1 < len(s) and s[i + 1] == "\n":
                script.features.append("line continuation")
                i += 2
                continue
            word.text += s[i + 1 : i + 2]
            word.raw += s[i : i + 2]
            i += 2
        elif c == "'":
            end = s.find("'", i + 1)
            if end < 0:
                raise ShellSyntaxError("unterminated single quote")
            word.text += s[i + 1 : end]
            word.raw += s[i : end + 1]
            i = end + 1
        elif c == '"':
            i = _read_double(s, i, word, script)
        elif c == "$":
            i = _read_dollar(s, i, word, script)
        elif c == "`":
            i = _read_backtick(s, i, word, script)
        else:
            word.glob = word.glob or c in "*?["
            word.text += c
            word.raw += c
            i += 1
    return word, i


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


def parse_shell(s: str) -> Script:
    """Split a command line into pipelines of simple commands, recording every complex construct."""
    script = Script()
    pipeline: list[SimpleCommand] = []
    cmd = SimpleCommand()
    depth = 0
    i = 0
    after_group = False

    def finish(end: int) -> None:
        nonlocal cmd
        if cmd.words or cmd.redirects:
            cmd.end = end
            pipeline.append(cmd)
        cmd = SimpleCommand(start=end)

    def end_pipeline() -> None:
        nonlocal pipeline
        if pipeline:
            script.pipelines.append(pipeline)
        pipeline = []

    while i < len(s):
        c = s[i]
        if c in " \t":
            i += 1
            continue
        if not cmd.words and not cmd.redirects:
            cmd.start = i
        if c == "#" and (i == 0 or s[i - 1] in " \t\n;&|()"):
            newline = s.find("\n", i)
            i = len(s) if newline < 0 else newline
            continue
        if s.startswith(("<(", ">("), i):
            end = _matching(s, i + 2, "(", ")")
            script.features.append("process substitution <(…)")
            script.subs.append(s[i + 2 : end - 1])
            cmd.words.append(Word(text="\x00", raw=s[i:end], expands=True, subs=[s[i + 2 : end - 1]]))
            i = end
            continue
        fd = re.compile(r"[0-9]*").match(s, i)
        j = fd.end() if fd else i
        op = next((o for o in _REDIRECT_OPS if s.startswith(o, j)), None)
        if op is not None and (j == i or op[0] in "<>"):
            fd_text = s[i:j]
            i = j + len(op)
            while i < len(s) and s[i] in " \t":
                i += 1
            if op in ("<<", "<<-"):
                script.features.append("here-document")
            if op == "<<<":
                script.features.append("here-string")
            target, i = _read_word(s, i, script)
            if not target.raw:
                raise ShellSyntaxError(f"redirection {op!r} without a target")
            cmd.redirects.append((fd_text + op, target))
            continue
        op = next((o for o in _OPERATORS if s.startswith(o, i)), None)
        if op is not None:
            if op in ("|", "|&", "&&", "||") and not (cmd.words or cmd.redirects or after_group):
                raise ShellSyntaxError(f"{op!r} without a command before it")
            after_group = False
            finish(i)
            if op == ";;":
                raise ShellSyntaxError("case statement")
            if op not in ("|", "|&"):
                end_pipeline()
            i += len(op)
            continue
        if c == "(":
            if cmd.words:
                close = s.find(")", i)
                if close < 0 or s[i + 1 : close].strip():
                    raise ShellSyntaxError("unexpected '('")
                script.features.append("function definition")
                cmd.words.append(Word(text="()", raw="()"))
                finish(close + 1)
                end_pipeline()
                i = close + 1
                continue
            finish(i)
            end_pipeline()
            depth += 1
            i += 1
            continue
        if c == ")":
            finish(i)
            end_pipeline()
            depth -= 1
            after_group = True
            if depth < 0:
                raise ShellSyntaxError("unbalanced ')'")
            i += 1
            continue
        word, i = _read_word(s, i, script)
        cmd.words.append(word)
    if depth != 0:
        raise ShellSyntaxError("unbalanced '('")
    finish(len(s))
    end_pipeline()
    return script
