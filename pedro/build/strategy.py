"""Whether a build takes the direct way: [build].strategy, and for "auto" the model's size."""

from __future__ import annotations

import re
from typing import Final

from pedro.backends.base import Backend
from pedro.config import BuildConfig
from pedro.errors import BackendError

SMALL_MODEL: Final = 1_000_000_000
"""Below this many parameters a model writes a function far better than it drives tools."""
_SIZE_IN_NAME = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*([mb])(?![a-z])", re.IGNORECASE)


def direct_for_model(config: BuildConfig, backend: Backend, model: str) -> tuple[bool, str]:
    """(whether the build writes directly, why, in words for a notice)."""
    if config.strategy != "auto":
        return config.strategy == "direct", f'[build].strategy is "{config.strategy}"'
    try:
        size = backend.parameter_count()
    except BackendError:
        size = None
    said = "the server says"
    if size is None:
        size, said = size_in_name(model), "its name says"
    if size is None:
        return False, "the model's size is not known"
    small = size < SMALL_MODEL
    return small, f"the model has {_words(size)} parameters ({said})"


def size_in_name(model: str) -> int | None:
    """`SmolLM2-135M-Instruct.Q4_1.gguf` → 135,000,000; `qwen2.5-coder:7b` → 7,000,000,000; else None."""
    found = _SIZE_IN_NAME.findall(model.rsplit("/", 1)[-1])
    if not found:
        return None
    number, unit = found[-1]
    return int(float(number) * (1_000_000 if unit.lower() == "m" else 1_000_000_000))


def _words(size: int) -> str:
    return f"{size / 1e9:.1f}B" if size >= SMALL_MODEL else f"{round(size / 1e6)}M"
