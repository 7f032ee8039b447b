"""The policy table of safety.md §1, its modes and approval, rule layering, memory and tighten()."""

from __future__ import annotations

import pytest

from pedro.safety.policy import (
    Action,
    BashCommand,
    FileDelete,
    FileRead,
    FileWrite,
    GitAction,
    NetworkAccess,
    Policy,
    RepoPolicy,
    Rule,
    protected_reason,
    tighten,
)
from pedro.safety.secretfiles import is_secret_path

W = "workspace-write"

# (action, expected verdict in workspace-write with approval "ask") — one or more lines per row of safety.md §1.
TABLE: list[tuple[Action, str]] = [
    # file read / search / navigate inside repo root
    (FileRead("src/app.py"), "allow"),
    (FileRead(".env"), "ask"),
    (FileRead("config/.env.production"), "ask"),
    (FileRead(".env.example"), "allow"),
    (FileRead("certs/server.pem"), "ask"),
    (FileRead("keys/id_ed25519"), "ask"),
    (FileRead(".netrc"), "ask"),
    (FileRead(".git-credentials"), "ask"),
    # read outside repo
    (FileRead("/etc/passwd", outside=True), "deny"),
    # write inside repo (not protected)
    (FileWrite("src/app.py"), "allow"),
    (FileWrite(".gitignore"), "allow"),
    # protected writes (row 25 of §2 too)
    (FileWrite(".git/hooks/pre-commit"), "ask"),
    (FileWrite(".git/config"), "ask"),
    (FileWrite(".github/workflows/x.yml"), "ask"),
    (FileWrite(".env"), "ask"),
    (FileWrite(".pedro/policy.toml"), "ask"),
    (FileWrite(".husky/pre-push"), "ask"),
    (FileWrite(".pre-commit-config.yaml"), "ask"),
    (FileWrite(".bashrc"), "ask"),
    (FileWrite(".vscode/settings.json"), "ask"),
    # write/delete outside repo or through symlinks leaving it
    (FileWrite("/tmp/outside.txt", outside=True), "deny"),
    (FileDelete("/home/u/x", outside=True), "deny"),
    # delete a file
    (FileDelete("src/old.py", recoverable=True), "allow"),
    (FileDelete("src/scratch.py", recoverable=False), "ask"),
    (FileDelete(".git/index", recoverable=True), "ask"),
    # bash in sandbox: allowed unless destructive
    (BashCommand("python -m pytest -q"), "allow"),
    (BashCommand("ls -la"), "allow"),
    (BashCommand("rm -rf src"), "ask"),
    (BashCommand("find . -delete"), "ask"),
    (BashCommand("chmod -R 755 ."), "ask"),
    (BashCommand("git commit -am x"), "ask"),
    # bash without a sandbox: everything but the read-only allowlist asks
    (BashCommand("python -m pytest -q", sandboxed=False), "ask"),
    (BashCommand("grep -rn foo src", sandboxed=False), "allow"),
    (BashCommand("grep -rn foo src > out", sandboxed=False), "ask"),
    # unparseable / complex shell
    (BashCommand("cat $(echo /etc/passwd)"), "ask"),
    (BashCommand("cat `echo /etc/passwd`"), "ask"),
    (BashCommand("diff <(sh -c id) x"), "ask"),
    (BashCommand('eval "$X"'), "ask"),
    (BashCommand("bash -c 'echo hi'"), "ask"),
    (BashCommand("ls | xargs wc -l"), "ask"),
    (BashCommand("env X=1 make"), "ask"),
    (BashCommand("cat <<< hi"), "ask"),
    (BashCommand("echo 'unterminated"), "ask"),
    # network
    (NetworkAccess("pip install requests"), "ask"),
    (BashCommand("curl https://example.com"), "ask"),
    (BashCommand("pip install x"), "ask"),
    (BashCommand("git fetch"), "ask"),
    (BashCommand("echo > /dev/tcp/127.0.0.1/80"), "ask"),
    # git tool: allowed
    (GitAction(("status",)), "allow"),
    (GitAction(("diff", "--staged")), "allow"),
    (GitAction(("log", "-5")), "allow"),
    (GitAction(("show", "HEAD")), "allow"),
    (GitAction(("branch", "--list")), "allow"),
    (GitAction(("add", "--", "src/a.py")), "allow"),
    (GitAction(("commit", "-m", "x"), on_job_branch=True), "allow"),
    (GitAction(("commit", "-m", "x"), on_job_branch=False), "ask"),
    # git tool: ask
    (GitAction(("switch", "feature")), "ask"),
    (GitAction(("checkout", "feature")), "ask"),
    (GitAction(("stash",)), "ask"),
    (GitAction(("merge", "feature")), "ask"),
    (GitAction(("rebase", "main")), "ask"),
    (GitAction(("commit", "--amend", "-m", "x")), "ask"),
    (GitAction(("push", "origin", "pedro/job-1")), "ask"),
    # git tool: denied from the model (row 8, 9 of §2)
    (GitAction(("reset", "--hard")), "deny"),
    (GitAction(("clean", "-fdx")), "deny"),
    (GitAction(("checkout", "--", ".")), "deny"),
    (GitAction(("restore", "src/a.py")), "deny"),
    (GitAction(("branch", "-D", "x")), "deny"),
    (GitAction(("push", "--force", "origin", "main")), "deny"),
    (GitAction(("push", "-f")), "deny"),
    (GitAction(("push", "origin", "+main")), "deny"),
    (GitAction(("push", "--mirror")), "deny"),
    (GitAction(("push", "--delete", "origin", "x")), "deny"),
    (GitAction(("filter-branch",)), "deny"),
    (GitAction(("reflog", "expire", "--all")), "deny"),
    (GitAction(("gc", "--prune=now")), "deny"),
    (GitAction(("update-ref", "-d", "refs/heads/x")), "deny"),
    (GitAction(("-c", "core.hooksPath=x", "commit")), "deny"),
    (GitAction(("-c", "alias.x=!sh", "x")), "deny"),
    (GitAction(("fetch", "--upload-pack=sh")), "deny"),
    (GitAction(("--git-dir=/x", "status")), "deny"),
    (GitAction(("--work-tree=/", "status")), "deny"),
    (GitAction(("push", "--receive-pack=x")), "deny"),
    (GitAction(("my-alias",)), "deny"),
    # §2 row 6: destructive shell asks
    (BashCommand("rm -rf ~"), "ask"),
    (BashCommand('rm -rf "$HOME"'), "ask"),
    (BashCommand("rm -rf /"), "ask"),
    (BashCommand("rm -rf *"), "ask"),
    # §2 row 7: git destruction through bash is denied
    (BashCommand("git reset --hard"), "deny"),
    (BashCommand("git checkout -- ."), "deny"),
    (BashCommand("git clean -fdx"), "deny"),
    (BashCommand("rm -rf .git"), "deny"),
    # §2 row 8 and 29 through bash
    (BashCommand("git push --force origin main"), "deny"),
    (BashCommand("git push origin main"), "ask"),
    # §2 row 26: reading secrets from the shell is allowed (output is redacted, env is scrubbed)
    (BashCommand("env"), "allow"),
    (BashCommand("printenv"), "allow"),
    (BashCommand("cat .env"), "allow"),
    (BashCommand("git config --get-all credential.helper"), "allow"),
    # §2 row 30 and the last row of §1
    (BashCommand("sudo rm x"), "deny"),
    (BashCommand("chmod -R 777 ."), "deny"),
    (BashCommand("mkfs.ext4 x"), "deny"),
    (BashCommand("curl x | sh"), "deny"),
    (BashCommand("pkill python"), "deny"),
    (BashCommand("su -"), "deny"),
    (BashCommand("doas ls"), "deny"),
    (BashCommand("dd if=/dev/zero of=/dev/sda"), "deny"),
    (BashCommand("chmod 777 x"), "deny"),
    (BashCommand("killall node"), "deny"),
]


@pytest.mark.parametrize(("action", "expected"), TABLE)
def test_table_in_workspace_write(action: Action, expected: str) -> None:
    decision = Policy(mode=W, approval="ask").decide(action)
    assert decision.verdict == expected, (action, decision)
    assert decision.reason and decision.rule


@pytest.mark.parametrize(("action", "expected"), TABLE)
def test_approval_never_turns_every_ask_into_deny(action: Action, expected: str) -> None:
    decision = Policy(mode=W, approval="never").decide(action)
    assert decision.verdict == ("deny" if expected in ("ask", "deny") else "allow")
    if expected == "ask":
        assert "approval: never" in decision.reason and "another way" in decision.reason


def test_push_is_never_allowed_in_never_mode() -> None:
    decision = Policy(mode=W, approval="never").decide(GitAction(("push", "origin", "pedro/job")))
    assert decision.verdict == "deny"


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        (FileRead("src/a.py"), "allow"),
        (FileRead(".env"), "ask"),
        (FileWrite("src/a.py"), "deny"),
        (FileDelete("src/a.py", recoverable=True), "deny"),
        (BashCommand("ls"), "allow"),
        (BashCommand("cat README.md | head"), "allow"),
        (BashCommand("python -m pytest"), "deny"),
        (BashCommand("echo x > f"), "deny"),
        (GitAction(("status",)), "allow"),
        (GitAction(("commit", "-m", "x")), "deny"),
        (NetworkAccess("pip install x"), "deny"),
    ],
)
def test_read_only_mode(action: Action, expected: str) -> None:
    assert Policy(mode="read-only").decide(action).verdict == expected


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        (BashCommand("python -m pytest", sandboxed=False), "allow"),
        (BashCommand("curl https://example.com"), "allow"),
        (BashCommand("bash -c 'make'"), "allow"),
        (BashCommand("rm -rf src"), "ask"),
        (BashCommand("git reset --hard"), "deny"),
        (BashCommand("sudo ls"), "deny"),
        (FileRead(".env"), "allow"),
        (FileWrite(".github/workflows/ci.yml"), "allow"),
        (FileWrite(".git/config"), "ask"),
        (GitAction(("switch", "x")), "allow"),
        (GitAction(("push", "origin", "x")), "ask"),
        (GitAction(("push", "--force")), "deny"),
        (NetworkAccess("npm install"), "allow"),
    ],
)
def test_full_access_asks_only_for_destructive(action: Action, expected: str) -> None:
    assert Policy(mode="full-access").decide(action).verdict == expected


def test_always_allow_memory_covers_asks_but_never_destructive_or_denied() -> None:
    policy = Policy(mode=W)
    network = BashCommand("pip install requests")
    assert policy.decide(network).verdict == "ask"
    assert policy.remember(network) is True
    assert policy.decide(network).verdict == "allow"
    assert policy.decide(BashCommand("pip install other")).verdict == "ask"  # the key is the exact command

    destructive = BashCommand("rm -rf src")
    assert policy.remember(destructive) is False
    assert policy.decide(destructive).verdict == "ask"
    denied = GitAction(("push", "--force"))
    assert policy.remember(denied) is False
    assert policy.decide(denied).verdict == "deny"
    assert policy.remember(GitAction(("push", "origin", "x"))) is False
    assert policy.remember(FileRead("src/a.py")) is False  # already allowed: nothing to remember


def test_remembered_asks_are_still_denied_in_never_mode_only_when_not_remembered() -> None:
    policy = Policy(mode=W, approval="never")
    action = FileWrite(".env")
    assert policy.decide(action).verdict == "deny"
    policy.remembered.add("write:.env")
    assert policy.decide(action).verdict == "allow"


def test_configured_rules_are_deny_first_and_cannot_loosen_hard_classes() -> None:
    rules = (
        Rule("bash", "make *", "deny"),
        Rule("bash", "pip install *", "allow"),
        Rule("bash", "rm -rf *", "allow"),
        Rule("bash", "git push --force*", "allow"),
        Rule("read", "secrets/*", "ask"),
        Rule("write", "docs/*", "deny"),
    )
    policy = Policy(mode=W, rules=rules)
    assert policy.decide(BashCommand("make test")).verdict == "deny"
    assert policy.decide(BashCommand("pip install requests")).verdict == "allow"
    assert policy.decide(BashCommand("rm -rf src")).verdict == "ask"
    assert policy.decide(BashCommand("git push --force")).verdict == "deny"
    assert policy.decide(FileRead("secrets/a.txt")).verdict == "ask"
    assert policy.decide(FileWrite("docs/a.md")).verdict == "deny"


def test_tighten_only_tightens() -> None:
    user = Policy(mode=W, approval="ask", rules=(Rule("bash", "npm *", "allow"),), read_roots=("/opt/docs",))
    looser = tighten(user, RepoPolicy(mode="full-access", rules=(Rule("bash", "curl *", "allow"),)))
    assert looser.mode == W and looser.approval == "ask"
    assert looser.decide(BashCommand("curl https://x")).verdict == "ask"
    assert looser.read_roots == ("/opt/docs",)

    stricter = tighten(user, RepoPolicy(mode="read-only", approval="never", rules=(Rule("bash", "ls*", "deny"),)))
    assert stricter.mode == "read-only" and stricter.approval == "never"
    assert stricter.decide(BashCommand("ls")).verdict == "deny"
    assert stricter.decide(FileWrite("src/a.py")).verdict == "deny"
    # a repository README cannot change anything: the push stays denied whatever the repository says (row 29)
    assert tighten(user, RepoPolicy()).decide(GitAction(("push", "--force"))).verdict == "deny"


def test_extra_read_roots_come_only_from_the_user() -> None:
    policy = Policy(mode=W, read_roots=("/opt/docs",))
    assert policy.decide(FileRead("/opt/docs/api.md", outside=True)).verdict == "allow"
    assert policy.decide(FileRead("/opt/docs-evil/x", outside=True)).verdict == "deny"


def test_path_helpers() -> None:
    assert is_secret_path("deploy/id_rsa") and is_secret_path(".aws/credentials") and is_secret_path("a/.env.local")
    assert not is_secret_path("src/id_utils.py") and not is_secret_path("environment.py")
    assert not is_secret_path(".env.example")
    assert protected_reason("src/main.py") is None
    assert protected_reason(".gitignore") is None
    assert protected_reason(".github/ISSUE_TEMPLATE/bug.md") is None
    assert protected_reason("sub/.git/config") is not None
    assert protected_reason("./.git/HEAD") is not None
