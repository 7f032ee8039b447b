"""Codex CLI with MCP servers configured: `pedro mcp` as Codex's tool, with the real SmolLM2 fixing the demo's bug,
and an MCP server of Codex's own still offered to the model through `pedro serve`.

Codex's model is a scripted stub speaking the Responses API stream Codex reads; it picks the tool to call from the
tools Codex sends, as a model would."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from repo_util import PYTEST
from serve_util import serving

from pedro.backends.managed import find_llama_server

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
NOTES = ROOT / "tests" / "fixtures" / "mcp_server.py"
TESTS = PYTEST
Script = Callable[[dict[str, Any]], list[dict[str, Any]]]


class ResponsesStub:
    """A model server on 127.0.0.1 that answers each POST /v1/responses with the output items `script` makes from
    the request, streamed as the Responses API streams them (created, each item added and done, completed)."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_: Any) -> None:
                return

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                stub.requests.append(body)
                number = len(stub.requests)
                data = b"".join(sse(event) for event in stream(f"resp_{number}", stub.script(body)))
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def sse(event: dict[str, Any]) -> bytes:
    return f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode()


def stream(response_id: str, items: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}  # fmt: skip
    response = {"id": response_id, "object": "response", "status": "in_progress", "model": "m", "output": []}
    yield {"type": "response.created", "sequence_number": 0, "response": response}
    for index, item in enumerate(items):
        yield {"type": "response.output_item.added", "output_index": index, "item": {**item, "status": "in_progress"}}
        yield {"type": "response.output_item.done", "output_index": index, "item": item}
    done = {**response, "status": "completed", "output": items, "usage": usage}
    yield {"type": "response.completed", "sequence_number": 2 * len(items) + 1, "response": done}


def message(text: str) -> dict[str, Any]:
    return {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}  # fmt: skip


def outputs(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool results Codex sent back in a request's input."""
    return [item for item in request.get("input", []) if item.get("type") == "function_call_output"]


def find_tool(request: dict[str, Any], server: str, tool: str) -> dict[str, str] | None:
    """Where an MCP server's tool is among the tools Codex offers: a namespace of the server holding the tool (how
    Codex sends MCP tools) or a function named after both; the call item's name fields, or None."""
    for offered in request.get("tools", []):
        name = str(offered.get("name", ""))
        if offered.get("type") == "namespace" and server in name:
            if any(inner.get("name") == tool for inner in offered.get("tools", [])):
                return {"namespace": name, "name": tool}
        elif offered.get("type") == "function" and server in name and name.endswith(tool):
            return {"name": name}
    return None


def offered_names(request: dict[str, Any]) -> list[str]:
    names = []
    for offered in request.get("tools", []):
        inner = [f"{offered.get('name')}.{t.get('name')}" for t in offered.get("tools", [])]
        names += inner or [str(offered.get("name") or offered.get("type"))]
    return names


def git_repo(source: Path, dest: Path) -> Path:
    shutil.copytree(source, dest)
    git = ["git", "-c", "user.email=e2e@example.com", "-c", "user.name=e2e"]
    subprocess.run([*git, "init", "-q", "-b", "main"], cwd=dest, check=True)
    subprocess.run([*git, "add", "-A"], cwd=dest, check=True)
    subprocess.run([*git, "commit", "-qm", "sample project"], cwd=dest, check=True)
    return dest


def toml_table(name: str, values: dict[str, Any]) -> str:
    """A TOML table of strings, numbers, booleans, string lists and inline string tables (json writes them alike)."""
    lines = [f"[{name}]"]
    for key, value in values.items():
        if isinstance(value, dict):
            shown = "{ " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in value.items()) + " }"
        else:
            shown = json.dumps(value)
        lines.append(f"{key} = {shown}")
    return "\n".join(lines) + "\n"


def run_codex(codex: Path, home: Path, work: Path, base_url: str, servers: dict[str, dict[str, Any]],
              prompt: str) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """`codex exec` with its own CODEX_HOME: the stub as its model, `servers` as its MCP servers; nothing asks."""
    home.mkdir()
    provider = {"name": "stub", "base_url": base_url, "wire_api": "responses"}
    config = 'model = "m"\nmodel_provider = "stub"\n\n' + toml_table("model_providers.stub", provider)
    config += "".join("\n" + toml_table(f"mcp_servers.{name}", table) for name, table in servers.items())
    (home / "config.toml").write_text(config)
    env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "unused"}
    command = [str(codex), "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "--json",
               "-C", str(work), prompt]  # fmt: skip
    return subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=1200,
                          stdin=subprocess.DEVNULL, check=False)  # fmt: skip


def test_codex_calls_pedros_debug_tool_and_smollm2_fixes_the_bug(
    codex: Path, smollm2_gguf: Path, tmp_path: Path
) -> None:
    server = find_llama_server()
    if server is None:
        pytest.skip("llama-server is not installed; run scripts/install-llama-server")
    repo = git_repo(ROOT / "examples" / "calc", tmp_path / "calc")
    arguments = {"description": "add() in calc.py returns the wrong result; make test_calc.py pass.", "test": TESTS}

    def model(request: dict[str, Any]) -> list[dict[str, Any]]:
        if outputs(request):
            return [message("pedro's debugger has finished; its answer is above.")]
        debug = find_tool(request, "pedro", "debug")
        if debug is None:
            return [message("pedro's debug tool is not among the tools: " + ", ".join(offered_names(request)))]
        return [{"id": "fc_1", "type": "function_call", "call_id": "call_debug", **debug,
                 "arguments": json.dumps(arguments), "status": "completed"}]  # fmt: skip

    stub = ResponsesStub(model)
    pedro = {
        "command": sys.executable,
        "args": ["-m", "pedro", "mcp", "--repo", str(repo), "--model-file", str(smollm2_gguf), "--max-rounds", "4"],
        # As the demo runs SmolLM2 (scripts/demo), with no user configuration of this machine's.
        "env": {
            "PATH": f"{server.parent}{os.pathsep}{os.environ.get('PATH', '')}",
            "XDG_CONFIG_HOME": str(tmp_path / "xdg-config"),
            "PEDRO_BACKEND__CONTEXT_WINDOW": "4096",
            "PEDRO_BACKEND__CONSTRAIN_CALLS": "true",
            "PEDRO_BACKEND__MAX_TOKENS": "192",
        },
        # Codex's first request waits for a required server's tools; a job runs for minutes on a small CPU.
        "required": True,
        "startup_timeout_sec": 60,
        "tool_timeout_sec": 1200,
    }
    try:
        done = run_codex(codex, tmp_path / "codex-home", repo, stub.url, {"pedro": pedro}, "Fix the failing test.")
    finally:
        stub.close()
    assert done.returncode == 0, done.stderr[-3000:]
    first = stub.requests[0]
    assert find_tool(first, "pedro", "debug") is not None, offered_names(first)
    # Codex called pedro's debug tool and sent its answer back to the model: the job's own report.
    assert len(stub.requests) == 2, [outputs(r) for r in stub.requests]
    (result,) = outputs(stub.requests[1])
    assert result["call_id"] == "call_debug"
    said = result["output"] if isinstance(result["output"], str) else json.dumps(result["output"])
    answer = json.loads(said[said.index("{") : said.rindex("}") + 1])  # Codex puts its timing line before it
    assert answer["status"] == "completed", said[:3000]
    assert "calc.py" in answer["changed_files"] and "+    return a + b" in answer["diff"], said[:3000]
    assert "pedro's debugger has finished" in done.stdout
    # The bug is fixed in the repository: its tests pass when run again from outside.
    assert "return a + b" in (repo / "calc.py").read_text()
    check = subprocess.run(TESTS.split(), cwd=repo, capture_output=True, text=True, timeout=120, check=False)
    assert check.returncode == 0, check.stdout


@pytest.fixture
def serve() -> Iterator[Any]:
    with serving() as start:
        yield start


def test_an_mcp_server_configured_in_codex_is_offered_and_called_through_pedro_serve(
    codex: Path, stub_server: Any, serve: Any, tmp_path: Path
) -> None:
    def call_lookup(number: int) -> None:
        """The upstream model, on its first request, calls the notes server's lookup as the tools name it."""
        if number != 1:
            return
        names = [t["function"]["name"] for t in upstream.requests[0].get("tools", [])]
        lookup = next((n for n in names if "notes" in n and n.endswith("lookup")), "no-notes-lookup-offered")
        call = {"id": "call_notes", "type": "function", "function": {"name": lookup, "arguments": {"word": "retry"}}}
        upstream.replies.insert(0, {"role": "assistant", "content": "", "tool_calls": [call]})

    upstream = stub_server(["The glossary knows the word."], on_request=call_lookup)
    port = serve(f"{upstream.url}/v1", "m")
    work = tmp_path / "work"
    work.mkdir()
    notes = {"command": sys.executable, "args": [str(NOTES)], "required": True, "startup_timeout_sec": 60}
    done = run_codex(codex, tmp_path / "codex-home", work, f"http://127.0.0.1:{port}/v1", {"notes": notes},
                     "Look up retry in the glossary.")  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    # The notes server's tools reached the upstream model as functions, flattened from Codex's namespace.
    offered = [t["function"]["name"] for t in upstream.requests[0]["tools"]]
    assert {"lookup", "write_note"} <= {n.rsplit("__", 1)[-1] for n in offered if "notes" in n}, offered
    # The call went back to Codex under its namespace, Codex ran it on the MCP server, and the result came back.
    assert len(upstream.requests) == 2
    results = [m for m in upstream.requests[1]["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in results] == ["call_notes"]
    assert "retry: a word the glossary knows" in json.dumps(results[0]["content"])
    assert "The glossary knows the word." in done.stdout
