"""Tag-wrapped JSON calls (§3): Hermes <tool_call> and its relatives, Granite, Jamba, Nemotron, LFM2, Phi-4."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pedro.toolcalls.context import Scan, issue, too_many, truncated
from pedro.toolcalls.jsonscan import read_json
from pedro.toolcalls.model import Found, Segment
from pedro.toolcalls.names import make_found

Handler = Callable[[Scan, int, str], Segment | None]

_GLM_NAME = re.compile(r"[\w.\-:]+(?=\n|<arg_key>|</tool_call>)")
_NAME_ANCHOR = re.compile(r"\s*(?:```(?:json|xml)?\s*)?\{\s*[\"'](?:name|type|function)[\"']")


def calls_from_value(value: Any, dialect: str, raw: str, *, short_form: bool = False) -> list[Found]:
    """Calls from one decoded JSON value: a call object, an OpenAI wire object, a wrapper, or a list of them."""
    if isinstance(value, list):
        found: list[Found] = []
        for item in value:
            found.extend(calls_from_value(item, dialect, raw, short_form=short_form))
        return found
    if not isinstance(value, dict):
        return [issue("invalid_arguments", dialect, raw, error="call_not_object")]
    for key in ("tool_calls", "tool_call"):
        if isinstance(value.get(key), (list, dict)):
            return calls_from_value(value[key], dialect, raw)
    call = _call_object(value, dialect, raw)
    if call is not None:
        return call
    if short_form and len(value) == 1:
        ((key, args),) = value.items()
        return [make_found(key, args, dialect, raw)]
    return [issue("missing_name", dialect, raw, error="no_name")]


def _call_object(value: dict[str, Any], dialect: str, raw: str) -> list[Found] | None:
    """The call an OpenAI wire object (`{"function": {...}}`) or a plain call object names; [] for a tool definition
    echoed from the prompt; None when the object is neither."""
    function = value.get("function")
    if isinstance(function, dict) and ("name" in function or "arguments" in function):
        if _is_definition(function):
            return []
        args = function.get("arguments", function.get("parameters"))
        return [make_found(function.get("name"), args, dialect, raw, value.get("id"))]
    name = value.get("name", value.get("tool_name"))
    if name is not None or "arguments" in value or "parameters" in value:
        if _is_definition(value):
            return []
        args = value.get("arguments")
        if args is None:
            args = value.get("parameters")
        return [make_found(name, args, dialect, raw, value.get("id", value.get("tool_call_id")))]
    return None


def _is_definition(spec: dict[str, Any]) -> bool:
    """A tool definition echoed from the prompt (description plus a schema) is not a call."""
    params = spec.get("parameters")
    return "description" in spec and isinstance(params, dict) and params.get("type") == "object"


def read_json_calls(
    scan: Scan, start: int, body: int, closer: str | None, dialect: str, *, short_form: bool = False
) -> Segment:
    """Read JSON call values (one, an array, JSON lines or comma-separated) from `body` up to `closer`."""
    text = scan.text
    found: list[Found] = []
    stops = (closer,) if closer else ()
    pos, end = body, len(text)
    while True:
        pos = _skip_separators(scan, pos)
        if closer and text.startswith(closer, pos):
            end = pos + len(closer)
            break
        if pos >= len(text):
            end = pos
            break
        if text.startswith("```", pos):  # a fence line inside the tag is wrapper noise
            pos = _next_line(text, pos)
            continue
        if too_many(found):
            end = _past_closer(text, pos, closer)
            break
        if text[pos] in "{[":
            value = _json_value(scan, pos, stops, dialect, short_form)
            if value is None:
                return truncated(scan, start, dialect, extra=found)
            found.extend(value[0])
            pos = value[1]
            continue
        close_at = text.find(closer, pos) if closer else -1
        if close_at >= 0 and not found:
            found.append(issue("invalid_json", dialect, text[pos:close_at], error="body_not_json"))
            end = close_at + len(closer or "")
        else:
            end = pos
        break
    if not found:
        return Segment(end, [issue("missing_name", dialect, text[start:end], error="no_name")])
    return Segment(end, found)


def _skip_separators(scan: Scan, pos: int) -> int:
    """Past the whitespace at `pos` and any commas or semicolons between call values."""
    pos = scan.skip_ws(pos)
    while pos < len(scan.text) and scan.text[pos] in ",;":
        pos = scan.skip_ws(pos + 1)
    return pos


def _next_line(text: str, pos: int) -> int:
    """The start of the line after the one at `pos`; the text's end on its last line."""
    eol = text.find("\n", pos)
    return len(text) if eol < 0 else eol + 1


def _past_closer(text: str, pos: int, closer: str | None) -> int:
    """Where the body ends when reading stops at `pos`: past the closer that follows, else at the text's end."""
    close_at = text.find(closer, pos) if closer else -1
    return len(text) if close_at == -1 else close_at + len(closer or "")


def _json_value(
    scan: Scan, pos: int, stops: tuple[str, ...], dialect: str, short_form: bool
) -> tuple[list[Found], int] | None:
    """The calls in the JSON value at `pos` and where the scan goes on; None when the value is cut off."""
    text = scan.text
    read = read_json(text, pos, stops)
    if read.status == "truncated":
        return None
    raw = text[pos : read.end]
    found: list[Found]
    if read.status == "invalid":
        found = [issue("invalid_json", dialect, raw, name=_guess_name(raw), error=read.error)]
    else:
        found = calls_from_value(read.value, dialect, raw, short_form=short_form)
    pos = scan.skip_ws(read.end)
    while pos < len(text) and text[pos] in "}]":  # an extra closing brace after a complete object
        pos = scan.skip_ws(pos + 1)
    return found, pos


def _guess_name(raw: str) -> str:
    match = re.search(r"[\"']name[\"']\s*:\s*[\"']([^\"'<>{}\s]{1,64})[\"']", raw[:2000])
    return match.group(1) if match else ""


def hermes(scan: Scan, start: int, token: str) -> Segment | None:
    """`<tool_call>`: Hermes JSON, Granite 3.1 arrays, or (sniffed by body) Qwen3-Coder XML and GLM."""
    from pedro.toolcalls import xmlparams  # the XML family reuses this tag; imported here to keep modules apart

    text = scan.text
    body = scan.skip_ws(start + len(token))
    if body >= len(text):
        return truncated(scan, start, "hermes") if text[start + len(token) :].strip() == "" else None
    if text.startswith("<function=", body):
        return xmlparams.qwen_block(scan, start, body, "</tool_call>", "qwen3_xml")
    if text[body] in "{[" or text.startswith("```", body):
        return read_json_calls(scan, start, body, "</tool_call>", "hermes")
    glm = _GLM_NAME.match(text, start + len(token))
    if glm:
        return xmlparams.glm_call(scan, start, glm.start(), glm.end())
    if not scan.final and len(text) - body < 40 and "\n" not in text[body:]:
        return Segment(len(text), incomplete=True)  # a name or body may still be arriving
    return None


def wrapper(closer: str | None, dialect: str, *, anchored: bool = False, short_form: bool = False) -> Handler:
    """A handler for a tag whose body is JSON calls, optionally only when the body starts like a call object."""

    def handle(scan: Scan, start: int, token: str) -> Segment | None:
        body = start + len(token)
        if anchored and not _NAME_ANCHOR.match(scan.text, body):
            return None
        pos = scan.skip_ws(body)
        if pos >= len(scan.text):
            return truncated(scan, start, dialect)
        if scan.text[pos] not in "{[`":
            return None
        return read_json_calls(scan, start, pos, closer, dialect, short_form=short_form)

    return handle


OPENERS: dict[str, Handler] = {
    "<tool_call>": hermes,
    "<|tool_call|>": wrapper(None, "granite"),
    "<function_call>": wrapper("</function_call>", "granite"),
    "<tool_calls>": wrapper("</tool_calls>", "tool_calls"),
    "<TOOLCALL>": wrapper("</TOOLCALL>", "nemotron"),
    "<|tools_prefix|>": wrapper("<|tools_suffix|>", "apertus", short_form=True),
    "<tools>": wrapper("</tools>", "qwen_coder_tools"),
    "functools[": lambda scan, start, token: read_json_calls(scan, start, start + len(token) - 1, None, "functools"),
    "<tool>": wrapper("</tool>", "hermes", anchored=True),
    "<response>": wrapper("</response>", "hermes", anchored=True),
    "<json>": wrapper("</json>", "hermes", anchored=True),
    "<JSON>": wrapper("</JSON>", "hermes", anchored=True),
    "<xml>": wrapper("</xml>", "hermes", anchored=True),
}
