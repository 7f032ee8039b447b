"""Classify a shell command the model proposes: read-only, normal, network, complex, destructive or forbidden."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from os import PathLike
from typing import Literal

CommandClass = Literal["safe_read", "normal", "network", "complex", "destructive", "forbidden"]
GitOp = Literal["read", "stage_commit", "mutate", "network", "publish", "forbidden", "unknown"]

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
class GitVerdict:
    """What a git argv would do, for both the bash classifier and the git tool's policy."""

    op: GitOp
    reason: str


class _ShellSyntaxError(ValueError):
    """The command could not be split with certainty."""


@dataclass
class _Word:
    text: str  # quotes removed; substitutions replaced by "\x00"
    raw: str
    expands: bool = False  # $VAR, ${..}, $(..), backticks
    glob: bool = False
    subs: list[str] = field(default_factory=list)


@dataclass
class _Simple:
    words: list[_Word] = field(default_factory=list)
    redirects: list[tuple[str, _Word]] = field(default_factory=list)
    start: int = 0
    end: int = 0


@dataclass
class _Script:
    pipelines: list[list[_Simple]] = field(default_factory=list)
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
                raise _ShellSyntaxError("unterminated single quote")
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
    raise _ShellSyntaxError(f"unbalanced {opener!r}")


def _skip_double(s: str, i: int) -> int:
    while i < len(s):
        if s[i] == "\\":
            i += 2
        elif s[i] == '"':
            return i + 1
        else:
            i += 1
    raise _ShellSyntaxError("unterminated double quote")


def _read_dollar(s: str, i: int, word: _Word, script: _Script) -> int:
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
            raise _ShellSyntaxError("unterminated $'")
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


def _read_backtick(s: str, i: int, word: _Word, script: _Script) -> int:
    end = i + 1
    while end < len(s) and s[end] != "`":
        end += 2 if s[end] == "\\" else 1
    if end >= len(s):
        raise _ShellSyntaxError("unterminated backtick")
    inner = s[i + 1 : end].replace("\\`", "`")
    script.features.append("backtick command substitution")
    script.subs.append(inner)
    word.subs.append(inner)
    word.expands = True
    word.text += "\x00"
    word.raw += s[i : end + 1]
    return end + 1


def _read_word(s: str, i: int, script: _Script) -> tuple[_Word, int]:
    word = _Word(text="", raw="")
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
                raise _ShellSyntaxError("unterminated single quote")
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


def _read_double(s: str, i: int, word: _Word, script: _Script) -> int:
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
        raise _ShellSyntaxError("unterminated double quote")
    word.raw += s[start : i + 1]
    return i + 1


def _parse(s: str) -> _Script:
    """Split a command line into pipelines of simple commands, recording every complex construct."""
    script = _Script()
    pipeline: list[_Simple] = []
    cmd = _Simple()
    depth = 0
    i = 0
    after_group = False

    def finish(end: int) -> None:
        nonlocal cmd
        if cmd.words or cmd.redirects:
            cmd.end = end
            pipeline.append(cmd)
        cmd = _Simple(start=end)

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
            cmd.words.append(_Word(text="\x00", raw=s[i:end], expands=True, subs=[s[i + 2 : end - 1]]))
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
                raise _ShellSyntaxError(f"redirection {op!r} without a target")
            cmd.redirects.append((fd_text + op, target))
            continue
        op = next((o for o in _OPERATORS if s.startswith(o, i)), None)
        if op is not None:
            if op in ("|", "|&", "&&", "||") and not (cmd.words or cmd.redirects or after_group):
                raise _ShellSyntaxError(f"{op!r} without a command before it")
            after_group = False
            finish(i)
            if op == ";;":
                raise _ShellSyntaxError("case statement")
            if op not in ("|", "|&"):
                end_pipeline()
            i += len(op)
            continue
        if c == "(":
            if cmd.words:
                close = s.find(")", i)
                if close < 0 or s[i + 1 : close].strip():
                    raise _ShellSyntaxError("unexpected '('")
                script.features.append("function definition")
                cmd.words.append(_Word(text="()", raw="()"))
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
                raise _ShellSyntaxError("unbalanced ')'")
            i += 1
            continue
        word, i = _read_word(s, i, script)
        cmd.words.append(word)
    if depth != 0:
        raise _ShellSyntaxError("unbalanced '('")
    finish(len(s))
    end_pipeline()
    return script


# ---------------------------------------------------------------------------------------------------------------
# Tables. Names are matched on the command's basename, after wrappers and leading assignments are removed.


def _names(*chunks: str) -> frozenset[str]:
    return frozenset(word for chunk in chunks for word in chunk.split())


_SAFE_READ = _names(
    "ls cat head tail wc pwd echo printf file stat du df tree which whoami id date uname",
    "basename dirname realpath readlink cut tr diff cmp nl tac rev fold column md5sum sha1sum",
    "sha256sum sha512sum cksum od hexdump strings true false test [ [[ printenv type grep egrep",
    "fgrep rg ag jq tokei cloc less more comm paste join expand unexpand fmt seq sleep",
)
_SHELLS = _names("sh bash zsh dash ksh fish ash mksh busybox")
_INTERPRETERS = _names("python python3 perl ruby node php lua")
_DOWNLOADERS = _names("curl wget aria2c fetch http https")
_NETWORK = _DOWNLOADERS | _names("ssh scp sftp ftp telnet nc ncat netcat socat ping dig nslookup host")
_PACKAGE_NETWORK: dict[str, frozenset[str]] = {
    "pip": _names("install download wheel"),
    "pip3": _names("install download wheel"),
    "uv": _names("pip add sync lock tool run"),
    "poetry": _names("install add update lock"),
    "pipenv": _names("install update sync"),
    "npm": _names("install i ci add update exec x publish"),
    "npx": frozenset(["*"]),
    "yarn": _names("add install dlx upgrade"),
    "pnpm": _names("install i add dlx update"),
    "bun": _names("install add x"),
    "cargo": _names("install fetch update add publish"),
    "go": _names("get install"),
    "gem": frozenset(["install"]),
    "bundle": frozenset(["install"]),
    "composer": _names("install require update"),
    "apt": _names("install update upgrade"),
    "apt-get": _names("install update upgrade"),
    "dnf": _names("install update upgrade"),
    "yum": _names("install update upgrade"),
    "apk": _names("add update upgrade"),
    "brew": _names("install update upgrade"),
    "conda": _names("install create update"),
    "docker": _names("pull push login"),
}
_FORBIDDEN_NAMES: dict[str, str] = {
    **dict.fromkeys(("sudo", "su", "doas", "pkexec", "run0"), "runs a command as another user (root)"),
    **dict.fromkeys(("pkill", "killall", "killall5"), "kills processes by name, which can hit unrelated programs"),
    **dict.fromkeys(("fdisk", "sfdisk", "parted", "wipefs", "mkswap", "mke2fs"), "rewrites disks or partitions"),
    **dict.fromkeys(("shutdown", "reboot", "halt", "poweroff"), "stops or restarts the machine"),
}
_DESTRUCTIVE_NAMES: dict[str, str] = {
    **dict.fromkeys(("truncate", "shred", "wipe", "srm"), "destroys file contents"),
    "crontab": "changes scheduled jobs outside the repository",
}
# Wrappers that run the rest of their argv; the value lists options that consume the next word.
_WRAPPERS: dict[str, frozenset[str]] = {
    "nice": frozenset(["-n", "--adjustment"]),
    "nohup": frozenset(),
    "time": frozenset(["-f", "-o"]),
    "stdbuf": frozenset(["-i", "-o", "-e"]),
    "ionice": frozenset(["-c", "-n", "-p"]),
    "setsid": frozenset(),
    "command": frozenset(),
    "builtin": frozenset(),
    "exec": frozenset(["-a"]),
    "unbuffer": frozenset(),
    "chronic": frozenset(),
}
_XARGS_VALUE_OPTS = _names("-I -i -n -P -L -l -s -d -E -e -a --max-args --max-procs --delimiter --arg-file")
_DANGEROUS_ASSIGNMENTS = re.compile(r"^(PATH|LD_\w+|BASH_ENV|ENV|IFS|PROMPT_COMMAND|GIT_\w+|PYTHONSTARTUP|PS4)$")
_BUILD_DIRS = _names(
    "build dist target node_modules __pycache__ .pytest_cache .mypy_cache .ruff_cache .tox .nox",
    "htmlcov .coverage .next .nuxt .parcel-cache .turbo .eggs .gradle _build",
)
_BUILD_GLOBS = ("*.egg-info", "cmake-build-*", "*.pyc", "*.pyo", "*.o", "*.class")
_SCRATCH = re.compile(r"^/dev/(null|stdout|stderr|fd/\d+)$|^/(tmp|var/tmp)/")
_DEVICE = re.compile(r"^/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper/|dm-|loop|md)")
_FORK_BOMB = re.compile(r"(\S+)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*&?\s*\1\s*&")
_DOWNLOAD_WORD = re.compile(r"\b(curl|wget|aria2c|fetch)\b")


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


def classify_command(command: str, *, root: str | PathLike[str] | None = None) -> CommandVerdict:
    """Classify a shell command line; anything that cannot be split with certainty is `complex`.

    `root` (the repository root) lets absolute paths inside the repository count as inside; without it
    every absolute path except scratch ones (/tmp, /dev/null) counts as outside.
    """
    state = _State(root=posixpath.normpath(str(root)) if root is not None else None, depth=0)
    return _classify(command, state)


def _classify(command: str, state: _State) -> CommandVerdict:
    text = command.strip()
    if not text:
        return CommandVerdict("normal", "empty command")
    if len(command) > MAX_COMMAND_CHARS or state.depth > _MAX_DEPTH:
        return CommandVerdict("complex", "the command is too long or too deeply nested to check", text[:200])
    if "\x00" in command:
        return CommandVerdict("complex", "the command contains a NUL character", "")
    if _FORK_BOMB.search(command):
        return CommandVerdict("forbidden", "is a fork bomb: a function that keeps starting copies of itself", text)
    try:
        script = _parse(command)
    except _ShellSyntaxError as exc:
        return CommandVerdict("complex", f"the command cannot be parsed with certainty ({exc})", text[:200])
    verdicts: list[CommandVerdict] = []
    inner_state = _State(root=state.root, depth=state.depth + 1)
    for sub in script.subs:
        verdicts.append(_classify(sub, inner_state))
    for feature in dict.fromkeys(script.features):
        verdicts.append(CommandVerdict("complex", f"uses {feature}, so what runs is only known at run time", text))
    for pipeline in script.pipelines:
        verdicts.extend(_classify_simple(command, cmd, state) for cmd in pipeline)
        verdicts.append(_check_pipe_to_shell(command, pipeline))
    return _strongest(verdicts)


def _check_pipe_to_shell(source: str, pipeline: list[_Simple]) -> CommandVerdict:
    """A download piped into a shell or interpreter runs code nobody has read."""
    downloaded = False
    for cmd in pipeline:
        argv = _unwrap([w.text for w in cmd.words])
        name = posixpath.basename(argv[0]) if argv else ""
        if downloaded and _runs_stdin(name, argv[1:]):
            return CommandVerdict("forbidden", "pipes a download into a shell or interpreter", source.strip())
        downloaded = downloaded or name in _DOWNLOADERS or (name in _NETWORK and name not in ("ping", "dig"))
    return CommandVerdict("safe_read", "")


def _runs_stdin(name: str, args: list[str]) -> bool:
    if name in _SHELLS:
        return not any(a.startswith("-") and "c" in a and not a.startswith("--") for a in args)
    if name in _INTERPRETERS or re.fullmatch(r"python3?(\.\d+)?", name):
        return not any(a in ("-c", "-m", "-e", "-E") for a in args) and not any(not a.startswith("-") for a in args)
    return False


def _unwrap(argv: list[str]) -> list[str]:
    """Drop assignments and transparent wrappers to find the command that really runs (for pipe checks)."""
    while argv:
        head = posixpath.basename(argv[0])
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", argv[0]) or head in ("env", "sudo", "doas", "nohup", "time"):
            argv = argv[1:]
            while argv and argv[0].startswith("-"):
                argv = argv[1:]
            continue
        return argv
    return argv


def _verdict(kind: CommandClass, reason: str, offending: str) -> CommandVerdict:
    return CommandVerdict(kind, reason, offending)


def _classify_simple(source: str, cmd: _Simple, state: _State) -> CommandVerdict:
    offending = source[cmd.start : cmd.end].strip()
    verdicts = [_check_redirect(op, target, state, offending) for op, target in cmd.redirects]
    words = list(cmd.words)
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*\+?=", words[0].raw):
        name = words[0].raw.split("=", 1)[0].rstrip("+")
        if _DANGEROUS_ASSIGNMENTS.match(name):
            verdicts.append(_verdict("complex", f"sets {name}, which changes how commands are found or run", offending))
        words = words[1:]
    while words and words[0].raw in ("{", "!", "if", "then", "elif", "else", "do", "while", "until", "time"):
        words = words[1:]
    if not words:
        verdicts.append(_verdict("normal" if cmd.redirects or cmd.words else "safe_read", "", offending))
        return _strongest(verdicts)
    head = words[0].raw
    if head in ("}", "fi", "done", "esac", "for", "in"):
        verdicts.append(_verdict("normal" if head == "for" else "safe_read", "", offending))
        return _strongest(verdicts)
    if head in ("case", "select", "function", "coproc", "trap", "alias") or words[-1].text == "()":
        verdicts.append(
            _verdict("complex", f"uses the shell construct {head!r}, which pedro does not check", offending)
        )
        return _strongest(verdicts)
    main = _classify_argv(words, state, offending)
    if main.kind == "safe_read" and (
        any(w.expands for w in words) or any(not _harmless_redirect(op, t) for op, t in cmd.redirects)
    ):
        main = _verdict("normal", "reads files, but uses variables or redirection", offending)
    verdicts.append(main)
    return _strongest(verdicts)


def _harmless_redirect(op: str, target: _Word) -> bool:
    if op.endswith("&") and re.fullmatch(r"[0-9]+|-", target.text):
        return True
    return op.lstrip("0123456789") in (">", "&>", ">>") and target.text == "/dev/null"


def _check_redirect(op: str, target: _Word, state: _State, offending: str) -> CommandVerdict:
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
    if _DEVICE.match(path):
        return _verdict("forbidden", f"writes straight to the disk device {path}", offending)
    if _SCRATCH.match(path):
        return _verdict("safe_read" if path == "/dev/null" else "normal", "", offending)
    outside = _outside(target, state)
    if outside is None:
        return _verdict("complex", f"writes to a path held in a variable ({target.raw})", offending)
    if outside:
        return _verdict("destructive", f"writes to {target.raw}, outside the repository", offending)
    if _touches_git_dir(path):
        return _verdict("destructive", f"writes inside .git ({target.raw})", offending)
    return _verdict("normal", "writes a file in the repository", offending)


def _outside(word: _Word, state: _State) -> bool | None:
    """Whether a path operand leaves the repository; None when a variable hides it."""
    path = word.text
    if path.startswith("~") or path.startswith(("$HOME", "${HOME}")):
        return True
    if path.startswith(("$", "\x00")):
        return None
    if path.startswith("/"):
        if _SCRATCH.match(path):
            return False
        norm = posixpath.normpath(path)
        return not (state.root is not None and (norm == state.root or norm.startswith(state.root.rstrip("/") + "/")))
    if state.cwd_outside:
        return True
    norm = posixpath.normpath(path)
    return norm == ".." or norm.startswith("../")


def _touches_git_dir(path: str) -> bool:
    parts = posixpath.normpath(path).split("/")
    return any(p == ".git" or (p.startswith(".") and "*" in p and fnmatchcase(".git", p)) for p in parts)


def _in_build_dir(word: _Word, state: _State) -> bool:
    if word.expands or _outside(word, state) is not False:
        return False
    path = word.text
    if path.startswith("/") and state.root is not None:
        path = posixpath.relpath(posixpath.normpath(path), state.root)
    parts = posixpath.normpath(path).split("/")
    if ".." in parts:
        return False
    return any(p in _BUILD_DIRS or any(fnmatchcase(p, g) for g in _BUILD_GLOBS) for p in parts)


def _split_options(args: list[_Word], value_opts: frozenset[str] = frozenset()) -> tuple[list[str], list[_Word]]:
    """Options and operands of a conventional command line (`--` ends options)."""
    options: list[str] = []
    operands: list[_Word] = []
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


def _classify_argv(words: list[_Word], state: _State, offending: str) -> CommandVerdict:
    """Classify one command and its arguments, unwrapping wrappers that run another command."""
    if words[0].expands:
        return _verdict("complex", "the command name comes from a variable or substitution", offending)
    name = posixpath.basename(words[0].text)
    args = words[1:]
    if name in _FORBIDDEN_NAMES:
        return _verdict("forbidden", f"{name} {_FORBIDDEN_NAMES[name]}", offending)
    if name.startswith("mkfs"):
        return _verdict("forbidden", f"{name} creates a filesystem, erasing a disk", offending)
    if name in _DESTRUCTIVE_NAMES:
        return _verdict("destructive", f"{name} {_DESTRUCTIVE_NAMES[name]}", offending)
    if name in _WRAPPERS or name == "timeout":
        return _classify_wrapper(name, args, state, offending)
    if name == "env":
        return _classify_env(args, state, offending)
    if name == "xargs":
        _, rest = _split_leading_options(args, _XARGS_VALUE_OPTS)
        inner = _classify_argv(rest, state, offending) if rest else _verdict("safe_read", "", offending)
        floor = _verdict("complex", "xargs runs a command on arguments read from its input", offending)
        return _strongest([floor, inner])
    if _installs_packages(name, [w.text for w in args]):
        return _verdict("network", f"{name} downloads packages from the network", offending)
    if name in _SHELLS or name in ("eval", "source", ".") or name in _INTERPRETERS:
        return _classify_interpreter(name, args, state, offending)
    if name == "git":
        verdict = classify_git_args([w.text for w in args])
        kind: CommandClass = _GIT_TO_CLASS[verdict.op]
        return _verdict(kind, verdict.reason, offending)
    if name in ("rm", "rmdir", "unlink"):
        return _classify_rm(name, args, state, offending)
    if name == "find":
        return _classify_find(args, state, offending)
    if name in ("mv", "cp", "ln", "install", "rsync", "tee"):
        return _classify_copy(name, args, state, offending)
    if name in ("chmod", "chown", "chgrp"):
        return _classify_permissions(name, args, state, offending)
    if name == "dd":
        return _classify_dd(args, offending)
    if name == "kill" and args and args[-1].text in ("-1", "0"):
        return _verdict("forbidden", "kill -1 signals every process the user owns", offending)
    if name in _NETWORK:
        return _verdict("network", f"{name} connects to the network", offending)
    if _installs_packages(name, [w.text for w in args]):
        return _verdict("network", f"{name} downloads packages from the network", offending)
    if name in ("cd", "pushd"):
        if not args or _outside(args[0], state) is not False:
            state.cwd_outside = True
        return _verdict("safe_read", "", offending)
    if name in _SAFE_READ:
        return _classify_reader(name, args, offending)
    return _verdict("normal", f"runs {name}", offending)


_GIT_TO_CLASS: dict[GitOp, CommandClass] = {
    "read": "safe_read",
    "stage_commit": "destructive",
    "mutate": "destructive",
    "network": "network",
    "publish": "destructive",
    "forbidden": "forbidden",
    "unknown": "complex",
}


def _split_leading_options(args: list[_Word], value_opts: frozenset[str]) -> tuple[list[str], list[_Word]]:
    """Options before the first operand; the rest (a wrapped command) is returned untouched."""
    i = 0
    options: list[str] = []
    while i < len(args) and args[i].text.startswith("-") and args[i].text != "-":
        options.append(args[i].text)
        if args[i].text == "--":
            return options, args[i + 1 :]
        i += 2 if args[i].text in value_opts else 1
    return options, args[i:]


def _classify_wrapper(name: str, args: list[_Word], state: _State, offending: str) -> CommandVerdict:
    value_opts = frozenset(["-s", "--signal", "-k", "--kill-after"]) if name == "timeout" else _WRAPPERS[name]
    options, rest = _split_leading_options(args, value_opts)
    if name == "timeout" and rest:
        rest = rest[1:]  # the duration
    if name == "command" and any(o in ("-v", "-V") for o in options):
        return _verdict("safe_read", "", offending)
    if not rest:
        return _verdict("normal", f"runs {name}", offending)
    return _classify_argv(rest, state, offending)


def _classify_env(args: list[_Word], state: _State, offending: str) -> CommandVerdict:
    changed = False
    i = 0
    while i < len(args):
        text = args[i].text
        if text.startswith(("-S", "--split-string")):
            return _verdict("complex", "env -S builds a command from a string", offending)
        if text in ("-u", "--unset", "-C", "--chdir"):
            i += 2
        elif text.startswith("-") or re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", text):
            i += 1
        else:
            break
        changed = True
    if i >= len(args):
        return _verdict("normal" if changed else "safe_read", "prints the environment", offending)
    inner = _classify_argv(args[i:], state, offending)
    if not changed:
        return inner
    return _strongest([_verdict("complex", "env … runs a command with a changed environment", offending), inner])


def _classify_interpreter(name: str, args: list[_Word], state: _State, offending: str) -> CommandVerdict:
    if any(_DOWNLOAD_WORD.search(sub) for w in args for sub in w.subs):
        return _verdict("forbidden", f"{name} runs code fetched from the network", offending)
    if name == "eval":
        inner = _classify(" ".join(w.text for w in args), _State(state.root, state.depth + 1, state.cwd_outside))
        return _strongest([_verdict("complex", "eval runs text assembled at run time", offending), inner])
    if name in ("source", "."):
        return _verdict("complex", f"{name} runs a script inside the current shell", offending)
    if name not in _SHELLS:
        return _verdict("normal", f"runs {name}", offending)
    for i, word in enumerate(args):
        text = word.text
        if not text.startswith(("-", "+")) or text.startswith("--"):
            if text.startswith("--"):
                continue
            break
        if "c" in text[1:]:
            script = next((w for w in args[i + 1 :] if not w.text.startswith("-")), None)
            floor = _verdict("complex", f"{name} -c runs a command string", offending)
            if script is None or script.expands:
                return floor
            inner = _classify(script.text, _State(state.root, state.depth + 1, state.cwd_outside))
            return _strongest([floor, inner])
    return _verdict("normal", f"runs a {name} script", offending)


def _classify_rm(name: str, args: list[_Word], state: _State, offending: str) -> CommandVerdict:
    options, targets = _split_options(args)
    recursive = any(o in ("--recursive", "-r", "-R") or (o[1:2] != "-" and set(o[1:]) & {"r", "R"}) for o in options)
    force = any(o == "--force" or (o[1:2] != "-" and "f" in o[1:]) for o in options)
    flags = " ".join(options)
    for target in targets:
        if _touches_git_dir(target.text):
            return _verdict("forbidden", f"{name} {target.raw} deletes the repository's history (.git)", offending)
    for target in targets:
        if _outside(target, state) is not False and not (target.expands and not target.text.startswith("$")):
            return _verdict(
                "destructive", f"{name} {flags} {target.raw} deletes files outside the repository", offending
            )
    if not targets and (recursive or force) and name == "rm":
        return _verdict("destructive", f"rm {flags} deletes files named only at run time", offending)
    if not (recursive or force) or name != "rm":
        return _verdict("normal", f"{name} deletes files (a snapshot can restore them)", offending)
    for target in targets:
        if not _in_build_dir(target, state):
            return _verdict(
                "destructive", f"rm {flags} deletes {target.raw} for good, outside build directories", offending
            )
    return _verdict("normal", "rm cleans build output", offending)


def _classify_find(args: list[_Word], state: _State, offending: str) -> CommandVerdict:
    verdicts = [_verdict("safe_read", "", offending)]
    i = 0
    while i < len(args):
        text = args[i].text
        if text == "-delete":
            verdicts.append(_verdict("destructive", "find -delete deletes every file it matches", offending))
        elif text in ("-exec", "-execdir", "-ok", "-okdir"):
            end = next((j for j in range(i + 1, len(args)) if args[j].text in (";", "+")), len(args))
            inner = [w for w in args[i + 1 : end] if w.text != "{}"]
            if inner and posixpath.basename(inner[0].text) in ("rm", "shred", "unlink", "truncate"):
                verdicts.append(_verdict("destructive", f"find {text} {inner[0].text} deletes every match", offending))
            elif inner:
                verdicts.append(
                    _strongest([_verdict("normal", "", offending), _classify_argv(inner, state, offending)])
                )
            i = end
        elif text.startswith(("-fprint", "-fls")):
            verdicts.append(_verdict("normal", "find writes a file", offending))
        i += 1
    return _strongest(verdicts)


def _classify_copy(name: str, args: list[_Word], state: _State, offending: str) -> CommandVerdict:
    options, operands = _split_options(args, frozenset(["-t", "--target-directory", "-S", "--suffix", "-m", "-o"]))
    if name == "rsync":
        if any(re.match(r"^[^/]*:", w.text) for w in operands):
            return _verdict("network", "rsync copies to or from another machine", offending)
        if any(o.startswith("--delete") or o.startswith("--remove-source") for o in options):
            return _verdict("destructive", "rsync --delete removes files at the destination", offending)
    target_dir = next((options[k + 1] for k, o in enumerate(options[:-1]) if o in ("-t", "--target-directory")), None)
    dests = (
        operands
        if name in ("mv", "tee")
        else ([_Word(text=target_dir, raw=target_dir)] if target_dir else operands[-1:])
    )
    if name == "mv" and any(_touches_git_dir(w.text) for w in operands):
        return _verdict("forbidden", "mv moves the repository's history (.git)", offending)
    for word in dests:
        if _outside(word, state) is not False and not (name == "tee" and word.text == "/dev/null"):
            verb = "moves files to or from" if name == "mv" else "overwrites files"
            return _verdict("destructive", f"{name} {verb} {word.raw}, outside the repository", offending)
    return _verdict("normal", f"{name} changes files in the repository", offending)


def _classify_permissions(name: str, args: list[_Word], state: _State, offending: str) -> CommandVerdict:
    options, operands = _split_options(args)
    recursive = any(o in ("-R", "--recursive") for o in options)
    if name == "chmod" and operands:
        mode = operands[0].text
        if re.fullmatch(r"0?[0-7]?[0-7][0-7][2367]", mode) or re.search(
            r"(?:^|,)[ugoa]*[ao][ugoa]*[+=][rwxXst]*w", mode
        ):
            return _verdict("forbidden", f"chmod {mode} makes files writable by everyone", offending)
    if recursive:
        return _verdict("destructive", f"{name} -R changes ownership or permissions of a whole tree", offending)
    if any(_outside(w, state) is not False for w in operands[1:]):
        return _verdict("destructive", f"{name} changes files outside the repository", offending)
    return _verdict("normal", f"{name} changes file permissions", offending)


def _classify_dd(args: list[_Word], offending: str) -> CommandVerdict:
    out = next((w.text[3:] for w in args if w.text.startswith("of=")), None)
    if out is None:
        return _verdict("normal", "dd copies data to standard output", offending)
    if out.startswith("/dev/") and not _SCRATCH.match(out):
        return _verdict("forbidden", f"dd writes straight to the device {out}", offending)
    return _verdict("destructive", f"dd overwrites {out}", offending)


def _installs_packages(name: str, args: list[str]) -> bool:
    if re.fullmatch(r"python3?(\.\d+)?", name) and args[:2] == ["-m", "pip"]:
        name, args = "pip", args[2:]
    subcommands = _PACKAGE_NETWORK.get(name)
    if subcommands is None:
        return False
    if "*" in subcommands:
        return True
    first = next((a for a in args if not a.startswith("-")), "")
    return first in subcommands or (name == "yarn" and not first)


def _classify_reader(name: str, args: list[_Word], offending: str) -> CommandVerdict:
    texts = [w.text for w in args]
    if name == "rg" and any(t == "--pre" or t.startswith("--pre=") for t in texts):
        return _verdict("complex", "rg --pre runs a program on every file it searches", offending)
    if name == "sort" and any(t == "-o" or t.startswith(("--output", "-o")) for t in texts):
        return _verdict("normal", "sort -o writes a file", offending)
    if name == "uniq" and len([t for t in texts if not t.startswith("-")]) > 1:
        return _verdict("normal", "uniq writes its output file", offending)
    return _verdict("safe_read", f"{name} only reads", offending)


# ---------------------------------------------------------------------------------------------------------------
# git

_GIT_READ = _names(
    "status diff log show blame annotate shortlog describe rev-parse rev-list ls-files ls-tree",
    "cat-file grep show-ref show-branch whatchanged merge-base name-rev for-each-ref",
    "count-objects var version help check-ignore check-attr diff-tree diff-files diff-index",
    "range-diff cherry verify-commit verify-tag",
)
_GIT_MUTATE = _names(
    "switch checkout restore reset merge rebase cherry-pick revert am apply mv rm stash tag",
    "init worktree notes gc prune repack replace bisect sparse-checkout update-index",
    "symbolic-ref update-ref pack-refs maintenance commit-tree read-tree checkout-index",
    "format-patch config remote branch reflog mergetool",
)
_GIT_NETWORK = _names("fetch pull clone ls-remote submodule")
_GIT_GLOBAL_SKIP = _names(
    "--no-pager -P --paginate -p --no-replace-objects --literal-pathspecs --glob-pathspecs",
    "--noglob-pathspecs --icase-pathspecs --no-optional-locks --version --help",
)
_GIT_DANGEROUS_CONFIG = re.compile(
    r"^(core\.(hookspath|sshcommand|pager|editor|fsmonitor|gitproxy|askpass)|alias\.|credential\.|include\.|"
    r"includeif\.|diff\.external|protocol\.|.*\.(command|cmd|textconv|clean|smudge|process)$|sequence\.editor|"
    r"url\.)",
    re.IGNORECASE,
)


def _short_flags(args: Sequence[str]) -> set[str]:
    """Single-letter flags, with combined groups (-fdx) split."""
    return {c for a in args if a.startswith("-") and not a.startswith("--") for c in a[1:]}


def classify_git_args(args: Sequence[str]) -> GitVerdict:
    """Classify a git argv (without the leading `git`): read, stage/commit, mutate, network, publish or forbidden."""
    args = list(args)
    for arg in args:
        if arg.startswith(("--upload-pack", "--receive-pack", "--exec", "--config-env", "--template")):
            return GitVerdict("forbidden", f"git option {arg.split('=')[0]} makes git run another program")
    i = 0
    while i < len(args) and args[i].startswith("-"):
        opt = args[i]
        if opt == "-c" or (opt.startswith("-c") and not opt.startswith("--")):
            return GitVerdict("forbidden", "git -c sets configuration that can run programs (hooks, aliases)")
        if opt.startswith(("--git-dir", "--work-tree", "--namespace", "--super-prefix", "--bare")):
            return GitVerdict("forbidden", f"git {opt.split('=')[0]} points git at another repository or tree")
        if opt == "-C":
            target = args[i + 1] if i + 1 < len(args) else ""
            if target.startswith(("/", "~", "$")) or posixpath.normpath(target).startswith(".."):
                return GitVerdict("forbidden", "git -C runs git in a directory outside the repository")
            i += 2
            continue
        if opt not in _GIT_GLOBAL_SKIP:
            return GitVerdict("unknown", f"unknown git option {opt}")
        i += 1
    if i >= len(args):
        return GitVerdict("read", "git with no subcommand prints help")
    sub, rest = args[i], args[i + 1 :]
    flags = _short_flags(rest)
    positional = [a for a in rest if not a.startswith("-")]
    if sub in _GIT_READ:
        if any(a.startswith("--output") for a in rest):
            return GitVerdict("mutate", f"git {sub} --output writes a file")
        return GitVerdict("read", f"git {sub} only reads")
    if sub in ("add", "commit"):
        if "--amend" in rest:
            return GitVerdict("mutate", "git commit --amend rewrites the last commit")
        return GitVerdict("stage_commit", f"git {sub} records changes")
    if sub == "push":
        return _classify_git_push(rest, flags, positional)
    if sub in _GIT_NETWORK:
        if sub in ("clone", "ls-remote") and ("u" in flags or "-c" in rest or "--config" in rest):
            return GitVerdict("forbidden", f"git {sub} -u/-c makes git run another program")
        return GitVerdict("network", f"git {sub} talks to a remote repository")
    if sub == "filter-branch" or sub == "filter-repo":
        return GitVerdict("forbidden", f"git {sub} rewrites the whole history")
    if sub == "reset" and "--hard" in rest:
        return GitVerdict("forbidden", "git reset --hard throws away uncommitted changes")
    if sub == "clean":
        if "f" in flags or "--force" in rest:
            return GitVerdict("forbidden", "git clean -f deletes untracked files for good")
        return GitVerdict("read", "git clean without -f only lists files")
    if sub == "checkout":
        if (
            "f" in flags
            or "--force" in rest
            or "." in positional
            or ("--" in rest and rest.index("--") < len(rest) - 1)
        ):
            return GitVerdict("forbidden", "git checkout -- <paths>/./-f throws away uncommitted changes")
        return GitVerdict("mutate", "git checkout switches branches or overwrites files")
    if sub == "checkout-index" and ("f" in flags or "--force" in rest):
        return GitVerdict("forbidden", "git checkout-index -f overwrites uncommitted changes")
    if sub == "switch" and ("f" in flags or "--force" in rest or "--discard-changes" in rest):
        return GitVerdict("forbidden", "git switch --discard-changes/-f throws away uncommitted changes")
    if sub == "restore":
        staged_only = ("S" in flags or "--staged" in rest) and not ("W" in flags or "--worktree" in rest)
        if not staged_only:
            return GitVerdict("forbidden", "git restore of the working tree throws away uncommitted changes")
        return GitVerdict("mutate", "git restore --staged unstages files")
    if sub == "branch":
        return _classify_git_branch(rest, flags, positional)
    if sub == "reflog":
        if positional[:1] in (["expire"], ["delete"]):
            return GitVerdict("forbidden", f"git reflog {positional[0]} destroys the record used to recover work")
        return GitVerdict("read", "git reflog only reads")
    if sub == "gc" and any(a in ("--prune=now", "--prune=all") for a in rest):
        return GitVerdict("forbidden", "git gc --prune=now deletes unreachable commits immediately")
    if sub == "update-ref" and ("d" in flags or "--delete" in rest):
        return GitVerdict("forbidden", "git update-ref -d deletes a ref directly")
    if sub == "rebase" and ("x" in flags or "--exec" in rest):
        return GitVerdict("forbidden", "git rebase --exec runs commands")
    if sub in ("tag", "remote", "stash", "config", "worktree", "notes"):
        return _classify_git_listing(sub, rest, positional)
    if sub in _GIT_MUTATE:
        return GitVerdict("mutate", f"git {sub} changes the repository")
    return GitVerdict("unknown", f"unknown git subcommand {sub!r} (it may be an alias that runs a program)")


def _classify_git_push(rest: list[str], flags: set[str], positional: list[str]) -> GitVerdict:
    if flags & {"f", "d"} or any(a in ("--force", "--mirror", "--delete", "--prune", "--all") for a in rest):
        return GitVerdict("forbidden", "git push --force/--mirror/--delete can destroy commits on the remote")
    if any(ref.startswith(("+", ":")) or ":+" in ref for ref in positional[1:]):
        return GitVerdict("forbidden", "git push +ref/:ref force-updates or deletes a remote branch")
    if any(a.startswith(("--force-with-lease", "--force-if-includes")) for a in rest):
        return GitVerdict("publish", "git push --force-with-lease overwrites a remote branch if it has not moved")
    return GitVerdict("publish", "git push publishes commits to a remote")


def _classify_git_branch(rest: list[str], flags: set[str], positional: list[str]) -> GitVerdict:
    delete = "d" in flags or "--delete" in rest
    if "D" in flags or "M" in flags or (delete and ("f" in flags or "--force" in rest)):
        return GitVerdict("forbidden", "git branch -D/-M deletes or overwrites a branch without checks")
    listing = {"-l", "--list", "-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "--show-current"}
    lists = not delete and not (flags - set("larvv")) and (not positional or any(a in listing for a in rest))
    if lists and not any(
        a.startswith("--") and a not in listing | {"--"} and not a.startswith(_BRANCH_LIST_PREFIXES) for a in rest
    ):
        return GitVerdict("read", "git branch lists branches")
    return GitVerdict("mutate", "git branch creates, renames or deletes branches")


_BRANCH_LIST_PREFIXES = ("--contains", "--no-contains", "--merged", "--no-merged", "--sort", "--format", "--color")


def _classify_git_listing(sub: str, rest: list[str], positional: list[str]) -> GitVerdict:
    """tag/remote/stash/config/worktree/notes: read when listing, mutate when changing."""
    first = positional[0] if positional else ""
    if sub == "config":
        if any(a.startswith(("--get", "--list", "-l")) for a in rest) or first in ("get", "list"):
            return GitVerdict("read", "git config only reads settings")
        key = positional[1] if first in ("set", "unset") and len(positional) > 1 else first
        if _GIT_DANGEROUS_CONFIG.match(key):
            return GitVerdict("forbidden", f"git config {key} makes git run programs")
        return GitVerdict("mutate", "git config changes settings")
    reads = {
        "tag": ("", "-l", "--list", "-n"),
        "remote": ("", "-v", "show", "get-url"),
        "stash": ("list", "show"),
        "worktree": ("list",),
        "notes": ("", "list", "show"),
    }[sub]
    if sub in ("tag", "remote") and (not rest or any(a in reads for a in rest)) and first in ("", "show", "get-url"):
        return GitVerdict("read", f"git {sub} lists")
    if sub == "remote" and first in ("update", "prune"):
        return GitVerdict("network", f"git remote {first} talks to remotes")
    if first in reads and first:
        return GitVerdict("read", f"git {sub} {first} only reads")
    if sub == "notes" and not first:
        return GitVerdict("read", "git notes lists")
    return GitVerdict("mutate", f"git {sub} changes the repository")
