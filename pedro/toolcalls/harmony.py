"""gpt-oss Harmony (§5.5): messages split on <|start|>; a header recipient `to=functions.x` makes a call."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pedro.toolcalls.context import Scan, issue
from pedro.toolcalls.jsonscan import read_json
from pedro.toolcalls.model import Found
from pedro.toolcalls.names import make_found

_ENDS = ("<|end|>", "<|call|>", "<|return|>")
_RECIPIENT = re.compile(r"to=([^\s<]+)")
_CHANNEL = re.compile(r"<\|channel\|>\s*(\w+)")
MARKERS = ("<|channel|>", "<|start|>assistant", "<|message|>")


@dataclass
class HarmonyReply:
    """The parts of a Harmony transcript: final and preamble text, analysis reasoning, and calls."""

    visible: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    found: list[Found] = field(default_factory=list)
    truncated: bool = False


def is_harmony(text: str) -> bool:
    """Whether the text is a Harmony transcript rather than plain content."""
    return "<|message|>" in text and any(marker in text for marker in MARKERS[:2])


def parse(scan: Scan) -> HarmonyReply:
    """Split a Harmony transcript into its messages and read each by its header."""
    text = scan.text
    reply = HarmonyReply()
    starts = [0, *(m.start() for m in re.finditer(re.escape("<|start|>"), text))]
    for index, begin in enumerate(starts):
        stop = starts[index + 1] if index + 1 < len(starts) else len(text)
        chunk = text[begin:stop]
        if not chunk.strip():
            continue
        if chunk.startswith("<|start|>"):
            chunk = chunk[len("<|start|>") :]
        at = chunk.find("<|message|>")
        if at == -1:
            reply.visible.append(chunk)  # a malformed header: keep it as text, like llama.cpp's roll-back
            continue
        header, body = chunk[:at], chunk[at + len("<|message|>") :]
        end = min((i for i in (body.find(e) for e in _ENDS) if i != -1), default=-1)
        complete = end != -1
        body = body[:end] if complete else body
        channel = _CHANNEL.search(header)
        recipient = _RECIPIENT.search(header)
        if recipient is not None:
            _read_call(scan, reply, recipient.group(1), header, body, complete)
        elif channel is not None and channel.group(1) == "analysis":
            reply.reasoning.append(body)
        else:
            reply.visible.append(body)
    return reply


def _read_call(scan: Scan, reply: HarmonyReply, recipient: str, header: str, body: str, complete: bool) -> None:
    name = recipient
    stripped = body.strip()
    content_type = header.split("<|constrain|>")[-1].strip() if "<|constrain|>" in header else ""
    if stripped[:1] in ("{", "["):
        read = read_json(stripped, 0)
        if read.status == "truncated":
            reply.truncated = True
            reply.found.append(issue("truncated", "harmony", body, name))
        elif read.status == "invalid":
            reply.found.append(issue("invalid_json", "harmony", body, name, read.error))
        else:
            reply.found.append(make_found(name, read.value, "harmony", body))
    elif not complete:
        reply.truncated = True
        reply.found.append(issue("truncated", "harmony", body, name))
    elif content_type and "json" not in content_type:
        reply.found.append(make_found(name, {"input": body}, "harmony", body))
    else:
        reply.found.append(issue("not_json", "harmony", body, name, "body_not_json"))
