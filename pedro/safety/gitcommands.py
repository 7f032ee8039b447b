"""Classify a git argv: read, stage/commit, mutate, network, publish or forbidden, for bash and the git tool."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

GitOp = Literal["read", "stage_commit", "mutate", "network", "publish", "forbidden", "unknown"]


@dataclass(frozen=True)
class GitVerdict:
    """What a git argv would do, for both the bash classifier and the git tool's policy."""

    op: GitOp
    reason: str


def word_set(*chunks: str) -> frozenset[str]:
    """The words of space-separated chunks: how the command tables are written."""
    return frozenset(word for chunk in chunks for word in chunk.split())


_GIT_READ = word_set(
    "status diff log show blame annotate shortlog describe rev-parse rev-list ls-files ls-tree",
    "cat-file grep show-ref show-branch whatchanged merge-base name-rev for-each-ref",
    "count-objects var version help check-ignore check-attr diff-tree diff-files diff-index",
    "range-diff cherry verify-commit verify-tag",
)
_GIT_MUTATE = word_set(
    "switch checkout restore reset merge rebase cherry-pick revert am apply mv rm stash tag",
    "init worktree notes gc prune repack replace bisect sparse-checkout update-index",
    "symbolic-ref update-ref pack-refs maintenance commit-tree read-tree checkout-index",
    "format-patch config remote branch reflog mergetool",
)
_GIT_NETWORK = word_set("fetch pull clone ls-remote submodule")
_GIT_GLOBAL_SKIP = word_set(
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
