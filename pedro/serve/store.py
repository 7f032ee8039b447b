"""The responses `pedro serve` keeps for previous_response_id and GET /v1/responses/{id}, bounded in count and bytes."""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

LOG = logging.getLogger("pedro.serve")

STORED_RESPONSES = 256
"""Most responses kept, whatever their size ([serve].store_bytes bounds their bytes)."""


@dataclass
class Stored:
    response: dict[str, Any]
    conversation: list[dict[str, Any]]
    size: int


class ResponseStore:
    """The newest responses, the oldest dropped first once there are more than `count` or they pass `max_bytes`."""

    def __init__(self, max_bytes: int, count: int = STORED_RESPONSES) -> None:
        self.max_bytes, self.count = max_bytes, count
        self.bytes = 0
        self._kept: OrderedDict[str, Stored] = OrderedDict()

    def keep(self, response_id: str, response: dict[str, Any], conversation: list[dict[str, Any]]) -> None:
        # Each stored response carries its whole conversation, so a long chain grows fast: its JSON size is what
        # it costs.
        size = len(json.dumps(response)) + len(json.dumps(conversation))
        if size > self.max_bytes:
            LOG.info("response %s is not kept: %d bytes, more than [serve].store_bytes = %d", response_id, size,
                     self.max_bytes)  # fmt: skip
            return
        self._kept[response_id] = Stored(response, conversation, size)
        self.bytes += size
        while len(self._kept) > self.count or self.bytes > self.max_bytes:
            _, dropped = self._kept.popitem(last=False)
            self.bytes -= dropped.size

    def get(self, response_id: str) -> Stored | None:
        return self._kept.get(response_id)
