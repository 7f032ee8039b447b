"""Record real llama-server wire payloads (SmolLM2-135M-Instruct) into tests/fixtures/recorded/llamacpp/.

Run: python tests/e2e/record_fixtures.py [--out DIR]   (needs scripts/install-llama-server and scripts/install-model)

Every reply is stored exactly as the server sent it; each request body sits next to it as NAME.request.json, and
manifest.json says which binary, model, flags, statuses and content types produced them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pedro.backends.managed import (  # noqa: E402 - the path above makes pedro importable from a checkout
    ManagedLlamaServer,
    ServerSettings,
    find_smollm2_gguf,
    pick_free_port,
    require_llama_server,
)

DEFAULT_OUT = ROOT / "tests" / "fixtures" / "recorded" / "llamacpp"
CTX_SIZE = 4096
NO_KEEPALIVE = httpx.Limits(max_keepalive_connections=0)

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a text file of the repository.",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string", "description": "Path relative to the repository root."}},
                "required": ["path"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "run_tests",
            "description": "Run the test suite and report failures.",
            "parameters": {"type": "object", "properties": {}, "required": []},
        },
    },
]

MESSAGES: list[dict[str, Any]] = [
    {"role": "system", "content": "You are a coding agent working in a git repository. Use the tools."},
    {"role": "user", "content": "The test for add() in calc.py fails. Read calc.py first."},
]

# Greedy decoding with a fixed seed keeps re-recordings stable; a short max_tokens keeps the files small.
SAMPLING: dict[str, Any] = {"temperature": 0, "seed": 42, "max_tokens": 48}

CHAT_REQUESTS: dict[str, dict[str, Any]] = {
    "chat": {"messages": MESSAGES, **SAMPLING},
    "chat_tools": {"messages": MESSAGES, "tools": TOOLS, "tool_choice": "auto", **SAMPLING},
    "chat_stream": {"messages": MESSAGES, "stream": True, "stream_options": {"include_usage": True}, **SAMPLING},
    "chat_tools_stream": {
        "messages": MESSAGES,
        "tools": TOOLS,
        "stream": True,
        "stream_options": {"include_usage": True},
        **SAMPLING,
    },
}
TOKENIZE_REQUEST: dict[str, Any] = {"content": "def add(a, b):\n    return a - b\n", "add_special": False}


def record_all(out: Path) -> dict[str, Any]:
    """Start a managed llama-server on SmolLM2, record every payload into `out`, and return the manifest."""
    binary = require_llama_server()
    model = find_smollm2_gguf()
    if model is None:
        raise SystemExit("the SmolLM2 GGUF is not installed; run scripts/install-model")
    out.mkdir(parents=True, exist_ok=True)
    replies: dict[str, dict[str, Any]] = {}
    replies["health_loading"] = record_loading_health(binary, model, out)
    with (
        ManagedLlamaServer(model, ServerSettings(ctx_size=CTX_SIZE), binary=binary) as server,
        # No keep-alive: after a streamed reply llama-server may close the connection under a pooled client.
        httpx.Client(base_url=server.base_url, timeout=120, trust_env=False, limits=NO_KEEPALIVE) as client,
    ):
        command = server.command(binary, server.port or 0)
        for name, path in (("health", "/health"), ("props", "/props"), ("models", "/v1/models")):
            replies[name] = save_reply(out, name, client.get(path), ".json")
        write_json(out / "tokenize.request.json", TOKENIZE_REQUEST)
        replies["tokenize"] = save_reply(out, "tokenize", client.post("/tokenize", json=TOKENIZE_REQUEST), ".json")
        for name, body in CHAT_REQUESTS.items():
            write_json(out / f"{name}.request.json", body)
            suffix = ".sse" if body.get("stream") else ".json"
            replies[name] = save_reply(out, name, client.post("/v1/chat/completions", json=body), suffix)
    replies["chat_tools_no_jinja"] = record_no_jinja_tools_error(binary, model, out)
    manifest = {
        "recorded_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "binary_version": read_version(binary),
        "model_file": model.name,
        "model_sha256": sha256(model),
        "server_args": redact_paths(command[1:], binary, model),
        "replies": replies,
    }
    write_json(out / "manifest.json", manifest)
    return manifest


def record_loading_health(binary: Path, model: Path, out: Path) -> dict[str, Any]:
    """Catch /health while the model is still loading (503), polling as fast as the server answers."""
    port = pick_free_port()
    args = [str(binary), "--host", "127.0.0.1", "--port", str(port), "-m", str(model), "-c", str(CTX_SIZE)]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/health", timeout=1, trust_env=False)
            except httpx.HTTPError:
                time.sleep(0.002)
                continue
            if response.status_code == 503:
                return save_reply(out, "health_loading", response, ".json")
            return {"status": response.status_code, "note": "the model loaded before a 503 could be seen"}
        return {"status": None, "note": "the server never answered"}
    finally:
        process.terminate()
        process.wait(timeout=10)


def record_no_jinja_tools_error(binary: Path, model: Path, out: Path) -> dict[str, Any]:
    """Without --jinja, llama-server refuses any request that carries `tools` (HTTP 500); record that refusal."""
    # extra_args come last on the command line, and the last of --jinja / --no-jinja wins.
    with ManagedLlamaServer(
        model, ServerSettings(ctx_size=CTX_SIZE, extra_args=("--no-jinja",)), binary=binary
    ) as server:
        body = CHAT_REQUESTS["chat_tools"]
        write_json(out / "chat_tools_no_jinja.request.json", body)
        response = httpx.post(server.base_url + "/v1/chat/completions", json=body, timeout=120, trust_env=False)
        return save_reply(out, "chat_tools_no_jinja", response, ".json")


def save_reply(out: Path, name: str, response: httpx.Response, suffix: str) -> dict[str, Any]:
    """Write the raw body to NAME+suffix and return what the manifest keeps about it."""
    (out / f"{name}{suffix}").write_bytes(response.content)
    return {
        "file": f"{name}{suffix}",
        "status": response.status_code,
        "content_type": response.headers.get("content-type", ""),
    }


def write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def read_version(binary: Path) -> str:
    result = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=30)
    return " ".join((result.stdout + result.stderr).split())


def redact_paths(args: list[str], binary: Path, model: Path) -> list[str]:
    """The command line with machine-specific paths replaced by names, so the manifest diffs cleanly."""
    replacements = {str(binary): binary.name, str(model): model.name}
    return [replacements.get(arg, arg) for arg in args]


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"directory for the fixtures ({DEFAULT_OUT})")
    manifest = record_all(parser.parse_args().out)
    print(json.dumps(manifest["replies"], indent=2))


if __name__ == "__main__":
    main()
