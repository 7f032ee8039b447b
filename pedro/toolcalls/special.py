"""Special-token calls (§5): Mistral, DeepSeek, Kimi K2, InternLM, Command-R7B, Functionary v3.2, python_tag."""

from __future__ import annotations

import re
from collections.abc import Callable

from pedro.toolcalls.context import Scan, issue, too_many, truncated
from pedro.toolcalls.jsonscan import read_json
from pedro.toolcalls.jsontags import read_json_calls
from pedro.toolcalls.model import Found, Segment
from pedro.toolcalls.names import make_found

Handler = Callable[[Scan, int, str], Segment | None]

_MISTRAL = "[TOOL_CALLS]"
_MISTRAL_NAME = re.compile(r"\s*([^\s\[{]{1,128}?)\s*(?:\[CALL_ID\][A-Za-z0-9]*)?\s*(?:\[ARGS\])?\s*(?=[{\[])")
# DeepSeek's fullwidth tokens, with the spellings quantizations produce (▁, _, space, \_)
_DS_SEP = r"(?:▁|_| |\\_)"
_DS_TOKEN = re.compile(rf"<｜tool{_DS_SEP}(?:(calls?){_DS_SEP}?(begin|end)?|(sep))｜>")
_KIMI_CALL = re.compile(r"<\|tool_call_begin\|>\s*([^<]+?)\s*<\|tool_call_argument_begin\|>")
_PYTHON_BUILTIN = re.compile(r"\s*([A-Za-z_]\w*)\.call\(")
_FUNCTIONARY_HEAD = re.compile(r">>>\s*([\w.\-]+)\s*\n")


def mistral(scan: Scan, start: int, token: str) -> Segment | None:
    """`[TOOL_CALLS] [..]` (pre-v11), `[TOOL_CALLS]name{..}` (v11+), `[TOOL_CALLS]name[ARGS]{..}` (v13+)."""
    text = scan.text
    found: list[Found] = []
    pos = start
    while text.startswith(_MISTRAL, pos) and not too_many(found):
        body = pos + len(_MISTRAL)
        first = scan.skip_ws(body)
        if first >= len(text):
            return truncated(scan, start, "mistral", extra=found)
        if text[first] == "[":
            segment = read_json_calls(scan, start, first, None, "mistral")
            if segment.incomplete:
                return truncated(scan, start, "mistral", extra=found)
            found.extend(segment.found)
            pos = scan.skip_ws(segment.end)
            continue
        match = _MISTRAL_NAME.match(text, body)
        if match is None:
            if not scan.final and "{" not in text[body : body + 256]:
                return Segment(len(text), found, incomplete=True)
            return Segment(body, [*found, issue("missing_name", "mistral", text[pos : pos + 200])]) if found else None
        name, args_at = match.group(1), match.end()
        read = read_json(text, args_at, (_MISTRAL,))
        if read.status == "truncated":
            return truncated(scan, start, "mistral", name, extra=found)
        raw = text[pos : read.end]
        if read.status == "invalid":
            found.append(issue("invalid_json", "mistral", raw, name, read.error))
        else:
            found.append(make_found(name, read.value, "mistral", raw))
        pos = scan.skip_ws(read.end)
    return Segment(pos, found)


def _ds_kind(match: re.Match[str]) -> str:
    if match.group(3):
        return "sep"
    return f"{'calls' if match.group(1) == 'calls' else 'call'}_{match.group(2) or 'begin'}"


def deepseek(scan: Scan, start: int, token: str) -> Segment | None:
    """DeepSeek V3/R1 (`function<sep>NAME` + ```json) and V3.1/V3.2 (`NAME<sep>{json}`)."""
    text = scan.text
    head = _DS_TOKEN.match(text, start)
    if head is None or _ds_kind(head) not in ("calls_begin", "call_begin"):
        return None
    found: list[Found] = []
    pos = head.end() if _ds_kind(head) == "calls_begin" else start
    while True:
        pos = scan.skip_ws(pos)
        if too_many(found):
            return Segment(len(text), found)
        match = _ds_next_call(scan, start, pos, found)
        if isinstance(match, Segment):
            return match
        named = _ds_name(scan, match)
        if named is None:
            return truncated(scan, start, "deepseek", extra=found)
        call = _ds_call(scan, match, *named)
        if call is None:
            return truncated(scan, start, "deepseek", named[0], extra=found)
        found.append(call[0])
        pos = call[1]


def _ds_next_call(scan: Scan, start: int, pos: int, found: list[Found]) -> re.Match[str] | Segment:
    """The call-begin token at `pos`, or the segment that ends the block there."""
    text = scan.text
    match = _DS_TOKEN.match(text, pos)
    if match is None:
        if pos >= len(text) and not found:
            return truncated(scan, start, "deepseek")
        return Segment(pos, found)
    kind = _ds_kind(match)
    if kind == "calls_end":
        return Segment(match.end(), found)
    if kind != "call_begin":
        return Segment(pos, [*found, issue("invalid_arguments", "deepseek", text[pos : pos + 200])])
    return match


def _ds_name(scan: Scan, begin: re.Match[str]) -> tuple[str, int] | None:
    """The call's name and where its arguments start; None when the text ends before them."""
    text = scan.text
    sep = _DS_TOKEN.search(text, begin.end())
    if sep is None or _ds_kind(sep) != "sep":
        return None
    name = text[begin.end() : sep.start()].strip()
    args_at = sep.end()
    if name == "function":  # V3/R1: the name follows the separator, then a ```json block
        eol = text.find("\n", args_at)
        if eol == -1:
            return None
        name, args_at = text[args_at:eol].strip(), eol + 1
    args_at = scan.skip_ws(args_at)
    if text.startswith("```", args_at):
        eol = text.find("\n", args_at)
        args_at = scan.skip_ws(len(text) if eol == -1 else eol + 1)
    return name, args_at


def _ds_call(scan: Scan, begin: re.Match[str], name: str, args_at: int) -> tuple[Found, int] | None:
    """The call (or its problem) and where the scan goes on; None when the arguments are cut off."""
    text = scan.text
    if text[args_at : args_at + 1] not in ("{", "["):
        if args_at >= len(text):
            return None
        end = _DS_TOKEN.search(text, args_at)
        stop = end.start() if end else len(text)
        return issue("not_json", "deepseek", text[args_at:stop], name, "arguments_plain_text"), stop
    read = read_json(text, args_at)
    if read.status == "truncated":
        return None
    pos = scan.skip_ws(read.end)
    if text.startswith("```", pos):
        pos += 3
    raw = text[begin.start() : pos]
    found: Found
    if read.status == "invalid":
        found = issue("invalid_json", "deepseek", raw, name, read.error)
    else:
        found = make_found(name, read.value, "deepseek", raw)
    pos = scan.skip_ws(pos)
    close = _DS_TOKEN.match(text, pos)
    if close is not None and _ds_kind(close) == "call_end":
        pos = close.end()
    return found, pos


def kimi(scan: Scan, start: int, token: str) -> Segment | None:
    """Kimi K2: `<|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{json}<|tool_call_end|>`."""
    text = scan.text
    found: list[Found] = []
    pos = start + len(token)
    while True:
        pos = scan.skip_ws(pos)
        if text.startswith(("<|tool_calls_section_end|>", "<|tool_call_section_end|>"), pos):
            return Segment(text.find("|>", pos) + 2, found)
        match = _KIMI_CALL.match(text, pos)
        if match is None:
            if pos >= len(text) or text.startswith("<|tool_call_begin|>", pos):
                return truncated(scan, start, "kimi", extra=found)
            return Segment(pos, found)
        call_id = match.group(1)
        name = call_id.split(":")[0].split(".")[-1]
        read = read_json(text, scan.skip_ws(match.end()), ("<|tool_call_end|>",))
        if read.status == "truncated":
            return truncated(scan, start, "kimi", name, extra=found)
        pos = scan.skip_ws(read.end)
        if text.startswith("<|tool_call_end|>", pos):
            pos += len("<|tool_call_end|>")
        raw = text[match.start() : pos]
        if read.status == "invalid":
            found.append(issue("invalid_json", "kimi", raw, name, read.error))
        else:
            found.append(make_found(name, read.value, "kimi", raw, call_id))


def internlm(scan: Scan, start: int, token: str) -> Segment | None:
    """InternLM2: `<|action_start|><|plugin|>\\n{json}<|action_end|>`."""
    body = scan.skip_ws(start + len(token))
    if not scan.text.startswith("<|plugin|>", body):
        return None
    return read_json_calls(scan, start, body + len("<|plugin|>"), "<|action_end|>", "internlm")


def command_r(scan: Scan, start: int, token: str) -> Segment | None:
    """Command-R7B: `<|START_ACTION|>[{"tool_name": …, "parameters": {…}}]<|END_ACTION|>`."""
    return read_json_calls(scan, start, start + len(token), "<|END_ACTION|>", "command_r")


def python_tag(scan: Scan, start: int, token: str) -> Segment | None:
    """`<|python_tag|>`: Llama JSON, a Llama 3.1 built-in `name.call(k=v)`, or raw code for a `python` tool."""
    from pedro.toolcalls.bare import keyword_call  # pythonic parsing lives with the other pythonic forms

    text = scan.text
    body = scan.skip_ws(start + len(token))
    if body >= len(text):
        return truncated(scan, start, "llama_json")
    if text[body] in "{[":
        return read_json_calls(scan, start, body, "<|eom_id|>", "llama_json")
    builtin = _PYTHON_BUILTIN.match(text, body)
    if builtin:
        return keyword_call(scan, start, body, builtin.group(1), builtin.end() - 1, "llama_builtin")
    end = min((i for i in (text.find("<|eom_id|>", body), text.find("<|eot_id|>", body)) if i != -1), default=-1)
    code = text[body : end if end != -1 else len(text)]
    stop = end if end != -1 else len(text)
    return Segment(stop, [make_found("python", {"code": code}, "functionary", text[start:stop])])


def functionary(scan: Scan, start: int, token: str) -> Segment | None:
    """Functionary v3.2: `>>>NAME\\n{json}` blocks; `>>>all\\n` introduces plain text."""
    at = start
    head = _FUNCTIONARY_HEAD.match(scan.text, at)
    if head is None:
        return None
    # v3.2 glues `>>>` straight onto the previous call or text; mid-line, only a registered name (or `all`) counts,
    # so a `>>> name` shell prompt or doctest in prose stays text
    mid_line = at > 0 and scan.text[at - 1] != "\n"
    if mid_line and head.group(1) != "all" and head.group(1) not in scan.registry.schemas:
        return None
    if head.group(1) == "all":
        return Segment(head.end(), role="text")
    body = scan.skip_ws(head.end())
    if not scan.text.startswith("{", body):
        return None
    read = read_json(scan.text, body)
    name = head.group(1)
    if read.status == "truncated":
        return truncated(scan, at, "functionary_v32", name)
    raw = scan.text[at : read.end]
    if read.status == "invalid":
        return Segment(read.end, [issue("invalid_json", "functionary_v32", raw, name, read.error)])
    return Segment(read.end, [make_found(name, read.value, "functionary_v32", raw)])


def _deepseek_openers() -> dict[str, Handler]:
    openers: dict[str, Handler] = {}
    for sep in ("▁", "_", " ", "\\_"):
        openers[f"<｜tool{sep}calls{sep}begin｜>"] = deepseek
        openers[f"<｜tool{sep}call{sep}begin｜>"] = deepseek
    openers["<｜tool▁calls｜>"] = deepseek
    return openers


OPENERS: dict[str, Handler] = {
    _MISTRAL: mistral,
    **_deepseek_openers(),
    "<|tool_calls_section_begin|>": kimi,
    "<|tool_call_section_begin|>": kimi,
    "<|action_start|>": internlm,
    "<|START_ACTION|>": command_r,
    "<|python_tag|>": python_tag,
    ">>>": functionary,
}
