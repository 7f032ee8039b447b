"""Classify a shell command the model proposes: read-only, normal, network, complex, destructive or forbidden."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from os import PathLike
from typing import Literal

from pedro.safety.gitcommands import GitOp, classify_git_args, word_set
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


# ---------------------------------------------------------------------------------------------------------------
# Tables. Names are matched on the command's basename, after wrappers and leading assignments are removed.


_SAFE_READ = word_set(
    "ls cat head tail wc pwd echo printf file stat du df tree which whoami id date uname",
    "basename dirname realpath readlink cut tr diff cmp nl tac rev fold column md5sum sha1sum",
    "sha256sum sha512sum cksum od hexdump strings true false test [ [[ printenv type grep egrep",
    "fgrep rg ag jq tokei cloc less more comm paste join expand unexpand fmt seq sleep",
)
_SHELLS = word_set("sh bash zsh dash ksh fish ash mksh busybox")
_INTERPRETERS = word_set("python python3 perl ruby node php lua")
_DOWNLOADERS = word_set("curl wget aria2c fetch http https")
_NETWORK = _DOWNLOADERS | word_set("ssh scp sftp ftp telnet nc ncat netcat socat ping dig nslookup host")
_PACKAGE_NETWORK: dict[str, frozenset[str]] = {
    "pip": word_set("install download wheel"),
    "pip3": word_set("install download wheel"),
    "uv": word_set("pip add sync lock tool run"),
    "poetry": word_set("install add update lock"),
    "pipenv": word_set("install update sync"),
    "npm": word_set("install i ci add update exec x publish"),
    "npx": frozenset(["*"]),
    "yarn": word_set("add install dlx upgrade"),
    "pnpm": word_set("install i add dlx update"),
    "bun": word_set("install add x"),
    "cargo": word_set("install fetch update add publish"),
    "go": word_set("get install"),
    "gem": frozenset(["install"]),
    "bundle": frozenset(["install"]),
    "composer": word_set("install require update"),
    "apt": word_set("install update upgrade"),
    "apt-get": word_set("install update upgrade"),
    "dnf": word_set("install update upgrade"),
    "yum": word_set("install update upgrade"),
    "apk": word_set("add update upgrade"),
    "brew": word_set("install update upgrade"),
    "conda": word_set("install create update"),
    "docker": word_set("pull push login"),
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
_XARGS_VALUE_OPTS = word_set("-I -i -n -P -L -l -s -d -E -e -a --max-args --max-procs --delimiter --arg-file")
_DANGEROUS_ASSIGNMENTS = re.compile(r"^(PATH|LD_\w+|BASH_ENV|ENV|IFS|PROMPT_COMMAND|GIT_\w+|PYTHONSTARTUP|PS4)$")
_BUILD_DIRS = word_set(
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
        script = parse_shell(command)
    except ShellSyntaxError as exc:
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


def _check_pipe_to_shell(source: str, pipeline: list[SimpleCommand]) -> CommandVerdict:
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


def _classify_simple(source: str, cmd: SimpleCommand, state: _State) -> CommandVerdict:
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


def _outside(word: Word, state: _State) -> bool | None:
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


def _in_build_dir(word: Word, state: _State) -> bool:
    if word.expands or _outside(word, state) is not False:
        return False
    path = word.text
    if path.startswith("/") and state.root is not None:
        path = posixpath.relpath(posixpath.normpath(path), state.root)
    parts = posixpath.normpath(path).split("/")
    if ".." in parts:
        return False
    return any(p in _BUILD_DIRS or any(fnmatchcase(p, g) for g in _BUILD_GLOBS) for p in parts)


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


def _classify_argv(words: list[Word], state: _State, offending: str) -> CommandVerdict:
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


def _classify_wrapper(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
    value_opts = frozenset(["-s", "--signal", "-k", "--kill-after"]) if name == "timeout" else _WRAPPERS[name]
    options, rest = _split_leading_options(args, value_opts)
    if name == "timeout" and rest:
        rest = rest[1:]  # the duration
    if name == "command" and any(o in ("-v", "-V") for o in options):
        return _verdict("safe_read", "", offending)
    if not rest:
        return _verdict("normal", f"runs {name}", offending)
    return _classify_argv(rest, state, offending)


def _classify_env(args: list[Word], state: _State, offending: str) -> CommandVerdict:
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


def _classify_interpreter(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
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


def _classify_rm(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
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


def _classify_find(args: list[Word], state: _State, offending: str) -> CommandVerdict:
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


def _classify_copy(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
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
        else ([Word(text=target_dir, raw=target_dir)] if target_dir else operands[-1:])
    )
    if name == "mv" and any(_touches_git_dir(w.text) for w in operands):
        return _verdict("forbidden", "mv moves the repository's history (.git)", offending)
    for word in dests:
        if _outside(word, state) is not False and not (name == "tee" and word.text == "/dev/null"):
            verb = "moves files to or from" if name == "mv" else "overwrites files"
            return _verdict("destructive", f"{name} {verb} {word.raw}, outside the repository", offending)
    return _verdict("normal", f"{name} changes files in the repository", offending)


def _classify_permissions(name: str, args: list[Word], state: _State, offending: str) -> CommandVerdict:
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


def _classify_dd(args: list[Word], offending: str) -> CommandVerdict:
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


def _classify_reader(name: str, args: list[Word], offending: str) -> CommandVerdict:
    texts = [w.text for w in args]
    if name == "rg" and any(t == "--pre" or t.startswith("--pre=") for t in texts):
        return _verdict("complex", "rg --pre runs a program on every file it searches", offending)
    if name == "sort" and any(t == "-o" or t.startswith(("--output", "-o")) for t in texts):
        return _verdict("normal", "sort -o writes a file", offending)
    if name == "uniq" and len([t for t in texts if not t.startswith("-")]) > 1:
        return _verdict("normal", "uniq writes its output file", offending)
    return _verdict("safe_read", f"{name} only reads", offending)
