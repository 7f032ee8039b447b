"""The secret-file census of search on real temporary git repositories: read from the grep's own walk when it has
no filters, else kept while the tree is unchanged and taken again after every kind of change that could alter it."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pedro.safety import treestate
from pedro.safety.secretfiles import SECRET_FILE_NAMES
from pedro.tools import census, search
from pedro.tools.base import ToolContext
from pedro.tools.census import Census, SecretCensus, census_from_log, forget_censuses
from pedro.tools.ripgrep import find_rg, logs_left_out, scope_glob
from pedro.tools.search import SearchArgs, SearchTool

SKIPPED_ONE = "note: 1 file that may hold secrets was not searched"
SKIPPED_TWO = "note: 2 files that may hold secrets were not searched"
ASK = "(env files, keys, credentials); ask the user if the task needs them"


@pytest.fixture(autouse=True)
def _fresh_memory() -> Iterator[None]:
    forget_censuses()
    yield
    forget_censuses()


# How long a tree must have been still here: the real margin covers network filesystems' clocks, and waiting
# it out in every test would cost seconds each.
SETTLE_SECONDS = 0.1


@pytest.fixture
def tree(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ToolContext:
    """A repository that has been still for a while, searched with a home of its own (no global git excludes)."""
    monkeypatch.setattr(treestate, "SETTLE_NS", int(SETTLE_SECONDS * 1e9))
    files = {
        "src/app.py": "needle = 1\n",
        "src/.env": "needle=secret\n",
        "docs/guide.md": "a needle\n",
        ".env.example": "needle=placeholder\n",
        ".gitignore": "private/\n",
        "private/.env": "needle=hidden\n",
    }
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    (repo / "config").mkdir()  # a folder with no file in it yet
    home = tmp_path / "home"
    home.mkdir()
    _settle()
    return ToolContext(root=repo, env={"HOME": str(home), "PATH": os.environ["PATH"]})


def _settle() -> None:
    time.sleep(2 * SETTLE_SECONDS)


def _age(root: Path, seconds: float) -> None:
    then = time.time() - seconds
    for folder, _, names in os.walk(root):
        for path in [Path(folder), *(Path(folder) / name for name in names)]:
            os.utime(path, (then, then), follow_symlinks=False)


# A grep with a glob (here "*", every file) takes its census by a listing, remembered while the tree is still; one
# without reads it from its own walk's log. Every change below must be counted either way.
WAYS = ("listed", "logged")


@pytest.fixture(params=WAYS)
def way(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _grep(ctx: ToolContext, way: str = "listed", pattern: str = "needle") -> str:
    args = {"action": "grep", "pattern": pattern, **({"glob": "*"} if way == "listed" else {})}
    return SearchTool().run(SearchArgs.model_validate(args), ctx)


def _remembered(ctx: ToolContext, way: str = "listed") -> bool:
    """Whether the listed census of the tree is remembered (the logged way takes none: True when none was taken)."""
    if way == "logged":
        return not census._MEMORY.entries
    with SecretCensus(ctx, ctx.root, filters=scope_glob(ctx, "*", ctx.root).filters) as taken:
        taken.result()
        return taken.remembered


def test_a_still_tree_is_listed_once_and_then_remembered(tree: ToolContext) -> None:
    assert not _remembered(tree)
    forget_censuses()
    first = _grep(tree)
    assert SKIPPED_ONE in first  # src/.env; private/ is ignored
    assert ".env.example:1: needle=placeholder" in first  # spared, searched apart
    assert _remembered(tree)
    assert _grep(tree) == first


def test_a_grep_without_filters_counts_from_its_own_walk_and_takes_no_listing(tree: ToolContext) -> None:
    assert logs_left_out(find_rg(tree.env))  # the ripgrep pyproject pins is one whose log the census reads
    logged = _grep(tree, "logged")
    assert SKIPPED_ONE in logged and ".env.example:1: needle=placeholder" in logged
    assert not census._MEMORY.entries  # no census was taken, none remembered
    assert logged == _grep(tree, "listed")


def test_a_secret_file_added_to_a_listed_folder_is_counted(tree: ToolContext, way: str) -> None:
    _grep(tree, way)
    _grep(tree, way)
    (tree.root / "src" / ".env.local").write_text("needle=another\n")
    assert SKIPPED_TWO in _grep(tree, way)


def test_a_secret_file_added_to_a_folder_with_no_listed_file_is_counted(tree: ToolContext, way: str) -> None:
    _grep(tree, way)
    _grep(tree, way)
    assert _remembered(tree, way)
    (tree.root / "config" / "prod.key").write_text("needle\n")
    assert SKIPPED_TWO in _grep(tree, way)


def test_an_ignore_file_edited_in_place_is_noticed(tree: ToolContext, way: str) -> None:
    _grep(tree, way)
    _grep(tree, way)
    assert _remembered(tree, way)
    with (tree.root / ".gitignore").open("w") as ignore:  # rewritten in place: its folder's time stays
        ignore.write("build/\n")
    assert SKIPPED_TWO in _grep(tree, way)  # private/.env is no longer ignored


def test_a_spared_file_added_later_is_searched(tree: ToolContext, way: str) -> None:
    _grep(tree, way)
    _grep(tree, way)
    (tree.root / "docs" / "id_setup.md").write_text("needle in a spared name\n")
    assert "docs/id_setup.md:1: needle in a spared name" in _grep(tree, way)


def test_a_tree_that_changed_just_before_its_walk_is_listed_again(tree: ToolContext) -> None:
    (tree.root / "src" / "new.py").write_text("needle = 2\n")  # a change may share the walk's clock tick
    _grep(tree)
    _grep(tree)
    assert not _remembered(tree)


def test_a_change_between_the_walk_and_the_next_search_is_not_recorded_as_the_walks(
    tree: ToolContext, way: str
) -> None:
    _grep(tree, way)
    (tree.root / "docs" / ".env").write_text("needle=late\n")
    _age(tree.root / "docs", seconds=30)  # a modification time set back, as tar and cp -p do
    assert SKIPPED_TWO in _grep(tree, way)


def test_global_git_excludes_are_watched(tree: ToolContext, way: str) -> None:
    home = Path(tree.env["HOME"])
    (home / ".gitconfig").write_text(f"[core]\n\texcludesFile = {home / 'excludes'}\n")
    (home / "excludes").write_text("nothing\n")
    _settle()
    _grep(tree, way)
    _grep(tree, way)
    assert _remembered(tree, way)
    (home / "excludes").write_text("src/\n")
    assert "note: " not in _grep(tree, way)  # src/.env is ignored now


# -- the census a grep's own walk gives, against a listing's -------------------------------------------------------


def _logged(ctx: ToolContext, path: str) -> Census | None:
    """The census read from the log of a grep of `path` with no filters, as search takes it."""
    grep = search._Search(ctx, "needle", ignore_case=False, literal=False, limit=100, log_left_out=True)
    search._grep_scope(grep, [path], (), hide_secrets=True)
    return census_from_log(ctx, grep.log)


def _listed(ctx: ToolContext, path: str) -> Census:
    forget_censuses()
    with SecretCensus(ctx, ctx.root / path) as taken:
        return taken.result()


def test_the_log_names_what_a_listing_counts_at_every_depth_behind_ignores_and_links(
    repo: Path, tmp_path: Path
) -> None:
    names = [glob.replace("*", "x") for glob in SECRET_FILE_NAMES]
    names += [exception.replace("*", "x.env") for rule in SECRET_FILE_NAMES.values() for exception in rule]
    names += [".env.example", "id_rsa.pub", "id_utils.py", "secrets.py", "tokens.md"]  # spared: not secret
    names += ["ID_RSA", "Server.PEM", "notes.txt", "app.py", "a b: ignoring c.pem", "id_tools/inner.py"]
    for depth in ("", "a/", "a/b/c/", "kept/", "build/", "node_modules/pkg/", "private/deep/"):
        for name in names:
            path = repo / depth / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("needle\n")
    (repo / ".gitignore").write_text("private/\nnode_modules/\n*.p12\n!kept/*.p12\n")
    (repo / "a" / ".ignore").write_text(".env*\n")
    (repo / "a" / "b" / ".rgignore").write_text("*.pem\n")
    (repo / "linked.pem").symlink_to("app.py")  # a link with a secret name, and links to secret files
    (repo / "link-to-key.txt").symlink_to("x.key")
    (repo / "linked-dir").symlink_to("a/b")
    home = tmp_path / "home"
    home.mkdir()
    ctx = ToolContext(root=repo, env={"HOME": str(home), "PATH": os.environ["PATH"]})
    for path in (".", "a", "a/b", "kept", "build"):
        logged, listed = _logged(ctx, path), _listed(ctx, path)
        assert logged == listed, path
        assert listed.secret and listed.spared, path  # each tree holds both kinds


def test_a_credential_store_or_an_odd_name_is_counted_by_a_listing(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    ctx = ToolContext(root=repo, env={"HOME": str(home), "PATH": os.environ["PATH"]})
    (repo / "app.py").write_text("needle\n")
    (repo / "infra" / ".aws").mkdir(parents=True)
    (repo / "infra" / ".aws" / "credentials").write_text("needle=key\n")
    (repo / "infra" / ".aws" / "config").write_text("needle\n")
    assert _logged(ctx, ".") is None  # a store is left out whole: the log cannot say how many files it holds
    assert _grep(ctx, "logged").splitlines() == ["app.py:1: needle", f"{SKIPPED_TWO} {ASK}"]  # both store files
    shutil.rmtree(repo / "infra")
    for odd in (b"two\nlines.pem", b"not-utf8-\xff.pem"):
        (repo / "keys").mkdir(exist_ok=True)
        # A name that is not UTF-8 has no Path: it is written through its bytes.
        with open(os.fsencode(repo / "keys") + b"/" + odd, "w") as planted:  # noqa: PTH123
            planted.write("needle\n")
        assert _logged(ctx, ".") is None, odd
    assert _grep(ctx, "logged").splitlines() == ["app.py:1: needle", f"{SKIPPED_TWO} {ASK}"]  # both odd names
