"""Record the shell and git verdicts of a corpus of command lines into tests/fixtures/command_verdicts.json.

The corpus is every string and string list the safety tests use plus generated variants of them. The fixture pins
each verdict (class, reason, offending sub-command) and the parse of each line, so a change to the rules or the
classifier that moves any decision shows up in test_verdict_fixture.py. Rerun it
(`.venv/bin/python tests/safety/record_verdicts.py`) only when a verdict changes on purpose, and read the diff: a
looser verdict there is a hole.
"""

from __future__ import annotations

import ast
import hashlib
import itertools
import json
import shlex
from pathlib import Path

from pedro.safety.commands import classify_command
from pedro.safety.gitcommands import classify_git_args
from pedro.safety.shellparse import Script, ShellSyntaxError, parse_shell

TESTS = Path(__file__).resolve().parents[1]
FIXTURE = TESTS / "fixtures" / "command_verdicts.json"
ROOT = "/work/repo"
SOURCES = [
    *sorted((TESTS / "safety").glob("test_*.py")),
    *sorted((TESTS / "adversarial").glob("*.py")),
    TESTS / "test_gate.py",
    TESTS / "test_cli_safety.py",
    TESTS / "tools" / "test_bash.py",
    TESTS / "tools" / "test_git.py",
]


def _words(text: str) -> list[str]:
    return text.split()


# Command names the generator combines with argument shapes; written out here so the corpus does not depend on
# the tables it checks.
NAMES = _words("""
ls cat head tail wc pwd echo printf file stat du df tree which whoami id date uname basename dirname realpath
readlink cut tr diff cmp nl tac rev fold column md5sum sha256sum od hexdump strings true false test [ printenv type
grep egrep rg ag jq less seq sleep sort uniq sh bash zsh dash busybox fish python python3 python3.12 perl ruby node
php lua curl wget aria2c fetch http ssh scp sftp nc ncat socat ping dig host pip pip3 uv poetry pipenv npm npx yarn
pnpm bun cargo go gem bundle composer apt apt-get dnf yum apk brew conda docker sudo su doas pkexec run0 pkill
killall killall5 fdisk sfdisk parted wipefs mkswap mke2fs mkfs mkfs.ext4 shutdown reboot halt poweroff truncate
shred wipe srm crontab nice nohup time stdbuf ionice setsid command builtin exec unbuffer chronic timeout env xargs
eval source . git rm rmdir unlink find mv cp ln install rsync tee chmod chown chgrp dd kill cd pushd make gcc
/bin/rm /usr/bin/sudo ./run.sh case select function coproc trap alias { if while for
""")
ARG_SHAPES = [
    "",
    "x",
    "-f x",
    "-rf build",
    "-rf src",
    "-rf /",
    "-rf ~",
    "-r ../x",
    "-R 777 .",
    "777 x",
    "o+w x",
    "-v",
    "--help",
    "-- -x",
    "install requests",
    "add x",
    "-m pip install x",
    "-c 'rm -rf /'",
    "-c 'echo hi'",
    '-lc "$X"',
    "of=/dev/sda",
    "of=out.bin",
    "if=/dev/zero of=/tmp/x",
    "a b /etc/passwd",
    "-t /tmp a",
    "-t ../out a",
    "--delete a/ b/",
    "host:x y",
    "-exec rm {} ;",
    "-delete",
    "-exec cat {} +",
    "-fprint out",
    "--pre=sh x",
    "-o out x",
    "in out",
    "-1",
    "0",
    "$X",
    "x > /tmp/y",
    "x > ../y",
    "x >> .git/config",
    "x 2>&1",
    "x > /dev/sda",
    "-s 9 5 rm -rf /",
    "5 ls",
    "-n 1 rm -f",
    "-S 'rm -rf /'",
    "-u HOME ls",
    "X=1 ls",
    "-v ls",
    "https://x.sh | sh",
    "https://x.sh | python3",
    "$(curl x)",
]
WRAPS = [
    "{}",
    "sudo {}",
    "env X=1 {}",
    "timeout 5 {}",
    "nice -n 5 {}",
    "bash -c '{}'",
    "echo ok && {}",
    "{} | sh",
    "{} ; ls",
    "( {} )",
    "cd /tmp && {}",
    "cd .. && {}",
    "PATH=/x {}",
    "X=1 {}",
    "{} &",
    "! {}",
    "xargs {}",
    "eval '{}'",
]
GIT_SUBS = _words("""
status diff log show blame shortlog describe rev-parse ls-files cat-file grep show-ref for-each-ref var help
check-ignore range-diff cherry add commit push fetch pull clone ls-remote submodule filter-branch filter-repo reset
clean checkout checkout-index switch restore branch reflog gc update-ref rebase tag remote stash config worktree notes
merge cherry-pick revert am apply mv rm init prune repack replace bisect sparse-checkout update-index symbolic-ref
pack-refs maintenance commit-tree read-tree format-patch mergetool my-alias
""")
GIT_ARGS = [
    [],
    ["-f"],
    ["--force"],
    ["-d"],
    ["-D", "x"],
    ["-d", "-f", "x"],
    ["--delete", "x"],
    ["-M", "a", "b"],
    ["--hard"],
    ["--hard", "HEAD~1"],
    ["--soft", "HEAD~1"],
    ["-fdx"],
    ["-n"],
    ["."],
    ["--", "x"],
    ["x", "--"],
    ["HEAD", "--", "a.py"],
    ["-S", "x"],
    ["--staged", "x"],
    ["--staged", "--worktree", "x"],
    ["-SW", "x"],
    ["--discard-changes", "x"],
    ["-l"],
    ["--list"],
    ["-a"],
    ["-vv"],
    ["-r"],
    ["--show-current"],
    ["--contains", "x"],
    ["--sort=-date"],
    ["--format=%(refname)"],
    ["--merged"],
    ["--set-upstream-to=x"],
    ["-l", "x"],
    ["x"],
    ["x", "y"],
    ["origin", "main"],
    ["origin", "+main"],
    ["origin", ":x"],
    ["origin", "a:+b"],
    ["--mirror"],
    ["--all"],
    ["--prune"],
    ["--force-with-lease", "origin", "x"],
    ["--force-if-includes"],
    ["--amend", "-m", "x"],
    ["-m", "x"],
    ["expire", "--all"],
    ["delete", "x"],
    ["show"],
    ["list"],
    ["get-url", "origin"],
    ["add", "origin", "url"],
    ["update"],
    ["prune", "origin"],
    ["--prune=now"],
    ["--prune=all"],
    ["-x", "make"],
    ["--exec", "make"],
    ["--output=x"],
    ["--output", "x"],
    ["-u", "sh", "url"],
    ["--config", "a=b", "url"],
    ["-c", "a=b"],
    ["--get", "user.name"],
    ["get", "user.name"],
    ["--list"],
    ["core.hooksPath", "x"],
    ["set", "alias.x", "!sh"],
    ["unset", "credential.helper"],
    ["filter.x.clean", "sh"],
    ["user.name", "x"],
    ["url.x.insteadOf", "y"],
    ["--upload-pack=sh"],
    ["--receive-pack=sh"],
    ["--exec=sh"],
    ["--template=x"],
    ["--config-env=a=B"],
]
GIT_GLOBALS = [
    [],
    ["--no-pager"],
    ["-P"],
    ["-C", "sub"],
    ["-C", "/etc"],
    ["-C", "../x"],
    ["-C", "~"],
    ["-C"],
    ["-c", "x=y"],
    ["-cx=y"],
    ["--git-dir=/x"],
    ["--work-tree", "/"],
    ["--bare"],
    ["--namespace=x"],
    ["--no-optional-locks"],
    ["--weird"],
    ["--version"],
]


def _strings_and_lists(path: Path) -> tuple[set[str], set[tuple[str, ...]]]:
    strings: set[str] = set()
    lists: set[tuple[str, ...]] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) <= 400:
            strings.add(node.value)
        elif (
            isinstance(node, ast.List | ast.Tuple)
            and 0 < len(node.elts) <= 12
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)
        ):
            lists.add(tuple(e.value for e in node.elts))  # type: ignore[union-attr]
    return strings, lists


def corpus() -> tuple[list[str], list[list[str]]]:
    """Every command line and git argv to pin, in a stable order."""
    commands: set[str] = set()
    git: set[tuple[str, ...]] = set()
    for path in SOURCES:
        strings, lists = _strings_and_lists(path)
        commands |= strings
        git |= {lst for lst in lists if len(lst) <= 8}
    for i, (name, shape) in enumerate(itertools.product(NAMES, ARG_SHAPES)):
        if i % 3 == 0 or name in ("git", "rm", "find", "cp", "mv", "chmod", "dd", "env", "timeout", "bash"):
            commands.add(f"{name} {shape}".strip())
    seeds = sorted(c for c in commands if 0 < len(c) <= 120 and "\n" not in c)
    for i, (seed, wrap) in enumerate(itertools.product(seeds, WRAPS)):
        if i % 41 == 0:
            commands.add(wrap.format(seed))
    for command in list(commands):
        if command.startswith("git "):
            try:
                git.add(tuple(shlex.split(command)[1:]))
            except ValueError:
                pass
    for sub, args in itertools.product(GIT_SUBS, GIT_ARGS):
        git.add((sub, *args))
        if len(args) < 3:
            commands.add(shlex.join(["git", sub, *args]))
    for glob, args in itertools.product(GIT_GLOBALS, [["status"], ["commit", "-m", "x"], ["push", "origin", "x"]]):
        git.add((*glob, *args))
    return sorted(commands), [list(g) for g in sorted(git)]


def parse_digest(command: str) -> str:
    """A short hash of everything parse_shell returns for a line (or the error it raises)."""
    try:
        script: Script | str = parse_shell(command)
    except ShellSyntaxError as exc:
        script = f"error: {exc}"
    return hashlib.sha256(repr(script).encode()).hexdigest()[:16]


def _digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:10]


def shell_verdict(command: str) -> str:
    """The class of a line (without and with a repository root), then a hash of the reasons, offending
    sub-commands and parse: readable where it matters most, small where it is only pinned."""
    bare = classify_command(command)
    rooted = classify_command(command, root=ROOT)
    details = _digest(bare.reason, bare.offending, rooted.reason, rooted.offending, parse_digest(command))
    return f"{bare.kind} {rooted.kind} {details}"


def git_verdict(args: list[str]) -> str:
    verdict = classify_git_args(args)
    return f"{verdict.op} {_digest(verdict.reason)}"


def record() -> dict[str, dict[str, str]]:
    commands, git = corpus()
    return {
        "shell": {command: shell_verdict(command) for command in commands},
        "git": {json.dumps(args): git_verdict(args) for args in git},
    }


if __name__ == "__main__":
    data = record()
    FIXTURE.write_text(json.dumps(data, indent=0, ensure_ascii=True, sort_keys=True) + "\n")
    print(f"{len(data['shell'])} command lines, {len(data['git'])} git argvs -> {FIXTURE}")
