"""credreads: every spelling that may reach a credential store or a process's environment counts; plain reads do not."""

from __future__ import annotations

from pathlib import Path

import pytest

from pedro.safety.credreads import credential_read, git_reads_credentials
from pedro.safety.policy import BashCommand, Policy

MAY_READ = [
    "cat ~/.ssh/id_rsa | rev",
    "cat ~/.netrc",
    "cat ~/.aws/credentials",
    "cat $HOME/.git-credentials",
    "cat ${HOME}/.git-credentials",
    'cat "$HOME"/.netrc',
    "rev < ~/.ssh/id_rsa",
    "base64 ~/.ssh/id_rsa",
    "cp ~/.ssh/id_rsa x",
    "cat ~/.ssh/*",
    "cat ~/.s*/id_rsa",
    "cat ~/.[n]etrc",
    "cat ~/.config/gh/hosts.yml",
    "cat ~/.config/*/hosts.yml",
    "cat ~/.gitconfig",
    "cat {home}/.netrc",
    "cat ../home/.netrc",
    "cat ../../{tmp}/home/.aws/credentials",
    "cat sshlink/id_rsa",
    "cat sshlink/*",
    "cat homelink/.netrc",
    "grep -r x ~",
    "rg TOKEN ..",
    "grep -r x /",
    "cd ~ && cat .netrc",
    "cd; cat .netrc",
    "nice cat ~/.netrc",
    "cat $(echo ~/.netrc)",
    "head -c 100 -- ~/.aws/credentials",
    "X=~/.netrc cat x",
    "cat $UNKNOWN_VARIABLE",
    "cat /proc/$PPID/environ",
    "cat /proc/self/environ",
    "cat /proc/*/environ",
    "grep -r TOKEN /proc",
    "git config --get-regexp http",
    "git config --global --list",
    "git config -l",
    "git config --get http.extraheader",
    "git config get --all credential.helper",
    "git var -l",
    "cat 'unterminated",
]
PLAIN = [
    "cat README.md",
    "ls ~ ~/.ssh",
    "stat ~/.ssh/id_rsa",
    "echo $PATH",
    "git status",
    "git config --get user.name",
    "cat src/*.py",
    "grep -rn foo .",
    "rg foo src",
    "cat /proc/cpuinfo",
    "cd src && cat x",
    "cat *",
    "python3 -c 'print(1)'",
]


@pytest.fixture
def machine(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A repository beside a home with credential stores, and links from the repository into the home."""
    home, root = tmp_path / "home", tmp_path / "repo"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("key\n")
    (home / ".netrc").write_text("machine x password y\n")
    (root / "src").mkdir(parents=True)
    (root / "sshlink").symlink_to(home / ".ssh")
    (root / "homelink").symlink_to(home)
    return root, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize("command", MAY_READ)
def test_commands_that_may_read_a_store_are_named(command: str, machine: tuple[Path, dict[str, str]]) -> None:
    root, env = machine
    text = command.replace("{home}", env["HOME"]).replace("{tmp}", root.parent.as_posix().lstrip("/"))
    assert credential_read(text, root=root, env=env), text


@pytest.mark.parametrize("command", PLAIN)
def test_plain_reads_are_not(command: str, machine: tuple[Path, dict[str, str]]) -> None:
    root, env = machine
    assert credential_read(command, root=root, env=env) is None


def test_git_credential_settings() -> None:
    assert git_reads_credentials(["config", "--get", "credential.helper"])
    assert git_reads_credentials(["--no-pager", "config", "--show-origin", "--list"])
    assert git_reads_credentials(["config", "get", "url.https://x/.insteadOf"])
    assert git_reads_credentials(["config", "--get", "core.editor"]) is None
    assert git_reads_credentials(["log", "--oneline"]) is None


def test_policy_asks_only_without_a_sandbox_and_never_remembers() -> None:
    reason = "cat ~/.netrc names .netrc, a credential store"
    policy = Policy(approval="ask")
    bare = BashCommand("cat ~/.netrc", sandboxed=False, reads_credentials=reason)
    decision = policy.decide(bare)
    assert decision.verdict == "ask" and decision.rule == "bash.credentials" and decision.key is None
    assert not policy.remember(bare)
    assert Policy(approval="never").decide(bare).verdict == "deny"
    assert Policy(mode="read-only", approval="never").decide(bare).verdict == "deny"
    assert policy.decide(BashCommand("cat ~/.netrc", sandboxed=True)).verdict == "allow"
