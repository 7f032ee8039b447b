"""Turn events into what a person sees: Rich in a terminal, plain lines in a pipe, JSON lines with --json."""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol, TextIO

from pedro.cli.approval import TerminalApprover, refuse_all
from pedro.controls import neutralise
from pedro.effects import NONE as NO_EFFECTS
from pedro.effects import Effects
from pedro.messages import Event
from pedro.tools.base import ApprovalAnswer, ApprovalRequest

_MAX_SHOWN_OUTPUT_LINES = 6
_MAX_SHOWN_DIFF_LINES = 24
_LIVE_TAIL_LINES = 8
HEARTBEAT_S = 10.0
"""Off a terminal, a line that says what pedro is doing after this many seconds without one."""


_EXIT_LINE = re.compile(r"^exit code (?P<code>-?\d+)\b")
_TEST_FAILED = re.compile(r"^\S.* FAILED\b|^\S.*: exit code [1-9]")


def call_effects(name: str, arguments: dict[str, Any]) -> Effects:
    """What a reported call did, as its tool declares it (tool_call.started carries the name and arguments). None
    for another program's tool (an MCP server's): pedro cannot read its output as a command's or an edit's."""
    from pedro.tools import TOOL_CLASSES, load_tool

    if name not in TOOL_CLASSES:
        return NO_EFFECTS
    tool = load_tool(name)
    try:
        return tool.effects(tool.Args.model_validate(arguments))
    except Exception:  # noqa: BLE001 - only what is shown depends on it: a call its tool cannot describe did nothing
        return NO_EFFECTS


def shows_edit(data: dict[str, Any], effects: Effects) -> bool:
    """Whether a finished call is an edit worth previewing: it wrote files and answered with the diff it applied."""
    lines = str(data.get("output", "")).splitlines()
    return bool(data.get("ok")) and bool(effects.writes) and any(line.startswith("--- a/") for line in lines[1:3])


def command_failed(data: dict[str, Any], *, ran_commands: bool) -> str:
    """For a call that ran commands (`ran_commands`: runs_commands of its tool_call.started) and whose command
    failed: how, as its output's first line says ("exit code 1", "tests failed"); else ""."""
    if not data.get("ok") or not ran_commands:
        return ""
    first = next((line for line in str(data.get("output", "")).splitlines() if line.strip()), "")
    if match := _EXIT_LINE.match(first):
        return f"exit code {match.group('code')}" if match.group("code") != "0" else ""
    return "tests failed" if _TEST_FAILED.match(first) else ""


def edit_preview(output: str, limit: int = _MAX_SHOWN_DIFF_LINES) -> list[str]:
    """The lines of an edit's result worth showing: its diff without the file headers, and when that is too long,
    every added line first (what the edit wrote), with removed and unchanged lines counted instead of shown."""
    rows = output.rstrip().splitlines()[1:]
    diff = [row for row in rows if not row.startswith(("--- a/", "+++ b/"))]
    if len(diff) <= limit:
        return diff
    shown: list[str] = []
    removed = 0
    for row in diff:
        if row.startswith("-"):
            removed += 1
            continue
        if removed:
            shown.append(f"- … {_count(removed, 'line')} removed")
            removed = 0
        if row.startswith(("+", "@@", "[")):
            shown.append(row)
    if removed:
        shown.append(f"- … {_count(removed, 'line')} removed")
    if len(shown) > limit:
        shown = [*shown[:limit], f"… {len(shown) - limit} more lines"]
    return shown


def repeats_reply(summary: str, reply: str) -> bool:
    """Whether a job's closing summary only repeats the model reply already on screen."""
    said = summary.strip()
    return bool(said) and said in reply


class Renderer(Protocol):
    def handle(self, event: Event) -> None: ...
    def notice(self, message: str) -> None: ...
    def approver(self, interactive: bool) -> Any: ...
    def asker(self, interactive: bool) -> Any: ...
    def close(self) -> None: ...


def make_renderer(*, json_mode: bool, stream_json: bool, session: bool = False) -> Renderer:
    """Pick the renderer for this terminal and these flags.

    stdout is for the result (a reviewer's findings, a job's summary), as with `gh` or `claude -p`: when it is not
    a terminal, progress, replies and notes go to stderr and stdout gets the result alone. `session`: a turn of an
    interactive session, shown without the job's header, round lines and resume hint.
    """
    if json_mode:
        return JsonRenderer(stream_json=stream_json)
    if sys.stdout.isatty():
        return RichRenderer(session=session)
    if sys.stderr.isatty():
        return RichRenderer(stderr=True, result=sys.stdout)
    if _same_file(sys.stdout, sys.stderr):
        # `2>&1`: one stream either way, so a reply already shown is not repeated as the result.
        return PlainRenderer(sys.stdout)
    return PlainRenderer(sys.stderr, result=sys.stdout)


def _same_file(one: TextIO, other: TextIO) -> bool:
    try:
        first, second = os.fstat(one.fileno()), os.fstat(other.fileno())
    except (AttributeError, OSError, ValueError):
        return False
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)


def describe_call(name: str, arguments: dict[str, Any]) -> str:
    """A one-line summary of a call for people: the action and the argument that matters most."""
    parts = [name]
    if "action" in arguments:
        parts.append(str(arguments["action"]))
    for key in ("path", "pattern", "command", "name", "ref", "glob", "message"):
        if key in arguments and arguments[key] not in (None, ""):
            value = str(arguments[key]).replace("\n", " ⏎ ")
            parts.append(value if len(value) <= 80 else value[:77] + "…")
            break
    return " ".join(parts)


def describe_progress(event: Event) -> str | None:
    """One line for the test runs and repair steps pedro takes itself; None for other events."""
    describe = _PROGRESS.get(event.type)
    return describe(event.data) if describe is not None else None


def _tests_run(data: dict[str, Any]) -> str:
    counts = data.get("counts") or {}
    verdict = "pass" if data.get("passed") else "FAIL"
    failing = list(data.get("failing") or [])
    shown = f" · failing: {', '.join(failing[:3])}{' …' if len(failing) > 3 else ''}" if failing else ""
    phase = str(data.get("phase"))
    if data.get("final"):
        phase = "final check, the whole command"
    elif data.get("candidate"):
        phase += f" {data['candidate']}" + (", failing tests" if data.get("scope") == "failing" else "")
        phase += ", every test" if data.get("scope") == "all" else ""
    elif data.get("dropped"):
        phase += f" {', '.join(map(str, data['dropped']))} taken back"
    return (
        f"tests ({phase}): {verdict} · passed {counts.get('passed', 0)}, failed "
        f"{counts.get('failed', 0) + counts.get('errors', 0)}{shown}"
    )


def _repair_started(data: dict[str, Any]) -> str:
    units = list(data.get("units") or [])
    if not units:
        return "repair: no function to ask for could be found from the failures"
    then = f" (then {', '.join(units[1:])})" if units[1:] else ""
    return f"repair: looking for a fix in {units[0]}{then}"


def _repair_candidate(data: dict[str, Any]) -> str:
    reason = f": {data.get('reason')}" if data.get("reason") else ""
    where = f" line {data['line']}" if data.get("line") else ""
    where += f" ({data['change']})" if data.get("change") else ""
    checks = f", checking candidate {data['rival_of']}" if data.get("rival_of") else ""
    return f"candidate {data.get('n')} for {data.get('unit')}{where}{checks}: {data.get('status')}{reason}"


def _build_started(data: dict[str, Any]) -> str:
    verb = "changing" if data.get("exists") else "writing"
    examples = data.get("examples") or []
    checked = f"; examples to check: {'; '.join(map(str, examples))}" if examples else ""
    return f"build: {verb} {data.get('function')} in {data.get('path')} ({data.get('why')}){checked}"


def _build_answer(data: dict[str, Any]) -> str:
    if data.get("status") == "same":
        return f"answer {data.get('n')}: the same as answer {data.get('same_as')}, not checked again"
    if data.get("status") == "passed":
        return f"answer {data.get('n')}: passed every check"
    return f"answer {data.get('n')}: failed at {data.get('check')}: {data.get('reason')}"


def _repair_restored(data: dict[str, Any]) -> str:
    if data.get("ok"):
        return f"candidate {data.get('n')} taken back: {data.get('path')} is as it was"
    return f"candidate {data.get('n')} could not be taken back from {data.get('path')}: {data.get('output')}"


_PROGRESS: dict[str, Callable[[dict[str, Any]], str]] = {
    "tests.run": _tests_run,
    "repair.started": _repair_started,
    "repair.spectrum": lambda data: (
        f"repair: line coverage in {data.get('seconds')} s ranks {', '.join(map(str, data.get('lines') or []))}"
    ),
    "repair.candidate": _repair_candidate,
    "repair.chosen": lambda data: (
        f"repair keeps candidate {data.get('n')} of the passing {', '.join(map(str, data.get('candidates') or []))}: "
        f"its outputs on {data.get('probes')} inputs beyond the tests' agree most with the others'"
    ),
    "repair.kept": lambda data: (
        f"repair keeps candidate {data.get('n')} and goes on: {' → '.join(map(str, data.get('chain') or []))}"
    ),
    "repair.dropped": lambda data: (
        f"repair takes back candidate {', '.join(map(str, data.get('n') or []))} in {data.get('unit')}: "
        f"{data.get('reason')}"
    ),
    "repair.restored": _repair_restored,
    "repair.finished": lambda data: f"repair: {data.get('summary')}",
    "build.started": _build_started,
    "build.answer": _build_answer,
    "build.test": lambda data: (
        f"test {data.get('n')} ({data.get('path')}): kept, as it passes with the change and fails without it"
        if data.get("status") == "kept"
        else f"test {data.get('n')} ({data.get('path')}): {data.get('reason')}"
    ),
    "build.chosen": lambda data: (
        f"build keeps answer {data.get('n')} of the passing {', '.join(map(str, data.get('answers') or []))}: its "
        f"outputs on {data.get('probes')} inputs agree most with the others'"
    ),
}


def summary_line(data: dict[str, Any]) -> str:
    totals = data.get("totals", {})
    tokens = totals.get("prompt_tokens", 0) + totals.get("completion_tokens", 0)
    caveat = _CAVEATS.get(str(data.get("reason")), "")
    return (
        f"{data.get('exit_status')} (exit {data.get('exit_code')}) · {_count(totals.get('rounds', 0), 'round')} · "
        f"{_count(totals.get('tool_calls', 0), 'tool call')} · {tokens} tokens · {totals.get('duration_s', 0):.1f}s"
        + (f" · {caveat}" if caveat else "")
    )


_CAVEATS = {
    "repaired_unsure": "unsure: fixes that pass the tests disagree (above)",
    "unverified": "unverified: nothing checked what the code does",
}
"""What the end line adds for a completion that is not a clean one."""


def _error_name(data: dict[str, Any]) -> str:
    """A failed call's stable code where it has one (ARGUMENTS_TOO_LARGE, …), else its kind of error."""
    return str(data.get("error_code") or data.get("error_kind"))


def ignored_calls(data: dict[str, Any]) -> str:
    """The line for calls of one reply past [tool_calling].max_tool_calls_per_turn."""
    names = [str(call.get("name")) for call in data.get("ignored_tool_calls") or []]
    return f"{_count(len(names), 'call')} past the limit of {data.get('limit')} per reply not run: {', '.join(names)}"


def resume_hint(job_id: str, data: dict[str, Any]) -> str:
    """For a job stopped by Ctrl-C, SIGTERM or a limit: the command that continues it; else ""."""
    status = data.get("exit_status")
    if status == "interrupted":
        return f"`pedro jobs resume {job_id}` continues it"
    if status == "limit_reached" and data.get("reason") == "time_limit":
        return f"`pedro jobs resume {job_id} --time-limit SECONDS` continues it with more time"
    if status == "limit_reached":
        return f"`pedro jobs resume {job_id} --max-rounds N` continues it with more rounds"
    return ""


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _write_summary(data: dict[str, Any], show: Any, *, shown: str = "") -> None:
    """The model's summary is the result, unless the reply already put it on the same stream; why a run failed
    goes to stderr. A reviewer's findings come as a numbered list."""
    from pedro.findings import Finding, findings_markdown

    text = str(data.get("summary", "")).strip()
    findings = data.get("findings")
    if findings:
        show(findings_markdown([Finding(**finding) for finding in findings]).rstrip())
        return
    if not text:
        return
    if data.get("exit_code") == 0:
        if not repeats_reply(text, shown):
            show(text)
    else:
        sys.stderr.write(f"pedro: {neutralise(text)}\n")
        sys.stderr.flush()


def _refuse(_question: str) -> bool:
    return False


class _Heartbeat:
    """A thread that writes `still <doing>` when nothing has been written for `every` seconds: a CI log shows that
    a long round (a slow model, a long test run) is alive."""

    def __init__(self, write: Callable[[str], None], every: float) -> None:
        self.write, self.every = write, every
        self.doing = ""
        self.since = self.last = time.monotonic()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def touch(self, doing: str | None = None) -> None:
        """Something was written; `doing` (when given) is what pedro does from now on."""
        self.last = time.monotonic()
        if doing is not None:
            self.doing, self.since = doing, self.last
        if self._thread is None and self.every > 0:
            self._thread = threading.Thread(target=self._run, name="pedro-heartbeat", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(min(1.0, self.every / 4)):
            now = time.monotonic()
            if self.doing and now - self.last >= self.every:
                self.last = now
                self.write(f"… still {self.doing} ({now - self.since:.0f} s)")


def _doing(event: Event) -> str | None:
    """What pedro does after this event, for the heartbeat; None when the event does not change it."""
    data = event.data
    return {
        "round.started": lambda: f"waiting for the model (round {data.get('round')})",
        "tool_call.started": lambda: f"running {data.get('name')}",
        "tool_call.finished": lambda: "working",
        "repair.started": lambda: "repairing: trying candidates",
        "build.started": lambda: "building: asking for the code and checking each answer",
        "job.finished": lambda: "",
    }.get(event.type, lambda: None)()


class PlainRenderer:
    """Plain lines for pipes and logs; also the human channel of --json on stderr."""

    def __init__(self, out: TextIO, *, result: TextIO | None = None, heartbeat_s: float = HEARTBEAT_S) -> None:
        self.out = out
        self.result = result or out
        self._mid_line = False
        self._reply = ""
        self._effects = NO_EFFECTS
        self._lock = threading.Lock()
        self._heartbeat = _Heartbeat(self._line, heartbeat_s)

    def handle(self, event: Event) -> None:
        self._heartbeat.touch(_doing(event))  # job.finished: nothing to report until a session's next turn
        shown = {
            "job.started": self._job_started,
            "round.started": self._round_started,
            "model.delta": self._delta,
            "tool_call.started": self._tool_started,
            "tool_call.finished": self._tool_finished,
            "format.problem": self._format_problem,
            "tool_calls.ignored": self._ignored,
            "job.finished": self._job_finished,
        }.get(event.type, self._other)
        shown(event)

    def _job_started(self, event: Event) -> None:
        data = event.data
        self._line(f"pedro {data.get('role')} · job {event.job_id} · backend {data.get('backend')}")

    def _round_started(self, event: Event) -> None:
        self._line(f"--- round {event.data.get('round')}")
        self._reply = ""

    def _delta(self, event: Event) -> None:
        text = neutralise(str(event.data.get("text", "")))
        self._reply += text
        with self._lock:
            self.out.write(text)
            self._mid_line = not text.endswith("\n")
            self.out.flush()

    def _tool_started(self, event: Event) -> None:
        name, arguments = str(event.data.get("name")), event.data.get("arguments") or {}
        self._effects = call_effects(name, arguments)
        self._line(f"→ {describe_call(name, arguments)}")

    def _tool_finished(self, event: Event) -> None:
        data = event.data
        effects, self._effects = self._effects, NO_EFFECTS
        failed = command_failed(data, ran_commands=effects.runs_commands)
        status = failed if failed else "ok" if data.get("ok") else f"error ({_error_name(data)})"
        self._line(f"← {data.get('name')}: {status} in {data.get('duration_ms')} ms")
        if not data.get("ok"):
            self._line("  " + str(data.get("output", "")).splitlines()[0][:200] if data.get("output") else "")
        elif shows_edit(data, effects):
            for line in edit_preview(str(data.get("output", ""))):
                self._line(f"  {line}")

    def _format_problem(self, event: Event) -> None:
        self._line(f"! call format problem ({event.data.get('kind')}): fed back to the model")

    def _ignored(self, event: Event) -> None:
        self._line(f"note: {ignored_calls(event.data)}")

    def _other(self, event: Event) -> None:
        if (progress := describe_progress(event)) is not None:
            self._line(progress)
            if event.type == "repair.finished":
                self._reply = progress  # a repaired job's summary is this line: not shown twice
        elif event.type in ("notice", "context.compacted", "context.truncated"):
            self._line(f"note: {event.data.get('message')}")

    def _job_finished(self, event: Event) -> None:
        data = event.data
        self._line(f"=== {summary_line(data)}")
        _write_summary(data, self._result_line, shown=self._reply if self.result is self.out else "")
        if hint := resume_hint(event.job_id, data):
            self._line(hint)

    def notice(self, message: str) -> None:
        self._line(f"note: {message}")

    def approver(self, interactive: bool) -> Any:
        return TerminalApprover(sys.stdin, sys.stderr).approve if interactive else _refuse

    def asker(self, interactive: bool) -> Any:
        if not interactive:
            return refuse_all

        def ask(request: ApprovalRequest) -> ApprovalAnswer:
            if self._mid_line:
                self.out.write("\n")
                self._mid_line = False
            return TerminalApprover(sys.stdin, sys.stderr)(request)

        return ask

    def close(self) -> None:
        self._heartbeat.stop()
        self.out.flush()

    def _line(self, text: str) -> None:
        with self._lock:
            if self._mid_line:
                self.out.write("\n")
                self._mid_line = False
            self.out.write(neutralise(text) + "\n")
            self.out.flush()

    def _result_line(self, text: str) -> None:
        if self.result is self.out:
            self._line(text)
            return
        self.result.write(neutralise(text) + "\n")
        self.result.flush()


class JsonRenderer:
    """Contract §7: only JSON lines on stdout, one event each; human text goes to stderr."""

    def __init__(self, *, stream_json: bool) -> None:
        self.stream_json = stream_json
        self.human = PlainRenderer(sys.stderr)

    def handle(self, event: Event) -> None:
        if event.type != "model.delta" or self.stream_json:
            sys.stdout.write(json.dumps(event.to_dict(), ensure_ascii=False, default=str) + "\n")
            sys.stdout.flush()
        if event.type != "model.delta":
            self.human.handle(event)

    def notice(self, message: str) -> None:
        self.human.notice(message)

    def approver(self, interactive: bool) -> Any:
        return self.human.approver(interactive)

    def asker(self, interactive: bool) -> Any:
        return self.human.asker(interactive)

    def close(self) -> None:
        sys.stdout.flush()


class _Waiting:
    """The live line under a streaming reply: a spinner, the seconds waited and, once text flows, tokens/s."""

    def __init__(self, label: str) -> None:
        from rich.spinner import Spinner

        self.label = label
        self.started = time.monotonic()
        self.first_token: float | None = None
        self.deltas = 0
        self.tail = ""
        self._spinner = Spinner("dots", style="cyan")

    def add(self, text: str) -> None:
        if self.first_token is None:
            self.first_token = time.monotonic()
        self.deltas += 1
        # Only the last lines of the reply stream live; the whole of it is drawn as Markdown when it is complete.
        self.tail = "\n".join((self.tail + text).splitlines()[-_LIVE_TAIL_LINES:]) + (
            "\n" if text.endswith("\n") else ""
        )

    def status(self) -> str:
        now = time.monotonic()
        line = f"{self.label} · {now - self.started:.1f}s"
        if self.first_token is not None and now - self.first_token > 0.5:
            # Servers stream about one token per delta; the exact count arrives with the reply's usage.
            line += f" · ≈{self.deltas / (now - self.first_token):.0f} tok/s"
        return line

    def __rich__(self) -> Any:
        from rich.console import Group
        from rich.text import Text

        self._spinner.update(text=Text(self.status(), style="dim"))
        if not self.tail:
            return self._spinner
        return Group(Text(self.tail.rstrip("\n"), style="dim"), self._spinner)


class RichRenderer:
    """A terminal view: replies as Markdown, a waiting line with elapsed time and tokens/s, a spinner per tool call
    with its duration, and a closing summary.

    The reply that claims completion is held until the job ends: a reviewer's findings are then shown once, as the
    numbered list, and any other reply as it was written, without the marker. In a session (`session`) a turn shows
    no job header, no round lines and no resume hint (the session goes on), and its closing line only when the turn
    did not complete. With `stderr`, the view is drawn there and the result goes to `result` as plain text.
    """

    def __init__(
        self,
        *,
        session: bool = False,
        stderr: bool = False,
        result: TextIO | None = None,
    ) -> None:
        from rich.console import Console

        self.console = Console(highlight=False, stderr=stderr)
        self.session = session
        self.result = result
        self._status: Any = None
        self._live: Any = None
        self._waiting: _Waiting | None = None
        self._label = ""
        self._reply = ""
        self._held = ""
        self._effects = NO_EFFECTS

    def handle(self, event: Event) -> None:
        if self._held and event.type not in ("model.delta", "round.finished", "job.finished"):
            self._show_held()
        shown = {
            "job.started": self._job_started,
            "round.started": self._round_started,
            "model.delta": self._delta,
            "model.completed": self._completed,
            "tool_call.started": self._tool_started,
            "tool_call.finished": self._tool_finished,
            "format.problem": self._format_problem,
            "tool_calls.ignored": self._ignored,
            "job.finished": self._job_finished,
        }.get(event.type, self._other)
        shown(event)

    def _job_started(self, event: Event) -> None:
        if not self.session:
            data = event.data
            self._line(f"[bold]pedro {data.get('role')}[/] · job {event.job_id} · {data.get('backend')}")

    def _round_started(self, event: Event) -> None:
        if not self.session:
            self._line(f"[dim]── round {event.data.get('round')}[/]")
        self._reply = ""
        self._wait("waiting for the model")

    def _delta(self, event: Event) -> None:
        text = neutralise(str(event.data.get("text", "")))
        self._reply += text
        if self._waiting is None:
            self._wait("the model is writing")
        assert self._waiting is not None
        self._waiting.add(text)

    def _completed(self, event: Event) -> None:
        from pedro.toolcalls.completion import find_completion, without_marker

        self._stop_status()
        text = str(event.data.get("text") or "") or self._reply
        reply = neutralise(without_marker(text))
        self._reply = reply
        if find_completion(text) is not None:
            self._held = reply
        elif reply:
            self._markdown(reply)

    def _tool_started(self, event: Event) -> None:
        from rich.markup import escape

        self._stop_status()
        name, arguments = str(event.data.get("name")), event.data.get("arguments") or {}
        self._effects = call_effects(name, arguments)
        self._label = escape(describe_call(name, arguments))
        self._status = self.console.status(f"[cyan]{self._label}[/]")
        self._status.start()

    def _format_problem(self, event: Event) -> None:
        from rich.markup import escape

        self._line(f"[yellow]! call format problem ({escape(str(event.data.get('kind')))}), fed back to the model[/]")

    def _ignored(self, event: Event) -> None:
        from rich.markup import escape

        self._line(f"[yellow]note:[/] {escape(ignored_calls(event.data))}")

    def _other(self, event: Event) -> None:
        from rich.markup import escape

        data = event.data
        if (progress := describe_progress(event)) is not None:
            good = event.type == "tests.run" and data.get("passed") or data.get("status") == "fixed"
            quiet = event.type == "repair.restored" and data.get("ok")
            self._line(f"[{'green' if good else 'dim' if quiet else 'cyan'}]{escape(progress)}[/]")
            if event.type == "repair.finished":
                self._reply = progress  # a repaired job's summary is this line: not shown twice
            if event.type in ("repair.started", "repair.candidate") and data.get("status") != "fixed":
                self._wait("waiting for the model")
        elif event.type in ("notice", "context.compacted", "context.truncated"):
            self._line(f"[yellow]note:[/] {escape(str(data.get('message')))}")

    def _job_finished(self, event: Event) -> None:
        from rich.markup import escape

        data = event.data
        self._stop_status()
        done = data.get("exit_code") == 0
        if self._held and not (done and data.get("findings")):
            self._show_held()
        self._held = ""
        if not (self.session and done):
            self._line(f"\n[bold {'green' if done else 'red'}]{escape(summary_line(data))}[/]")
        separate = self.result is not None
        _write_summary(data, self._result_text if separate else self._markdown, shown="" if separate else self._reply)
        if not self.session and (hint := resume_hint(event.job_id, data)):
            self._line(f"[yellow]{escape(hint)}[/]")

    def _show_held(self) -> None:
        held, self._held = self._held, ""
        if held:
            self._markdown(held)

    def _result_text(self, text: str) -> None:
        assert self.result is not None
        self.result.write(neutralise(text) + "\n")
        self.result.flush()

    def _tool_finished(self, event: Event) -> None:
        from rich.markup import escape

        self._stop_status()
        data = event.data
        effects, self._effects = self._effects, NO_EFFECTS
        failed = command_failed(data, ran_commands=effects.runs_commands)
        mark = (
            f"[red]✗ {failed}[/]"
            if failed
            else "[green]✓[/]"
            if data.get("ok")
            else f"[red]✗ {escape(_error_name(data))}[/]"
        )
        label = self._label or escape(str(data.get("name")))
        self._line(f"{mark} {label} [dim]{data.get('duration_ms')} ms[/]")
        output = str(data.get("output", ""))
        if shows_edit(data, effects):
            # An edit's diff is what a person wants to see: what it added above all.
            for line in edit_preview(output):
                style = "green" if line.startswith("+") else "red" if line.startswith("-") else "dim"
                self._line(f"  [{style}]{escape(line)}[/]", wrap=False)
            return
        lines = output.rstrip().splitlines()
        for line in lines[:_MAX_SHOWN_OUTPUT_LINES]:
            self._line(f"  [dim]{escape(line)}[/]", wrap=False)
        if len(lines) > _MAX_SHOWN_OUTPUT_LINES:
            self._line(f"  [dim]… {len(lines) - _MAX_SHOWN_OUTPUT_LINES} more lines[/]")

    def notice(self, message: str) -> None:
        from rich.markup import escape

        self._line(f"[yellow]note:[/] {escape(message)}")

    def approver(self, interactive: bool) -> Any:
        if not interactive:
            return _refuse

        def approve(question: str) -> bool:
            self._stop_status()
            return TerminalApprover(sys.stdin, sys.stderr).approve(question)

        return approve

    def asker(self, interactive: bool) -> Any:
        if not interactive:
            return refuse_all

        def ask(request: ApprovalRequest) -> ApprovalAnswer:
            self._stop_status()
            return TerminalApprover(sys.stdin, sys.stderr)(request)

        return ask

    def close(self) -> None:
        self._stop_status()

    def _wait(self, label: str) -> None:
        from rich.live import Live

        self._stop_status()
        self._waiting = _Waiting(label)
        self._live = Live(self._waiting, console=self.console, refresh_per_second=8, transient=True)
        self._live.start()

    def _stop_status(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None
        if self._live is not None:
            self._live.stop()
            self._live = None
            self._waiting = None

    def _markdown(self, text: str) -> None:
        from rich.markdown import Markdown

        self._stop_status()
        self.console.print(Markdown(neutralise(text)))

    def _line(self, markup: str, *, wrap: bool = True) -> None:
        # Prose wraps at word boundaries to the terminal's width; tool output is cut there instead of folded.
        self.console.print(
            neutralise(markup), highlight=False, overflow="fold" if wrap else "ellipsis", no_wrap=not wrap
        )
