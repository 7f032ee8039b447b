"""Extraction speed against json.loads of a payload of the same size: a 4 KB typical reply and a 1 MB reply."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from pedro.toolcalls import extract
from pedro.tooltable import tool_names

TOOLS: list[dict[str, Any]] = [
    {"type": "function", "function": {"name": name, "parameters": {"type": "object", "properties": {}}}}
    for name in tool_names()
]


def _reply(size: int) -> str:
    """Prose, an illustrative fence and a file-writing Hermes call whose content fills the reply to `size`."""
    prose = "I will update the parser so it keeps `</tool_call>` inside strings.\n\n```go\nfmt.Println(1)\n```\n\n"
    head = '<tool_call>\n{"name": "file", "arguments": {"action": "write", "path": "internal/x.go", "content": "'
    tail = '"}}\n</tool_call>\nI will run the tests next.'
    line = 'func f(a int) string { return fmt.Sprintf(\\"%d\\\\n\\", a) }\\n'
    room = max(0, size - len(prose) - len(head) - len(tail))
    return prose + head + (line * (room // len(line) + 1))[:room].rstrip("\\") + tail


def _best(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def run() -> dict[str, float]:
    """Milliseconds (best of several runs) for extract() and json.loads on 4 KB and 1 MB inputs."""
    results: dict[str, float] = {}
    for label, size, repeat in (("4kb", 4 * 1024, 200), ("1mb", 1024 * 1024, 10)):
        reply = _reply(size)
        payload = json.dumps({"content": reply})
        assert extract(reply, TOOLS).calls, "the benchmark reply must contain a call"
        results[f"extract_{label}_ms"] = _best(lambda r=reply: extract(r, TOOLS), repeat)  # type: ignore[misc]
        results[f"json_loads_{label}_ms"] = _best(lambda p=payload: json.loads(p), repeat)  # type: ignore[misc]
    return results


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:24} {value:8.3f}")
