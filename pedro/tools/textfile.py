"""Files as the file and code_edit tools see them: encoding, line endings, binary summaries, atomic writes, diffs."""

from __future__ import annotations

import codecs
import difflib
import hashlib
import mimetypes
import os
import re
import secrets
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Literal

from pedro.safety.secretfiles import is_secret_path
from pedro.safety.secrets import REDACTION_MARK
from pedro.tools.base import FileStamp, ToolContext, ToolDeniedError, ToolFailure

Codec = Literal["utf-8", "utf-16-le", "utf-16-be"]
Newline = Literal["\n", "\r\n"]

# Larger files are paged by `file read` but not loaded whole for editing.
EDIT_MAX_BYTES = 8 * 1024 * 1024
SNIFF_BYTES = 8192
CHUNK_BYTES = 1 << 20

_BOMS: tuple[tuple[bytes, Codec], ...] = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

# Magic numbers of common binary formats, longest first where prefixes overlap.
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"%PDF-", "PDF document"),
    (b"PK\x03\x04", "ZIP archive (or jar, wheel, docx)"),
    (b"\x1f\x8b", "gzip data"),
    (b"\xfd7zXZ\x00", "xz data"),
    (b"7z\xbc\xaf\x27\x1c", "7-zip archive"),
    (b"\x28\xb5\x2f\xfd", "zstd data"),
    (b"\x7fELF", "ELF executable or shared library"),
    (b"\xcf\xfa\xed\xfe", "Mach-O binary"),
    (b"\xca\xfe\xba\xbe", "Java class or Mach-O universal binary"),
    (b"\x00asm", "WebAssembly module"),
    (b"SQLite format 3\x00", "SQLite database"),
    (b"GGUF", "GGUF model"),
    (b"OggS", "Ogg media"),
    (b"RIFF", "RIFF media (WAV, AVI or WebP)"),
)

# Bytes that do not occur in text: C0 controls other than tab, newlines, form feed and escape.
_CONTROL = frozenset(range(0x20)) - {0x09, 0x0A, 0x0C, 0x0D, 0x1B}


def sniff_binary(head: bytes) -> str | None:
    """A type guess when `head` (the first bytes of a file) looks binary, else None."""
    for magic, kind in _SIGNATURES:
        if head.startswith(magic):
            return kind
    if any(head.startswith(bom) for bom, codec in _BOMS if codec != "utf-8"):
        return None  # UTF-16 text is full of NULs
    if b"\x00" in head:
        return "data"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Legacy 8-bit text decodes badly too; only a high share of control bytes makes it data.
        if exc.start < len(head) - 4 and sum(b in _CONTROL for b in head) > len(head) // 10:
            return "data"
    return None


def is_text_file(ctx: ToolContext, raw: str) -> bool:
    """Whether `raw` names a regular text file inside the repository, one that is not secret: what `file PATH` in a
    bash block must name to be read as a file read rather than run as the Unix `file` command."""
    try:
        path = ctx.resolve(raw)
        if not path.is_file() or is_secret_path(ctx.rel(path)):
            return False
        with path.open("rb") as handle:
            return sniff_binary(handle.read(SNIFF_BYTES)) is None
    except (ToolFailure, OSError, ValueError):
        return False


def summarize_binary(path: Path, rel: str, kind: str) -> str:
    """One line about a binary file: size, type guess and sha256; never its bytes."""
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as fh:
        while chunk := fh.read(CHUNK_BYTES):
            digest.update(chunk)
            size += len(chunk)
    if kind == "data":
        kind = mimetypes.guess_type(path.name)[0] or "unknown data"
    return (
        f"{rel}: binary file ({kind}), {size} bytes, sha256 {digest.hexdigest()}. "
        "Its bytes are not shown; use bash (file, xxd | head) if you must inspect it."
    )


# An undecodable byte as surrogateescape keeps it; one regular expression scans a file in C, where a loop over its
# characters in Python cost a repair about 8 ms per candidate.
_UNDECODABLE = re.compile("[\udc80-\udcff]")


def to_display(text: str) -> str:
    """Text with undecodable bytes (kept as lone surrogates) shown as U+FFFD; same length as `text`."""
    return _UNDECODABLE.sub("\ufffd", text)


def restore_invalid_bytes(old_raw: str, new: str) -> str:
    """Put back the original undecodable bytes where the model echoed them as U+FFFD.

    The model only ever saw U+FFFD for those bytes; when its replacement repeats exactly as many as
    the replaced text held, they stand for the same bytes, so the file keeps them byte-exact.
    """
    originals = _UNDECODABLE.findall(old_raw)
    if not originals or new.count("\ufffd") != len(originals):
        return new
    it = iter(originals)
    return "".join(next(it) if ch == "\ufffd" else ch for ch in new)


@dataclass
class TextFile:
    """A decoded text file split into lines, remembering how to write it back byte-exact."""

    lines: list[str]
    endings: list[str | None]
    """Each line's original ending; None for a last line without one."""
    newline: Newline = "\n"
    final_newline: bool = True
    codec: Codec = "utf-8"
    bom: bool = False
    invalid_bytes: int = 0
    """Bytes that are not valid UTF-8; kept as lone surrogates so they are written back unchanged."""
    stamp: FileStamp | None = field(default=None, compare=False)

    @property
    def text(self) -> str:
        """The content with "\\n" line endings, as the model reads it (before U+FFFD display)."""
        return join_lines(self.lines, self.final_newline)

    def encode(self, new_lines: list[str]) -> bytes:
        """Bytes of the file with `new_lines`, keeping encoding, BOM, line endings and final-newline state."""
        endings = _carry_endings(self.lines, self.endings, new_lines, self.newline)
        if new_lines and not (self.final_newline or not self.lines):
            endings[-1] = ""
        text = "".join(line + ending for line, ending in zip(new_lines, endings, strict=True))
        bom = next((b for b, codec in _BOMS if codec == self.codec), b"") if self.bom else b""
        errors = "surrogateescape" if self.codec == "utf-8" else "strict"
        try:
            return bom + text.encode(self.codec, errors=errors)
        except UnicodeEncodeError as exc:
            raise ToolFailure(f"the new text cannot be encoded as {self.codec} ({exc.reason}); use plain text") from exc


def join_lines(lines: list[str], final_newline: bool) -> str:
    """Lines joined with "\\n", plus one at the end when the file has a final newline."""
    if not lines:
        return ""
    return "\n".join(lines) + ("\n" if final_newline else "")


def split_text(text: str) -> list[str]:
    """The lines of "\\n"-separated text; a trailing newline does not start another line."""
    if not text:
        return []
    parts = text.split("\n")
    if parts[-1] == "":
        parts.pop()
    return parts


def decode_text(data: bytes) -> TextFile:
    """Split bytes into lines and remember encoding, BOM, per-line endings and the final-newline state."""
    text, codec, bom, invalid = _decoded(data)
    parts = text.split("\n")
    final_newline = parts[-1] == ""
    if final_newline:
        parts.pop()
    lines: list[str] = []
    endings: list[str | None] = []
    crlf = 0
    for index, part in enumerate(parts):
        last_open = index == len(parts) - 1 and not final_newline
        if part.endswith("\r") and not last_open:
            lines.append(part[:-1])
            endings.append("\r\n")
            crlf += 1
        else:
            lines.append(part)
            endings.append(None if last_open else "\n")
    newline: Newline = "\r\n" if crlf * 2 > len(lines) - (0 if final_newline else 1) else "\n"
    return TextFile(lines, endings, newline, final_newline if lines else False, codec, bom, invalid)


def _decoded(data: bytes) -> tuple[str, Codec, bool, int]:
    """The text, its codec, whether a byte-order mark named it, and how many bytes were not valid UTF-8 (kept as
    surrogates so that they are written back as they were)."""
    codec: Codec = "utf-8"
    bom = False
    for mark, candidate in _BOMS:
        if data.startswith(mark):
            codec, bom, data = candidate, True, data[len(mark) :]
            break
    if codec == "utf-8":
        text = data.decode("utf-8", errors="surrogateescape")
        return text, codec, bom, len(_UNDECODABLE.findall(text))
    try:
        return data.decode(codec), codec, bom, 0
    except UnicodeDecodeError as exc:
        raise ToolFailure(f"the file starts with a {codec} byte-order mark but is not valid {codec}") from exc


def load_text(path: Path, rel: str) -> TextFile:
    """Read a whole text file for editing; binary and oversized files are refused with what to do instead."""
    try:
        size = path.stat().st_size
        if size > EDIT_MAX_BYTES:
            raise ToolFailure(
                f"{rel} is {size} bytes, too large to edit here (limit {EDIT_MAX_BYTES}); "
                "edit it with bash (sed -i, a script) instead",
                kind="too_large",
            )
        data = path.read_bytes()
    except IsADirectoryError as exc:
        raise ToolFailure(f"{rel} is a directory; use navigate list_dir to see its files") from exc
    except OSError as exc:
        raise ToolFailure(f"cannot read {rel}: {exc.strerror or exc}") from exc
    kind = sniff_binary(data[:SNIFF_BYTES])
    if kind is not None:
        raise ToolFailure(summarize_binary(path, rel, kind) + " Binary files cannot be edited as text.")
    text_file = decode_text(data)
    text_file.stamp = _stamp_bytes(path, data)
    return text_file


def _carry_endings(old: list[str], old_endings: list[str | None], new: list[str], default: Newline) -> list[str]:
    """Each new line's ending: the original one where the line survived the edit, else the file's dominant one."""
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    mapping: dict[int, int] = {i: i for i in range(prefix)}
    mapping.update({len(new) - 1 - k: len(old) - 1 - k for k in range(suffix)})
    old_mid, new_mid = old[prefix : len(old) - suffix], new[prefix : len(new) - suffix]
    if old_mid and new_mid and len(old_mid) * len(new_mid) <= 1_000_000:
        matcher = difflib.SequenceMatcher(None, old_mid, new_mid, autojunk=False)
        for block in matcher.get_matching_blocks():
            for k in range(block.size):
                mapping[prefix + block.b + k] = prefix + block.a + k
    endings: list[str] = []
    for index in range(len(new)):
        source = mapping.get(index)
        original = old_endings[source] if source is not None else None
        endings.append(original if original is not None else default)
    return endings


@dataclass
class Page:
    """A window of a file's lines read by streaming, with what is needed to describe the rest."""

    lines: list[str] = field(default_factory=list)
    first: int = 1
    total: int = 0
    cut_lines: int = 0
    """Lines in the window that were longer than the display limit and shown shortened."""
    invalid_lines: list[int] = field(default_factory=list)
    crlf: bool = False
    bom: bool = False
    stamp: FileStamp | None = None


def read_page(path: Path, start: int, end: int, *, max_line_chars: int = 2000) -> Page:
    """Lines start..end (1-based, inclusive) of a UTF-8 file and its total line count, streaming it once.

    Memory stays bounded by the window: a 200 MB log or a file without newlines is never loaded whole.
    """
    page = Page(first=start)
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        st = os.fstat(fh.fileno())
        number = 0
        for head, length, cut in _iter_raw_lines(_hashing_chunks(fh, digest), max_line_chars * 4, max(end, 1)):
            if head is None:
                number += length  # lines after the window, only counted
                break
            number += 1
            if number == 1 and head.startswith(codecs.BOM_UTF8):
                head, page.bom = head[len(codecs.BOM_UTF8) :], True
            if start <= number <= end:
                page.lines.append(_decode_line(page, number, head, cut, length, max_line_chars))
        page.total = number
    page.stamp = FileStamp(size=st.st_size, mtime_ns=st.st_mtime_ns, sha256=digest.hexdigest())
    return page


def _decode_line(page: Page, number: int, head: bytes, cut: bool, length: int, max_chars: int) -> str:
    if head.endswith(b"\r") and not cut:
        head, page.crlf = head[:-1], True
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if cut and exc.reason == "unexpected end of data":
            # The display limit split a multi-byte character; that is not an encoding problem.
            text = head[: exc.start].decode("utf-8")
        else:
            page.invalid_lines.append(number)
            text = head.decode("utf-8", errors="replace")
    if cut or len(text) > max_chars:
        page.cut_lines += 1
        return text[:max_chars] + f" … [line cut: {length} bytes in all]"
    return text


def _hashing_chunks(fh: BinaryIO, digest: hashlib._Hash) -> Iterator[bytes]:
    while chunk := fh.read(CHUNK_BYTES):
        digest.update(chunk)
        yield chunk


def _iter_raw_lines(chunks: Iterator[bytes], cap: int, detail: int) -> Iterator[tuple[bytes | None, int, bool]]:
    """(first `cap` bytes of a line, its length in bytes incl. the newline, whether it was cut) per line.

    After `detail` lines, the rest is only counted (fast, in C) and reported once as (None, count, False).
    """
    head = bytearray()
    length = 0
    number = 0
    for chunk in chunks:
        pos = 0
        while number < detail:
            nl = chunk.find(b"\n", pos)
            piece = chunk[pos:] if nl == -1 else chunk[pos:nl]
            if len(head) < cap:
                head += piece[: cap - len(head)]
            length += len(piece)
            if nl == -1:
                pos = len(chunk)
                break
            number += 1
            yield bytes(head), length + 1, length > len(head)
            head.clear()
            length = 0
            pos = nl + 1
        if number >= detail:
            yield None, _count_lines(chunk[pos:], chunks), False
            return
    if length:
        yield bytes(head), length, length > len(head)


def _count_lines(rest: bytes, chunks: Iterator[bytes]) -> int:
    """Lines in `rest` and the remaining chunks; a last line without a newline counts too."""
    count = rest.count(b"\n")
    open_line = bool(rest) and not rest.endswith(b"\n")
    for chunk in chunks:
        count += chunk.count(b"\n")
        open_line = not chunk.endswith(b"\n") if chunk else open_line
    return count + (1 if open_line else 0)


def stamp_file(path: Path) -> FileStamp:
    """The same stamp as FileStamp.of, but streamed, so a huge file is never held in memory."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        st = os.fstat(fh.fileno())
        for _ in _hashing_chunks(fh, digest):
            pass
    return FileStamp(size=st.st_size, mtime_ns=st.st_mtime_ns, sha256=digest.hexdigest())


def _stamp_bytes(path: Path, data: bytes) -> FileStamp:
    st = path.stat()
    return FileStamp(size=len(data), mtime_ns=st.st_mtime_ns, sha256=hashlib.sha256(data).hexdigest())


def ensure_fresh(ctx: ToolContext, path: Path, current: FileStamp) -> None:
    """Refuse an edit when the file changed on disk since the model last read or wrote it.

    Content decides, not mtime: a `touch` or an editor saving the same bytes cannot lose anything,
    while any change in the bytes means the model would edit a view that no longer exists.
    """
    seen = ctx.read_stamps.get(path)
    if seen is not None and (seen.size, seen.sha256) != (current.size, current.sha256):
        raise ToolFailure(
            f"{ctx.rel(path)} changed on disk since you last read it (someone else edited it); "
            "read it again with file read, then redo your edit on the current content"
        )


def write_atomic(ctx: ToolContext, path: Path, data: bytes) -> bool:
    """Replace `path` with `data` atomically, keeping its mode bits; True when the file was created.

    The temporary file lives next to the target (same filesystem, so os.replace is atomic) and is
    created with O_EXCL|O_NOFOLLOW, so a planted symlink cannot redirect the write.
    """
    _refuse_escaping_link(ctx, path)
    _refuse_redaction_marks(ctx, path, data)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        existing: os.stat_result | None = path.stat()
    except FileNotFoundError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        raise ToolFailure(f"{ctx.rel(path)} is not a regular file; it cannot be written")
    tmp = path.parent / f".{path.name[:200]}.pedro-{secrets.token_hex(4)}"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(tmp, flags, 0o666 if existing is None else 0o600)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if existing is not None:
                os.fchmod(fd, stat.S_IMODE(existing.st_mode))
                if (existing.st_uid, existing.st_gid) != (os.getuid(), os.getgid()):
                    try:
                        os.fchown(fd, existing.st_uid, existing.st_gid)
                    except PermissionError:
                        pass  # keeping the owner is best effort; the content is what matters
            os.fsync(fd)
        finally:
            os.close(fd)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)
    return existing is None


def _refuse_redaction_marks(ctx: ToolContext, path: Path, data: bytes) -> None:
    """Refuse new text that holds more redaction marks than the file had: the model saw a secret hidden and wrote
    the mark back, which would replace the secret in the user's file."""
    mark = REDACTION_MARK.encode()
    added = data.count(mark)
    if not added:
        return
    try:
        before = path.read_bytes().count(mark)
    except OSError:
        before = 0
    if added > before:
        raise ToolFailure(
            f"the new text of {ctx.rel(path)} holds {REDACTION_MARK}…], which stands for a secret pedro hid from "
            "you; writing it would replace the secret in the file. Leave the lines that hold it as they are: edit "
            "the lines around them with code_edit"
        )


def _refuse_escaping_link(ctx: ToolContext, path: Path) -> None:
    """ctx.resolve already followed links; a link appearing since then must still not lead outside."""
    if path.is_symlink() or not path.parent.resolve().is_relative_to(ctx.root):
        raise ToolDeniedError(f"{ctx.rel(path)} is a symlink leading outside the repository; it cannot be written")


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def unified_diff(rel: str, old: list[str], new: list[str], *, max_lines: int = 60, max_line_chars: int = 240) -> str:
    """A short unified diff of an edit, capped with a count of what was cut."""
    rows = list(difflib.unified_diff(old, new, f"a/{rel}", f"b/{rel}", n=2, lineterm=""))
    shown = [to_display(row if len(row) <= max_line_chars else row[:max_line_chars] + " …") for row in rows[:max_lines]]
    if len(rows) > max_lines:
        shown.append(f"[diff cut: {len(rows) - max_lines} more lines; read the file to see the rest]")
    return "\n".join(shown)
