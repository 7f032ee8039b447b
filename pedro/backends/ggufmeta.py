"""Read a GGUF file's metadata (architecture, chat template) from its header, never touching the weights.

The header is a list of typed key-value pairs (format: ggml's docs/gguf.md). Arrays are skipped without being
materialised: a vocabulary of 262k tokens takes a fraction of a second here, against several seconds for a
reader that builds every element.
"""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass, field
from pathlib import Path

from pedro.errors import BackendError

_MAGIC = b"GGUF"
# Value types of the format and the struct code of each fixed-size one.
_UINT8, _INT8, _UINT16, _INT16, _UINT32, _INT32, _FLOAT32, _BOOL, _STRING, _ARRAY, _UINT64, _INT64, _FLOAT64 = range(13)
_FIXED: dict[int, str] = {
    _UINT8: "<B",
    _INT8: "<b",
    _UINT16: "<H",
    _INT16: "<h",
    _UINT32: "<I",
    _INT32: "<i",
    _FLOAT32: "<f",
    _BOOL: "<?",
    _UINT64: "<Q",
    _INT64: "<q",
    _FLOAT64: "<d",
}
# Only these keys' values are kept (strings); the rest of the header is read past.
_WANTED = frozenset({"general.architecture", "general.name", "tokenizer.chat_template", "tokenizer.ggml.model"})
_MAX_STRING = 16 * 1024 * 1024


@dataclass(frozen=True)
class GgufMetadata:
    """What pedro needs to know about a model file before serving it."""

    architecture: str
    name: str = ""
    chat_template: str = ""
    tokenizer: str = ""
    keys: frozenset[str] = field(default_factory=frozenset)

    @property
    def has_chat_template(self) -> bool:
        return bool(self.chat_template.strip())


def read_gguf_metadata(path: Path) -> GgufMetadata:
    """The metadata of a GGUF file; BackendError naming the file when it is not one or is cut short."""
    try:
        with path.open("rb") as fh:
            if fh.read(len(_MAGIC)) != _MAGIC:
                raise ValueError("no GGUF magic at the start")
            # Mapped, not read: only the header's pages are touched, and a vocabulary's strings are stepped over by
            # their lengths alone.
            with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return _Header(data, len(_MAGIC)).metadata()
    except OSError as exc:
        raise BackendError(f"cannot read {path} ({exc.strerror}); check the model path") from exc
    except (struct.error, ValueError, UnicodeDecodeError) as exc:
        raise BackendError(f"{path} is not a readable GGUF file ({exc}); the download may be incomplete") from exc


class _Header:
    """The key-value pairs of a GGUF header, read from `at` in the file's bytes."""

    def __init__(self, data: mmap.mmap, at: int) -> None:
        self.data = data
        self.at = at

    def metadata(self) -> GgufMetadata:
        version = self.unpack("<I")
        if version < 2:
            raise ValueError(f"GGUF version {version} is too old (2 or later is needed)")
        self.unpack("<Q")  # tensor count
        count = self.unpack("<Q")
        values: dict[str, str] = {}
        keys: set[str] = set()
        for _ in range(count):
            key = self.string()
            kind = self.unpack("<I")
            keys.add(key)
            if key in _WANTED and kind == _STRING:
                values[key] = self.string()
            else:
                self.skip(kind)
        return GgufMetadata(
            architecture=values.get("general.architecture", ""),
            name=values.get("general.name", ""),
            chat_template=values.get("tokenizer.chat_template", ""),
            tokenizer=values.get("tokenizer.ggml.model", ""),
            keys=frozenset(keys),
        )

    def unpack(self, code: str) -> int:
        size = struct.calcsize(code)
        if self.at + size > len(self.data):
            raise ValueError("the header ends early")
        value: int = struct.unpack_from(code, self.data, self.at)[0]
        self.at += size
        return value

    def string(self) -> str:
        length = self.unpack("<Q")
        if length > _MAX_STRING:
            raise ValueError(f"a header string of {length} bytes")
        if self.at + length > len(self.data):
            raise ValueError("the header ends early")
        text = self.data[self.at : self.at + length].decode("utf-8")
        self.at += length
        return text

    def skip(self, kind: int) -> None:
        if kind in _FIXED:
            self.at += struct.calcsize(_FIXED[kind])
        elif kind == _STRING:
            length = self.unpack("<Q")
            self.at += length
        elif kind == _ARRAY:
            item_kind = self.unpack("<I")
            length = self.unpack("<Q")
            if item_kind in _FIXED:
                self.at += struct.calcsize(_FIXED[item_kind]) * length
            elif item_kind == _STRING:
                self._skip_strings(length)
            else:
                for _ in range(length):
                    self.skip(item_kind)
        else:
            raise ValueError(f"unknown value type {kind}")
        if self.at > len(self.data):
            raise ValueError("the header ends early")

    def _skip_strings(self, count: int) -> None:
        # A vocabulary: tens of thousands of strings, each stepped over by its length (the loop is kept this tight
        # because it is the header's bulk).
        data, at, size = self.data, self.at, len(self.data)
        length_of = struct.Struct("<Q").unpack_from
        for _ in range(count):
            if at + 8 > size:
                raise ValueError("the header ends early")
            at += 8 + length_of(data, at)[0]
        self.at = at
