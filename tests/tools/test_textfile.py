"""Tests of the shared text-file layer: decoding, byte-exact re-encoding, binary sniffing, streaming, atomic writes."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import pytest

from pedro.tools.base import FileStamp, ToolContext, ToolDeniedError, ToolFailure
from pedro.tools.textfile import (
    decode_text,
    ensure_fresh,
    load_text,
    read_page,
    restore_invalid_bytes,
    sniff_binary,
    split_text,
    stamp_file,
    summarize_binary,
    to_display,
    unified_diff,
    write_atomic,
)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"a",
        b"a\n",
        b"a\nb",
        b"a\r\nb\r\n",
        b"a\r\nb",
        b"mixed\r\nlines\nhere\r\n",
        b"\n\n\n",
        b"\xef\xbb\xbfbom\r\n",
        b"caf\xe9 latin-1\n\xff\xfe not a BOM here",
        "utf-16 text\r\nline 2\r\n".encode("utf-16"),
        b"lone\rcr\n",
    ],
)
def test_decode_then_encode_unchanged_is_byte_exact(data: bytes) -> None:
    text_file = decode_text(data)
    assert text_file.encode(list(text_file.lines)) == data


def test_decode_remembers_crlf_and_missing_final_newline() -> None:
    text_file = decode_text(b"one\r\ntwo\r\nthree")
    assert text_file.lines == ["one", "two", "three"]
    assert text_file.newline == "\r\n"
    assert text_file.final_newline is False
    assert text_file.encode(["one", "2", "three", "four"]) == b"one\r\n2\r\nthree\r\nfour"


def test_encode_keeps_untouched_line_endings_in_a_mixed_file() -> None:
    text_file = decode_text(b"a\r\nb\nc\r\nd\n")
    assert text_file.encode(["a", "b", "C", "d"]) == b"a\r\nb\nC\nd\n"


def test_latin1_bytes_survive_an_edit_elsewhere() -> None:
    text_file = decode_text(b"caf\xe9\nsecond\n")
    assert text_file.invalid_bytes == 1
    assert to_display(text_file.lines[0]) == "caf\ufffd"
    assert text_file.encode([text_file.lines[0], "changed"]) == b"caf\xe9\nchanged\n"


def test_restore_invalid_bytes_maps_echoed_replacement_chars_back() -> None:
    raw = decode_text(b"na\xefve = 1\n").lines[0]
    restored = restore_invalid_bytes(raw, "na\ufffdve = 2")
    assert decode_text(b"").encode([restored]) == b"na\xefve = 2\n"
    assert restore_invalid_bytes(raw, "plain") == "plain"


def test_split_text_does_not_invent_a_last_line() -> None:
    assert split_text("") == []
    assert split_text("a\n") == ["a"]
    assert split_text("a\n\n") == ["a", ""]
    assert split_text("a\nb") == ["a", "b"]


@pytest.mark.parametrize(
    ("head", "kind"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "PNG image"),
        (b"\x7fELF\x02\x01\x01\x00", "ELF executable or shared library"),
        (b"GGUF\x03\x00\x00\x00", "GGUF model"),
        (b"text with a \x00 NUL", "data"),
        (bytes(range(256)) * 4, "data"),
    ],
)
def test_sniff_binary_recognises_binary(head: bytes, kind: str) -> None:
    assert sniff_binary(head) == kind


@pytest.mark.parametrize(
    "head",
    [b"plain text\n", "ünïcödé\n".encode(), b"caf\xe9 au lait\n", "utf16".encode("utf-16"), b"\x1b[31mred\x1b[0m\n"],
)
def test_sniff_binary_accepts_text(head: bytes) -> None:
    assert sniff_binary(head) is None


def test_summarize_binary_names_size_type_and_hash(tmp_path: Path) -> None:
    data = b"\x89PNG\r\n\x1a\n" + os.urandom(100)
    path = tmp_path / "logo.png"
    path.write_bytes(data)
    summary = summarize_binary(path, "logo.png", "PNG image")
    assert "PNG image" in summary
    assert f"{len(data)} bytes" in summary
    assert hashlib.sha256(data).hexdigest() in summary
    assert "\n" not in summary


def test_load_text_refuses_binary(tmp_path: Path) -> None:
    path = tmp_path / "lib.so"
    path.write_bytes(b"\x7fELF" + b"\x00" * 64)
    with pytest.raises(ToolFailure, match="binary file"):
        load_text(path, "lib.so")


def test_read_page_streams_window_and_counts_all_lines(tmp_path: Path) -> None:
    path = tmp_path / "big.log"
    path.write_bytes(b"".join(b"line %d\n" % i for i in range(1, 10001)))
    page = read_page(path, 401, 403)
    assert page.lines == ["line 401", "line 402", "line 403"]
    assert page.total == 10000
    assert page.stamp == FileStamp.of(path)


def test_read_page_shortens_a_huge_single_line(tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_bytes(b"x" * 3_000_000)
    page = read_page(path, 1, 10, max_line_chars=100)
    assert page.total == 1
    assert page.cut_lines == 1
    assert len(page.lines[0]) < 200
    assert "3000000 bytes" in page.lines[0]


def test_read_page_reports_invalid_utf8_lines(tmp_path: Path) -> None:
    path = tmp_path / "legacy.txt"
    path.write_bytes(b"ok\ncaf\xe9\r\nok\r\n")
    page = read_page(path, 1, 10)
    assert page.invalid_lines == [2]
    assert page.lines[1] == "caf\ufffd"
    assert page.crlf


def test_stamp_file_equals_filestamp_of(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"abc\n" * 1000)
    assert stamp_file(path) == FileStamp.of(path)


def test_write_atomic_keeps_mode_and_leaves_no_temp_files(repo: Path, ctx: ToolContext) -> None:
    path = repo / "run.sh"
    path.write_text("#!/bin/sh\n")
    path.chmod(0o751)
    created = write_atomic(ctx, path, b"#!/bin/sh\necho hi\n")
    assert created is False
    assert path.read_bytes() == b"#!/bin/sh\necho hi\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o751
    assert [p.name for p in repo.iterdir() if ".pedro-" in p.name] == []


def test_write_atomic_creates_parents(repo: Path, ctx: ToolContext) -> None:
    path = repo / "a" / "b" / "c.txt"
    assert write_atomic(ctx, path, b"x\n") is True
    assert path.read_bytes() == b"x\n"


def test_write_atomic_refuses_symlink_final_component(repo: Path, ctx: ToolContext, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("keep\n")
    (repo / "link.txt").symlink_to(outside)
    with pytest.raises(ToolDeniedError):
        write_atomic(ctx, repo / "link.txt", b"pwned\n")
    assert outside.read_text() == "keep\n"


def test_ensure_fresh_refuses_after_external_change(repo: Path, ctx: ToolContext) -> None:
    path = repo / "f.txt"
    path.write_text("one\n")
    ctx.read_stamps[path] = stamp_file(path)
    ensure_fresh(ctx, path, stamp_file(path))
    path.write_text("two\n")
    with pytest.raises(ToolFailure, match="changed on disk since you last read it"):
        ensure_fresh(ctx, path, stamp_file(path))


def test_unified_diff_is_capped() -> None:
    old = [f"line {i}" for i in range(200)]
    new = [f"LINE {i}" for i in range(200)]
    diff = unified_diff("f.txt", old, new, max_lines=20)
    assert diff.startswith("--- a/f.txt\n+++ b/f.txt")
    assert len(diff.splitlines()) == 21
    assert "more lines" in diff.splitlines()[-1]


@pytest.mark.parametrize(("data", "total"), [(b"a\nb\nc", 3), (b"a\nb\nc\n", 3), (b"a\n", 1), (b"", 0), (b"\n\n", 2)])
def test_read_page_counts_lines_after_the_window(tmp_path: Path, data: bytes, total: int) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    page = read_page(path, 1, 1)
    assert page.total == total
    assert page.lines == ([data.split(b"\n")[0].decode()] if total else [])
