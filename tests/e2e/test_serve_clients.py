"""pedro serve with the clients people use: Codex CLI (from npm) and the openai SDK against the real llama-server."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest
from serve_util import serving

from pedro.backends.managed import ManagedLlamaServer

pytestmark = pytest.mark.e2e


@pytest.fixture
def serve() -> Iterator[Any]:
    with serving() as start:
        yield start


def test_codex_exec_runs_the_shell_call_a_model_wrote_in_its_text(
    codex: Path, stub_server: Any, serve: Any, tmp_path: Path
) -> None:
    call = (
        "Running it.\n<function=exec_command>\n<parameter=cmd>\necho pedro-ok > marker.txt\n</parameter>\n</function>"
    )
    upstream = stub_server([call, "The marker file is written."])
    port = serve(f"{upstream.url}/v1", "m")
    home, work = tmp_path / "codex-home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    (home / "config.toml").write_text(
        'model = "m"\nmodel_provider = "pedro"\n\n[model_providers.pedro]\nname = "pedro serve"\n'
        f'base_url = "http://127.0.0.1:{port}/v1"\nwire_api = "responses"\n'
    )
    env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "unused"}
    done = subprocess.run(
        [str(codex), "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox",
         "write the marker file"],
        cwd=work, env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert (work / "marker.txt").read_text() == "pedro-ok\n"
    assert "The marker file is written." in done.stdout
    # The call's output went back to the model as a tool message with the call's id.
    second = upstream.requests[1]["messages"]
    asked = [c["id"] for m in second if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    answered = [m["tool_call_id"] for m in second if m["role"] == "tool"]
    assert len(asked) == 1 and answered == asked


def test_the_openai_sdk_against_the_real_model(llama_server: ManagedLlamaServer, serve: Any) -> None:
    port = serve(llama_server.base_url + "/v1", llama_server.model_alias)
    with openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="unused", max_retries=0) as client:
        events = list(client.responses.create(model=llama_server.model_alias, input="Say hi.", stream=True,
                                              max_output_tokens=16))  # fmt: skip
        assert events[0].type == "response.created"
        # A reply that stops on its own completes; one that reaches the 16-token limit ends incomplete, as OpenAI's
        # own service ends it.
        assert events[-1].type == "response.done"
        ended = next(e for e in events if e.type in ("response.completed", "response.incomplete"))
        usage = ended.response.usage
        assert usage is not None and usage.output_tokens > 0
        if ended.type == "response.completed":
            assert ended.response.status == "completed" and usage.output_tokens <= 16
        else:
            assert ended.response.status == "incomplete" and usage.output_tokens >= 16
            assert ended.response.incomplete_details.reason == "max_output_tokens"
        text = "".join(e.delta for e in events if e.type == "response.output_text.delta")
        assert text.strip()
