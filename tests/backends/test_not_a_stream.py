"""A 200 reply to a streamed request that is not a stream: a whole JSON reply is used, anything else is named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_util import build, fenced
from wire_server import Reply, WireServer, json_reply, read_fixture

from pedro.backends.base import GenerationOptions, RetryPolicy
from pedro.backends.connection import Connection
from pedro.backends.ollama import OllamaBackend
from pedro.backends.openai_compat import NO_STREAM_NOTICE, OpenAICompatBackend
from pedro.errors import BackendError
from pedro.messages import Message, ToolCall

HELLO = [Message(role="user", content="hi")]
TOOLS = [{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}} for n in ("file", "git")]
CHAT = "/v1/chat/completions"
# A single sign-on proxy in front of the server answers every path with its login page.
LOGIN_PAGE = (
    '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Sign in</title></head>\n'
    '<body><form method="post" action="/oauth2/start"><button>Sign in with SSO</button></form></body>\n</html>\n'
)


@pytest.fixture
def server() -> WireServer:
    """A fresh recording fake server."""
    return WireServer()


NO_SLEEP = RetryPolicy(sleep=lambda _: None)


def openai(server: WireServer) -> OpenAICompatBackend:
    return OpenAICompatBackend(Connection("http://127.0.0.1:8080/v1", client=server.client(), retry=NO_SLEEP), "m")


def ollama(server: WireServer) -> OllamaBackend:
    server.on("POST", "/api/show", json_reply(read_fixture("ollama/show.json")))
    return OllamaBackend(
        Connection("http://127.0.0.1:11434", client=server.client(), retry=NO_SLEEP), "qwen3:8b", context_window=8192
    )


def ask(backend: Any) -> tuple[Any, list[str]]:
    tokens: list[str] = []
    completion = backend.complete(HELLO, tools=TOOLS, options=GenerationOptions(stream=True), on_token=tokens.append)
    return completion, tokens


def test_openai_server_that_ignores_stream_true_is_read_as_the_whole_reply(server: WireServer) -> None:
    server.on("POST", CHAT, json_reply(read_fixture("openai/chat_tool_call.json")))
    backend = openai(server)
    completion, tokens = ask(backend)
    assert server.bodies(CHAT)[0]["stream"] is True
    assert completion.text == "Let me look." and tokens == ["Let me look."]
    assert [call.name for call in completion.tool_calls] == ["file", "git"]
    assert completion.usage.prompt_tokens == 300
    assert completion.notices == (NO_STREAM_NOTICE,)
    assert "[backend].stream = false" in NO_STREAM_NOTICE
    again, _ = ask(backend)
    assert again.notices == (), "said once per job"


def test_ollama_server_that_ignores_stream_true_is_read_as_the_whole_reply(server: WireServer) -> None:
    backend = ollama(server)
    reply = Reply(body=read_fixture("ollama/chat_no_stream.json"), headers={"content-type": "application/json"})
    server.on("POST", "/api/chat", reply)
    completion, _ = ask(backend)
    assert server.bodies("/api/chat")[0]["stream"] is True
    assert completion.tool_calls == (ToolCall(name="bash", arguments={"command": "pytest -q"}, id="call_0"),)
    assert completion.usage.prompt_tokens == 122
    assert completion.notices == (NO_STREAM_NOTICE,)


@pytest.mark.parametrize("make", [openai, ollama])
def test_a_login_page_names_html_and_the_base_url(server: WireServer, make: Any) -> None:
    backend = make(server)
    page = Reply(body=LOGIN_PAGE, headers={"content-type": "text/html; charset=utf-8"})
    server.on("POST", CHAT, page).on("POST", "/api/chat", page)
    with pytest.raises(BackendError) as caught:
        ask(backend)
    message = str(caught.value)
    assert "answered 200 with an HTML page (text/html) instead of a reply stream" in message, message
    assert "<!DOCTYPE html>" in message and "--base-url / [backend].base_url" in message
    assert "crash" not in message
    assert sum(path.endswith("chat") or path.endswith("completions") for path in server.paths()) == 1


def test_other_text_names_its_content_type(server: WireServer) -> None:
    server.on("POST", CHAT, Reply(body="Service temporarily unavailable\n", headers={"content-type": "text/plain"}))
    with pytest.raises(BackendError, match=r"answered 200 with text/plain instead of a reply stream.*base_url"):
        ask(openai(server))
    assert len(server.requests) == 1


def test_json_that_is_no_chat_reply_is_named(server: WireServer) -> None:
    server.on("POST", CHAT, json_reply({"object": "list", "data": []}))
    with pytest.raises(
        BackendError, match=r"answered 200 with application/json instead of a chat completion.*base_url"
    ):
        ask(openai(server))


def test_an_error_object_sent_with_200_is_reported_as_the_servers_error(server: WireServer) -> None:
    server.on("POST", CHAT, json_reply({"error": {"message": "model is still loading"}}))
    with pytest.raises(BackendError, match="reported an error: model is still loading"):
        ask(openai(server))


@pytest.mark.parametrize("headers", [{"content-type": "text/plain; charset=utf-8"}, {}])
def test_a_stream_under_another_content_type_is_still_read(server: WireServer, headers: dict[str, str]) -> None:
    server.on("POST", CHAT, Reply(body=read_fixture("openai/stream_text.sse"), headers=headers))
    completion, _ = ask(openai(server))
    assert completion.text == "I will read the file." and completion.notices == ()


@pytest.mark.parametrize("wire", ["openai", "ollama"])
def test_pedro_build_works_with_a_server_that_does_not_stream(
    repo: Path, stub_server: Any, cli_env: dict[str, str], wire: str
) -> None:
    write = fenced("file", {"action": "write", "path": "hello.txt", "content": "hello\n"})
    server = stub_server([write, "TASK COMPLETE\nwrote hello.txt"], ignore_stream=True)
    proc = build(server, repo, cli_env, "--json", backend=wire)
    assert proc.returncode == 0, proc.stderr
    assert (repo / "hello.txt").read_text() == "hello\n"
    assert [request["stream"] for request in server.requests] == [True, True]
    assert proc.stderr.count("set [backend].stream = false") == 1, proc.stderr
    finished = [json.loads(line) for line in proc.stdout.splitlines() if '"tool_call.finished"' in line]
    assert len(finished) == 1
