"""The secret-file list remembered per tree: after every kind of change, the next question gets exactly what a fresh
native listing gives, and a still tree is answered without one."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pedro.safety import secretlisting, treestate
from pedro.safety.secretlisting import forget_secret_listings, repo_secret_files

# How long a folder must have been still here: the real margin covers network filesystems' clocks.
SETTLE_SECONDS = 0.1


@pytest.fixture(autouse=True)
def _fresh_memory(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(treestate, "SETTLE_NS", int(SETTLE_SECONDS * 1e9))
    forget_secret_listings()
    yield
    forget_secret_listings()


def _write(root: Path, rel: str, text: str = "x\n") -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for rel in ("src/app.py", "src/.env", "src/deep/er/util.py", "config/deploy.pem", "docs/guide.md"):
        _write(root, rel)
    (root / "empty" / "inner").mkdir(parents=True)  # folders with no file in them yet
    (root / "node_modules" / "pkg").mkdir(parents=True)
    time.sleep(2 * SETTLE_SECONDS)
    return root


def _fresh(root: Path) -> list[Path]:
    """What ripgrep's own listing gives now, with nothing remembered."""
    listed = secretlisting._listed_by_ripgrep(root)
    assert listed is not None
    return secretlisting._outside_virtualenvs(listed, root)


def _replace_atomically(root: Path, rel: str) -> None:
    (root / (rel + ".tmp")).write_text("y = 2\n")
    (root / (rel + ".tmp")).replace(root / rel)


def _rename_folder(root: Path) -> None:
    _write(root, "config/prod/.env.production")
    (root / "config").rename(root / "settings")


def _link_a_folder_in_place_of_one(root: Path) -> None:
    _write(root, "elsewhere/.env")
    shutil.rmtree(root / "src" / "deep" / "er")
    (root / "src" / "deep" / "er").symlink_to(root / "elsewhere")


def _link_in_place_of_a_secret(root: Path) -> None:
    (root / "src" / ".env").unlink()
    (root / "src" / ".env").symlink_to(root / "config" / "deploy.pem")


CHANGES: dict[str, Callable[[Path], None]] = {
    "a secret file beside one": lambda root: _write(root, "src/.env.local"),
    "a secret file in a folder with none": lambda root: _write(root, "src/deep/er/token"),
    "a key in new folders inside new folders": lambda root: _write(root, "src/deep/new/newer/id_rsa"),
    "a secret file in a folder that was empty": lambda root: _write(root, "empty/inner/.envrc"),
    "a credential store made": lambda root: _write(root, "docs/.ssh/known_hosts"),
    "a secret file removed": lambda root: (root / "config" / "deploy.pem").unlink(),
    "a folder of secrets renamed": _rename_folder,
    "a folder linked in place of one": _link_a_folder_in_place_of_one,
    "a link in place of a secret file": _link_in_place_of_a_secret,
    "a folder made a virtualenv": lambda root: _write(root, "config/pyvenv.cfg", "home = /usr/bin\n"),
    "a file written atomically": lambda root: _replace_atomically(root, "src/app.py"),
    "a secret file in a skipped folder": lambda root: _write(root, "node_modules/pkg/.env"),
}


@pytest.mark.parametrize("change", CHANGES)
def test_after_each_change_the_list_is_what_a_fresh_listing_gives(tree: Path, change: str) -> None:
    before = repo_secret_files(tree)  # ripgrep's listing
    assert before == _fresh(tree) == [tree / "config" / "deploy.pem", tree / "src" / ".env"]
    assert repo_secret_files(tree) == before  # the folder index, built in its place
    CHANGES[change](tree)
    assert repo_secret_files(tree) == _fresh(tree)
    time.sleep(2 * SETTLE_SECONDS)  # and once the change has settled
    assert repo_secret_files(tree) == _fresh(tree)


def test_every_change_in_turn_is_followed(tree: Path) -> None:
    repo_secret_files(tree)
    for change in CHANGES.values():
        change(tree)
        assert repo_secret_files(tree) == _fresh(tree)


def test_a_still_tree_is_answered_without_a_listing_and_its_folders_are_not_read_again(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = repo_secret_files(tree)
    repo_secret_files(tree)

    def no_listing(root: Path) -> list[Path] | None:
        raise AssertionError("listed again")

    read: list[str] = []
    entries = secretlisting._entries

    def reading(path: str, rel: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        read.append(rel)
        return entries(path, rel)

    monkeypatch.setattr(secretlisting, "_listed_by_ripgrep", no_listing)
    monkeypatch.setattr(secretlisting, "_entries", reading)
    assert repo_secret_files(tree) == first
    assert read == []
    _replace_atomically(tree, "src/app.py")
    assert repo_secret_files(tree) == first
    assert read == ["src"]  # the one folder that moved


def test_a_folder_read_too_soon_after_it_changed_is_read_again_even_where_its_time_seems_unmoved(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A change within a clock tick of a reading can leave a folder's time where it was: a folder is trusted only once
    # it had been still for the settling time when it was read. Here every folder seems never to move again.
    monkeypatch.setattr(treestate, "SETTLE_NS", 3_600 * 10**9)
    seen: dict[str, treestate.Stamp] = {}
    monkeypatch.setattr(secretlisting, "stamp", lambda path: seen.setdefault(path, treestate.stamp(path)))
    for _ in range(3):  # listed, indexed, and every folder's time seen
        repo_secret_files(tree)
    _write(tree, "docs/.env")
    assert repo_secret_files(tree) == _fresh(tree)
    assert tree / "docs" / ".env" in _fresh(tree)
