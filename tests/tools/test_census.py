"""The secret-file census of search on real temporary git repositories: kept while the tree is unchanged, and
taken again after every kind of change that could alter it."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pedro.tools import census
from pedro.tools.base import ToolContext
from pedro.tools.census import SecretCensus, forget_censuses
from pedro.tools.search import SearchArgs, SearchTool

SKIPPED_ONE = "note: 1 file that may hold secrets was not searched"
SKIPPED_TWO = "note: 2 files that may hold secrets were not searched"


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
    monkeypatch.setattr(census, "_SETTLE_NS", int(SETTLE_SECONDS * 1e9))
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


def _grep(ctx: ToolContext, pattern: str = "needle") -> str:
    return SearchTool().run(SearchArgs.model_validate({"action": "grep", "pattern": pattern}), ctx)


def _remembered(ctx: ToolContext) -> bool:
    with SecretCensus(ctx, ctx.root) as census:
        census.result()
        return census.remembered


def test_a_still_tree_is_listed_once_and_then_remembered(tree: ToolContext) -> None:
    assert not _remembered(tree)
    forget_censuses()
    first = _grep(tree)
    assert SKIPPED_ONE in first  # src/.env; private/ is ignored
    assert ".env.example:1: needle=placeholder" in first  # spared, searched apart
    assert _remembered(tree)
    assert _grep(tree) == first


def test_a_secret_file_added_to_a_listed_folder_is_counted(tree: ToolContext) -> None:
    _grep(tree)
    _grep(tree)
    (tree.root / "src" / ".env.local").write_text("needle=another\n")
    assert SKIPPED_TWO in _grep(tree)


def test_a_secret_file_added_to_a_folder_with_no_listed_file_is_counted(tree: ToolContext) -> None:
    _grep(tree)
    _grep(tree)
    assert _remembered(tree)
    (tree.root / "config" / "prod.key").write_text("needle\n")
    assert SKIPPED_TWO in _grep(tree)


def test_an_ignore_file_edited_in_place_is_noticed(tree: ToolContext) -> None:
    _grep(tree)
    _grep(tree)
    assert _remembered(tree)
    with (tree.root / ".gitignore").open("w") as ignore:  # rewritten in place: its folder's time stays
        ignore.write("build/\n")
    assert SKIPPED_TWO in _grep(tree)  # private/.env is no longer ignored


def test_a_spared_file_added_later_is_searched(tree: ToolContext) -> None:
    _grep(tree)
    _grep(tree)
    (tree.root / "docs" / "id_setup.md").write_text("needle in a spared name\n")
    assert "docs/id_setup.md:1: needle in a spared name" in _grep(tree)


def test_a_tree_that_changed_just_before_its_walk_is_listed_again(tree: ToolContext) -> None:
    (tree.root / "src" / "new.py").write_text("needle = 2\n")  # a change may share the walk's clock tick
    _grep(tree)
    _grep(tree)
    assert not _remembered(tree)


def test_a_change_between_the_walk_and_the_next_search_is_not_recorded_as_the_walks(tree: ToolContext) -> None:
    _grep(tree)
    (tree.root / "docs" / ".env").write_text("needle=late\n")
    _age(tree.root / "docs", seconds=30)  # a modification time set back, as tar and cp -p do
    assert SKIPPED_TWO in _grep(tree)


def test_global_git_excludes_are_watched(tree: ToolContext) -> None:
    home = Path(tree.env["HOME"])
    (home / ".gitconfig").write_text(f"[core]\n\texcludesFile = {home / 'excludes'}\n")
    (home / "excludes").write_text("nothing\n")
    _settle()
    _grep(tree)
    _grep(tree)
    assert _remembered(tree)
    (home / "excludes").write_text("src/\n")
    assert "note: " not in _grep(tree)  # src/.env is ignored now
