"""Which shell commands may read a credential store or another process's environment: what runs without a sandbox ask.

The sandboxes hide the credential stores (secretfiles.credential_stores) and /proc's process directories; with no
sandbox only this check stands between a plain `cat ~/.ssh/id_rsa | rev` and the model. It fails closed: a word
that could name a store, a folder that holds one, or a process's /proc entry counts, whatever spelling reaches it
(~, $HOME, ${HOME}, absolute paths, `..` out of the repository, symlinks, globs, variables it cannot know).
"""

from __future__ import annotations

import os
import posixpath
import pwd
import re
from collections.abc import Mapping, Sequence
from fnmatch import fnmatchcase
from pathlib import Path

from pedro.safety.commands import ASSIGNMENT
from pedro.safety.rules import word_set
from pedro.safety.secretfiles import HOME_SECRETS, credential_stores
from pedro.safety.shellparse import ShellSyntaxError, SimpleCommand, Word, parse_shell

_ANY = "\x01"
"""Stands for an expansion pedro cannot know: it may be anything, dots included."""
_RUNS = tuple(tuple(entry.split("/")) for entry in HOME_SECRETS)
_PROC = Path("/proc")
_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
_OTHER_EXPANSION = re.compile(r"\$\{[^}]*\}|\$[0-9@*#?$!-]|\x00")
# Commands that show names, sizes or types, never contents.
_NAME_ONLY = word_set(
    "ls cd pushd popd pwd echo printf stat file du df tree which type realpath readlink basename dirname",
    "test [ [[ true false mkdir",
)
# git settings that carry credentials or lead to them: helpers, http.extraHeader and cookie files, url rewrites
# with tokens, included files.
_SECRET_GIT_KEY = re.compile(
    r"^(credential|http|url|include|includeif)\.|extraheader|token|passw|secret|cookie|auth", re.IGNORECASE
)
_GIT_LISTS = ("-l", "--list", "--get-regexp", "--get-urlmatch", "list", "get-regexp", "--regexp", "--url", "--all")
_GIT_VALUE_OPTS = word_set("-C -c --git-dir --work-tree --namespace -f --file --blob --type --default")


def credential_read(command: str, *, root: Path, env: Mapping[str, str]) -> str | None:
    """Why `command` may read a credential store or a process's environment, or None when it cannot."""
    try:
        script = parse_shell(command)
    except ShellSyntaxError:
        return "pedro cannot parse the command, so it cannot tell which files it reads"
    for sub in script.subs:
        found = credential_read(sub, root=root, env=env)
        if found:
            return found
    checker = _Checker(root.resolve(), env)
    for pipeline in script.pipelines:
        for cmd in pipeline:
            found = checker.simple(cmd)
            if found:
                return found
    return None


def git_reads_credentials(args: Sequence[str]) -> str | None:
    """Why a git argv (without `git`) may print credential settings (http.extraHeader, credential helpers), or None."""
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in _GIT_VALUE_OPTS else 1
    if i >= len(args):
        return None
    sub, rest = args[i], list(args[i + 1 :])
    if sub == "var" and any(a in ("-l", "--list") for a in rest):
        return "git var -l prints every git setting, credential ones included"
    if sub != "config":
        return None
    if any(a in _GIT_LISTS or a.startswith(("--get-regexp", "--get-urlmatch", "--list")) for a in rest):
        return "git config lists settings, which may include credentials (http.extraHeader, credential helpers)"
    for arg in rest:
        key = arg.split("=", 1)[-1] if arg.startswith("--") else arg
        if _SECRET_GIT_KEY.search(key):
            return f"git config reads {key}, a setting that holds or leads to credentials"
    return None


class _Checker:
    """Checks the words of one command line against the credential stores of this machine."""

    def __init__(self, root: Path, env: Mapping[str, str]) -> None:
        self.root = root
        self.env = env
        self.home = env.get("HOME") or os.environ.get("HOME") or ""
        self.stores = [*credential_stores(env, os.environ), _PROC]

    def simple(self, cmd: SimpleCommand) -> str | None:
        words = list(cmd.words)
        assignments = []
        while words and ASSIGNMENT.match(words[0].raw):
            assignments.append(words.pop(0))
        name = posixpath.basename(words[0].text) if words else ""
        if name in ("cd", "pushd", "popd"):
            target = words[1] if len(words) > 1 else None
            if target is None or not self._inside_root(target):
                return f"{name} leaves the repository, so pedro cannot tell what the paths after it name"
        if name == "git":
            found = git_reads_credentials([w.text for w in words[1:]])
            if found:
                return found
        # Commands that only show names may name a store (ls ~/.ssh); anything else naming one may read it.
        shown = [] if name in _NAME_ONLY else [*assignments, *words]
        for word in [*shown, *(target for _, target in cmd.redirects)]:
            found = self._word(word)
            if found:
                return found
        return None

    def _inside_root(self, word: Word) -> bool:
        pattern = self._pattern(word)
        if _ANY in pattern or any(c in pattern for c in "*?["):
            return False
        path = Path(os.path.realpath(self.root / pattern))
        return path == self.root or self.root in path.parents

    def _word(self, word: Word) -> str | None:
        pattern = self._pattern(word)
        pieces = [pattern]
        if "=" in pattern:
            value = pattern.split("=", 1)[1]
            pieces += [value, *value.split(":")]
        for piece in pieces:
            found = self._piece(piece, word.raw)
            if found:
                return found
        return None

    def _pattern(self, word: Word) -> str:
        """The word as a path pattern: ~ and known variables expanded, anything else unknown marked _ANY."""
        text = word.text
        if word.raw.startswith("~"):
            head, sep, tail = text.partition("/")
            home = self.home if head == "~" else _user_home(head[1:])
            if home is not None:
                text = home + sep + tail
        text = _VARIABLE.sub(lambda m: self._variable(m.group(1) or m.group(2)), text)
        return _OTHER_EXPANSION.sub(_ANY, text)

    def _variable(self, name: str) -> str:
        value = self.home if name == "HOME" else self.env.get(name)
        return _ANY if value is None else value

    def _piece(self, pattern: str, raw: str) -> str | None:
        parts = [p for p in pattern.split("/") if p not in ("", ".")]
        # Spelled out: a store's name anywhere in the path (.ssh, .aws/credentials, .config of .config/gh), whether
        # it exists or not.
        named = _named_store(parts)
        if named is not None:
            return f"{raw} names {named}, a credential store, or a folder that holds one"
        # Where it really leads, symlinks followed and `..` resolved: into a store, to a folder that holds one, or
        # to a process's directory in /proc.
        base, rest = self._resolved(pattern)
        for store in self.stores:
            if base == store or store in base.parents:
                entry = (*base.relative_to(store).parts, *rest)[:1]
                if store != _PROC or not entry or _process_entry(entry[0]):
                    return f"{raw} reads {_describe(store)}"
                continue
            if base not in store.parents:
                continue
            below = store.relative_to(base).parts
            if all(_matches(p, name) for p, name in zip(rest, below, strict=False)):
                return f"{raw} reaches {_describe(store)}"
        return None

    def _resolved(self, pattern: str) -> tuple[Path, list[str]]:
        """The pattern's fixed leading folders as the real path they lead to, and its components from the first
        that is a glob or an unknown expansion on."""
        absolute = pattern if pattern.startswith("/") else f"{self.root}/{pattern}"
        components = [p for p in absolute.split("/") if p not in ("", ".")]
        first = next((i for i, p in enumerate(components) if _ANY in p or any(c in p for c in "*?[")), len(components))
        return Path(os.path.realpath("/" + "/".join(components[:first]))), components[first:]


def _named_store(parts: list[str]) -> str | None:
    """The credential store (`.ssh`, `.aws/credentials`, …) the path's components may spell out anywhere in it."""
    for index in range(len(parts)):
        for run in _RUNS:
            window = parts[index : index + len(run)]
            if all(_matches(p, name) for p, name in zip(window, run, strict=False)):
                return "/".join(run)
    return None


def _describe(store: Path) -> str:
    return "the environment of other processes (/proc/<pid>)" if store == _PROC else f"{store}, a credential store"


def _process_entry(name: str) -> bool:
    """Whether a /proc entry (or a pattern for one) may be a process's directory."""
    return name.isdigit() or name in ("self", "thread-self") or _ANY in name or any(c in name for c in "*?[")


def _matches(pattern: str, name: str) -> bool:
    """Whether a path component pattern may match `name`: globs skip a leading dot as the shell does, unknown
    expansions do not, and case is ignored (fail closed)."""
    if name.startswith(".") and pattern[:1] in ("*", "?"):
        return False
    return fnmatchcase(name.lower(), pattern.replace(_ANY, "*").lower())


def _user_home(user: str) -> str | None:
    if user in ("+", "-"):
        return _ANY
    try:
        return pwd.getpwnam(user).pw_dir
    except KeyError:
        return None
