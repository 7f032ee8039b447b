"""The code_edit tool: exact or whitespace-tolerant replacements and line edits, written atomically and checked."""

from __future__ import annotations

import ast
import difflib
import json
import re
import stat
import tomllib
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import model_validator

from pedro.effects import Effects
from pedro.tools.base import ToolArgs, ToolContext, ToolFailure
from pedro.tools.file import PATH_ALIASES, apply_aliases, display_lines, pick_action
from pedro.tools.textfile import (
    TextFile,
    ensure_fresh,
    load_text,
    restore_invalid_bytes,
    split_text,
    stamp_file,
    to_display,
    unified_diff,
    write_atomic,
)

EditAction = Literal["replace", "replace_lines", "insert", "delete_lines"]

_ALIASES: dict[str, tuple[str, ...]] = {
    "path": PATH_ALIASES,
    "old": ("old_str", "old_string", "old_text", "search", "find", "original"),
    "new": ("new_str", "new_string", "new_text", "replacement", "replace_with", "replace"),
    "content": ("text", "new_content", "code", "lines"),
    "line": ("insert_line", "after_line", "line_number", "at_line"),
    "start_line": ("start", "from_line", "line_start", "first_line"),
    "end_line": ("end", "to_line", "line_end", "last_line"),
}
_ACTION_WORDS: dict[str, EditAction] = {
    "str_replace": "replace",
    "edit": "replace",
    "search_replace": "replace",
    "substitute": "replace",
    "replace_range": "replace_lines",
    "replace_line": "replace_lines",
    "insert_lines": "insert",
    "insert_after": "insert",
    "delete": "delete_lines",
    "delete_line": "delete_lines",
    "remove_lines": "delete_lines",
}

# A line copied from `file read` output, number prefix and all.
_NUMBERED = re.compile(r"^ *\d+\|(?: |$)")
_SHOW_MAX = 12


class CodeEditArgs(ToolArgs):
    """Arguments of the code_edit tool."""

    short_keys: ClassVar[tuple[str, ...]] = ("path", "old", "new")

    action: EditAction
    path: str
    old: str | None = None
    new: str | None = None
    replace_all: bool = False
    start_line: int | None = None
    end_line: int | None = None
    line: int | None = None
    content: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _infer_action(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data
        out = apply_aliases(data, _ALIASES)
        action = pick_action(out, _ACTION_WORDS)
        if action is None:
            if out.get("old") is not None:
                action = "replace"
            elif out.get("line") is not None:
                action = "insert"
            elif out.get("start_line") is not None and (out.get("new") is not None or out.get("content") is not None):
                action = "replace_lines"
            else:
                raise ValueError(
                    "say which action: replace (old, new), replace_lines (start_line, end_line, new), "
                    "insert (line, content) or delete_lines (start_line, end_line)"
                )
        out["action"] = action
        # One text key per action in the contract, but small models mix them up; both mean the same text.
        if action == "insert" and out.get("content") is None:
            out["content"] = out.get("new")
        if action == "replace_lines" and out.get("new") is None:
            out["new"] = out.get("content")
        if action in ("replace_lines", "delete_lines") and out.get("end_line") is None:
            out["end_line"] = out.get("start_line")
        return out

    @model_validator(mode="after")
    def _check_needs(self) -> CodeEditArgs:
        needs: dict[str, tuple[str, ...]] = {
            "replace": ("old", "new"),
            "replace_lines": ("start_line", "end_line", "new"),
            "insert": ("line", "content"),
            "delete_lines": ("start_line", "end_line"),
        }
        missing = [key for key in needs[self.action] if getattr(self, key) is None]
        if missing:
            hint = ' (the text to put in; "" removes)' if "new" in missing else ""
            if self.action == "insert" and self.start_line is not None and "line" in missing:
                hint = " (insert puts content after `line`; line=0 is the top of the file)"
            raise ValueError(f"{self.action} needs {', '.join(missing)}{hint}")
        if self.action == "replace" and self.old == "":
            raise ValueError("old is empty; give the exact text to replace, or use insert with line=N to add text")
        return self


@dataclass
class _Edit:
    """The outcome of one action on the lines of a file, before anything is written."""

    lines: list[str]
    summary: str
    notes: list[str] = field(default_factory=list)


class CodeEditTool:
    """Change part of a file: replace text, replace or delete lines, insert lines."""

    name: ClassVar[str] = "code_edit"
    Args: ClassVar[type[ToolArgs]] = CodeEditArgs

    def effects(self, args: CodeEditArgs) -> Effects:
        return Effects(writes=(args.path,))

    def run(self, args: CodeEditArgs, ctx: ToolContext) -> str:
        path = ctx.resolve(args.path, must_exist=True)
        rel = ctx.rel(path)
        ctx.check_writable(path)
        if not stat.S_ISREG(path.stat().st_mode):
            raise ToolFailure(f"{rel} is not a regular file; code_edit changes files (see navigate list_dir)")
        text_file = load_text(path, rel)
        if text_file.stamp is not None:
            ensure_fresh(ctx, path, text_file.stamp)
        edit = _apply(args, text_file, rel)
        if edit.lines == text_file.lines:
            raise ToolFailure(f"the edit changes nothing in {rel} (new text equals the old); the file is unchanged")
        if not edit.lines:
            raise ToolFailure(
                f"the edit would remove all {len(text_file.lines)} lines of {rel}; the file is unchanged. "
                "Use file delete to remove a file, or file write to replace all of it"
            )
        _refuse_syntax_break(path, rel, text_file, edit.lines)
        write_atomic(ctx, path, text_file.encode(edit.lines))
        ctx.read_stamps[path] = stamp_file(path)
        out = [f"edited {rel}: {edit.summary}; it now has {len(edit.lines)} lines"]
        out.extend(f"[note: {note}]" for note in edit.notes)
        out.append(unified_diff(rel, text_file.lines, edit.lines))
        return "\n".join(out)


def _apply(args: CodeEditArgs, text_file: TextFile, rel: str) -> _Edit:
    lines = text_file.lines
    if args.action == "replace":
        assert args.old is not None
        assert args.new is not None
        return _replace(text_file, rel, _unix(args.old), _unix(args.new), args.replace_all)
    if args.action == "insert":
        assert args.line is not None
        assert args.content is not None
        if not 0 <= args.line <= len(lines):
            raise ToolFailure(
                f"line {args.line} is out of range: {rel} has {len(lines)} lines, so line must be between "
                f"0 (top of the file) and {len(lines)} (after the last line); the file is unchanged"
            )
        added, notes = _strip_numbers(split_text(_unix(args.content)) or [""])
        where = "at the top" if args.line == 0 else f"after line {args.line}"
        return _Edit(
            [*lines[: args.line], *added, *lines[args.line :]], f"inserted {_count(len(added))} {where}", notes
        )
    assert args.start_line is not None
    assert args.end_line is not None
    start, end = args.start_line, args.end_line
    _check_range(start, end, len(lines), rel)
    if args.action == "delete_lines":
        return _Edit([*lines[: start - 1], *lines[end:]], f"deleted lines {start}-{end} ({_count(end - start + 1)})")
    assert args.new is not None
    new, notes = _strip_numbers(split_text(_unix(args.new)))
    new = [restore_invalid_bytes(old, line) for old, line in zip(lines[start - 1 : end], new, strict=False)] + new[
        end - start + 1 :
    ]
    summary = f"replaced lines {start}-{end} ({_count(end - start + 1)}) with {_count(len(new))}"
    return _Edit([*lines[: start - 1], *new, *lines[end:]], summary, notes)


def _count(lines: int) -> str:
    return "1 line" if lines == 1 else f"{lines} lines"


def _unix(text: str) -> str:
    return text.replace("\r\n", "\n")


def _check_range(start: int, end: int, count: int, rel: str) -> None:
    """Line numbers are checked against the file as it is now; the message names its real length."""
    if start < 1 or end < 1:
        problem = f"line numbers start at 1 (got start_line={start}, end_line={end})"
    elif start > end:
        problem = f"start_line {start} is after end_line {end}"
    elif end > count:
        problem = f"lines {start}-{end} go past the end of the file"
    else:
        return
    raise ToolFailure(f"{problem}: {rel} has {count} lines; the file is unchanged. Read it again if unsure")


def _strip_numbers(lines: list[str]) -> tuple[list[str], list[str]]:
    """Drop `   12| ` prefixes when every line was copied from file read output with them."""
    body = [line for line in lines if line.strip()]
    if not body or not all(_NUMBERED.match(line) for line in body):
        return lines, []
    stripped = [_NUMBERED.sub("", line, count=1) for line in lines]
    return stripped, ["removed the line-number prefixes copied from file read output"]


def _replace(text_file: TextFile, rel: str, old: str, new: str, replace_all: bool) -> _Edit:
    raw = text_file.text
    shown = to_display(raw)
    starts = _find_all(shown, old)
    if len(starts) > 1 and not replace_all:
        numbers = ", ".join(str(shown.count("\n", 0, pos) + 1) for pos in starts[:20])
        raise ToolFailure(
            f"old matches {len(starts)} places in {rel} (starting at lines {numbers}); the file is unchanged. "
            "Add surrounding lines to old so it matches once, or set replace_all=true to change every one"
        )
    if starts:
        pieces: list[str] = []
        last = 0
        for pos in starts:
            pieces += [raw[last:pos], restore_invalid_bytes(raw[pos : pos + len(old)], new)]
            last = pos + len(old)
        pieces.append(raw[last:])
        where = ", ".join(str(shown.count("\n", 0, pos) + 1) for pos in starts[:20])
        count = f"{len(starts)} occurrences" if len(starts) > 1 else "1 occurrence"
        return _Edit(split_text("".join(pieces)), f"replaced {count} (line {where})")
    old_lines, notes = _strip_numbers(split_text(old))
    if notes:
        new_lines, _ = _strip_numbers(split_text(new))
        stripped = "\n".join(old_lines)
        if stripped and stripped != old:
            edit = _replace(text_file, rel, stripped, "\n".join(new_lines), replace_all)
            edit.notes[:0] = notes
            return edit
    return _replace_loosely(text_file, rel, old, new)


def _find_all(haystack: str, needle: str) -> list[int]:
    found: list[int] = []
    pos = haystack.find(needle)
    while pos != -1:
        found.append(pos)
        pos = haystack.find(needle, pos + len(needle))
    return found


def _norm(line: str) -> str:
    return " ".join(line.split())


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _replace_loosely(text_file: TextFile, rel: str, old: str, new: str) -> _Edit:
    """Match whole lines ignoring indentation and spacing; apply only when exactly one place matches."""
    old_lines, new_lines = _without_blank_ends(old, new)
    shown = [to_display(line) for line in text_file.lines]
    if old_lines:
        key = [_norm(line) for line in old_lines]
        keys = [_norm(line) for line in shown]
        size = len(key)
        hits = [i for i in range(len(keys) - size + 1) if keys[i] == key[0] and keys[i : i + size] == key]
        if len(hits) == 1:
            at = hits[0]
            matched = text_file.lines[at : at + size]
            placed = _reindent(new_lines, old_lines, matched)
            placed = split_text(restore_invalid_bytes("\n".join(matched), "\n".join(placed) + "\n"))
            if not new_lines:
                placed = []
            summary = f"replaced lines {at + 1}-{at + size} ({_count(size)}) with {_count(len(placed))}"
            note = "old matched only when ignoring indentation and spacing; new was indented to fit the file"
            return _Edit([*text_file.lines[:at], *placed, *text_file.lines[at + size :]], summary, [note])
        if len(hits) > 1:
            numbers = ", ".join(str(i + 1) for i in hits[:20])
            raise ToolFailure(
                f"old was not found exactly in {rel}; ignoring indentation it matches {len(hits)} places "
                f"(lines {numbers}); the file is unchanged. Copy the exact text, with more surrounding lines"
            )
    raise ToolFailure(_did_you_mean(rel, shown, old_lines))


def _without_blank_ends(old: str, new: str) -> tuple[list[str], list[str]]:
    """The lines of old without its blank first and last lines, and those of new without as many blank first lines
    as old lost (blank lines around old are not part of the match)."""
    old_lines = split_text(old)
    lead = 0
    while lead < len(old_lines) and not old_lines[lead].strip():
        lead += 1
    old_lines = old_lines[lead:]
    while old_lines and not old_lines[-1].strip():
        old_lines.pop()
    new_lines = split_text(new)
    drop = 0
    while drop < min(lead, len(new_lines)) and not new_lines[drop].strip():
        drop += 1
    return old_lines, new_lines[drop:]


def _reindent(new_lines: list[str], old_lines: list[str], file_lines: list[str]) -> list[str]:
    """Give each new line the file's indentation of the old line it replaces, moved as the model moved it.

    New lines are paired with old lines by a diff of their stripped text, so a model that flattened
    or shifted all indentation still gets each line placed at the depth the file uses there.
    """
    anchor = _nonblank_anchors(old_lines)
    source = [0] * len(new_lines)
    matcher = difflib.SequenceMatcher(
        None, [_norm(x) for x in old_lines], [_norm(x) for x in new_lines], autojunk=False
    )
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for j in range(j1, j2):
            source[j] = i1 + min(j - j1, i2 - i1 - 1) if tag != "insert" else min(i1, len(old_lines) - 1)
    out: list[str] = []
    for line, index in zip(new_lines, source, strict=True):
        if not line.strip():
            out.append("")
            continue
        i = anchor[index]
        ind = _indent(line)
        out.append(_shift(_indent(file_lines[i]), _indent(old_lines[i]), ind) + line[len(ind) :])
    return out


def _nonblank_anchors(lines: list[str]) -> list[int]:
    """For each line, itself or the nearest non-blank line after (else before) it, whose indentation counts."""
    anchors = list(range(len(lines)))
    following = None
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].strip():
            following = i
        elif following is not None:
            anchors[i] = following
    preceding = None
    for i, line in enumerate(lines):
        if line.strip():
            preceding = i
        elif anchors[i] == i and preceding is not None:
            anchors[i] = preceding
    return anchors


def _shift(file_ind: str, old_ind: str, new_ind: str) -> str:
    """The file's indentation moved by however much the model's new line moved from its old line."""
    if new_ind.startswith(old_ind):
        return file_ind + new_ind[len(old_ind) :]
    if old_ind.startswith(new_ind):
        cut = len(old_ind) - len(new_ind)
        return file_ind[: max(0, len(file_ind) - cut)]
    return file_ind


def _did_you_mean(rel: str, shown: list[str], old_lines: list[str]) -> str:
    """The closest lines the file really has, numbered, with the first line that differs."""
    head = f"old was not found in {rel}; the file is unchanged."
    at = _closest(shown, old_lines)
    if at is None:
        return f"{head} No similar lines exist; read the file again (file read) to see its current content"
    size = min(len(old_lines), len(shown) - at)
    window = shown[at : at + size]
    out = [f"{head} Did you mean lines {at + 1}-{at + size}?", display_lines(window[:_SHOW_MAX], at + 1)]
    if size > _SHOW_MAX:
        out.append(f"[{size - _SHOW_MAX} more lines]")
    for offset, (have, wrote) in enumerate(zip(window, old_lines, strict=False)):
        if have != wrote:
            out.append(f"first difference, line {at + offset + 1}:\n  file has: {have!r}\n  old has:  {wrote!r}")
            break
    out.append(
        "Copy the exact text into old (without line-number prefixes), "
        f"or use replace_lines with start_line={at + 1}, end_line={at + size}"
    )
    return "\n".join(out)


def _closest(shown: list[str], old_lines: list[str]) -> int | None:
    """Start of the window of the file most like `old_lines`, or None when nothing is close."""
    body = [_norm(line) for line in old_lines if line.strip()]
    if not body or not shown:
        return None
    size = len(old_lines)
    keys = [_norm(line) for line in shown]
    anchors: set[int] = set()
    for target, shift in ((body[0], 0), (body[-1], size - 1)):
        scored = sorted(range(len(keys)), key=lambda i: -_ratio(keys[i], target))[:5]
        anchors.update(max(0, min(i - shift, len(keys) - 1)) for i in scored)
    wanted = "\n".join(body)
    best, best_score = None, 0.0
    for start in sorted(anchors):
        score = _ratio("\n".join(k for k in keys[start : start + size] if k), wanted)
        if score > best_score:
            best, best_score = start, score
    return best if best_score >= 0.5 else None


def _ratio(a: str, b: str) -> float:
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return matcher.ratio() if matcher.real_quick_ratio() > 0.3 else 0.0


def _refuse_syntax_break(path: Path, rel: str, text_file: TextFile, new_lines: list[str]) -> None:
    """Reject an edit that turns a file that parsed (Python, JSON, TOML) into one that does not."""
    before = _syntax_error(path, to_display(text_file.text))
    if before is not None:
        return  # it was already broken, or not a checked kind: the model may be mid-repair
    new_text = to_display("\n".join(new_lines) + "\n")
    after = _syntax_error(path, new_text)
    if after is None:
        return
    problem, number = after
    shown = ""
    if number is not None and 1 <= number <= len(new_lines):
        shown = "\n" + display_lines([to_display(new_lines[number - 1])], number)
    raise ToolFailure(
        f"the edit was not applied: it would make {rel} invalid ({problem}); the file is unchanged.{shown}\n"
        "Fix new so the file still parses, then try again"
    )


def _syntax_error(path: Path, text: str) -> tuple[str, int | None] | None:
    """(message, line) when `text` does not parse as the file's kind; None when it parses or is not checked."""
    suffix = path.suffix.lower()
    try:
        if suffix in (".py", ".pyi"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # invalid escapes warn; only errors matter here
                ast.parse(text, filename=path.name)
        elif suffix == ".json":
            json.loads(text)
        elif suffix == ".toml":
            tomllib.loads(text)
    except SyntaxError as exc:
        return f"Python syntax error at line {exc.lineno}: {exc.msg}", exc.lineno
    except json.JSONDecodeError as exc:
        return f"JSON error at line {exc.lineno} column {exc.colno}: {exc.msg}", exc.lineno
    except tomllib.TOMLDecodeError as exc:
        return f"TOML error: {exc}", None
    except (ValueError, RecursionError, MemoryError):
        return "cannot be parsed", None
    return None
