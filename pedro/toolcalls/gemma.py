"""FunctionGemma and Gemma 4 calls (§4.5): `call:NAME{key:<delim>string<delim>,n:3}` with unquoted keys."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from pedro.toolcalls.context import Scan, issue, truncated
from pedro.toolcalls.model import Candidate, Segment

Handler = Callable[[Scan, int, str], Segment | None]

_NAME = re.compile(r"\s*call:([\w.\-]+)\s*\{")
_KEY = re.compile(r"\s*([^\s:{},\[\]]+)\s*:")
_BARE = re.compile(r"\s*([^,}\]]*)")


class _Cut(Exception):
    """The dict ended before it closed."""


class _Bad(Exception):
    """The dict is not in the expected shape."""


class _Reader:
    def __init__(self, text: str, pos: int, delim: str) -> None:
        self.text, self.pos, self.delim = text, pos, delim

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t\r\n":
            self.pos += 1

    def value(self, depth: int = 0) -> Any:
        if depth > 64:
            raise _Bad
        self.skip()
        if self.pos >= len(self.text):
            raise _Cut
        if self.text.startswith(self.delim, self.pos):
            return self.string()
        if self.text[self.pos] == "{":
            self.pos += 1
            return self.members(depth + 1)
        if self.text[self.pos] == "[":
            self.pos += 1
            return self.items(depth + 1)
        return self.bare()

    def string(self) -> str:
        """A delimited string, taken verbatim."""
        end = self.text.find(self.delim, self.pos + len(self.delim))
        if end == -1:
            raise _Cut
        value = self.text[self.pos + len(self.delim) : end]
        self.pos = end + len(self.delim)
        return value

    def items(self, depth: int) -> list[Any]:
        """The rest of a list whose `[` was read."""
        items: list[Any] = []
        while True:
            self.skip()
            if self.pos >= len(self.text):
                raise _Cut
            if self.text[self.pos] == "]":
                self.pos += 1
                return items
            items.append(self.value(depth))
            self.skip()
            if self.text.startswith(",", self.pos):
                self.pos += 1
            elif not self.text.startswith("]", self.pos):
                raise _Cut if self.pos >= len(self.text) else _Bad

    def bare(self) -> Any:
        """An unquoted value: a JSON literal (number, true, null) or else the text itself."""
        match = _BARE.match(self.text, self.pos)
        raw = match.group(1).strip() if match else ""
        self.pos = match.end() if match else self.pos
        if self.pos >= len(self.text):
            raise _Cut
        try:
            return json.loads(raw)
        except ValueError:
            return raw

    def members(self, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        while True:
            self.skip()
            if self.pos >= len(self.text):
                raise _Cut
            if self.text[self.pos] == "}":
                self.pos += 1
                return result
            key = _KEY.match(self.text, self.pos)
            if key is None:
                raise _Cut if ":" not in self.text[self.pos :] else _Bad
            self.pos = key.end()
            result[key.group(1).removeprefix(self.delim).removesuffix(self.delim)] = self.value(depth)
            self.skip()
            if self.text.startswith(",", self.pos):
                self.pos += 1


def handler(closer: str, delim: str, dialect: str) -> Handler:
    """A handler for one Gemma-style opener."""

    def handle(scan: Scan, start: int, token: str) -> Segment | None:
        text = scan.text
        head = _NAME.match(text, start + len(token))
        if head is None:
            return truncated(scan, start, dialect) if scan.skip_ws(start + len(token)) >= len(text) else None
        reader = _Reader(text, head.end(), delim)
        try:
            arguments = reader.members(0)
        except _Cut:
            return truncated(scan, start, dialect, head.group(1))
        except _Bad:
            end = text.find(closer, head.end())
            end = len(text) if end == -1 else end + len(closer)
            return Segment(end, [issue("invalid_arguments", dialect, text[start:end], head.group(1))])
        end = scan.skip_ws(reader.pos)
        end = end + len(closer) if text.startswith(closer, end) else reader.pos
        return Segment(end, [Candidate(head.group(1), arguments, dialect, text[start:end])])

    return handle


OPENERS: dict[str, Handler] = {
    "<start_function_call>": handler("<end_function_call>", "<escape>", "functiongemma"),
    "<|tool_call>": handler("<tool_call|>", '<|"|>', "gemma4"),
}
