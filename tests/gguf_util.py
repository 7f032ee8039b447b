"""Write GGUF headers for tests: the real format, typed key-value pairs, no tensors."""

from __future__ import annotations

import struct
from typing import Any


def gguf_bytes(pairs: list[tuple[str, int, Any]], *, version: int = 3) -> bytes:
    """A GGUF header with typed key-value pairs (type codes as in the format: 4 uint32, 8 string, 9 array)."""

    def string(text: str) -> bytes:
        data = text.encode()
        return struct.pack("<Q", len(data)) + data

    def value(kind: int, item: Any) -> bytes:
        if kind == 8:
            return string(item)
        if kind == 4:
            return struct.pack("<I", item)
        if kind == 6:
            return struct.pack("<f", item)
        if kind == 9:
            item_kind, items = item
            return struct.pack("<IQ", item_kind, len(items)) + b"".join(value(item_kind, i) for i in items)
        raise AssertionError(kind)

    body = b"".join(string(key) + struct.pack("<I", kind) + value(kind, item) for key, kind, item in pairs)
    return b"GGUF" + struct.pack("<IQQ", version, 0, len(pairs)) + body
