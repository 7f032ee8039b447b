"""The chat template for a model whose GGUF has none: pedro's own for its architecture, from prompts/templates/."""

from __future__ import annotations

from pathlib import Path

from pedro.backends.ggufmeta import GgufMetadata
from pedro.prompts import prompts_dir

# Architectures (general.architecture) and the turn format their instruction-tuned models were trained on.
_BY_ARCHITECTURE: dict[str, str] = {
    "gemma": "gemma",
    "gemma2": "gemma",
    "gemma3": "gemma",
    "gemma3n": "gemma",
    "mistral": "mistral",
    "mistral3": "mistral",
    "phi3": "phi3",
    "qwen2": "chatml",
    "qwen2moe": "chatml",
    "qwen3": "chatml",
    "qwen3moe": "chatml",
}
FALLBACK = "chatml"
"""What llama-server itself falls back to; a model trained on another format answers it with noise."""


def template_name(meta: GgufMetadata) -> str | None:
    """The name of pedro's template for the model, or None when its GGUF carries its own."""
    if meta.has_chat_template:
        return None
    if meta.architecture == "llama":
        # Llama 3 ships a byte-level BPE ("gpt2") tokenizer; Llama 2 and the Mistral 7B family SentencePiece.
        return "llama3" if meta.tokenizer == "gpt2" else "mistral"
    return _BY_ARCHITECTURE.get(meta.architecture, FALLBACK)


def template_file(name: str) -> Path:
    """The Jinja file of one of pedro's templates."""
    return prompts_dir() / "templates" / f"{name}.jinja"
