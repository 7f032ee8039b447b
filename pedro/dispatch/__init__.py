"""The Dispatcher and the stack of small layers each tool call passes through (mask, size limit, validation, policy
gate, journal, snapshot), every outcome a ToolResult."""

from pedro.dispatch.call import Layer, PreparedCall, Refusal, compose
from pedro.dispatch.dispatcher import Dispatcher
from pedro.dispatch.results import truncate_middle
from pedro.dispatch.snapshot import ChangeGuard, SnapshotLayer
from pedro.dispatch.timeouts import MAX_CONSECUTIVE_TIMEOUTS

__all__ = [
    "MAX_CONSECUTIVE_TIMEOUTS",
    "ChangeGuard",
    "Dispatcher",
    "Layer",
    "PreparedCall",
    "Refusal",
    "SnapshotLayer",
    "compose",
    "truncate_middle",
]
