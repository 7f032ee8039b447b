"""Fixtures of the extraction tests."""

from __future__ import annotations

from typing import Any

import pytest
from toolcall_registry import TOOLS


@pytest.fixture
def tools() -> list[dict[str, Any]]:
    """pedro's tools plus test tools, as OpenAI-style function definitions."""
    return TOOLS
