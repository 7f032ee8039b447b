"""The four agent commands: build, debug, review, triage — one runner, different roles and tasks."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from pedro.cli.common import notice
from pedro.cli.flags import COMMITTING, JOB, OUTPUT, CommonFlags, takes
from pedro.errors import UsageError
from pedro.jobs.tasks import checks_section, debug_task, review_task, triage_task


def register(app: typer.Typer) -> None:
    """Add the agent commands to the app."""
    app.command("build")(build)
    app.command("debug")(debug)
    app.command("review")(review)
    app.command("triage")(triage)
    app.command("chat")(chat)


@takes(*COMMITTING, "with_test")
def build(
    prompt: Annotated[str | None, typer.Argument(help="What to build or change (or use --description).")] = None,
    description: Annotated[str, typer.Option("--description", "-d", help="What to build or change.")] = "",
    test: Annotated[
        str | None, typer.Option("--test", help="A command that checks the feature: it must pass when the build ends.")
    ] = None,
    *,
    flags: CommonFlags,
) -> None:
    """Implement a change described in plain words: `pedro build "Fix add() in calc.py"`."""
    wanted = _one_prompt(prompt, description)
    if not wanted:
        raise UsageError('say what to build, e.g. pedro build "Fix add() in calc.py" (or --description TEXT)')
    if test is not None and not test.strip():
        raise UsageError('--test needs the command that checks the feature, e.g. --test "pytest tests/test_x.py"')
    _run("builder", flags, test_command=test, description=wanted)


def _one_prompt(positional: str | None, option: str) -> str:
    """The request, given as an argument or with --description (not both)."""
    given = [text.strip() for text in (positional or "", option) if text and text.strip()]
    if len(given) > 1 and given[0] != given[1]:
        raise UsageError("give the request once: as the argument or with --description, not both")
    return given[0] if given else ""


@takes(*COMMITTING)
def debug(
    prompt: Annotated[str | None, typer.Argument(help="The symptom (or use --description).")] = None,
    description: Annotated[str, typer.Option("--description", "-d", help="The symptom.")] = "",
    test: Annotated[str | None, typer.Option("--test", help="A command that reproduces the failure.")] = None,
    log: Annotated[Path | None, typer.Option("--log", help="A log file of the failure.")] = None,
    *,
    flags: CommonFlags,
) -> None:
    """Find and fix the cause of a failing test or a logged failure."""
    description = _one_prompt(prompt, description)
    if test is not None and not test.strip():
        raise UsageError('--test needs the command that reproduces the failure, e.g. --test "pytest tests/test_x.py"')
    if not (description or test or log):
        raise UsageError(
            'debug needs something to go on: the symptom ("pedro debug TEXT"), --test CMD and/or --log FILE'
        )
    _run("debugger", flags, test_command=test, **debug_task(description, test, _stream_log(log) if log else ""))


@takes(*JOB)
def review(
    base: Annotated[
        str | None,
        typer.Option(
            "--base",
            help="Review the changes since this ref's merge base with HEAD (default: GITHUB_BASE_REF's branch in CI, "
            "else the default branch).",
        ),
    ] = None,
    description: Annotated[str, typer.Option("--description", "-d", help="What to focus on.")] = "",
    no_model: Annotated[
        bool,
        typer.Option("--no-model", help="Ask no model: report what the project's tests and linters find (exit 0)."),
    ] = False,
    *,
    flags: CommonFlags,
) -> None:
    """Review a branch or diff and report findings with file:line and severity.

    pedro first runs the project's own checks on the change: its tests at the base and now (tests the change
    broke are findings) and the linters and type checkers the repository configures and has installed, keeping
    their messages on changed lines. The model's findings are added, each held to the change. With --no-model,
    or no model configured, the checks' findings alone.
    """
    from pedro.cli.common import load_and_find_server
    from pedro.reviewbase import find_review_base
    from pedro.reviewchecks import run_checks

    root, config, _, _ = load_and_find_server(flags, find_server=not no_model)
    compared = find_review_base(root, base)
    task_vars = review_task(root, compared, description)
    notice(flags, compared.describe())
    checks = run_checks(root, compared.commit, config, lambda said: notice(flags, said), _unconfined(config, flags))
    if no_model or not (config.backend.model or config.backend.model_file):
        why = "--no-model" if no_model else "no model is configured; --model NAME or --model-file PATH adds one"
        notice(flags, f"no model was asked ({why}): the findings are the checks' alone")
        _print_findings(checks.findings, flags)
        raise typer.Exit(0)
    task_vars["checks"] = checks_section(checks.findings)
    from pedro.cli.conversation import can_converse, open_session
    from pedro.findings import parse_findings
    from pedro.jobs.service import Aim

    if can_converse(flags):
        raise typer.Exit(open_session("reviewer", flags, task_vars, asked=compared.describe(), checks=checks))
    _run("reviewer", flags, aim=Aim(read_findings=lambda text: checks.merge(parse_findings(text))), **task_vars)


def _unconfined(config: Any, flags: CommonFlags) -> Callable[[str], str]:
    """Whether review's checks may run a command of the repository's (its tests, its own linters): inside a
    sandbox always; without one, by the rule the model's commands follow (pedro.safety.policy): allowed under
    --full-access or by a configured rule, else asked, and refused when nobody can answer. A cloned repository's
    `.venv/bin/ruff` can be any script."""
    from pedro.cli.render import make_renderer
    from pedro.loop.assembly import policy
    from pedro.safety.policy import BashCommand
    from pedro.safety.sandbox import active_sandbox

    if active_sandbox().kind != "none":
        return lambda _command: ""
    rules = policy(config, interactive=flags.interactive)
    approve = make_renderer(json_mode=flags.json, stream_json=flags.stream_json).approver(flags.interactive)
    fix = "--full-access allows it (or a [safety] rule that allows the command), and a sandbox confines it"

    def may_run(command: str) -> str:
        decision = rules.decide(BashCommand(command, sandboxed=False))
        if decision.verdict == "allow":
            return ""
        question = f"no sandbox here: run `{command}`, the repository's own code, with your rights?"
        if decision.verdict == "ask" and approve(question):
            return ""
        # The policy's reason speaks to the model ("do it another way"); the person gets what happened and the fix.
        why = "nobody can approve it under --no-input" if decision.verdict == "deny" and not flags.interactive else (
            "it was not approved" if decision.verdict == "ask" else decision.reason
        )  # fmt: skip
        return f"no sandbox confines the repository's own code on this machine, and {why}; {fix}"

    return may_run


def _print_findings(findings: list[Any], flags: CommonFlags) -> None:
    """Review without a model: the findings on stdout, as Markdown, or as a `job.finished` event with --json."""
    import json as json_module

    from pedro.findings import findings_markdown
    from pedro.messages import Event

    if flags.json or flags.stream_json:
        data = {
            "exit_status": "no_model",
            "exit_code": 0,
            "reason": "no_model",
            "summary": "",
            "findings": [finding.to_dict() for finding in findings],
        }
        line = Event("job.finished", "", 1, data).to_dict()
        sys.stdout.write(json_module.dumps(line, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(findings_markdown(findings))
    sys.stdout.flush()


@takes(*(name for name in JOB if name not in OUTPUT))
def chat(
    prompt: Annotated[str | None, typer.Argument(help="The first request (or type it at the prompt).")] = None,
    *,
    flags: CommonFlags,
) -> None:
    """Work with the builder in a conversation: each message continues the same job (/diff, /undo, /save, /help)."""
    from pedro.cli.conversation import can_converse, open_session

    if not can_converse(flags):
        raise UsageError(
            'pedro chat needs a terminal to talk at; for one request without one use pedro build "TEXT" '
            "(and pedro jobs resume --last -m TEXT to continue it)"
        )
    first = (prompt or "").strip()
    raise typer.Exit(open_session("builder", flags, {"description": first} if first else None, asked=first))


@takes(*JOB)
def triage(
    log: Annotated[Path | None, typer.Option("--log", help="The failing run's log (default: read stdin).")] = None,
    junit: Annotated[
        Path | None, typer.Option("--junit", help="A JUnit XML report of the run, read instead of the log's text.")
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option("--report", help="Write the triage report: JSON for a .json path, Markdown otherwise."),
    ] = None,
    sarif: Annotated[Path | None, typer.Option("--sarif", help="Write the failing tests as SARIF 2.1.0.")] = None,
    no_model: Annotated[
        bool,
        typer.Option(
            "--no-model", help="Ask no model: report what pedro reads from the log and the repository (exit 5)."
        ),
    ] = False,
    description: Annotated[str, typer.Option("--description", "-d", help="Context about the run.")] = "",
    *,
    flags: CommonFlags,
) -> None:
    """Diagnose a failing run from its log: failing tests, probable cause, suspected files, suggested fix.

    pedro parses the log itself first (pytest, unittest, go test, jest, vitest, node --test, or --junit XML) and
    follows each failure into the code (the function, the last commit that changed it), so the report has all
    that even with no model (--no-model, or none configured: exit 5 when it found failing tests). Under GitHub
    Actions it prints `::error` annotations and appends the Markdown report to $GITHUB_STEP_SUMMARY.
    """
    from pedro.cli.common import load_and_find_server
    from pedro.triage.logparse import parse_log

    if log is not None:
        text = _stream_log(log)
    elif not sys.stdin.isatty():
        text = _stream_log(None)
    else:
        raise UsageError("triage needs a log: pass --log FILE or pipe it in (e.g. `make test 2>&1 | pedro triage`)")
    junit_text = _read_log(junit) if junit is not None else None
    if not text.strip() and not junit_text:
        raise UsageError("the log is empty; pass the output of the failing run with --log FILE or on stdin")
    # Without a model triage only reads the log and the files it names: no job, no snapshot, so no git needed.
    root, config, _, _ = load_and_find_server(flags, need_git=not no_model, find_server=not no_model)
    try:
        parsed = parse_log(text, junit=junit_text, root=root)
    except ValueError as exc:
        raise UsageError(
            f"--junit {junit} is not a JUnit XML report ({exc}); pass the XML file the runner wrote"
        ) from exc
    quiet = flags.json or flags.stream_json
    if no_model or not (config.backend.model or config.backend.model_file):
        why = "--no-model" if no_model else "no model is configured; --model NAME or --model-file PATH adds one"
        notice(flags, f"no model was asked ({why}): the report holds what pedro read from the log and the code")
        raise typer.Exit(_triage_without_model(root, parsed, report=report, sarif=sarif, quiet_stdout=quiet))
    fixed: list[Any] = []

    def publish(result: Any, root: Path) -> None:
        from pedro.triage.report import build_report

        built = build_report(result.job_id, result.exit_status, parsed, result.summary, root)
        built.fix = fixed[0] if fixed else None
        _publish_triage(built, report=report, sarif=sarif, fix_on_stdout=not quiet)

    def try_fix(done: Any) -> None:
        from pedro.triage.fix import FixModel, propose_fix

        wanted = parsed is not None and (parsed.failed or parsed.failures)
        if not wanted or not done.config.repair.enabled or done.config.safety.mode == "read-only" or not done.snapshot:
            return
        model = FixModel(done.config, done.backend, done.options, done.notice, done.deadline)
        runner = parsed.runner if parsed is not None else ""
        found = propose_fix(done.root, done.snapshot, model, runner=runner, log=text)
        if found is not None:
            fixed.append(found)
            _record_fix(done.root, done.result.job_id, found.to_dict(), quiet)

    _run("triager", flags, on_result=publish, after_run=try_fix, **triage_task(text, parsed, description))


def _record_fix(root: Path, job_id: str, fix: dict[str, Any], quiet: bool) -> None:
    """The verified fix in the job's record (a `triage.fix` event, which `pedro jobs show` reads) and, under --json,
    on stdout beside the job's other events."""
    import json as json_module

    from pedro.jobstore import JobStore
    from pedro.messages import Event

    store = JobStore(root)
    event = Event("triage.fix", job_id, store.last_seq(job_id) + 1, dict(fix))
    store.append(job_id, event)
    store.close()
    if quiet:
        sys.stdout.write(json_module.dumps(event.to_dict()) + "\n")
        sys.stdout.flush()


def _triage_without_model(
    root: Path, parsed: Any, *, report: Path | None, sarif: Path | None, quiet_stdout: bool
) -> int:
    """The report from the log and the repository alone; the exit code says whether it found failing tests: 5 when
    it did, 0 when the runner's output shows none, 1 when no runner's output was recognised."""
    import json as json_module

    from pedro.triage.report import FAILURES_REPORTED_EXIT_CODE, NO_MODEL, build_report, to_markdown

    built = build_report(None, NO_MODEL, parsed, "", root)
    _publish_triage(built, report=report, sarif=sarif)
    if quiet_stdout:
        sys.stdout.write(json_module.dumps(built.to_dict()) + "\n")
    elif report is None and sarif is None:
        sys.stdout.write(to_markdown(built))
    if parsed is None:
        return 1
    return FAILURES_REPORTED_EXIT_CODE if parsed.failed or parsed.failures else 0


def _publish_triage(built: Any, *, report: Path | None, sarif: Path | None, fix_on_stdout: bool = False) -> None:
    """The report to the files asked for, and to GitHub Actions when running there; the verified fix on stdout."""
    import os

    from pedro.cli.workflow import command, in_actions
    from pedro.controls import neutralise
    from pedro.triage.report import fix_markdown, github_annotations, to_markdown, write_report

    if built.fix is not None and fix_on_stdout:
        # stdout holds the diagnosis; the fix the tests confirmed belongs beside it, where a person reads.
        sys.stdout.write("\n" + neutralise(fix_markdown(built.fix)))
        sys.stdout.flush()

    for path in (report, sarif):
        if path is not None:
            try:
                write_report(built, path)
            except OSError as exc:
                sys.stderr.write(f"pedro: could not write {path} ({exc.strerror}); check the folder exists\n")
    if in_actions():
        # On stderr, which the runner reads as it does stdout: stdout keeps the report alone.
        for line in github_annotations(built):
            command(line)
        summary = os.environ.get("GITHUB_STEP_SUMMARY")
        if summary:
            try:
                with open(summary, "a", encoding="utf-8") as out:
                    out.write(to_markdown(built))
            except OSError as exc:
                sys.stderr.write(f"pedro: could not append to $GITHUB_STEP_SUMMARY ({exc.strerror})\n")


def _run(
    role_name: str,
    flags: CommonFlags,
    *,
    test_command: str | None = None,
    on_result: Callable[[Any, Path], None] | None = None,
    after_run: Callable[[Any], None] | None = None,
    aim: Any = None,
    **task_vars: Any,
) -> None:
    from pedro.cli.session import run_session

    code = run_session(
        role_name, flags, task_vars, test_command=test_command, on_result=on_result, after_run=after_run, aim=aim
    )
    raise typer.Exit(code)


def _stream_log(path: Path | None) -> str:
    """The log of `path` (stdin when None) as triage keeps it: streamed, so that its size does not matter."""
    from pedro.triage.logread import read_log

    # Decoded with replacement: a CI log may hold anything, and one stray Latin-1 byte must not end the run.
    if path is None:
        # A stream of its own on stdin's descriptor that leaves it open when collected: later checks still ask
        # sys.stdin whether it is a terminal.
        with open(sys.stdin.fileno(), encoding="utf-8", errors="replace", newline="\n", closefd=False) as stream:
            return read_log(stream)
    try:
        with path.open(encoding="utf-8", errors="replace", newline="\n") as stream:
            return read_log(stream)
    except OSError as exc:
        raise UsageError(f"cannot read the log {path} ({exc.strerror}); check the path") from exc


def _read_log(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise UsageError(f"cannot read the log {path} ({exc.strerror}); check the path") from exc
