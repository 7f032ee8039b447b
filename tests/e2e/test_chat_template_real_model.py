"""Gemma-3-270M's GGUF has no chat template: pedro's managed server gives it Gemma's turns, not ChatML."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from pedro.backends.managed import ManagedLlamaServer, ServerSettings, find_llama_server

pytestmark = pytest.mark.e2e


def test_gemma_is_served_with_its_own_turn_format(gemma3_gguf: Path) -> None:
    binary = find_llama_server()
    if binary is None:
        pytest.skip("llama-server is not installed; run scripts/install-llama-server")
    with ManagedLlamaServer(gemma3_gguf, ServerSettings(ctx_size=2048), binary=binary) as server:
        assert server.chat_template == "gemma"
        messages = [{"role": "system", "content": "Answer briefly."}, {"role": "user", "content": "Say hello."}]
        rendered = httpx.post(server.base_url + "/apply-template", json={"messages": messages}, trust_env=False)
        prompt = rendered.json()["prompt"]
        assert prompt.startswith("<start_of_turn>user\nAnswer briefly.\n\nSay hello.<end_of_turn>\n")
        assert prompt.endswith("<start_of_turn>model\n") and "<|im_start|>" not in prompt
        body = {"messages": messages, "max_tokens": 24, "temperature": 0}
        reply = httpx.post(server.base_url + "/v1/chat/completions", json=body, timeout=120, trust_env=False)
        text = reply.json()["choices"][0]["message"]["content"]
        # On the ChatML fallback every reply was `<|im_end|>` noise; with its own turns the model writes words.
        assert "<|im_end|>" not in text and any(ch.isalpha() for ch in text), text
