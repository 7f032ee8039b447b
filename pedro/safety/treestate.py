"""Whether a folder is as it was when it was read: the stamps and memory search's census and the secret-file list share.

A folder's change time moves whenever an entry is added to it, removed from it or renamed in it (the atomic write
of a file included), and it cannot be set back, as a tool restoring times can set back a modification time (tar,
cp -p, touch -d); git's untracked cache trusts a tree on the same evidence. A change within the same clock tick as
a reading would leave the time unmoved, so a folder whose time is within SETTLE_NS of the reading (or later) is not
trusted: it is read again the next time.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

SETTLE_NS = 2_000_000_000
"""How long before a reading a folder must have been still to be trusted afterwards: well above a filesystem clock's
tick, and above the skew between a network filesystem's clock and this machine's."""

Stamp = tuple[int, int, int, int] | None
"""A path's recorded state: (change time, modification time, inode, size), or None while it does not exist."""
Stamps = tuple[tuple[str, Stamp], ...]

V = TypeVar("V")


def stamp_of(info: os.stat_result) -> tuple[int, int, int, int]:
    return (info.st_ctime_ns, info.st_mtime_ns, info.st_ino, info.st_size)


def stamp(path: str) -> Stamp:
    try:
        # os.stat on text: one Path per stamp would cost as much as the stat, thousands of times per reading.
        info = os.stat(path, follow_symlinks=False)  # noqa: PTH116
    except OSError:
        return None
    return stamp_of(info)


def settled(info: os.stat_result, read_at_ns: int) -> bool:
    """Whether a path stat'ed before a reading that began at `read_at_ns` had been still long enough to trust."""
    return info.st_ctime_ns < read_at_ns - SETTLE_NS


def settled_stamps(paths: Iterable[str], read_at_ns: int) -> Stamps | None:
    """The stamps of `paths`, or None when any of them changed too close to a reading begun at `read_at_ns`."""
    stamps = tuple((path, stamp(path)) for path in paths)
    limit = read_at_ns - SETTLE_NS
    return None if any(found is not None and found[0] >= limit for _, found in stamps) else stamps


def unchanged(stamps: Stamps) -> bool:
    return all(stamp(path) == recorded for path, recorded in stamps)


class Remembered(Generic[V]):
    """Values per key, most recently used last, at most `kept` of them; safe to share between threads."""

    def __init__(self, kept: int) -> None:
        self.lock = threading.Lock()
        self._kept = kept
        self.entries: OrderedDict[Hashable, V] = OrderedDict()

    def get(self, key: Hashable) -> V | None:
        with self.lock:
            return self.entries.get(key)

    def put(self, key: Hashable, value: V | None) -> None:
        """Remember `value` for `key` (most recently used now), or forget the key with None."""
        with self.lock:
            if value is None:
                self.entries.pop(key, None)
                return
            self.entries[key] = value
            self.entries.move_to_end(key)
            while len(self.entries) > self._kept:
                self.entries.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
