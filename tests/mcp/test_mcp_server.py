"""pedro as an MCP server, called by the official SDK's own client: `pedro mcp` over stdio and `pedro mcp --http`
over Streamable HTTP on 127.0.0.1, against a stub model server; every wait is bounded."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from cli_util import fenced, pedro
from mcp import Client, StdioServerParameters
from repo_util import PYTEST, git

JOB_TOOLS = {"build", "debug", "review", "triage", "jobs_list", "job_show"}
LIMIT_S = 120


def model_flags(server: Any) -> list[str]:
    return ["--backend", "openai", "--base-url", f"{server.url}/v1", "--model", "m"]


def stdio(repo: Path, server: Any, env: dict[str, str]) -> StdioServerParameters:
    command = ["-m", "pedro", "mcp", "--repo", str(repo), *model_flags(server)]
    return StdioServerParameters(command=sys.executable, args=command, env=env, cwd=str(repo))


def answer(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    data: dict[str, Any] = result.structured_content
    return data.get("result", data) if set(data) == {"result"} else data


def test_stdio_lists_the_tools_and_a_build_answers_with_its_job(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    replies = [
        fenced("file", {"action": "write", "path": ".github/workflows/x.yml", "content": "on: push\n"}),
        fenced("file", {"action": "write", "path": "hello.txt", "content": "hello\n"}),
        "TASK COMPLETE",
    ]
    model = stub_server(replies)
    progress: list[str] = []

    async def progressed(_done: float, _total: float | None, message: str | None) -> None:
        progress.append(message or "")

    async def session() -> tuple[set[str], dict[str, Any], dict[str, Any], dict[str, Any]]:
        with anyio.fail_after(LIMIT_S):
            async with Client(stdio(repo, model, cli_env)) as client:
                names = {tool.name for tool in (await client.list_tools()).tools}
                built = answer(await client.call_tool("build", {"description": "Add hello.txt"}, None, progressed))
                listed = answer(await client.call_tool("jobs_list", {}))
                shown = answer(await client.call_tool("job_show", {"job_id": built["id"]}))
                return names, built, listed, shown

    names, built, listed, shown = anyio.run(session)
    assert names == JOB_TOOLS
    assert built["status"] == "completed", built
    assert "hello.txt" in built["diff"] and built["changed_files"] == ["hello.txt"]
    assert built["branch"] == f"pedro/{built['id']}"
    assert any("round 1" in line for line in progress), progress
    # Under MCP nobody can approve: the protected write was refused, as under --no-input.
    said = json.dumps(model.requests[1]["messages"])
    assert "nobody can approve" in said and not (repo / ".github" / "workflows" / "x.yml").exists()
    assert [job["id"] for job in listed["jobs"]] == [built["id"]]
    assert shown["id"] == built["id"] and shown["status"] == "completed" and "hello.txt" in shown["diff"]


def test_job_show_takes_job_ids_only_and_reads_no_record_outside_the_store(
    repo: Path, tmp_path: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # A job record planted outside the repository's job store, with a secret in it, reached by `../` and by an
    # absolute path: both are refused as not job ids, and nothing of it comes back.
    outside = tmp_path / "elsewhere" / "20260101-000000-beef"
    outside.mkdir(parents=True)
    record = {"id": "20260101-000000-beef", "role": "builder", "task": "planted-secret-task", "status": "completed"}
    (outside / "job.json").write_text(json.dumps(record))
    model = stub_server([])

    async def session() -> list[Any]:
        with anyio.fail_after(LIMIT_S):
            async with Client(stdio(repo, model, cli_env)) as client:
                return [
                    await client.call_tool("job_show", {"job_id": job_id})
                    for job_id in (str(outside), os.path.relpath(outside, repo / ".pedro" / "jobs"), "..")
                ]

    for result in anyio.run(session):
        text = json.dumps([getattr(part, "text", "") for part in result.content])
        assert result.is_error and "is not a job id" in text and "planted-secret-task" not in text, text


def test_a_debug_call_answers_with_the_fix_repair_made(repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (repo / "test_calc.py").write_text("from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n")
    (repo / ".gitignore").write_text("__pycache__/\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "calc")
    model = stub_server(["```python\ndef add(a, b):\n    return a + b\n```"])
    tests = PYTEST

    async def session() -> dict[str, Any]:
        with anyio.fail_after(LIMIT_S):
            async with Client(stdio(repo, model, cli_env)) as client:
                return answer(await client.call_tool("debug", {"description": "add is wrong", "test": tests}))

    debugged = anyio.run(session)
    # What the client reads is the fix itself: the file and its diff, not an empty change.
    assert (debugged["status"], debugged["reason"]) == ("completed", "repaired"), debugged
    assert debugged["changed_files"] == ["calc.py"] and "+    return a + b" in debugged["diff"]


def test_a_cancelled_call_stops_its_job_as_ctrl_c_does_and_one_job_runs_at_a_time(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    thinking = threading.Event()
    # The model never answers the first request (until the test ends): the job waits on it when it is cancelled.
    model = stub_server(["TASK COMPLETE"], on_request=lambda n: thinking.wait(LIMIT_S) if n == 1 else None)

    async def session() -> tuple[Any, dict[str, Any]]:
        with anyio.fail_after(LIMIT_S):
            async with Client(stdio(repo, model, cli_env)) as client:
                started = anyio.Event()

                async def progressed(_done: float, _total: float | None, message: str | None) -> None:
                    if "round 1" in (message or ""):
                        started.set()

                async with anyio.create_task_group() as group:

                    async def first() -> None:
                        await client.call_tool("build", {"description": "Loop"}, None, progressed)

                    group.start_soon(first)
                    await started.wait()
                    second = await client.call_tool("build", {"description": "Another"})
                    group.cancel_scope.cancel()
                while True:  # the job saves itself and ends; then the next call is taken
                    listed = answer(await client.call_tool("jobs_list", {}))
                    if listed["jobs"] and listed["jobs"][0]["status"] != "running":
                        return second, listed["jobs"][0]
                    await anyio.sleep(0.2)

    try:
        second, job = anyio.run(session)
    finally:
        thinking.set()
    assert second.is_error and "one job at a time" in second.content[0].text
    assert job["status"] == "interrupted", job


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


TOKEN = "t0ken-for-tests"


@pytest.fixture
def serve_http(repo: Path, cli_env: dict[str, str]) -> Iterator[Callable[[Any], str]]:
    """Start `pedro mcp --http` (a bearer token required) against a model server; its URL once it listens."""
    processes: list[subprocess.Popen[bytes]] = []

    def start(model: Any) -> str:
        port = free_port()
        command = [
            sys.executable,
            "-m",
            "pedro",
            "mcp",
            "--http",
            "--port",
            str(port),
            "--api-key-env",
            "PEDRO_MCP_TOKEN",
        ]
        process = subprocess.Popen(
            [*command, *model_flags(model)],
            cwd=repo,
            env={**cli_env, "PEDRO_MCP_TOKEN": TOKEN},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        processes.append(process)
        deadline = time.monotonic() + LIMIT_S
        while time.monotonic() < deadline and process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        return f"http://127.0.0.1:{port}/mcp"

    yield start
    for process in processes:
        process.terminate()
        process.wait(timeout=30)
        assert process.stderr is not None
        process.stderr.close()


@pytest.fixture
def http_server(serve_http: Callable[[Any], str], stub_server: Any) -> tuple[str, Any]:
    model = stub_server(["TASK COMPLETE"])
    return serve_http(model), model


def test_http_needs_the_bearer_token_and_serves_the_sdk_client(http_server: tuple[str, Any]) -> None:
    import httpx

    url, _model = http_server
    refused = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, timeout=30)
    assert refused.status_code == 401

    async def session() -> tuple[set[str], dict[str, Any]]:
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        headers = {"Authorization": f"Bearer {TOKEN}"}
        with anyio.fail_after(LIMIT_S):
            async with (
                create_mcp_http_client(headers=headers) as client_http,
                Client(streamable_http_client(url, http_client=client_http)) as client,
            ):
                names = {tool.name for tool in (await client.list_tools()).tools}
                return names, answer(await client.call_tool("jobs_list", {}))

    names, listed = anyio.run(session)
    assert names == JOB_TOOLS and listed == {"jobs": []}


def test_http_beyond_loopback_without_a_token_is_refused(repo: Path, cli_env: dict[str, str]) -> None:
    flags = ["--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    done = pedro("mcp", "--http", "--host", "0.0.0.0", *flags, env=cli_env, cwd=repo)
    assert done.returncode == 2, done.stderr
    assert "--api-key-env" in done.stderr and "Traceback" not in done.stderr
    assert not os.environ.get("PEDRO_MCP_TOKEN")


def test_a_stdio_client_that_dies_mid_call_stops_its_job_once_and_saves_it(
    repo: Path, stub_server: Any, cli_env: dict[str, str], tmp_path: Path
) -> None:
    thinking = threading.Event()
    model = stub_server(["TASK COMPLETE"], on_request=lambda n: thinking.wait(LIMIT_S) if n == 1 else None)
    errlog = tmp_path / "pedro-mcp.err"
    client = [sys.executable, str(Path(__file__).with_name("gone_stdio_client.py")), str(repo), f"{model.url}/v1"]
    first = subprocess.Popen([*client, str(errlog)], env=cli_env, stdout=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None
        assert first.stdout.readline() == "gone\n"
        first.kill()  # pedro's stdin and stdout close with it, and nothing cancels the call
        first.wait(timeout=30)
        jobs = repo / ".pedro" / "jobs"
        deadline = time.monotonic() + 10
        while (record := json.loads(next(jobs.glob("*/job.json")).read_text()))["status"] == "running":
            assert time.monotonic() < deadline, "the job of a client gone is still running"
            time.sleep(0.1)
    finally:
        thinking.set()
        first.kill()
        if first.stdout is not None:
            first.stdout.close()
    # One Ctrl-C, not two: the job ended as a cancelled one does, saved, and the checkout is back on its branch.
    assert record["status"] == "interrupted" and record["summary"].endswith("the job is saved"), record
    deadline = time.monotonic() + 10
    while _alive(record["pid"]):
        assert time.monotonic() < deadline, "pedro mcp outlived its client"
        time.sleep(0.1)
    # The record is saved as the run ends and the branch is settled after it, so the checkout is asked once pedro
    # has exited.
    assert git(repo, "branch", "--show-current").strip() == "main"
    assert "Traceback" not in errlog.read_text(), errlog.read_text()


def _alive(pid: int) -> bool:
    """Whether the process runs (an exited one nobody has reaped yet does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


@pytest.mark.parametrize(("era", "leaving"), [("auto", "killed"), ("legacy", "killed"), ("legacy", "deleted")])
def test_an_http_client_that_goes_away_without_cancelling_stops_its_job_and_frees_the_slot(
    era: str, leaving: str, serve_http: Callable[[Any], str], stub_server: Any, cli_env: dict[str, str]
) -> None:
    thinking = threading.Event()
    # The model never answers the first job's request (until the test ends); the next job writes a file and ends.
    replies = [fenced("file", {"action": "write", "path": "hello.txt", "content": "hello\n"}), "TASK COMPLETE"]
    model = stub_server(replies, on_request=lambda n: thinking.wait(LIMIT_S) if n == 1 else None)
    url = serve_http(model)
    gone_client = [sys.executable, str(Path(__file__).with_name("gone_client.py")), url, TOKEN]
    # killed: the client's process dies mid-call (its connection dropped, nothing sent); deleted: it ends its
    # session (the handshake era's) with DELETE and keeps its connection open. Neither cancels the call.
    first = subprocess.Popen(
        [*gone_client, era, "delete" if leaving == "deleted" else "keep"],
        env=cli_env,
        stdout=subprocess.PIPE,
        text=True,
    )

    async def session() -> tuple[float, list[dict[str, Any]], dict[str, Any]]:
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        with anyio.fail_after(LIMIT_S):
            assert first.stdout is not None
            said = await anyio.to_thread.run_sync(first.stdout.readline)
            assert said == "gone\n", said
            if leaving == "killed":
                first.kill()
            gone_at = time.monotonic()
            async with (
                create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"}) as client_http,
                Client(streamable_http_client(url, http_client=client_http)) as client,
            ):
                while (second := await client.call_tool("build", {"description": "Add hello.txt"})).is_error:
                    assert "one job at a time" in second.content[0].text, second.content
                    assert time.monotonic() - gone_at < 10, "the slot is still held by the job of a client gone"
                    await anyio.sleep(0.2)
                took = time.monotonic() - gone_at
                return took, answer(await client.call_tool("jobs_list", {}))["jobs"], answer(second)

    try:
        took, jobs, second = anyio.run(session)
    finally:
        thinking.set()
        first.kill()
        first.wait(timeout=30)
        assert first.stdout is not None
        first.stdout.close()
    assert second["status"] == "completed" and second["changed_files"] == ["hello.txt"], second
    # The first job ended as a cancelled one does (interrupted, its record saved), not left running.
    assert [job["status"] for job in jobs if job["id"] != second["id"]] == ["interrupted"], jobs
    assert took < 10, took
