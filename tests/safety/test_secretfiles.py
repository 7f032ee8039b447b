"""The one definition of secret files, and every consumer agreeing with it: file tool, search, policy, sandbox."""

from __future__ import annotations

import ast
import os
import shlex
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from pedro.safety import secretlisting
from pedro.safety.policy import FileRead, FileWrite, Policy, protected_reason
from pedro.safety.sandbox import detect_sandbox, read_landlock_abi
from pedro.safety.secretfiles import (
    HOME_SECRETS,
    SECRET_FILE_NAMES,
    home_secret_paths,
    is_env_file,
    is_secret_path,
)
from pedro.safety.secretlisting import repo_secret_files
from pedro.safety.secrets import Redactor, secret_values
from pedro.tools import load_tool
from pedro.tools.base import ToolContext, ToolDeniedError

needs_bwrap = pytest.mark.skipif(detect_sandbox().kind != "bubblewrap", reason="bubblewrap cannot run here")
needs_landlock = pytest.mark.skipif(read_landlock_abi() is None, reason="the kernel offers no Landlock ABI")

# (path inside the repository, whether it may hold secrets): every pattern of secretfiles, and near misses.
TABLE: list[tuple[str, bool]] = [
    (".env", True),
    (".env.local", True),
    ("config/.env.production", True),
    (".envrc", True),
    (".env.example", False),
    (".env.sample", False),
    (".env.template", False),
    (".env.dist", False),
    ("web/.env.local.example", False),
    ("server.pem", True),
    ("certs/CA.PEM", True),
    ("x.key", True),
    ("cert.p12", True),
    ("cert.pfx", True),
    ("id_rsa", True),
    ("deploy/id_ed25519", True),
    ("id_ecdsa_sk", True),
    ("id_rsa.pub", False),
    ("src/id_utils.py", False),
    (".netrc", True),
    (".git-credentials", True),
    (".npmrc", True),
    ("web/.npmrc", True),
    (".pypirc", True),
    (".aws/credentials", True),
    ("infra/.aws/config", True),
    (".ssh/config", True),
    (".gnupg/pubring.kbx", True),
    (".kube/config", True),
    (".azure/clouds.config", True),
    (".docker/config.json", True),
    (".docker/daemon.json", False),
    (".config/gh/hosts.yml", True),
    (".config/gcloud/credentials.db", True),
    (".config/app.toml", False),
    (".cargo/credentials.toml", True),
    (".cargo/config.toml", False),
    ("environment.py", False),
    ("netrc.py", False),
    ("docs/keys.md", False),
    ("src/app.py", False),
    # Tools' credential and state files, and the code and data that share their names' shape.
    ("credentials", True),
    ("deploy/aws/credentials", True),
    ("credentials.json", True),
    ("gcp/service-account-prod.json", True),
    ("deploy-key.json", True),
    ("auth.json", True),
    ("infra/terraform.tfstate", True),
    ("terraform.tfstate.backup", True),
    ("kubeconfig", True),
    ("prod.kubeconfig", True),
    (".htpasswd", True),
    (".dockercfg", True),
    ("release.jks", True),
    ("android/debug.keystore", True),
    ("signing.asc", True),
    ("id_rsa.old", True),
    ("backup/id_ed25519.bak", True),
    ("prod.env", True),
    ("secrets.yaml", True),
    ("config/secrets.json", True),
    ("token", True),
    ("token.txt", True),
    ("tokens.json", True),
    ("secrets.example", False),
    ("app/secrets.py", False),
    ("lexer/tokens.py", False),
    ("token.go", False),
    ("models/tokenizer.json", False),
    ("credentials.py", False),
    ("service_account.py", False),
    ("monkey.json", False),
    ("id_rsa_backup.pub", False),
    ("docs/auth.md", False),
]
SECRET = [path for path, secret in TABLE if secret]


def marker(rel: str) -> str:
    """A value unique to one path: no marker is a prefix of another."""
    return f"planted<{rel}>"


@pytest.fixture
def planted(repo: Path) -> Path:
    """The repository with every table path present, untracked, each holding its own marker."""
    for rel, _ in TABLE:
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"VALUE={marker(rel)}\n")
    return repo


def run_tool(ctx: ToolContext, name: str, **arguments: object) -> str:
    tool = load_tool(name)
    return tool.run(tool.Args.model_validate(arguments), ctx)


# -- the definition -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rel", "secret"), TABLE)
def test_the_definition(rel: str, secret: bool) -> None:
    assert is_secret_path(rel) is secret
    assert is_secret_path(Path(rel)) is secret
    assert is_secret_path(f"/home/u/project/{rel}") is secret


def test_env_files_are_the_secret_ones_that_set_variables() -> None:
    assert [rel for rel, _ in TABLE if is_env_file(rel)] == [
        ".env", ".env.local", "config/.env.production", ".envrc", "prod.env"
    ]  # fmt: skip


def test_home_secret_paths_lists_what_exists(tmp_path: Path) -> None:
    (tmp_path / ".ssh").mkdir()
    (tmp_path / ".config" / "gh").mkdir(parents=True)
    (tmp_path / ".netrc").write_text("machine x\n")
    (tmp_path / ".npmrc").symlink_to("elsewhere")  # a dangling link is still a credential store's name
    (tmp_path / ".bashrc").write_text("\n")
    found = home_secret_paths(tmp_path)
    assert found == [tmp_path / name for name in (".ssh", ".config/gh", ".netrc", ".npmrc")]
    assert all(is_secret_path(entry) for entry in HOME_SECRETS)


def test_repo_secret_files_skips_dependencies_and_links(planted: Path) -> None:
    (planted / "node_modules" / "pkg").mkdir(parents=True)
    (planted / "node_modules" / "pkg" / "test.key").write_text("vendored\n")
    (planted / ".venv" / "lib").mkdir(parents=True)
    (planted / ".venv" / "lib" / "cacert.pem").write_text("bundle\n")
    (planted / "link.pem").symlink_to("src/app.py")
    (planted / "env" / "lib").mkdir(parents=True)  # a virtualenv under a name snapshots do not know
    (planted / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (planted / "env" / "lib" / "cacert.pem").write_text("bundle\n")
    found = [path.relative_to(planted).as_posix() for path in repo_secret_files(planted)]
    assert found == sorted(SECRET, key=lambda rel: Path(rel).parts)  # the order of paths, folder by folder


def test_the_native_listing_finds_what_a_walk_finds_at_every_depth_behind_ignores_and_links(tmp_path: Path) -> None:
    # Every name of the tables (and a near miss of each exception), at three depths, all of them ignored by git,
    # beside links to secret files and folders, skipped folders and a virtualenv: ripgrep's one pass lists exactly
    # what a walk of the whole tree in Python lists.
    root = tmp_path / "repo"
    names = [glob.replace("*", "x") for glob in SECRET_FILE_NAMES]
    names += [exception.replace("*", "x.env") for rule in SECRET_FILE_NAMES.values() for exception in rule]
    names += [entry if "/" in entry or entry.startswith(".net") else f"{entry}/inner" for entry in HOME_SECRETS]
    names += ["ID_RSA", "Server.PEM", "notes.txt", "src/app.py"]
    for depth in ("", "a/", "a/b/c/"):
        for name in names:
            path = root / depth / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.exists():
                path.write_text("x\n")
    (root / ".gitignore").write_text("*\n")
    (root / "a" / ".gitignore").write_text(".env*\n*.pem\n")
    (root / "linked.pem").symlink_to("a/x.pem")
    (root / "linked-dir").symlink_to("a/b")
    for skipped in ("node_modules/pkg", ".git/hooks", "build", "a/__pycache__", "venv-like/lib"):
        (root / skipped).mkdir(parents=True, exist_ok=True)
        (root / skipped / ".env").write_text("x\n")
    (root / "venv-like" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    walked = sorted(
        path for path in secretlisting._walked(root) if not secretlisting._inside_virtualenv(path, root, {})
    )
    assert secretlisting._listed_by_ripgrep(root) is not None
    assert repo_secret_files(root) == walked
    found = {path.relative_to(root).as_posix() for path in walked}
    assert {"a/b/c/.env", "a/.ssh/inner", "a/b/c/.config/gh", ".docker/config.json", "ID_RSA"} <= found
    assert not {"linked.pem", "node_modules/pkg/.env", "venv-like/lib/.env", "a/x.example"} & found


# -- every consumer agrees ------------------------------------------------------------------------------------------


def test_file_tool_asks_for_exactly_the_secret_files(planted: Path, ctx: ToolContext) -> None:
    for rel, secret in TABLE:
        if secret:
            with pytest.raises(ToolDeniedError, match="may hold secrets"):
                run_tool(ctx, "file", action="read", path=rel)
        else:
            assert marker(rel) in run_tool(ctx, "file", action="read", path=rel), rel


def test_search_skips_exactly_the_secret_files_and_counts_them(planted: Path, ctx: ToolContext) -> None:
    out = run_tool(ctx, "search", action="grep", pattern="planted<", literal=True)
    for rel, secret in TABLE:
        assert (marker(rel) in out) is not secret, rel
    assert f"note: {len(SECRET)} files that may hold secrets were not searched" in out
    listed = run_tool(ctx, "search", action="find_files", pattern="**", max_results=1000)
    assert {rel for rel, secret in TABLE if not secret} <= set(listed.splitlines())
    assert not set(SECRET) & set(listed.splitlines())
    assert f"note: {len(SECRET)} files that may hold secrets were not listed" in listed


def test_search_counts_only_what_it_would_have_searched(planted: Path, ctx: ToolContext) -> None:
    (planted / ".gitignore").write_text(".env\n.env.*\n")  # ignored files are never searched anyway
    out = run_tool(ctx, "search", action="grep", pattern="planted<", literal=True)
    assert f"note: {len(SECRET) - 3} files that may hold secrets were not searched" in out
    one = run_tool(ctx, "search", action="grep", pattern="planted<", literal=True, path="certs")
    assert one == "no matches for text 'planted<' in certs\nnote: 1 file that may hold secrets was not searched " + (
        "(env files, keys, credentials); ask the user if the task needs them"
    )


def test_navigate_parses_no_secret_file(planted: Path, ctx: ToolContext) -> None:
    for rel, secret in TABLE:
        if secret:
            with pytest.raises(ToolDeniedError, match="may hold secrets"):
                run_tool(ctx, "navigate", action="imports", path=rel)
        else:
            run_tool(ctx, "navigate", action="imports", path=rel)


def test_policy_asks_for_exactly_the_secret_files(planted: Path) -> None:
    policy = Policy(mode="workspace-write", approval="ask")
    for rel, secret in TABLE:
        assert (policy.decide(FileRead(rel)).verdict == "ask") is secret, rel
        reason = protected_reason(rel) or ""
        assert ("holds secrets" in reason) is secret, rel
        assert policy.decide(FileWrite(rel)).verdict == ("ask" if reason else "allow"), rel


@needs_bwrap
def test_bubblewrap_hides_exactly_the_secret_files(
    planted: Path, ctx: ToolContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PEDRO_SANDBOX", raising=False)
    script = "; ".join(f"printf '%s=' {shlex.quote(rel)}; cat {shlex.quote(rel)}" for rel, _ in TABLE)
    out = run_tool(ctx, "bash", command=script)
    for rel, secret in TABLE:
        assert (marker(rel) in out) is not secret, rel
    assert all((planted / rel).read_text() == f"VALUE={marker(rel)}\n" for rel, _ in TABLE)


def test_redaction_withholds_every_secret_file_s_values_wherever_no_sandbox_hides_them(planted: Path) -> None:
    redactor = Redactor(secret_values({}, root=planted))
    for rel, secret in TABLE:
        shown = redactor.redact(f"VALUE={marker(rel)}")
        assert (marker(rel) in shown) is not secret, rel


# -- the user's credential stores -----------------------------------------------------------------------------------


HOME_DIRS = frozenset({".ssh", ".aws", ".gnupg", ".kube", ".azure", ".config/gh", ".config/gcloud"})


@pytest.fixture
def home() -> Iterator[Path]:
    """A home outside /tmp: the sandboxes make /tmp private or writable, which would hide or expose it anyway."""
    base = Path("/var/tmp") if Path("/var/tmp").is_dir() else Path.home()
    folder = Path(tempfile.mkdtemp(prefix="pedro-home-", dir=base))
    for entry in HOME_SECRETS:
        path = folder / entry
        path.parent.mkdir(parents=True, exist_ok=True)
        if entry in HOME_DIRS:
            path.mkdir()
            (path / "stored").write_text(f"{marker(entry)}\n")
        else:
            path.write_text(f"{marker(entry)}\n")
    (folder / ".config" / "app.toml").write_text("ordinary-setting\n")
    (folder / ".cargo" / "bin").mkdir()
    (folder / "notes.txt").write_text("ordinary-notes\n")
    yield folder
    shutil.rmtree(folder)


def read_home(ctx: ToolContext, home: Path) -> str:
    readable = [*HOME_SECRETS, ".config/app.toml", "notes.txt"]
    script = "; ".join(f"cat {shlex.quote(str(home / rel))} {shlex.quote(str(home / rel))}/stored" for rel in readable)
    return run_tool(ctx, "bash", command=script + " 2>&1; true")


@needs_landlock
def test_landlock_hides_the_credential_stores_of_the_account_home(
    repo: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PEDRO_SANDBOX", "landlock")
    ctx = ToolContext(root=repo, env={**os.environ, "HOME": str(home)})
    out = read_home(ctx, home)
    for entry in HOME_SECRETS:
        assert marker(entry) not in out, entry
    assert "ordinary-notes" in out and "ordinary-setting" in out
    assert "Permission denied" in out


@needs_bwrap
def test_bubblewrap_hides_the_credential_stores_it_binds_back_or_leaves_in_view(
    repo: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """~/.cargo comes back for its toolchain, the account's home is in view when $HOME names another: both hidden."""

    from pedro.safety import secretfiles

    monkeypatch.delenv("PEDRO_SANDBOX", raising=False)

    monkeypatch.setattr(secretfiles.pwd, "getpwuid", lambda _uid: SimpleNamespace(pw_dir=str(home)))
    path_var = f"{home}/.cargo/bin:{os.environ['PATH']}"
    private = ToolContext(root=repo, env={**os.environ, "HOME": str(home), "PATH": path_var})
    out = read_home(private, home)
    assert marker(".cargo/credentials.toml") not in out and "ordinary-notes" not in out
    in_view = ToolContext(root=repo, env={**os.environ, "HOME": "/nonexistent", "PATH": path_var})
    out = read_home(in_view, home)
    for entry in HOME_SECRETS:
        assert marker(entry) not in out, entry
    assert "ordinary-notes" in out and "ordinary-setting" in out


# -- one home for the definition ------------------------------------------------------------------------------------

# Names only the definition may spell out; a second list of them is how the copies came to disagree.
_DEFINITION_ONLY = (".netrc", ".git-credentials", ".npmrc", ".pypirc", ".envrc", "id_rsa", "id_ed25519", ".p12")
_DEFINITION_ONLY += (".pfx", "*.pem", "*.key", ".gnupg", ".kube", ".ssh", ".aws", "docker/config.json", ".env.")


def _code_strings(path: Path) -> Iterator[tuple[int, str]]:
    """String constants in code, docstrings left out (prose may name the files)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            docstrings.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def test_no_module_keeps_its_own_copy() -> None:
    package = Path(__file__).resolve().parents[2] / "pedro"
    copies = [
        f"{path.relative_to(package)}:{line}: {text!r}"
        for path in sorted(package.rglob("*.py"))
        if path.name != "secretfiles.py"
        for line, text in _code_strings(path)
        if any(name in text for name in _DEFINITION_ONLY)
    ]
    assert copies == []
