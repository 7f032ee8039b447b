"""GGUF headers read without the weights, and the chat template chosen for a model that has none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gguf_util import gguf_bytes

from pedro.backends.chat_templates import FALLBACK, template_file, template_name
from pedro.backends.ggufmeta import GgufMetadata, read_gguf_metadata
from pedro.errors import BackendError


def write(tmp_path: Path, pairs: list[tuple[str, int, Any]]) -> Path:
    path = tmp_path / "model.gguf"
    path.write_bytes(gguf_bytes(pairs) + b"\x00" * 64)  # weights would follow; they are never read
    return path


def test_metadata_is_read_past_arrays_of_every_kind(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        [
            ("general.architecture", 8, "gemma3"),
            ("gemma3.context_length", 4, 32768),
            ("tokenizer.ggml.model", 8, "llama"),
            ("tokenizer.ggml.tokens", 9, (8, ["<pad>", "<bos>", "héllo"] * 1000)),
            ("tokenizer.ggml.scores", 9, (6, [0.5] * 3000)),
            ("general.license", 8, "gemma"),  # a string value pedro does not keep
            ("general.name", 8, "Gemma 3 270m"),
        ],
    )
    meta = read_gguf_metadata(path)
    assert (meta.architecture, meta.name, meta.tokenizer, meta.has_chat_template) == (
        "gemma3",
        "Gemma 3 270m",
        "llama",
        False,
    )
    assert "tokenizer.ggml.scores" in meta.keys


def test_a_template_in_the_file_is_found(tmp_path: Path) -> None:
    template = "{% for m in messages %}{{ m['content'] }}{% endfor %}"
    path = write(tmp_path, [("general.architecture", 8, "llama"), ("tokenizer.chat_template", 8, template)])
    meta = read_gguf_metadata(path)
    assert meta.chat_template == template and template_name(meta) is None


@pytest.mark.parametrize(
    "data",
    [b"", b"GGML", b"GGUF\x03\x00\x00\x00", gguf_bytes([("general.architecture", 8, "x")])[:-3]],
)
def test_a_broken_file_is_a_clear_error(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "broken.gguf"
    path.write_bytes(data)
    with pytest.raises(BackendError, match="not a readable GGUF file"):
        read_gguf_metadata(path)


@pytest.mark.parametrize(
    ("architecture", "tokenizer", "expected"),
    [
        ("gemma3", "llama", "gemma"),
        ("gemma", "llama", "gemma"),
        ("gemma2", "llama", "gemma"),
        ("llama", "gpt2", "llama3"),
        ("llama", "llama", "mistral"),
        ("mistral3", "gpt2", "mistral"),
        ("phi3", "llama", "phi3"),
        ("qwen2", "gpt2", "chatml"),
        ("qwen3", "gpt2", "chatml"),
        ("somethingnew", "gpt2", FALLBACK),
    ],
)
def test_a_model_without_a_template_gets_its_architectures(architecture: str, tokenizer: str, expected: str) -> None:
    name = template_name(GgufMetadata(architecture=architecture, tokenizer=tokenizer))
    assert name == expected
    assert template_file(name).is_file()


def test_every_shipped_template_is_jinja_for_messages() -> None:
    for name in ("gemma", "llama3", "mistral", "phi3", "chatml"):
        text = template_file(name).read_text()
        assert "messages" in text and "{%" in text
    # Gemma's turns name the assistant "model", and a system message has no turn of its own.
    gemma = template_file("gemma").read_text()
    assert "<start_of_turn>" in gemma and "'model' if message['role'] == 'assistant'" in gemma
