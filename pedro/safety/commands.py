"""Classify a shell command the model proposes: read-only, normal, network, complex, destructive or forbidden."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import cache
from os import PathLike
from typing import Literal, cast

from pedro.safety.gitcommands import GitOp, classify_git_args
from pedro.safety.rules import Rule, Words, load, word_set
from pedro.safety.shellparse import ShellSyntaxError, SimpleCommand, Word, parse_shell

CommandClass = Literal["safe_read", "normal", "network", "complex", "destructive", "forbidden"]

# Later classes win when one command line holds several sub-commands.
_RANK: dict[CommandClass, int] = {
    "safe_read": 0,
    "normal": 1,
    "network": 2,
    "complex": 3,
    "destructive": 4,
    "forbidden": 5,
}
MAX_COMMAND_CHARS = 100_000
_MAX_DEPTH = 6


@dataclass(frozen=True)
class CommandVerdict:
    """How dangerous a command is, why in plain words, and the sub-command that decided it."""

    kind: CommandClass
    reason: str
    offending: str = ""


@dataclass(frozen=True)
class _Tables:
    """shellrules.toml, read once: the rules in order, the word sets and patterns the handlers ask."""

    rules: tuple[Rule, ...]
    sets: Mapping[str, frozenset[str]]
    wrapper_options: Mapping[str, frozenset[str]]
    packages: Mapping[str, frozenset[str]]
    patterns: Mapping[str, re.Pattern[str]]


@cache
def _tables() -> _Tables:
    data = load("shellrules.toml")
    return _Tables(
        rules=data.lists["command"],
        sets=data.sets,
        wrapper_options={k: word_set(v) for k, v in data.tables["wrapper_options"].items()},
        packages={k: word_set(v) for k, v in data.tables["packages"].items()},
        patterns={k: re.compile(v) for k, v in data.tables["patterns"].items()},
    )


def _in(set_name: str, word: str) -> bool:
    return word in _tables().sets[set_name]


def _pattern(name: str) -> re.Pattern[str]:
    return _tables().patterns[name]


def _strongest(verdicts: Sequence[CommandVerdict]) -> CommandVerdict:
    best = CommandVerdict("safe_read", "only reads files")
    for verdict in verdicts:
        if _RANK[verdict.kind] > _RANK[best.kind]:
            best = verdict
    return best


@dataclass
class _State:
    root: str | None
    depth: int
    cwd_outside: bool = False
    trace: list[str] = field(default_factory=list)  # ids of the rules that decided, in order

    def inner(self) -> _State:
        """The state for a command line run inside this one (eval, sh -c)."""
        return _State(self.root, self.depth + 1, self.cwd_outside, self.trace)


def classify_command(command: str, *, root: str | PathLike[str] | None = None) -> CommandVerdict:
    """Classify a shell command line; anything that cannot be split with certainty is `complex`.

    `root` (the repository root) lets absolute paths inside the repository count as inside; without it
    every absolute path except scratch ones (/tmp, /dev/null) counts as outside.
    """
    state = _State(root=posixpath.normpath(str(root)) if root is not None else None, depth=0)
    return _classify(command, state)


def command_rule_trace(command: str) -> list[str]:
    """The ids of the shellrules.toml rules that decided the commands of a line: what rule examples are checked with."""
    state = _State(root=None, depth=0)
    _classify(command, state)
    return state.trace


def _classify(command: str, state: _State) -> CommandVerdict:
    text = command.strip()
    verdict = _check_whole_line(command, state)
    if verdict is not None:
        return verdict
    try:
        script = parse_shell(command)
    except ShellSyntaxError as exc:
        return CommandVerdict("complex", f"the command cannot be parsed with certainty ({exc})", text[:200])
    inner_state = _State(root=state.root, depth=state.depth + 1, trace=state.trace)
    verdicts = [_classify(sub, inner_state) for sub in script.subs]
    for feature in dict.fromkeys(script.features):
        verdicts.append(CommandVerdict("complex", f"uses {feature}, so what runs is only known at run time", text))
    for pipeline in script.pipelines:
        verdicts.extend(_classify_simple(command, cmd, state) for cmd in pipeline)
        verdicts.append(_check_pipe_to_shell(command, pipeline))
    return _strongest(verdicts)


def _check_whole_line(command: str, state: _State) -> CommandVerdict | None:
    """What is decided before the line is split: empty, too long or deep, NUL, a fork bomb."""
    text = command.strip()
    if not text:
        return CommandVerdict("normal", "empty command")
    if len(command) > MAX_COMMAND_CHARS or state.depth > _MAX_DEPTH:
        return CommandVerdict("complex", "the command is too long or too deeply nested to check", text[:200])
    if "\x00" in command:
        return CommandVerdict("complex", "the command contains a NUL character", "")
    if _pattern("fork_bomb").search(command):
        return CommandVerdict("forbidden", "is a fork bomb: a function that keeps starting copies of itself", text)
    return None


def _check_pipe_to_shell(source: str, pipeline: list[SimpleCommand]) -> CommandVerdict:
    """A download piped into a shell or interpreter runs code nobody has read."""
    downloaded = False
    for cmd in pipeline:
        argv = _unwrap([w.text for w in cmd.words])
        name = posixpath.basename(argv[0]) if argv else ""
        if downloaded and _runs_stdin(name, argv[1:]):
            return CommandVerdict("forbidden", "pipes a download into a shell or interpreter", source.strip())
        downloaded = downloaded or _in("downloaders", name) or (_in("network", name) and name not in ("ping", "dig"))
    return CommandVerdict("safe_read", "")


def _runs_stdin(name: str, args: list[str]) -> bool:
    if _in("shells", name):
        return not any(a.startswith("-") and "c" in a and not a.startswith("--") for a in args)
    if _in("interpreters", name) or _pattern("python").fullmatch(name):
        return not any(a in ("-c", "-m", "-e", "-E") for a in args) and not any(not a.startswith("-") for a in args)
    return False


def _unwrap(argv: list[str]) -> list[str]:
    """Drop assignments and transparent wrappers to find the command that really runs (for pipe checks)."""
    while argv:
        head = posixpath.basename(argv[0])
        if not (ASSIGNMENT.match(argv[0]) or head in ("env", "sudo", "doas", "nohup", "time")):
            return argv
        argv = argv[1:]
        while argv and argv[0].startswith("-"):
            argv = argv[1:]
    return argv


def _verdict(kind: CommandClass, reason: str, offending: str) -> CommandVerdict:
    return CommandVerdict(kind, reason, offending)


ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\+?=")
"""A shell word that sets a variable for the command after it (`NAME=value`, `NAME+=value`)."""
_KEYWORDS = ("{", "!", "if", "then", "elif", "else", "do", "while", "until", "time")
_CLOSERS = ("}", "fi", "done", "esac", "for", "in")
_UNCHECKED = ("case", "select", "function", "coproc", "trap", "alias")


def _classify_simple(source: str, cmd: SimpleCommand, state: _State) -> CommandVerdict:
    offending = source[cmd.start : cmd.end].strip()
    verdicts = [_check_redirect(op, target, state, offending) for op, target in cmd.redirects]
    words = list(cmd.words)
    while words and ASSIGNMENT.match(words[0].raw):
        verdicts.append(_check_assignment(words.pop(0), offending))
    while words and words[0].raw in _KEYWORDS:
        words = words[1:]
    verdicts.append(_classify_words(words, cmd, state, offending))
    return _strongest(verdicts)


def _check_assignment(word: Word, offending: str) -> CommandVerdict:
    name = word.raw.split("=", 1)[0].rstrip("+")
    if _pattern("dangerous_assignment").match(name):
        return _verdict("complex", f"sets {name}, which changes how commands are found or run", offending)
    return _verdict("safe_read", "", offending)


def _classify_words(words: list[Word], cmd: SimpleCommand, state: _State, offending: str) -> CommandVerdict:
    """The command itself, once assignments and leading keywords are gone."""
    if not words:
        return _verdict("normal" if cmd.redirects or cmd.words else "safe_read", "", offending)
    head = words[0].raw
    if head in _CLOSERS:
        return _verdict("normal" if head == "for" else "safe_read", "", offending)
    if head in _UNCHECKED or words[-1].text == "()":
        return _verdict("complex", f"uses the shell construct {head!r}, which pedro does not check", offending)
    main = _classify_argv(words, state, offending)
    if main.kind == "safe_read" and not _plain(words, cmd):
        return _verdict("normal", "reads files, but uses variables or redirection", offending)
    return main


def _plain(words: list[Word], cmd: SimpleCommand) -> bool:
    """No variables and no redirection but to /dev/null or between descriptors: a read stays a read."""
    return not any(w.expands for w in words) and all(_harmless_redirect(op, t) for op, t in cmd.redirects)


def _harmless_redirect(op: str, target: Word) -> bool:
    if op.endswith("&") and re.fullmatch(r"[0-9]+|-", target.text):
        return True
    return op.lstrip("0123456789") in (">", "&>", ">>") and target.text == "/dev/null"


def _check_redirect(op: str, target: Word, state: _State, offending: str) -> CommandVerdict:
    path = target.text
    bare = op.lstrip("0123456789")
    if bare in ("<<", "<<-", "<<<"):
        return _verdict("safe_read", "", offending)
    if path.startswith(("/dev/tcp/", "/dev/udp/")):
        return _verdict("network", "opens a network connection through /dev/tcp", offending)
    if bare in ("<", "<&"):
        return _verdict("normal", "", offending)
    if bare.endswith("&") and re.fullmatch(r"[0-9]+|-", path):
        return _verdict("safe_read", "", offending)
    return _check_written_path(target, state, offending)


def _check_written_path(target: Word, state: _State, offending: str) -> CommandVerdict:
    path = target.text
    if _pattern("device").match(path):
        return _verdict("forbidden", f"writes straight to the disk device {path}", offending)
    if _pattern("scratch").match(path):
        return _verdict("safe_read" if path == "/dev/null" else "normal", "", offending)
    outside = _outside(target, state)
    if outside is None:
        return _verdict("complex", f"writes to a path held in a variable ({target.raw})", offending)
    if outside:
        return _verdict("destructive", f"writes to {target.raw}, outside the repository", offending)
    if _touches_git_dir(path):
        return _verdict("destructive", f"writes inside .git ({target.raw})", offending)
    return _verdict("normal", "writes a file in the repository", offending)


def _outside(word: Word, state: _State) -> bool | None:
    """Whether a path operand leaves the repository; None when a variable hides it."""
    path = word.text
    if path.startswith("~") or path.startswith(("$HOME", "${HOME}")):
        return True
    if path.startswith(("$", "\x00")):
        return None
    if path.startswith("/"):
        return _absolute_outside(path, state)
    if state.cwd_outside:
        return True
    norm = posixpath.normpath(path)
    return norm == ".." or norm.startswith("../")


def _absolute_outside(path: str, state: _State) -> bool:
    if _pattern("scratch").match(path):
        return False
    norm = posixpath.normpath(path)
    return not (state.root is not None and (norm == state.root or norm.startswith(state.root.rstrip("/") + "/")))


def _touches_git_dir(path: str) -> bool:
    parts = posixpath.normpath(path).split("/")
    return any(p == ".git" or (p.startswith(".") and "*" in p and fnmatchcase(".git", p)) for p in parts)


def _in_build_dir(word: Word, state: _State) -> bool:
    if word.expands or _outside(word, state) is not False:
        return False
    path = word.text
    if path.startswith("/") and state.root is not None:
        path = posixpath.relpath(posixpath.normpath(path), state.root)
    parts = posixpath.normpath(path).split("/")
    return ".." not in parts and any(_is_build_part(p) for p in parts)


def _is_build_part(part: str) -> bool:
    return _in("build_dirs", part) or any(fnmatchcase(part, g) for g in _tables().sets["build_globs"])


def _split_options(args: list[Word], value_opts: frozenset[str] = frozenset()) -> tuple[list[str], list[Word]]:
    """Options and operands of a conventional command line (`--` ends options)."""
    options: list[str] = []
    operands: list[Word] = []
    i = 0
    while i < len(args):
        text = args[i].text
        if text == "--":
            operands.extend(args[i + 1 :])
            break
        if text.startswith("-") and text != "-":
            options.append(text)
            if text in value_opts and i + 1 < len(args):
                options.append(args[i + 1].text)
                i += 1
        else:
            operands.append(args[i])
        i += 1
    return options, operands


def _split_leading_options(args: list[Word], value_opts: frozenset[str]) -> tuple[list[str], list[Word]]:
    """Options before the first operand; the rest (a wrapped command) is returned untouched."""
    i = 0
    options: list[str] = []
    while i < len(args) and args[i].text.startswith("-") and args[i].text != "-":
        options.append(args[i].text)
        if args[i].text == "--":
            return options, args[i + 1 :]
        i += 2 if args[i].text in value_opts else 1
    return options, args[i:]


# ---------------------------------------------------------------------------------------------------------------
# One command and its arguments, through the rules of shellrules.toml.

_Handler = Callable[[str, list[Word], _State, str], "CommandVerdict | None"]


def _classify_argv(words: list[Word], state: _State, offending: str) -> CommandVerdict:
    """Classify one command and its arguments: the first rule that covers it and holds decides."""
    if words[0].expands:
        return _verdict("complex", "the command name comes from a variable or substitution", offending)
    name = posixpath.basename(words[0].text)
    args = words[1:]
    view = Words(tuple(w.text for w in args))
    for rule in _tables().rules:
        if rule.covers(name) and rule.holds(view):
            mark = len(state.trace)
            verdict = _apply(rule, name, args, state, offending)
            if verdict is not None:
                state.trace.insert(mark, rule.id)  # before the rules of a command it wraps
                return verdict
    return _verdict("normal", f"runs {name}", offending)


def _apply(rule: Rule, name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict | None:
    """A rule's verdict: its class and reason, or what its handler makes of the arguments (None: not this rule)."""
    if "handler" in rule.extra:
        return _HANDLERS[rule.decision](name, args, state, offending)
    return _verdict(cast(CommandClass, rule.decision), rule.says(name=name), offending)


def _wrapper(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
    options, rest = _split_leading_options(args, _tables().wrapper_options.get(name, frozenset()))
    if name == "timeout" and rest:
        rest = rest[1:]  # the duration
    if name == "command" and any(o in ("-v", "-V") for o in options):
        return _verdict("safe_read", "", offending)
    if not rest:
        return _verdict("normal", f"runs {name}", offending)
    return _classify_argv(rest, state, offending)


def _env(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
    i = 0
    while i < len(args) and (args[i].text.startswith("-") or re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", args[i].text)):
        if args[i].text.startswith(("-S", "--split-string")):
            return _verdict("complex", "env -S builds a command from a string", offending)
        i += 2 if args[i].text in ("-u", "--unset", "-C", "--chdir") else 1
    changed = i > 0
    if i >= len(args):
        return _verdict("normal" if changed else "safe_read", "prints the environment", offending)
    inner = _classify_argv(args[i:], state, offending)
    if not changed:
        return inner
    return _strongest([_verdict("complex", "env … runs a command with a changed environment", offending), inner])


def _xargs(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
    _, rest = _split_leading_options(args, _tables().sets["xargs_value_options"])
    inner = _classify_argv(rest, state, offending) if rest else _verdict("safe_read", "", offending)
    floor = _verdict("complex", "xargs runs a command on arguments read from its input", offending)
    return _strongest([floor, inner])


def _packages(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict | None:
    """Package managers download: the subcommands shellrules.toml lists under [packages], `python -m pip` too."""
    texts = [w.text for w in args]
    manager, rest = (
        ("pip", texts[2:]) if _pattern("python").fullmatch(name) and texts[:2] == ["-m", "pip"] else (name, texts)
    )
    subcommands = _tables().packages.get(manager)
    first = next((a for a in rest if not a.startswith("-")), "")
    if subcommands is None or not ("*" in subcommands or (first or "-") in subcommands):
        return None
    return _verdict("network", f"{name} downloads packages from the network", offending)


def _interpreter(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
    if any(_pattern("download_word").search(sub) for w in args for sub in w.subs):
        return _verdict("forbidden", f"{name} runs code fetched from the network", offending)
    if name == "eval":
        inner = _classify(" ".join(w.text for w in args), state.inner())
        return _strongest([_verdict("complex", "eval runs text assembled at run time", offending), inner])
    if name in ("source", "."):
        return _verdict("complex", f"{name} runs a script inside the current shell", offending)
    if not _in("shells", name):
        return _verdict("normal", f"runs {name}", offending)
    return _shell(name, args, state, offending)


def _shell(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
    """sh/bash: a script runs as `normal`; `-c STRING` is complex, and as strong as the string it runs."""
    for i, word in enumerate(args):
        text = word.text
        if text.startswith("--"):
            continue
        if not text.startswith(("-", "+")):
            break
        if "c" in text[1:]:
            script = next((w for w in args[i + 1 :] if not w.text.startswith("-")), None)
            floor = _verdict("complex", f"{name} -c runs a command string", offending)
            if script is None or script.expands:
                return floor
            return _strongest([floor, _classify(script.text, state.inner())])
    return _verdict("normal", f"runs a {name} script", offending)


def _git(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
    verdict = classify_git_args([w.text for w in args])
    return _verdict(_GIT_TO_CLASS[verdict.op], verdict.reason, offending)


_GIT_TO_CLASS: dict[GitOp, CommandClass] = {
    "read": "safe_read",
    "stage_commit": "destructive",
    "mutate": "destructive",
    "network": "network",
    "publish": "destructive",
    "forbidden": "forbidden",
    "unknown": "complex",
}


def _rm(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
    options, targets = _split_options(args)
    flags = " ".join(options)
    found = _rm_targets(name, flags, targets, state, offending)
    if found is not None:
        return found
    sweeping = name == "rm" and _recursive_or_forced(options)
    if sweeping and not targets:
        return _verdict("destructive", f"rm {flags} deletes files named only at run time", offending)
    if not sweeping:
        return _verdict("normal", f"{name} deletes files (a snapshot can restore them)", offending)
    kept = next((t for t in targets if not _in_build_dir(t, state)), None)
    if kept is not None:
        return _verdict("destructive", f"rm {flags} deletes {kept.raw} for good, outside build directories", offending)
    return _verdict("normal", "rm cleans build output", offending)


def _recursive_or_forced(options: list[str]) -> bool:
    """-r, -R, -f, --recursive, --force, alone or in a group such as -rf."""
    short = {c for o in options if o[1:2] != "-" for c in o[1:]}
    return bool(short & {"r", "R", "f"}) or any(o in ("--recursive", "--force") for o in options)


def _rm_targets(name: str, flags: str, targets: list[Word], state: _State, offending: str) -> CommandVerdict | None:
    """Deleting .git is never allowed; deleting outside the repository asks, whatever the flags."""
    git_dir = next((t for t in targets if _touches_git_dir(t.text)), None)
    if git_dir is not None:
        return _verdict("forbidden", f"{name} {git_dir.raw} deletes the repository's history (.git)", offending)
    for target in targets:
        if _outside(target, state) is not False and not (target.expands and not target.text.startswith("$")):
            return _verdict(
                "destructive", f"{name} {flags} {target.raw} deletes files outside the repository", offending
            )
    return None


def _find(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
    verdicts = [_verdict("safe_read", "", offending)]
    i = 0
    while i < len(args):
        text = args[i].text
        if text == "-delete":
            verdicts.append(_verdict("destructive", "find -delete deletes every file it matches", offending))
        elif text in ("-exec", "-execdir", "-ok", "-okdir"):
            end = next((j for j in range(i + 1, len(args)) if args[j].text in (";", "+")), len(args))
            verdicts.append(_find_exec(text, [w for w in args[i + 1 : end] if w.text != "{}"], state, offending))
            i = end
        elif text.startswith(("-fprint", "-fls")):
            verdicts.append(_verdict("normal", "find writes a file", offending))
        i += 1
    return _strongest(verdicts)


def _find_exec(action: str, inner: list[Word], state: _State, offending: str) -> CommandVerdict:
    if inner and posixpath.basename(inner[0].text) in ("rm", "shred", "unlink", "truncate"):
        return _verdict("destructive", f"find {action} {inner[0].text} deletes every match", offending)
    if inner:
        return _strongest([_verdict("normal", "", offending), _classify_argv(inner, state, offending)])
    return _verdict("safe_read", "", offending)


def _copy(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
    options, operands = _split_options(args, frozenset(["-t", "--target-directory", "-S", "--suffix", "-m", "-o"]))
    found = _rsync(options, operands, offending) if name == "rsync" else _moves_git(name, operands, offending)
    if found is not None:
        return found
    for word in _destinations(name, options, operands):
        if _outside(word, state) is not False and not (name == "tee" and word.text == "/dev/null"):
            verb = "moves files to or from" if name == "mv" else "overwrites files"
            return _verdict("destructive", f"{name} {verb} {word.raw}, outside the repository", offending)
    return _verdict("normal", f"{name} changes files in the repository", offending)


def _moves_git(name: str, operands: list[Word], offending: str) -> CommandVerdict | None:
    if name == "mv" and any(_touches_git_dir(w.text) for w in operands):
        return _verdict("forbidden", "mv moves the repository's history (.git)", offending)
    return None


def _rsync(options: list[str], operands: list[Word], offending: str) -> CommandVerdict | None:
    if any(re.match(r"^[^/]*:", w.text) for w in operands):
        return _verdict("network", "rsync copies to or from another machine", offending)
    if any(o.startswith("--delete") or o.startswith("--remove-source") for o in options):
        return _verdict("destructive", "rsync --delete removes files at the destination", offending)
    return None


def _destinations(name: str, options: list[str], operands: list[Word]) -> list[Word]:
    """What a copy writes: every operand of mv and tee, else -t's folder or the last operand."""
    if name in ("mv", "tee"):
        return operands
    target_dir = next((options[k + 1] for k, o in enumerate(options[:-1]) if o in ("-t", "--target-directory")), None)
    return [Word(text=target_dir, raw=target_dir)] if target_dir else operands[-1:]


_WORLD_WRITABLE = (re.compile(r"0?[0-7]?[0-7][0-7][2367]"), re.compile(r"(?:^|,)[ugoa]*[ao][ugoa]*[+=][rwxXst]*w"))


def _permissions(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
    options, operands = _split_options(args)
    mode = operands[0].text if name == "chmod" and operands else ""
    if mode and (_WORLD_WRITABLE[0].fullmatch(mode) or _WORLD_WRITABLE[1].search(mode)):
        return _verdict("forbidden", f"chmod {mode} makes files writable by everyone", offending)
    if any(o in ("-R", "--recursive") for o in options):
        return _verdict("destructive", f"{name} -R changes ownership or permissions of a whole tree", offending)
    if any(_outside(w, state) is not False for w in operands[1:]):
        return _verdict("destructive", f"{name} changes files outside the repository", offending)
    return _verdict("normal", f"{name} changes file permissions", offending)


def _dd(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
    out = next((w.text[3:] for w in args if w.text.startswith("of=")), None)
    if out is None:
        return _verdict("normal", "dd copies data to standard output", offending)
    if out.startswith("/dev/") and not _pattern("scratch").match(out):
        return _verdict("forbidden", f"dd writes straight to the device {out}", offending)
    return _verdict("destructive", f"dd overwrites {out}", offending)


def _cd(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
    if not args or _outside(args[0], state) is not False:
        state.cwd_outside = True
    return _verdict("safe_read", "", offending)


_HANDLERS: dict[str, _Handler] = {
    "wrapper": _wrapper,
    "env": _env,
    "xargs": _xargs,
    "packages": _packages,
    "interpreter": _interpreter,
    "git": _git,
    "rm": _rm,
    "find": _find,
    "copy": _copy,
    "permissions": _permissions,
    "dd": _dd,
    "cd": _cd,
}
