"""Tests of the code_edit tool on real files in a real temporary git repository."""

from __future__ import annotations

import hashlib
import stat
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from pedro.tools.base import FileStamp, ToolContext, ToolDeniedError, ToolFailure
from pedro.tools.code_edit import CodeEditArgs, CodeEditTool
from pedro.tools.file import FileArgs, FileTool


def edit(ctx: ToolContext, **arguments: Any) -> str:
    return CodeEditTool().run(CodeEditArgs.model_validate(arguments), ctx)


def read(ctx: ToolContext, path: str) -> str:
    return FileTool().run(FileArgs.model_validate({"action": "read", "path": path}), ctx)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


PY = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n"


# --- arguments ---------------------------------------------------------------------------------


def test_action_inference_and_aliases() -> None:
    assert CodeEditArgs.model_validate({"path": "a", "old": "x", "new": "y"}).action == "replace"
    args = CodeEditArgs.model_validate({"command": "str_replace", "file_path": "a", "old_str": "x", "new_str": "y"})
    assert (args.action, args.path, args.old, args.new) == ("replace", "a", "x", "y")
    args = CodeEditArgs.model_validate({"command": "insert", "path": "a", "insert_line": 3, "new_str": "z"})
    assert (args.action, args.line, args.content) == ("insert", 3, "z")
    args = CodeEditArgs.model_validate({"path": "a", "start_line": 2, "new": "q"})
    assert (args.action, args.end_line) == ("replace_lines", 2)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"action": "replace", "path": "a", "old": "x"}, "replace needs new"),
        ({"action": "insert", "path": "a", "line": 1}, "insert needs content"),
        ({"action": "insert", "path": "a", "start_line": 1, "content": "x"}, "insert puts content after `line`"),
        ({"action": "delete_lines", "path": "a"}, "delete_lines needs start_line, end_line"),
        ({"action": "replace", "path": "a", "old": "", "new": "x"}, "old is empty"),
        ({"path": "a"}, "say which action"),
    ],
)
def test_missing_keys_are_invalid_args(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        CodeEditArgs.model_validate(arguments)


# --- replace -----------------------------------------------------------------------------------


def test_replace_unique_match_returns_diff_and_updates_stamp(repo: Path, ctx: ToolContext) -> None:
    path = repo / "calc.py"
    path.write_text(PY)
    out = edit(ctx, path="calc.py", old="def add(a, b):\n    return a - b", new="def add(a, b):\n    return a + b")
    assert out.startswith("edited calc.py: replaced 1 occurrence (line 1); it now has 6 lines")
    assert "-    return a - b\n+    return a + b" in out
    assert path.read_text() == PY.replace("a - b", "a + b", 1)
    assert ctx.read_stamps[path] == FileStamp.of(path)


def test_replace_ambiguous_lists_lines_and_changes_nothing(repo: Path, ctx: ToolContext) -> None:
    path = repo / "calc.py"
    path.write_text(PY)
    before = sha(path)
    with pytest.raises(ToolFailure, match=r"matches 2 places .*lines 2, 6"):
        edit(ctx, path="calc.py", old="return a - b", new="return a + b")
    assert sha(path) == before
    out = edit(ctx, path="calc.py", old="return a - b", new="return a + b", replace_all=True)
    assert "replaced 2 occurrences (line 2, 6)" in out
    assert path.read_text().count("a + b") == 2


def test_replace_miss_says_did_you_mean_and_keeps_file(repo: Path, ctx: ToolContext) -> None:
    path = repo / "calc.py"
    path.write_text(PY)
    before = sha(path)
    with pytest.raises(ToolFailure) as info:
        edit(ctx, path="calc.py", old="def sub(a, b):\n    return a-b+0", new="x")
    message = str(info.value)
    assert "Did you mean lines 5-6?" in message
    assert "    5| def sub(a, b):" in message
    assert "first difference, line 6" in message
    assert "start_line=5, end_line=6" in message
    assert sha(path) == before


def test_replace_miss_with_nothing_similar(repo: Path, ctx: ToolContext) -> None:
    (repo / "calc.py").write_text(PY)
    with pytest.raises(ToolFailure, match="No similar lines exist"):
        edit(ctx, path="calc.py", old="completely unrelated zebra text", new="x")


def test_replace_ignoring_indentation_reindents_new(repo: Path, ctx: ToolContext) -> None:
    path = repo / "m.py"
    path.write_text("class A:\n    def f(self):\n        x = 1\n\n        return x\n")
    out = edit(
        ctx,
        path="m.py",
        old="def f(self):\nx = 1\n\nreturn x",
        new="def f(self):\nx = 3\nif x:\n    y = x\nreturn y",
    )
    assert "ignoring indentation" in out
    assert path.read_text() == (
        "class A:\n    def f(self):\n        x = 3\n        if x:\n            y = x\n        return y\n"
    )


def test_replace_ignoring_indentation_ambiguous_is_refused(repo: Path, ctx: ToolContext) -> None:
    path = repo / "m.py"
    path.write_text("if a:\n    x = 1\nif b:\n        x = 1\n")
    before = sha(path)
    with pytest.raises(ToolFailure, match=r"matches 2 places \(lines 2, 4\)"):
        edit(ctx, path="m.py", old="x  =  1", new="x = 2")
    assert sha(path) == before


def test_replace_strips_line_number_prefixes(repo: Path, ctx: ToolContext) -> None:
    path = repo / "calc.py"
    path.write_text(PY)
    out = edit(
        ctx,
        path="calc.py",
        old="    1| def add(a, b):\n    2|     return a - b",
        new="    1| def add(a, b):\n    2|     return a + b",
    )
    assert "line-number prefixes" in out
    assert path.read_text().splitlines()[1] == "    return a + b"


def test_replace_keeps_crlf_byte_exact(repo: Path, ctx: ToolContext) -> None:
    path = repo / "win.txt"
    path.write_bytes(b"alpha\r\nbeta\r\ngamma\r\n")
    edit(ctx, path="win.txt", old="beta\n", new="BETA\nbeta2\n")
    assert path.read_bytes() == b"alpha\r\nBETA\r\nbeta2\r\ngamma\r\n"


def test_edit_keeps_missing_final_newline_and_mode(repo: Path, ctx: ToolContext) -> None:
    path = repo / "tool.sh"
    path.write_bytes(b"#!/bin/sh\necho one\necho two")
    path.chmod(0o750)
    edit(ctx, path="tool.sh", old="echo one", new="echo 1")
    assert path.read_bytes() == b"#!/bin/sh\necho 1\necho two"
    edit(ctx, action="insert", path="tool.sh", line=3, content="echo three\n")
    assert path.read_bytes() == b"#!/bin/sh\necho 1\necho two\necho three"
    assert stat.S_IMODE(path.stat().st_mode) == 0o750


def test_latin1_bytes_outside_the_edit_are_kept(repo: Path, ctx: ToolContext) -> None:
    path = repo / "legacy.txt"
    path.write_bytes(b"caf\xe9 cr\xe8me\nprice = 1\nna\xefve\n")
    edit(ctx, path="legacy.txt", old="price = 1", new="price = 2")
    assert path.read_bytes() == b"caf\xe9 cr\xe8me\nprice = 2\nna\xefve\n"
    # The model only saw U+FFFD for the odd bytes; echoing them keeps the original bytes.
    edit(ctx, path="legacy.txt", old="na\ufffdve", new="na\ufffdve!")
    assert path.read_bytes() == b"caf\xe9 cr\xe8me\nprice = 2\nna\xefve!\n"


def test_binary_file_is_refused(repo: Path, ctx: ToolContext) -> None:
    path = repo / "img.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 32)
    before = sha(path)
    with pytest.raises(ToolFailure, match="binary file"):
        edit(ctx, path="img.png", old="PNG", new="JPG")
    assert sha(path) == before


# --- stale reads -------------------------------------------------------------------------------


def test_edit_refused_when_file_changed_since_read(repo: Path, ctx: ToolContext) -> None:
    path = repo / "calc.py"
    path.write_text(PY)
    read(ctx, "calc.py")
    path.write_text(PY + "# user's edit in their editor\n")
    with pytest.raises(ToolFailure, match="changed on disk since you last read it"):
        edit(ctx, path="calc.py", old="return a - b\n\n\n", new="return a + b\n\n\n")
    assert path.read_text().endswith("# user's edit in their editor\n")
    read(ctx, "calc.py")
    edit(ctx, path="calc.py", old="return a - b\n\n\n", new="return a + b\n\n\n")


def test_edit_without_prior_read_is_allowed_and_chains(repo: Path, ctx: ToolContext) -> None:
    path = repo / "calc.py"
    path.write_text(PY)
    edit(ctx, path="calc.py", old="def add", new="def plus")
    edit(ctx, path="calc.py", old="def sub", new="def minus")
    assert "def plus" in path.read_text()
    assert "def minus" in path.read_text()


# --- line operations ---------------------------------------------------------------------------


def test_replace_lines_insert_and_delete_lines(repo: Path, ctx: ToolContext) -> None:
    path = repo / "f.txt"
    path.write_text("1\n2\n3\n4\n5\n")
    assert "replaced lines 2-3 (2 lines) with 1 line" in edit(
        ctx, action="replace_lines", path="f.txt", start_line=2, end_line=3, new="two-three\n"
    )
    assert path.read_text() == "1\ntwo-three\n4\n5\n"
    edit(ctx, action="insert", path="f.txt", line=0, content="0")
    assert path.read_text() == "0\n1\ntwo-three\n4\n5\n"
    edit(ctx, action="insert", path="f.txt", line=5, content="6\n7\n")
    assert path.read_text() == "0\n1\ntwo-three\n4\n5\n6\n7\n"
    assert "deleted lines 1-2 (2 lines)" in edit(ctx, action="delete_lines", path="f.txt", start_line=1, end_line=2)
    assert path.read_text() == "two-three\n4\n5\n6\n7\n"


@pytest.mark.parametrize(
    "arguments",
    [
        {"action": "replace_lines", "start_line": 500, "end_line": 510, "new": "x"},
        {"action": "replace_lines", "start_line": -1, "end_line": 2, "new": "x"},
        {"action": "delete_lines", "start_line": 5, "end_line": 3},
        {"action": "delete_lines", "start_line": 0, "end_line": 1},
        {"action": "insert", "line": 21, "content": "x"},
        {"action": "insert", "line": -1, "content": "x"},
    ],
)
def test_bad_line_ranges_name_the_line_count(repo: Path, ctx: ToolContext, arguments: dict[str, Any]) -> None:
    path = repo / "twenty.txt"
    path.write_text("".join(f"{i}\n" for i in range(1, 21)))
    before = sha(path)
    with pytest.raises(ToolFailure, match="has 20 lines"):
        edit(ctx, path="twenty.txt", **arguments)
    assert sha(path) == before


def test_emptying_the_whole_file_is_refused(repo: Path, ctx: ToolContext) -> None:
    path = repo / "f.txt"
    path.write_text("a\nb\n")
    with pytest.raises(ToolFailure, match="would remove all 2 lines"):
        edit(ctx, action="replace_lines", path="f.txt", start_line=1, end_line=2, new="")
    with pytest.raises(ToolFailure, match="would remove all 2 lines"):
        edit(ctx, action="delete_lines", path="f.txt", start_line=1, end_line=2)
    assert path.read_text() == "a\nb\n"


def test_no_op_edit_is_reported(repo: Path, ctx: ToolContext) -> None:
    (repo / "f.txt").write_text("a\n")
    with pytest.raises(ToolFailure, match="changes nothing"):
        edit(ctx, path="f.txt", old="a", new="a")


# --- syntax guard ------------------------------------------------------------------------------


def test_python_syntax_breaking_edit_is_rejected(repo: Path, ctx: ToolContext) -> None:
    path = repo / "calc.py"
    path.write_text(PY)
    before = sha(path)
    with pytest.raises(ToolFailure) as info:
        edit(ctx, path="calc.py", old="def add(a, b):", new="def add(a, b:")
    assert "invalid (Python syntax error at line 1" in str(info.value)
    assert "    1| def add(a, b:" in str(info.value)
    assert sha(path) == before


def test_json_syntax_breaking_edit_is_rejected(repo: Path, ctx: ToolContext) -> None:
    path = repo / "package.json"
    path.write_text('{\n  "name": "x",\n  "version": "1.0.0"\n}\n')
    before = sha(path)
    with pytest.raises(ToolFailure, match="JSON error at line 4"):
        edit(ctx, path="package.json", old='"version": "1.0.0"', new='"version": "1.0.0",')
    assert sha(path) == before


def test_already_broken_python_may_be_edited(repo: Path, ctx: ToolContext) -> None:
    path = repo / "broken.py"
    path.write_text("def f(:\n    pass\n")
    edit(ctx, path="broken.py", old="pass", new="return 1")
    assert path.read_text() == "def f(:\n    return 1\n"


# --- paths and safety --------------------------------------------------------------------------


def test_missing_file_suggests_and_creates_nothing(repo: Path, ctx: ToolContext) -> None:
    with pytest.raises(ToolFailure, match="did you mean: README.md"):
        edit(ctx, path="READMEE.md", old="a", new="b")
    assert not (repo / "READMEE.md").exists()


def test_symlink_escapes_are_refused(repo: Path, ctx: ToolContext, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "bashrc").write_text("alias ls=ls\n")
    (repo / "rootlink").symlink_to("/")
    (repo / "notes.txt").symlink_to(outside / "bashrc")
    (repo / "dangling").symlink_to(outside / "new.txt")
    for raw in ("rootlink/etc/hostname", "notes.txt", "dangling"):
        with pytest.raises(ToolDeniedError):
            edit(ctx, path=raw, action="insert", line=0, content="pwned")
    assert (outside / "bashrc").read_text() == "alias ls=ls\n"
    assert not (outside / "new.txt").exists()


def test_git_internals_and_read_only_are_refused(repo: Path, ctx: ToolContext) -> None:
    with pytest.raises(ToolDeniedError):
        edit(ctx, path=".git/HEAD", old="main", new="evil")
    with pytest.raises(ToolDeniedError, match="read-only"):
        edit(ToolContext(root=repo, read_only=True), path="README.md", old="sample", new="x")
    assert (repo / "README.md").read_text() == "# sample\n"


def test_edit_leaves_no_temporary_files(repo: Path, ctx: ToolContext) -> None:
    edit(ctx, path="README.md", old="sample", new="example")
    assert sorted(p.name for p in repo.iterdir()) == [".git", "README.md"]
