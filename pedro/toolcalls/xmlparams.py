"""XML-parameter calls (§4): Qwen3-Coder/Qwen3.5 <function=…>, Seed-OSS, GLM-4.x, MiniMax-M2 and <invoke>."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pedro.toolcalls.context import Scan, issue, truncated
from pedro.toolcalls.jsonscan import read_json
from pedro.toolcalls.model import Candidate, Found, Segment
from pedro.toolcalls.names import coerce_value, make_found

Handler = Callable[[Scan, int, str], Segment | None]

_NAME_MAX = 256  # a function name never runs longer; bounding the search keeps many openers linear
_PARAM_OPEN = "<parameter="
_PARAM_CLOSE = "</parameter>"
_QWEN_FOLLOW = ("<parameter=", "</function>", "</tool_call>", "</seed:tool_call>")
_INVOKE = re.compile(r"<invoke\s+name\s*=\s*(?:\"([^\"\n]*)\"|'([^'\n]*)')\s*>")
_INVOKE_PARAM = re.compile(r"<parameter\s+name\s*=\s*(?:\"([^\"\n]*)\"|'([^'\n]*)')\s*>")


def _trim_one_newline(value: str) -> str:
    """Qwen3-Coder values lose exactly one leading and one trailing newline, never other whitespace."""
    if value.startswith("\n"):
        value = value[1:]
    return value[:-1] if value.endswith("\n") else value


def _qwen_value_end(scan: Scan, start: int, tool: str, seen: set[str]) -> tuple[int, int] | None:
    """Where a Qwen3-Coder value ends (value end, resume position), honouring nested example calls."""
    text = scan.text
    declared = set(scan.registry.parameter_names(tool))
    pos, depth = start, 0
    close_at = text.find(_PARAM_CLOSE, pos)
    open_at = text.find("\n" + _PARAM_OPEN, pos)
    while True:
        if close_at != -1 and close_at < pos:
            close_at = text.find(_PARAM_CLOSE, pos)
        if open_at != -1 and open_at < pos:
            open_at = text.find("\n" + _PARAM_OPEN, pos)
        if open_at != -1 and (close_at == -1 or open_at < close_at):
            key = _parameter_name(text, open_at)
            if depth == 0 and key in declared and key not in seen:
                return open_at, open_at + 1  # a missing </parameter>: the next unseen parameter closes it
            depth += 1
            pos = open_at + 12
            continue
        if close_at == -1:
            return None
        after = close_at + len(_PARAM_CLOSE)
        pos = after
        if depth > 0:
            depth -= 1
            continue
        if _ends_parameter(scan, after):
            return close_at, after


def _parameter_name(text: str, open_at: int) -> str:
    """The NAME of the `\n<parameter=NAME>` at `open_at`; "" when its `>` never comes."""
    gt = text.find(">", open_at)
    return text[open_at + 12 : gt] if gt != -1 else ""


def _ends_parameter(scan: Scan, after: int) -> bool:
    """Whether a `</parameter>` ending at `after` closes the value: the call's next part or its end follows, or
    nothing does; otherwise it is text inside the value."""
    follow = scan.skip_ws(after)
    return follow >= len(scan.text) or scan.text.startswith(_QWEN_FOLLOW, follow)


def qwen_function(scan: Scan, at: int, dialect: str) -> tuple[list[Found], int] | None:
    """Parse one `<function=NAME>` element at `at`; None when it is cut off."""
    text = scan.text
    gt = text.find(">", at, at + _NAME_MAX)
    newline = text.find("\n", at, at + _NAME_MAX)
    if gt == -1 or (newline != -1 and newline < gt):
        return None
    name = text[at + len("<function=") : gt]
    raw_start, pos = at, gt + 1
    body = scan.skip_ws(pos)
    if text.startswith("{", body):
        return _json_function(scan, raw_start, body, name)
    arguments: dict[str, Any] = {}
    while True:
        pos = scan.skip_ws(pos)
        if text.startswith(_PARAM_OPEN, pos):
            key_end = text.find(">", pos)
            if key_end == -1:
                return None
            key = text[pos + len(_PARAM_OPEN) : key_end]
            bounds = _qwen_value_end(scan, key_end + 1, name, set(arguments) | {key})
            if bounds is None:
                return None
            value = _trim_one_newline(text[key_end + 1 : bounds[0]])
            arguments[key] = coerce_value(value, scan.registry.property_schema(name, key))
            pos = bounds[1]
        elif text.startswith("</function>", pos):
            end = pos + len("</function>")
            return [Candidate(name, arguments, dialect, text[raw_start:end])], end
        elif text.startswith(("</tool_call>", "</seed:tool_call>"), pos) and arguments:
            # the wrapper's closer proves generation finished; only </function> was dropped
            return [Candidate(name, arguments, dialect, text[raw_start:pos])], pos
        elif pos >= len(text):
            return None
        else:
            nxt = text.find("<", pos + 1)
            if nxt == -1:
                return None
            pos = nxt


def _json_function(scan: Scan, at: int, body: int, name: str) -> tuple[list[Found], int] | None:
    """Functionary v3.1's `<function=NAME>{json}</function>`; None when it is cut off."""
    text = scan.text
    read = read_json(text, body, ("</function>",))
    if read.status == "truncated":
        return None
    end = scan.skip_ws(read.end)
    end = end + len("</function>") if text.startswith("</function>", end) else read.end
    raw = text[at:end]
    if read.status == "invalid":
        return [issue("invalid_json", "functionary", raw, name=name, error=read.error)], end
    return [make_found(name, read.value, "functionary", raw)], end


def qwen_block(scan: Scan, start: int, body: int, closer: str, dialect: str) -> Segment:
    """A wrapper (`<tool_call>`, `<seed:tool_call>`) holding one or more `<function=…>` elements."""
    text = scan.text
    found: list[Found] = []
    pos = body
    while True:
        pos = scan.skip_ws(pos)
        if text.startswith("<function=", pos):
            parsed = qwen_function(scan, pos, dialect)
            if parsed is None:
                return truncated(scan, start, dialect, _function_name(text, pos), extra=found)
            found.extend(parsed[0])
            pos = parsed[1]
            continue
        if text.startswith(closer, pos):
            return Segment(pos + len(closer), found)
        return Segment(pos, found)


def _function_name(text: str, at: int) -> str:
    gt = text.find(">", at, at + 200)
    return text[at + len("<function=") : gt] if gt != -1 else ""


def bare_function(scan: Scan, start: int, token: str) -> Segment | None:
    """A `<function=…>` with no wrapper (Qwen3-Coder without <tool_call>, Functionary v3.1)."""
    parsed = qwen_function(scan, start, "qwen3_xml")
    if parsed is None:
        head = scan.text[start : start + _NAME_MAX]
        if "\n" not in head and not scan.final and len(head) < _NAME_MAX:
            return Segment(len(scan.text), incomplete=True)
        gt = head.find(">")
        if gt == -1 or "\n" in head[:gt]:
            return None  # `<function=` in prose
        return truncated(scan, start, "qwen3_xml", _function_name(scan.text, start))
    return Segment(parsed[1], parsed[0])


def seed_block(scan: Scan, start: int, token: str) -> Segment | None:
    """Seed-OSS: the Qwen3-Coder body inside `<seed:tool_call>`."""
    body = scan.skip_ws(start + len(token))
    if body >= len(scan.text):
        return truncated(scan, start, "seed_oss")
    if not scan.text.startswith("<function=", body):
        return None
    return qwen_block(scan, start, body, "</seed:tool_call>", "seed_oss")


def glm_call(scan: Scan, start: int, name_start: int, name_end: int) -> Segment:
    """GLM-4.x: `<tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value>…</tool_call>`."""
    text = scan.text
    name = text[name_start:name_end]
    arguments: dict[str, Any] = {}
    pos = name_end
    while True:
        pos = scan.skip_ws(pos)
        if text.startswith("</tool_call>", pos):
            end = pos + len("</tool_call>")
            return Segment(end, [Candidate(name, arguments, "glm", text[start:end])])
        if not text.startswith("<arg_key>", pos):
            if pos >= len(text):
                return truncated(scan, start, "glm", name)
            return Segment(pos, [issue("invalid_arguments", "glm", text[start:pos], name, "glm_expected_arg_key")])
        key_end = text.find("</arg_key>", pos)
        if key_end == -1:
            return truncated(scan, start, "glm", name)
        key = text[pos + len("<arg_key>") : key_end].strip()
        value_start = scan.skip_ws(key_end + len("</arg_key>"))
        if not text.startswith("<arg_value>", value_start):
            if value_start >= len(text):
                return truncated(scan, start, "glm", name)
            return Segment(value_start, [issue("invalid_arguments", "glm", text[start:value_start], name)])
        value_start += len("<arg_value>")
        value_end = _structural_close(scan, value_start, "</arg_value>", ("<arg_key>", "</tool_call>"))
        if value_end is None:
            return truncated(scan, start, "glm", name)
        arguments[key] = coerce_value(text[value_start:value_end], scan.registry.property_schema(name, key))
        pos = value_end + len("</arg_value>")


def _structural_close(scan: Scan, start: int, closer: str, follow: tuple[str, ...]) -> int | None:
    """The first `closer` after `start` that is followed (after whitespace) by one of `follow` or the end."""
    text = scan.text
    pos = start
    while True:
        at = text.find(closer, pos)
        if at == -1:
            return None
        after = scan.skip_ws(at + len(closer))
        if after >= len(text) or text.startswith(follow, after):
            return at
        pos = at + len(closer)


def invoke_block(closer: str, dialect: str) -> Handler:
    """MiniMax-M2 `<minimax:tool_call>` and Claude-style `<function_calls>`: `<invoke name=…>` elements."""

    def handle(scan: Scan, start: int, token: str) -> Segment | None:
        text = scan.text
        found: list[Found] = []
        pos = scan.skip_ws(start + len(token))
        if pos >= len(text):
            return truncated(scan, start, dialect)
        if not text.startswith("<invoke", pos):
            return None
        while True:
            pos = scan.skip_ws(pos)
            if text.startswith(closer, pos):
                return Segment(pos + len(closer), found)
            match = _INVOKE.match(text, pos)
            if match is None:
                if text.startswith("<invoke", pos) or (pos >= len(text) and not found):
                    return truncated(scan, start, dialect, extra=found)
                return Segment(pos, found)
            name = match.group(1) if match.group(1) is not None else match.group(2) or ""
            parsed = _invoke_parameters(scan, match.end(), name, dialect)
            if parsed is None:
                return truncated(scan, start, dialect, name, extra=found)
            arguments, end = parsed
            found.append(Candidate(name, arguments, dialect, text[pos:end]))
            pos = end

    return handle


def _invoke_parameters(scan: Scan, pos: int, name: str, dialect: str) -> tuple[dict[str, Any], int] | None:
    text = scan.text
    arguments: dict[str, Any] = {}
    while True:
        pos = scan.skip_ws(pos)
        if text.startswith("</invoke>", pos):
            return arguments, pos + len("</invoke>")
        match = _INVOKE_PARAM.match(text, pos)
        if match is None:
            return None
        key = match.group(1) if match.group(1) is not None else match.group(2) or ""
        end = _structural_close(scan, match.end(), _PARAM_CLOSE, ("<parameter", "</invoke>"))
        if end is None:
            return None
        value = _trim_one_newline(text[match.end() : end])
        arguments[key] = coerce_value(value, scan.registry.property_schema(name, key))
        pos = end + len(_PARAM_CLOSE)


_NAMED_FUNCTION = re.compile(r"<function\s+name\s*=\s*\"([^\"\n]*)\"\s*>\s*")


def named_function(scan: Scan, start: int, token: str) -> Segment | None:
    """Functionary-style `<function name="NAME">{json}</function>`."""
    match = _NAMED_FUNCTION.match(scan.text, start)
    if match is None or not scan.text.startswith("{", match.end()):
        return None
    read = read_json(scan.text, match.end(), ("</function>",))
    if read.status == "truncated":
        return truncated(scan, start, "functionary", match.group(1))
    end = scan.skip_ws(read.end)
    end = end + len("</function>") if scan.text.startswith("</function>", end) else read.end
    raw = scan.text[start:end]
    if read.status == "invalid":
        return Segment(end, [issue("invalid_json", "functionary", raw, match.group(1), read.error)])
    return Segment(end, [make_found(match.group(1), read.value, "functionary", raw)])


OPENERS: dict[str, Handler] = {
    "<function=": bare_function,
    "<function name=": named_function,
    "<seed:tool_call>": seed_block,
    "<minimax:tool_call>": invoke_block("</minimax:tool_call>", "minimax_m2"),
    "<function_calls>": invoke_block("</function_calls>", "claude_xml"),
}
