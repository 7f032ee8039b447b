"""`/save FILE` in a session writes inside the repository, never through a symlink or into .git/, and outside the
repository only when the person says yes."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from pedro.cli.conversation import COMMANDS, Conversation, Exchange
from pedro.cli.flags import CommonFlags
from pedro.config import PedroConfig


def _session(repo: Path, answer: str | None = None) -> tuple[Conversation, io.StringIO]:
    out = io.StringIO()
    session = Conversation("builder", CommonFlags(repo=repo), repo, PedroConfig(), Console(file=out, width=200))
    session.exchanges.append(Exchange("fix add()", "add() now adds.", "j1", "completed"))
    if answer is not None:
        asked: Callable[[str], str] = lambda _question: answer  # noqa: E731
        session.read = asked
    return session, out


def _save(session: Conversation, where: str) -> None:
    assert COMMANDS["save"].run(session, where) is False


@pytest.fixture
def in_repo(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(repo)
    return repo


def test_save_writes_inside_the_repository(in_repo: Path) -> None:
    session, out = _session(in_repo, answer="n")
    (in_repo / "docs").mkdir()
    _save(session, "docs/session.md")
    assert "add() now adds." in (in_repo / "docs" / "session.md").read_text()
    assert "saved the session to" in out.getvalue()


def test_save_refuses_a_committed_symlink_to_a_home_file(in_repo: Path, tmp_path: Path) -> None:
    bashrc = tmp_path / "home" / ".bashrc"
    bashrc.parent.mkdir()
    bashrc.write_text("alias ls='ls --color'\n")
    (in_repo / "notes.md").symlink_to(bashrc)
    (in_repo / "inner.md").symlink_to(in_repo / "README.md")  # a link inside the repository: refused as well
    session, out = _session(in_repo, answer="y")
    _save(session, "notes.md")
    _save(session, "inner.md")
    assert bashrc.read_text() == "alias ls='ls --color'\n"
    assert (in_repo / "README.md").read_text() == "# sample\n"
    assert out.getvalue().count("is a symlink; /save never writes through one") == 2


def test_save_refuses_a_folder_symlink_leaving_the_repository(in_repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (in_repo / "docs").symlink_to(home)
    session, out = _session(in_repo, answer="y")
    _save(session, "docs/session.md")
    assert not (home / "session.md").exists()
    assert "leads outside the repository through a symlink" in out.getvalue()


def test_save_refuses_git_internals(in_repo: Path) -> None:
    config = (in_repo / ".git" / "config").read_text()
    session, out = _session(in_repo, answer="y")
    _save(session, ".git/config")
    _save(session, "sub/../.git/info/notes.md")
    assert (in_repo / ".git" / "config").read_text() == config
    assert not (in_repo / ".git" / "info" / "notes.md").exists()
    assert out.getvalue().count("inside .git/") == 2


def test_save_outside_the_repository_needs_a_yes(in_repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    session, out = _session(in_repo, answer="n")
    _save(session, "../outside.md")
    assert not outside.exists() and "not saved" in out.getvalue()
    session, out = _session(in_repo, answer="yes")
    _save(session, "../outside.md")
    assert "add() now adds." in outside.read_text()


def test_save_outside_the_repository_without_input_is_refused(in_repo: Path, tmp_path: Path) -> None:
    session, out = _session(in_repo)  # no prompt to ask at
    _save(session, "../outside.md")
    assert not (tmp_path / "outside.md").exists()
    assert "only when you confirm, and this session takes no input" in out.getvalue()
