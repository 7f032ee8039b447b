"""A warm test runner's process: started once per repair inside the tests' sandbox, asked in JSON lines for each run,
its answer read as every test run reads (the junit report, the output's tail, the outcome)."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import time
from pathlib import Path
from typing import IO, Any

from pedro.process import ChildCommand, ChildResult, release_leader, start_leader
from pedro.safety.sandbox import wrap
from pedro.tools.test import RunPlan, TestRun, format_summary, read_report
from pedro.tools.testreport import NODE_RUNNER, ReportError, RunReport, parse_junit_xml, with_crash_cause

READY_TIMEOUT_S = 60.0
_ANSWER_SLACK_S = 10.0
_TAIL_BYTES = 4096


class WarmServer:
    """One runner process for the whole repair, started inside the sandbox; `name` says which, in messages."""

    name = "warm runner"

    def __init__(self, command: ChildCommand, root: Path, workdir: Path) -> None:
        self.workdir = workdir
        self._runs = 0
        child = wrap(command, root=root, kind="test", writable=(workdir,))
        self._log = (workdir / "server.log").open("wb")
        self.process: subprocess.Popen[bytes] = start_leader(
            lambda: subprocess.Popen(
                list(child.argv),
                cwd=child.cwd,
                env=dict(child.env),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log,
                start_new_session=True,
                close_fds=True,
                preexec_fn=child.preexec,
            )
        )
        self._reader = _Lines(self.process.stdout)
        self.ready: dict[str, Any] | None = None

    def wait_ready(self) -> None:
        """Until the server says it is ready; OSError when it could not start."""
        if self.ready is not None:
            return
        ready = self._reader.read(READY_TIMEOUT_S)
        if ready is None or not ready.get("ready"):
            said = str(ready.get("error", "")) if ready is not None else ""
            said = said or self.server_said()
            self.close()
            raise OSError(f"the {self.name} did not start: {said}")
        self.ready = ready

    def new_folder(self) -> Path:
        """A fresh folder for one run's report and output."""
        self._runs += 1
        folder = self.workdir / f"run-{self._runs}"
        folder.mkdir()
        return folder

    def ask(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        """The server's answer to one run's request; OSError when it stopped answering."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write((json.dumps(request) + "\n").encode())
            self.process.stdin.flush()
        except OSError as exc:
            raise OSError(f"the {self.name} stopped ({exc})") from exc
        answer = self._reader.read(timeout + _ANSWER_SLACK_S)
        if answer is None or "outcome" not in answer or answer["outcome"] == "bad request":
            raise OSError(f"the {self.name} stopped answering: {self.server_said()}")
        return answer

    def server_said(self) -> str:
        """The end of what the server wrote on stderr, for a message."""
        if not self._log.closed:
            self._log.flush()
        text = (self.workdir / "server.log").read_bytes()[-600:].decode("utf-8", errors="replace").strip()
        return text.splitlines()[-1] if text else "it wrote nothing"

    def close(self) -> None:
        """End the server and anything left in its process group."""
        with contextlib.suppress(OSError):
            if self.process.stdin is not None:
                self.process.stdin.close()
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass
        with contextlib.suppress(OSError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        release_leader(self.process)
        self._reader.close()
        self._log.close()


def warm_test_run(plan: RunPlan, folder: Path, answer: dict[str, Any], timeout: float, command: str) -> TestRun:
    """A warm run as every test run reads: the junit report, the output's tail, the outcome."""
    report: RunReport | None = None
    xml = folder / "report.xml"
    log = folder / "output.log"
    if xml.is_file() and xml.stat().st_size:
        runner = NODE_RUNNER if plan.report_kind == "node-junit" else "pytest"
        with contextlib.suppress(ReportError):
            report = parse_junit_xml(xml.read_text(encoding="utf-8", errors="replace"), runner=runner)
    elif plan.report_kind == "raw" and log.is_file():
        report = read_report(plan, log)  # unittest's account of each test, as its plain run is read
    data = log.read_bytes() if log.is_file() else b""
    tail = data[-_TAIL_BYTES:].decode("utf-8", errors="replace")
    if report is not None and report.runner == NODE_RUNNER:
        report = with_crash_cause(report, tail)
    code = answer.get("exit_code")
    cpu = answer.get("cpu_s")
    stopped = answer["outcome"] == "timeout"
    result = ChildResult(
        outcome="timeout" if stopped else "exited",
        exit_code=code if isinstance(code, int) else None,
        output=tail,
        total_bytes=len(data),
        cut_bytes=max(len(data) - _TAIL_BYTES, 0),
        duration_s=float(answer.get("seconds", 0.0)),
        cpu_s=float(cpu) if isinstance(cpu, int | float) else None,
    )
    # A run stopped at its CPU limit ended before its time limit: the summary says when it was stopped.
    stopped_after = min(timeout, result.duration_s) if stopped else timeout
    return TestRun(format_summary(plan, result, report, tail, timeout=stopped_after), report, result, command)


class _Lines:
    """JSON lines from a pipe, each waited for with a deadline."""

    def __init__(self, pipe: IO[bytes] | None) -> None:
        assert pipe is not None
        self.pipe = pipe
        self.buffer = b""
        os.set_blocking(pipe.fileno(), False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(pipe.fileno(), selectors.EVENT_READ)

    def read(self, seconds: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + seconds
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not self.selector.select(timeout=left):
                return None
            try:
                chunk = os.read(self.pipe.fileno(), 65536)
            except BlockingIOError:
                continue
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            answer = json.loads(line)
        except ValueError:
            return None
        return answer if isinstance(answer, dict) else None

    def close(self) -> None:
        self.selector.close()
        with contextlib.suppress(OSError):
            self.pipe.close()
