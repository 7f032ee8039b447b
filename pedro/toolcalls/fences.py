"""Markdown fences (§8.4): CommonMark-style blocks, the `fenced` convention, and calls wrapped in ```json."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pedro.toolcalls import cli
from pedro.toolcalls.context import Scan, issue, truncated
from pedro.toolcalls.jsonscan import read_json
from pedro.toolcalls.model import Found, Segment
from pedro.toolcalls.names import make_found

_FENCE_LINE = re.compile(r"^ {0,3}(`{3,})([^`\n]*)$", re.M)
_HEREDOC = re.compile(r"(?<!<)<<-?[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
_WRAPPER_INFO = ("", "json", "xml")
_INLINE_MAX = 2000  # an inline code span closes on its own line; a bound keeps many spans linear
_HEREDOC_RETRIES = 16


@dataclass(frozen=True)
class Fence:
    """One fenced block: `end` is after its closing line (or the text end when it is unclosed)."""

    info: str
    body: str
    end: int
    closed: bool


def _line_start(text: str, pos: int) -> bool:
    line = pos
    while line > 0 and pos - line < 3 and text[line - 1] == " ":
        line -= 1
    return line == 0 or text[line - 1] == "\n"


def _close(text: str, pos: int, length: int) -> tuple[int, int] | None:
    """The closing fence line from `pos` (start, end after its newline); inner ```lang blocks nest (gptme)."""
    depth = 0
    for match in _FENCE_LINE.finditer(text, pos):
        ticks, info = match.group(1), match.group(2).strip()
        if info:
            depth += 1
        elif depth > 0:
            depth -= 1
        elif len(ticks) >= length:
            end = match.end() + 1 if match.end() < len(text) else match.end()
            return match.start(), end
    return None


def _unterminated_heredoc(body: str) -> bool:
    for match in _HEREDOC.finditer(body):
        line_end = body.find("\n", match.end())
        if line_end == -1 or not re.search(rf"(?m)^\s*{re.escape(match.group(2))}\s*$", body[line_end:]):
            return True
    return False


def read_fence(text: str, start: int, *, bash: bool = False) -> Fence | None:
    """The fence whose backticks start at `start`; a `bash` body must not end inside a heredoc."""
    ticks = _run(text, start)
    if ticks < 3:
        return None
    eol = text.find("\n", start)
    info_end = len(text) if eol == -1 else eol
    info = text[start + ticks : info_end].strip()
    if "`" in info:
        return None
    body_start = info_end + 1 if eol != -1 else len(text)
    search = body_start
    for _ in range(_HEREDOC_RETRIES):
        close = _close(text, search, ticks) if body_start < len(text) else None
        if close is None:
            return Fence(info, text[body_start:], len(text), closed=False)
        body = text[body_start : close[0]].removesuffix("\n")
        if bash and info == "bash" and _unterminated_heredoc(body):
            search = close[1]  # that ``` line belongs to the heredoc; look for the real close
            continue
        return Fence(info, body, close[1], closed=True)
    return Fence(info, text[body_start:], len(text), closed=False)


def _run(text: str, start: int) -> int:
    end = start
    while end < len(text) and text[end] == "`":
        end += 1
    return end - start


def fence(scan: Scan, start: int, token: str) -> Segment | None:
    """A backtick run: a fence at line start, otherwise an inline code span (never a call)."""
    text = scan.text
    if not _line_start(text, start) or _run(text, start) < 3:
        return _inline_code(scan, start)
    block = read_fence(text, start, bash=True)
    if block is None:
        return _inline_code(scan, start)
    source = text[start : block.end]
    if not block.closed and not scan.final:
        return Segment(len(text), role="text", visible=source, incomplete=True, source=source)
    name = block.info
    if name == "bash" and block.closed:
        # `search -t X pkg/`, `file a.go`: the Go design's calls, read even where bash itself is not a tool
        read = cli.read_block(block.body, scan.registry)
        if read is not None:
            return Segment(block.end, list(read), role="fence_call", source=source)
    if name == "tool" or name in scan.registry.schemas:
        return _convention(scan, start, block, source)
    if name.lower() in _WRAPPER_INFO and block.body.strip():
        wrapped = _wrapped_calls(scan, block, source)
        if wrapped is not None:
            return wrapped
    return Segment(block.end, role="text", visible=source, source=source)


def _wrapped_calls(scan: Scan, block: Fence, source: str) -> Segment | None:
    """The calls of a wrapper fence (```xml, ```json, …) whose body is calls and nothing else; None otherwise."""
    inner = scan.rescan(scan.sub(block.body))
    calls = [seg for seg in inner if seg.role == "call"]
    rest = "".join(seg.visible for seg in inner if seg.role == "text").strip()
    if not calls or rest:
        return None
    found = [item for seg in calls for item in seg.found]
    return Segment(block.end, found, incomplete=any(seg.incomplete for seg in calls), source=source)


def _convention(scan: Scan, start: int, block: Fence, source: str) -> Segment:
    """Our product convention: ```tool / ```<tool name> with JSON arguments, or ```bash with a raw command."""
    body = block.body
    stripped = body.strip()
    found: list[Found] = []
    if stripped.startswith("{"):
        read = read_json(stripped, 0)
        rest = stripped[read.end :].strip() if read.status == "ok" else ""
        if read.status == "ok" and not rest and isinstance(read.value, dict):
            if block.info == "tool":
                value = read.value
                args = value.get("arguments", value.get("parameters"))
                found.append(make_found(value.get("name"), args, "fenced", source))
            else:
                found.append(make_found(block.info, read.value, "fenced", source))
            return Segment(block.end, found, role="fence_call", source=source)
        if block.info != "bash":
            if not block.closed or read.status == "truncated":
                return _cut_off(scan, start, block, source)
            error = read.error or "text_after_json"
            return Segment(block.end, [issue("invalid_json", "fenced", source, block.info, error)], "fence_call")
    if not block.closed:
        return _cut_off(scan, start, block, source)
    if block.info == "bash":
        if not stripped:
            return Segment(block.end, [issue("not_json", "fenced", source, "bash", "empty_block")], "fence_call")
        return Segment(block.end, [make_found("bash", {"command": body}, "fenced", source)], role="fence_call")
    error = "fence_plain_text"
    return Segment(
        block.end, [issue("not_json", "fenced", source, block.info, error)], role="fence_call", source=source
    )


def _cut_off(scan: Scan, start: int, block: Fence, source: str) -> Segment:
    segment = truncated(scan, start, "fenced", block.info if block.info != "tool" else "")
    segment.role, segment.source = "fence_call", source
    return segment


def _inline_code(scan: Scan, start: int) -> Segment:
    """An inline code span, or literal backticks when it does not close on the same line."""
    text = scan.text
    ticks = _run(text, start)
    limit = min(len(text), start + _INLINE_MAX)
    pos = start + ticks
    while True:
        at = text.find("`" * ticks, pos, limit)
        if at == -1 and not scan.final and limit == len(text) and "\n" not in text[pos:]:
            # a stream: the span may still close on this line, and what it holds must not be read as a call
            return Segment(len(text), role="text", visible=text[start:], source=text[start:], incomplete=True)
        if at == -1 or text.find("\n", pos, at) != -1:
            end = start + ticks
            break
        run = _run(text, at)
        if run == ticks:
            end = at + ticks
            break
        pos = at + run
    return Segment(end, role="text", visible=text[start:end], source=text[start:end])


OPENERS = {"`": fence}
