"""pedro as an MCP server: build, debug, review and triage as tools that each run one job through the CLI's own
run_job (so assemble() and the one loop), on the main thread where Ctrl-C and the time limit act; jobs_list and
job_show read the recorded jobs. The protocol (stdio or Streamable HTTP) runs in a thread beside it. A client that goes
away stops its job as a cancellation does: stdin closed, the HTTP session deleted, or the connection that waits for a
job's answer closed before it came (no event store keeps an answer for a client to come back to)."""

from __future__ import annotations

import collections
import concurrent.futures
import queue
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import Context, MCPServer  # this module loads only when pedro mcp runs
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from pedro.config import PedroConfig
from pedro.errors import InterruptedRunError, PedroError, Terminated
from pedro.messages import Event
from pedro.runlock import RepositoryBusyError

POLL_S = 0.2
"""How often a tool call looks for its job's progress and end."""

HANGUP = "pedro.hangup"
"""The ASGI scope key of an HTTP request's hang-up: a threading.Event set when its client closes the connection
before the response has ended."""


@dataclass
class JobRequest:
    """One tool call's job: what to run, what it reports on the way, and its answer."""

    role: str
    task_vars: dict[str, Any]
    test_command: str | None = None
    progress: collections.deque[str] = field(default_factory=collections.deque)
    notices: list[str] = field(default_factory=list)
    answer: concurrent.futures.Future[dict[str, Any]] = field(default_factory=concurrent.futures.Future)
    job_id: str = ""
    on_result: Callable[[Any, Path], None] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    """What a role adds to the answer (triage's failures read from the log)."""


class McpReport:
    """The renderer of a job nobody watches at a terminal: rounds become progress notifications, notices go to
    stderr and into the answer, and every question is answered no (--no-input)."""

    def __init__(self, request: JobRequest) -> None:
        self.request = request

    def handle(self, event: Event) -> None:
        self.request.job_id = self.request.job_id or event.job_id
        if event.type == "round.started":
            self.request.progress.append(f"job {event.job_id}: round {event.data.get('round')}")
        elif event.type == "tool_call.finished":
            status = "ok" if event.data.get("ok") else f"failed ({event.data.get('error_kind')})"
            self.request.progress.append(f"job {event.job_id}: {event.data.get('name')} {status}")

    def notice(self, message: str) -> None:
        self.request.notices.append(message)
        sys.stderr.write(f"pedro mcp: {message}\n")

    def approver(self, interactive: bool) -> Callable[[str], bool]:
        return lambda _question: False

    def asker(self, interactive: bool) -> None:
        return None

    def close(self) -> None:
        return None


class JobRunner:
    """Runs the jobs the tools ask for, one at a time, on the main thread, as the CLI runs one: with the run lock,
    the job's time limit (an alarm) and Ctrl-C; a client's cancellation is a Ctrl-C sent to the running job."""

    def __init__(self, root: Path, config: PedroConfig, *, verbose: bool = False) -> None:
        self.root, self.config, self.verbose = root, config, verbose
        self._queue: queue.Queue[JobRequest | None] = queue.Queue()
        self._lock = threading.Lock()
        self._current: JobRequest | None = None
        self._in_run = False
        self._cancel_pending = False  # a Ctrl-C of the client's on its way: the signal handler stops the job
        self._cancel_sent = False  # one was sent to the running job (the call's cancel and the client's going both ask)
        self._main = threading.main_thread().ident

    def submit(self, request: JobRequest) -> None:
        """Queue the job; RepositoryBusyError when one is running (one job at a time, as the run lock has it)."""
        with self._lock:
            if self._current is not None:
                running = self._current
                raise RepositoryBusyError(
                    f"pedro mcp is running job {running.job_id or '(starting)'} ({running.role}) and runs one job at "
                    "a time: wait for its answer, or cancel that call, then call again"
                )
            self._current = request
        self._queue.put(request)

    def cancel(self, request: JobRequest) -> None:
        """Stop the request's job as Ctrl-C stops one: the job ends interrupted, its work saved."""
        with self._lock:
            if self._current is not request:
                return
            if not self._in_run:
                request.answer.cancel()
                return
            if self._cancel_sent:
                return  # one Ctrl-C per job: a second would cut into the job's saving
            self._cancel_pending = self._cancel_sent = True
        if self._main is not None:
            signal.pthread_kill(self._main, signal.SIGINT)

    def stop(self) -> None:
        """No more jobs: the one running is cancelled and serve() returns."""
        with self._lock:
            current = self._current
        if current is not None:
            self.cancel(current)
        self._queue.put(None)

    def serve(self) -> None:
        """Run jobs until stop(); on the main thread. Ctrl-C stops the running job; with none, it ends pedro mcp."""
        previous = {sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            while (request := self._queue.get()) is not None:
                if not request.answer.set_running_or_notify_cancel():
                    self._done()
                    continue
                self._run(request)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _on_signal(self, signum: int, _frame: Any) -> None:
        if self._cancel_pending:
            self._cancel_pending = False
            if self._in_run:
                raise KeyboardInterrupt  # the client cancelled: the job stops as Ctrl-C stops it
            return  # the job had already ended
        raise Terminated if signum == signal.SIGTERM else KeyboardInterrupt

    def _run(self, request: JobRequest) -> None:
        from pedro.jobs.service import JobHooks, JobSpec, run_job, run_lock

        try:
            with run_lock(self.root, request.role, None):
                self._in_run = True
                try:
                    spec = JobSpec(
                        request.role, request.task_vars, test_command=request.test_command, verbose=self.verbose
                    )  # nobody can answer an approval: the policy decides, as under --no-input
                    hooks = JobHooks(renderer=McpReport(request), on_result=request.on_result)
                    result = run_job(spec, self.root, self.config, hooks)
                finally:
                    self._in_run = False
                    self._cancel_pending = self._cancel_sent = False
            request.answer.set_result(self._answer(request, result))
        except KeyboardInterrupt:
            request.answer.set_exception(InterruptedRunError("the job was cancelled"))
        except Exception as exc:  # noqa: BLE001 - a job's failure is the call's error, never the server's end
            request.answer.set_exception(exc)
        finally:
            self._done()

    def _done(self) -> None:
        with self._lock:
            self._current = None

    def _answer(self, request: JobRequest, result: Any) -> dict[str, Any]:
        """The job's answer: status, summary, evidence, diff and id (and a reviewer's findings)."""
        facts, finished = job_record(self.root, result.job_id)
        return {
            "id": result.job_id,
            "status": result.exit_status,
            "reason": result.reason,
            "exit_code": result.exit_code,
            "summary": result.summary,
            "evidence": finished.get("evidence"),
            "findings": finished.get("findings"),
            "changed_files": facts["changed_files"],
            "diff": facts["diff"],
            "branch": facts["branch"],
            "rounds": result.rounds,
            "notices": request.notices,
            **request.extra,
        }


def job_record(root: Path, job_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """One job's facts (jobs/facts.py, as `pedro jobs show --json`) and its job.finished event."""
    from pedro.jobs.facts import job_facts
    from pedro.jobstore import JobStore

    store = JobStore(root)
    job = store.load(job_id)
    events = store.events(job.id)
    finished: dict[str, Any] = next((e for e in reversed(events) if e.get("type") == "job.finished"), {})
    return job_facts(root, store, job, events), finished


def create_server(runner: JobRunner) -> MCPServer[Any]:
    """The MCP server with pedro's six tools; each job tool waits for its job, reporting progress per round."""
    from pedro import __version__

    server: MCPServer[Any] = MCPServer(
        "pedro", instructions=_said("instructions"), version=__version__, log_level="WARNING"
    )
    _job_tools(server, runner)
    _record_tools(server, runner)
    return server


def _said(name: str) -> str:
    """A tool's description (or the server's instructions), from prompts/mcp/."""
    from pedro.prompts import load_prompt

    return load_prompt(f"mcp/{name}.md").strip()


_READS = ToolAnnotations(read_only_hint=True)
_CHANGES = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)


async def _run(runner: JobRunner, request: JobRequest, ctx: Context) -> dict[str, Any]:
    """Submit the job, report its rounds as progress until it ends, and answer with its result."""
    try:
        runner.submit(request)
    except RepositoryBusyError as exc:
        raise ToolError(str(exc)) from None
    try:
        await _follow(request, ctx)
    except BaseException:
        runner.cancel(request)  # the client cancelled the call or went away: the job stops as on Ctrl-C
        raise
    return _answer(request)


async def _follow(request: JobRequest, ctx: Context) -> None:
    """Report the job's rounds as progress until it ends; a ToolError when the client hangs up first."""
    import anyio

    hangup = getattr(ctx.request_context.request, "scope", {}).get(HANGUP)  # None over stdio
    step = 0
    while True:
        done = request.answer.done()
        while request.progress:
            step += 1
            await ctx.report_progress(step, None, request.progress.popleft())
        if done:
            return
        if hangup is not None and hangup.is_set():
            raise ToolError("the client hung up before the job's answer: the job is cancelled")
        await anyio.sleep(POLL_S)


def http_app(server: MCPServer[Any], host: str) -> Any:
    """The server's Streamable HTTP app, each request's hang-up marked in its scope (HANGUP) for the call it carries:
    a hang-up before the response ends (the client's process gone, its connection dropped) is a client gone."""
    app = server.streamable_http_app(host=host)

    async def watched(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        hangup, ended = threading.Event(), False

        async def sending(message: Any) -> None:
            nonlocal ended
            ended = ended or (message["type"] == "http.response.body" and not message.get("more_body", False))
            await send(message)

        async def receiving() -> Any:
            message = await receive()
            if message["type"] == "http.disconnect" and not ended:
                hangup.set()
            return message

        await app({**scope, HANGUP: hangup}, receiving, sending)

    return watched


def _answer(request: JobRequest) -> dict[str, Any]:
    """The finished job's answer, or a ToolError saying why there is none."""
    try:
        return request.answer.result()
    except concurrent.futures.CancelledError:
        raise ToolError("the job was cancelled before it started") from None
    except PedroError as exc:
        raise ToolError(str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - reported to the client, never a traceback on its screen
        raise ToolError(f"the job failed: {type(exc).__name__}: {exc}") from None


def _job_tools(server: MCPServer[Any], runner: JobRunner) -> None:
    """build, debug, review and triage: each runs a job."""

    @server.tool(description=_said("build"), annotations=_CHANGES)
    async def build(description: str, ctx: Context) -> dict[str, Any]:
        if not description.strip():
            raise ToolError("say what to build in description, e.g. 'Fix add() in calc.py'")
        return await _run(runner, JobRequest("builder", {"description": description.strip()}), ctx)

    @server.tool(description=_said("debug"), annotations=_CHANGES)
    async def debug(ctx: Context, description: str = "", test: str = "", log: str = "") -> dict[str, Any]:
        from pedro.jobs.tasks import debug_task

        if not (description.strip() or test.strip() or log.strip()):
            raise ToolError("debug needs something to go on: description (the symptom), test and/or log")
        task = debug_task(description, test.strip() or None, log)
        return await _run(runner, JobRequest("debugger", task, test_command=test.strip() or None), ctx)

    @server.tool(description=_said("review"), annotations=_READS)
    async def review(ctx: Context, base: str = "", description: str = "") -> dict[str, Any]:
        from pedro.jobs.tasks import review_task
        from pedro.reviewbase import find_review_base

        try:
            task = review_task(runner.root, find_review_base(runner.root, base or None), description)
        except PedroError as exc:
            raise ToolError(str(exc)) from None
        return await _run(runner, JobRequest("reviewer", task), ctx)

    @server.tool(description=_said("triage"), annotations=_READS)
    async def triage(log: str, ctx: Context, description: str = "") -> dict[str, Any]:
        from pedro.jobs.tasks import triage_task
        from pedro.triage.logparse import parse_log

        if not log.strip():
            raise ToolError("log is empty: pass the output of the failing run")
        parsed = parse_log(log, root=runner.root)
        failures = [
            {"name": f.name, "file": f.file, "line": f.line, "message": f.message}
            for f in (parsed.failures if parsed is not None else [])
        ]
        request = JobRequest("triager", triage_task(log, parsed, description), extra={"failures": failures})
        return await _run(runner, request, ctx)


def _record_tools(server: MCPServer[Any], runner: JobRunner) -> None:
    """jobs_list and job_show: what the recorded jobs hold."""

    @server.tool(description=_said("jobs_list"), annotations=_READS)
    def jobs_list() -> dict[str, Any]:
        from pedro.jobstore import JobStore

        jobs = JobStore(runner.root).all()
        listed = [
            {
                "id": job.id,
                "role": job.role,
                "status": job.status,
                "started_at": job.started_at,
                "task": job.headline,
            }
            for job in jobs
        ]
        return {"jobs": listed}

    @server.tool(description=_said("job_show"), annotations=_READS)
    def job_show(job_id: str) -> dict[str, Any]:
        try:
            facts, finished = job_record(runner.root, job_id)
        except PedroError as exc:
            raise ToolError(str(exc)) from None
        return {**facts, "summary": finished.get("summary") or "", "evidence": finished.get("evidence")}
