"""safety.md §2 cases 13 and 19–23: search flag injection, binary and odd encodings, huge files, bad line ranges,
and edits over a file the user changed."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness import (
    DONE,
    Arena,
    call,
    check_invariants,
    peak_rss_kib,
    reset_peak_rss,
    rss_kib,
    run_case,
)

from pedro.backends.scripted import Reply
from pedro.messages import Message

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
BIG_LOG_BYTES = 200 * 1024 * 1024
LOG_LINE = b"2024-01-01T00:00:00 INFO request served in 3 ms from worker 7 of the pool\n"
BIG_READ_RSS_GROWTH_KIB = 64 * 1024


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_case_13_search_flag_injection(arena: Arena) -> None:
    (arena.root / "notes.txt").write_text("run with --pre=sh to preprocess\nplain line\n")
    (arena.root / "-exec").write_text("a file with a hostile name\n")
    searches = [
        {"action": "grep", "pattern": "--pre=sh"},
        {"action": "grep", "pattern": "-e x --pre sh"},
        {"action": "grep", "pattern": "--pre=sh", "path": "-exec"},
        {"action": "find_files", "pattern": "--exec"},
        {"action": "grep", "pattern": "hostile", "glob": "--pre=touch"},
        {"action": "grep", "pattern": "hostile"},
        {"action": "find_files", "pattern": "-exec"},
    ]
    run = run_case(arena, [call("search", search) for search in searches])

    # patterns and globs are text to match, never options; a file named like an option is only a name
    assert "notes.txt:1: run with --pre=sh" in run.answer(0), run.answer(0)
    assert "no matches for pattern '-e x --pre sh'" in run.answer(1), run.answer(1)
    assert "ERROR (denied)" in run.answer(2) and "starting with '-'" in run.answer(2), run.answer(2)
    assert "no files match '--exec'" in run.answer(3), run.answer(3)
    assert "no matches for pattern 'hostile'" in run.answer(4), run.answer(4)
    assert "-exec:1: a file with a hostile name" in run.answer(5), run.answer(5)
    assert run.answer(6).splitlines()[-1] == "-exec", run.answer(6)
    for answer in run.answers():
        assert "failed unexpectedly" not in answer, answer
    assert {p.name for p in arena.root.iterdir()} == {".git", ".pedro", "-exec", "README.md", "notes.txt", "src"}
    check_invariants(run, refused=[2])


def test_case_19_binary_files(arena: Arena) -> None:
    (arena.root / "logo.png").write_bytes(PNG + bytes(range(256)) * 4)
    (arena.root / "libfoo.so").write_bytes(b"\x7fELF\x02\x01\x01" + b"\x00" * 200 + b"secret-symbol")
    (arena.root / "data.txt").write_bytes(b"looks like text\x00but has a NUL\n")
    binaries = ["logo.png", "libfoo.so", "data.txt"]
    digests = {name: sha(arena.root / name) for name in binaries}
    replies = [call("file", {"action": "read", "path": name}) for name in binaries]
    replies.append(call("code_edit", {"action": "replace", "path": "data.txt", "old": "text", "new": "code"}))
    replies.append(call("code_edit", {"action": "insert", "path": "logo.png", "line": 1, "content": "x\n"}))
    run = run_case(arena, replies)

    for index, name in enumerate(binaries):
        answer = run.answer(index)
        size = (arena.root / name).stat().st_size
        assert "binary" in answer and str(size) in answer and digests[name] in answer, answer
        assert "\x00" not in answer and "secret-symbol" not in answer and "IHDR" not in answer
    for index in (3, 4):
        assert "ERROR (" in run.answer(index) and "binary" in run.answer(index), run.answer(index)
    assert {name: sha(arena.root / name) for name in binaries} == digests
    check_invariants(run, refused=[3, 4])


def test_case_20_encodings_line_endings_final_newline(arena: Arena) -> None:
    latin = "caf\xe9 cr\xe8me\nsecond line\n".encode("latin-1")
    crlf = b"first\r\nsecond\r\nthird\r\n"
    bare = b"alpha\nbeta\ngamma"
    (arena.root / "latin.txt").write_bytes(latin)
    (arena.root / "crlf.txt").write_bytes(crlf)
    (arena.root / "bare.txt").write_bytes(bare)
    replies = [
        call("file", {"action": "read", "path": "latin.txt"}),
        call("code_edit", {"action": "replace", "path": "latin.txt", "old": "second line", "new": "2nd line"}),
        call("file", {"action": "read", "path": "crlf.txt"}),
        call("code_edit", {"action": "replace", "path": "crlf.txt", "old": "second", "new": "SECOND"}),
        call("code_edit", {"action": "insert", "path": "crlf.txt", "line": 3, "content": "fourth\n"}),
        call("file", {"action": "read", "path": "bare.txt"}),
        call("code_edit", {"action": "replace", "path": "bare.txt", "old": "beta", "new": "BETA"}),
    ]
    run = run_case(arena, replies)

    assert "\ufffd" in run.answer(0) and ("encoding" in run.answer(0) or "UTF-8" in run.answer(0)), run.answer(0)
    latin_after = (arena.root / "latin.txt").read_bytes()
    if "ERROR (" in run.answer(1):
        assert latin_after == latin
    else:  # edited: the bytes it did not touch are still Latin-1, byte for byte
        assert latin_after == latin.replace(b"second line", b"2nd line")
    assert (arena.root / "crlf.txt").read_bytes() == b"first\r\nSECOND\r\nthird\r\nfourth\r\n"
    assert (arena.root / "bare.txt").read_bytes() == b"alpha\nBETA\ngamma"
    check_invariants(run)


def write_big_log(root: Path) -> int:
    with (root / "server.log").open("wb") as fh:
        block = LOG_LINE * (1024 * 1024 // len(LOG_LINE) + 1)
        while fh.tell() < BIG_LOG_BYTES:
            fh.write(block)
        return fh.tell()


def test_case_21_huge_log_is_paginated(arena: Arena) -> None:
    size = write_big_log(arena.root)
    run = run_case(
        arena,
        [
            call("file", {"action": "read", "path": "server.log"}),
            call("file", {"action": "read", "path": "server.log", "start_line": 2_000_000, "end_line": 2_000_010}),
        ],
    )

    lines = size // len(LOG_LINE)
    first = run.answer(0)
    assert len(first.encode()) <= 16 * 1024 + 512
    assert "request served" in first and f"of {lines}" in first and "use start_line=" in first, first[-600:]
    assert "request served" in run.answer(1) and "2000000|" in run.answer(1), run.answer(1)[:400]
    check_invariants(run)


def test_case_21_huge_log_keeps_memory_flat(arena: Arena) -> None:
    size = write_big_log(arena.root)
    reset_peak_rss()
    before = rss_kib()
    run = run_case(arena, [call("file", {"action": "read", "path": "server.log"})])
    growth = peak_rss_kib() - before

    assert "request served" in run.answer(0)
    assert growth < BIG_READ_RSS_GROWTH_KIB, f"pedro grew by {growth} KiB reading a {size}-byte file"


def test_case_22_bad_line_ranges(arena: Arena) -> None:
    twenty = "".join(f"line {n}\n" for n in range(1, 21))
    (arena.root / "twenty.txt").write_text(twenty)
    before = sha(arena.root / "twenty.txt")
    edits: list[dict[str, Any]] = [
        {"action": "replace_lines", "path": "twenty.txt", "start_line": 500, "end_line": 510, "new": "x\n"},
        {"action": "replace_lines", "path": "twenty.txt", "start_line": -3, "end_line": 2, "new": "x\n"},
        {"action": "replace_lines", "path": "twenty.txt", "start_line": 9, "end_line": 4, "new": "x\n"},
        {"action": "delete_lines", "path": "twenty.txt", "start_line": 15, "end_line": 25},
        {"action": "insert", "path": "twenty.txt", "line": 99, "content": "x\n"},
        {"action": "replace_lines", "path": "twenty.txt", "start_line": 1, "end_line": 20, "new": ""},
    ]
    run = run_case(arena, [call("code_edit", edit) for edit in edits])

    for index in range(len(edits)):
        answer = run.answer(index)
        assert "ERROR (" in answer and "20" in answer, answer
    assert sha(arena.root / "twenty.txt") == before
    check_invariants(run, refused=range(len(edits)))


def test_case_23_user_edited_the_file_since_it_was_read(arena: Arena) -> None:
    target = arena.root / "src" / "app.py"
    script: list[Reply] = [
        call("file", {"action": "read", "path": "src/app.py"}),
        call("code_edit", {"action": "replace", "path": "src/app.py", "old": "a + b", "new": "a - b"}),
    ]
    user_version = "def add(a, b):\n    # the user's fix, typed in their editor\n    return int(a) + int(b)\n"

    def model(messages: list[Message], _tools: list[dict[str, Any]]) -> Reply:
        replies = sum(m.role == "assistant" for m in messages)
        if replies == 1:  # between the model's read and its edit, the user saves the file in their editor
            target.write_text(user_version)
        return script[replies] if replies < len(script) else DONE

    run = run_case(arena, as_function(model))

    answer = run.backend.requests[2][0][-1].content
    assert "ERROR (" in answer and "changed on disk since you last read it" in answer and "read it again" in answer
    assert target.read_text() == user_version
    run.scripted = 2
    check_invariants(run, refused=[1])


def as_function(model: Callable[[list[Message], list[dict[str, Any]]], Reply]) -> Any:
    """run_case takes a reply function as is."""
    return model
