"""Interactive sessions over pedro's jobs: review's follow-ups and /fix, chat's open-ended work."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pedro.cli.flags import CommonFlags
from pedro.config import PedroConfig
from pedro.errors import PedroError
from pedro.findings import Finding, findings_markdown, parse_findings
from pedro.jobs.service import Aim

if TYPE_CHECKING:
    from pedro.reviewchecks import ReviewChecks

HISTORY_NAME = "session-history"
"""Under the repository's .pedro/: what was typed at the session prompt, for the up arrow."""

Reader = Callable[[str], str]
"""Reads one message at the prompt; raises EOFError to leave and KeyboardInterrupt to drop the line."""


@dataclass
class Exchange:
    """One turn: what the user said (or, for the review itself, pedro's note on what it reviews) and how the job
    answered."""

    asked: str
    answer: str
    job_id: str
    status: str
    by_user: bool = True


@dataclass
class Conversation:
    """One session: the job it continues, the findings it works from and what each turn did."""

    role: str
    flags: CommonFlags
    root: Path
    config: PedroConfig
    console: Any
    job_id: str | None = None
    findings: list[Finding] = field(default_factory=list)
    exchanges: list[Exchange] = field(default_factory=list)
    fixes: list[tuple[int, str]] = field(default_factory=list)
    """(finding number, the builder job that fixed it), in order."""
    read: Reader | None = None
    """The prompt, once the session reads from one: /save asks there before writing outside the repository."""
    checks: ReviewChecks | None = None
    """A review's own checks: their findings come first, and the model's are held to the same change."""

    @property
    def reviews(self) -> bool:
        """The session's role answers with findings (a review), rather than changing files (a chat)."""
        from pedro.roles import get_role

        return get_role(self.role).reports_findings

    def start(self, task_vars: dict[str, Any], asked: str) -> None:
        """The session's first job (the review itself, or chat's first request)."""
        aim = Aim(read_findings=self._read_findings) if self.checks is not None else None
        result = self._run(self.role, task_vars, asked=asked, by_user=not self.reviews, aim=aim)
        if result is not None:
            self.job_id = result.job_id
            if self.reviews:
                self.findings = self._read_findings(result.summary)

    def _read_findings(self, answer: str) -> list[Finding]:
        found = parse_findings(answer)
        return self.checks.merge(found) if self.checks is not None else found

    def ask(self, text: str) -> None:
        """A follow-up in the same conversation: the session's job continues with the new message."""
        if self.job_id is None:
            self.start({"description": text}, asked=text)
            return
        self._run(self.role, {}, asked=text, resume=self.job_id, message=text, follow_up=True)

    def fix(self, finding: Finding) -> None:
        """Hand one finding to the builder, on its own job branch with the usual snapshots, then come back. A finding
        a failing test backs goes to the debugger instead, whose test-driven repair starts on that test."""
        from pedro.prompts import render_prompt

        request = render_prompt(
            "tasks/fix_finding.md",
            severity=finding.severity,
            location=finding.location or "(no file named)",
            text=finding.text,
        ).strip()
        role, task_vars, aim, test_command = "builder", {"description": request}, None, None
        if finding.test:
            test_command = self.checks.test_command if self.checks is not None else None
            section = render_prompt("tasks/sections/test_command.md", command=test_command) if test_command else ""
            role, aim = "debugger", Aim(repair_targets=frozenset({finding.test}))
            task_vars.update(test_section=section, log_section="")
        result = self._run(role, task_vars, asked=f"/fix {finding.number}", aim=aim, test_command=test_command)
        if result is not None:
            self.fixes.append((finding.number, result.job_id))
            self.console.print(
                f"finding {finding.number}: job {result.job_id} {result.exit_status}; "
                "/diff shows its change, /undo takes it back"
            )

    def loop(self, read: Reader) -> None:
        """Read and answer until the user leaves: Ctrl-D or /exit; Ctrl-C at the prompt drops the line."""
        self.read = read
        self.console.print(self._welcome())
        while True:
            try:
                text = read("pedro> ").strip()
            except KeyboardInterrupt:
                continue
            except EOFError:
                break
            if not text:
                continue
            if text.startswith("/"):
                name, _, argument = text[1:].partition(" ")
                command = COMMANDS.get(name.lower())
                if command is None or self.role not in command.roles:
                    self.console.print(f"unknown command /{name}; /help lists the commands")
                    continue
                if command.run(self, argument.strip()):
                    break
                continue
            self.ask(text)

    def transcript(self) -> str:
        """The session as Markdown: findings, then each question and answer."""
        title = "pedro review" if self.reviews else "pedro chat"
        parts = [f"# {title}" + (f" — job {self.job_id}" if self.job_id else ""), ""]
        if self.reviews:
            parts += ["## Findings", "", findings_markdown(self.findings)]
        if self.fixes:
            parts += ["## Fixes", ""]
            parts += [f"- finding {number}: job `{job}`" for number, job in self.fixes]
            parts.append("")
        parts += ["## Conversation", ""]
        for exchange in self.exchanges:
            said = f"**You:** {exchange.asked}" if exchange.by_user else f"*{exchange.asked}*"
            parts += [said, "", f"**pedro** ({exchange.status}):", "", exchange.answer, ""]
        return "\n".join(parts).rstrip() + "\n"

    def _run(self, role: str, task_vars: dict[str, Any], *, asked: str, by_user: bool = True, **resume: Any) -> Any:
        """One job run through the same runner as every command; its result, or None when it could not run.
        `resume` carries run_session's other keywords (the job to continue, an aim, a test command)."""
        from pedro.cli.session import run_session

        results: list[Any] = []
        try:
            run_session(
                role,
                self.flags,
                task_vars,
                config=self.config,
                on_result=lambda result, _root: results.append(result),
                session=True,
                **resume,
            )
        except PedroError as exc:
            self.console.print(f"[red]pedro:[/] {exc}", highlight=False)
            return None
        except KeyboardInterrupt:
            # Ctrl-C before the job's loop had started (or after it ended): the turn is dropped, the session stays.
            self.console.print("turn cancelled; the conversation goes on (Ctrl-D leaves)")
            return None
        if not results:
            return None
        result = results[0]
        if result.exit_status == "interrupted":
            self.console.print("turn cancelled; the conversation goes on (Ctrl-D leaves)")
        self.exchanges.append(Exchange(asked, result.summary, result.job_id, result.exit_status, by_user))
        return result

    def _welcome(self) -> str:
        if self.reviews:
            found = f"{len(self.findings)} finding{'s' if len(self.findings) != 1 else ''}"
            return (
                f"{found}. Ask a follow-up, /fix N has the builder fix finding N, /help lists the commands, "
                "Ctrl-D leaves."
            )
        return "Say what to do; /help lists the commands, Ctrl-D leaves."


@dataclass(frozen=True)
class SlashCommand:
    """One /command of the session prompt."""

    name: str
    usage: str
    summary: str
    run: Callable[[Conversation, str], bool]
    """Carries the command out; True when the session should end."""
    roles: tuple[str, ...] = ("reviewer", "builder")


def _help(session: Conversation, _argument: str) -> bool:
    from rich.table import Table

    table = Table(show_header=False, box=None, pad_edge=False)
    for command in COMMANDS.values():
        if session.role in command.roles:
            table.add_row(f"[bold]{command.usage}[/]", command.summary)
    table.add_row("[bold]Ctrl-C[/]", "cancels the current turn (at the prompt: clears the line)")
    table.add_row("[bold]Esc Enter[/]", "a new line inside a message")
    session.console.print(table)
    return False


def _findings(session: Conversation, _argument: str) -> bool:
    from rich.markup import escape
    from rich.table import Table

    if not session.findings:
        session.console.print("the review reported no findings")
        return False
    table = Table("#", "severity", "where", "finding", "from", show_lines=False)
    colours = {"critical": "bold red", "major": "red", "minor": "yellow", "nit": "dim", "note": "cyan"}
    for finding in session.findings:
        style = colours[finding.severity]
        row = (finding.location, finding.text, finding.label)
        table.add_row(str(finding.number), f"[{style}]{finding.severity}[/]", *(escape(part) for part in row))
    session.console.print(table)
    return False


def _fix(session: Conversation, argument: str) -> bool:
    chosen = [part for part in argument.replace(",", " ").split() if part]
    if not chosen or not all(part.isdigit() for part in chosen):
        session.console.print("say which finding: /fix N (/findings lists them)")
        return False
    for part in chosen:
        number = int(part)
        if not 1 <= number <= len(session.findings):
            session.console.print(
                f"there is no finding {number}; /findings lists the {len(session.findings)} there are"
            )
            return False
    for part in chosen:
        session.fix(session.findings[int(part) - 1])
    return False


def _diff(session: Conversation, _argument: str) -> bool:
    from rich.syntax import Syntax

    from pedro.jobs.facts import changed_files, job_diff, job_snapshots

    jobs = [job for _, job in session.fixes] if session.reviews else [session.job_id]
    shown = False
    for job in jobs:
        if job is None:
            continue
        # The files the job's rounds changed, as `pedro jobs show` gives them: not what the user did between turns.
        snapshots = job_snapshots(session.root, job)
        diff = job_diff(session.root, snapshots, changed_files(session.root, snapshots))
        if diff.strip():
            session.console.print(f"[bold]job {job}[/]")
            session.console.print(Syntax(diff, "diff", theme="ansi_dark", background_color="default"))
            shown = True
    if not shown:
        session.console.print("nothing changed in this session yet" + (" (/fix N changes code)" if jobs == [] else ""))
    return False


def _undo(session: Conversation, _argument: str) -> bool:
    from pedro.cli.undo import undo

    jobs = [job for _, job in session.fixes] if session.reviews else [session.job_id]
    if not jobs or jobs[-1] is None:
        session.console.print("nothing to undo: no job in this session changed files")
        return False
    try:
        undo(jobs[-1], start=True, force=False, repo=session.root)
    except PedroError as exc:
        session.console.print(f"[red]pedro:[/] {exc}")
        return False
    if session.reviews:
        session.fixes.pop()
    return False


def _save(session: Conversation, argument: str) -> bool:
    if not argument:
        session.console.print("say where: /save FILE.md")
        return False
    try:
        path = save_target(session, argument)
        if path is None:
            return False
        _write_new_text(path, session.transcript())
    except SaveRefused as exc:
        session.console.print(f"[red]pedro:[/] {exc}", highlight=False)
        return False
    except OSError as exc:
        session.console.print(
            f"[red]pedro:[/] cannot write {argument} ({exc.strerror}); check the folder exists", highlight=False
        )
        return False
    session.console.print(f"saved the session to {path}", highlight=False)
    return False


class SaveRefused(PedroError):
    """A /save path pedro will not write."""


def save_target(session: Conversation, argument: str) -> Path | None:
    """Where /save may write `argument` (relative to the working folder): inside the repository, never through a
    symlink and never into .git/; outside it only once the person says yes at the prompt. None when they say no.

    A repository is someone else's content: a committed `notes.md -> ~/.bashrc` or `docs -> /` must not turn
    /save into a write anywhere on the machine.
    """
    import os

    from pedro.safety.paths import resolve_inside

    root = session.root.resolve()
    given = Path(argument).expanduser()
    path = given if given.is_absolute() else Path.cwd() / given
    if path.is_symlink():
        raise SaveRefused(f"{argument} is a symlink; /save never writes through one: give another file name")
    resolved = resolve_inside(root, path)
    if resolved is not None:
        if ".git" in resolved.relative_to(root).parts:
            raise SaveRefused(f"{argument} is inside .git/, which holds the repository itself: give another path")
        if resolved.is_dir():
            raise SaveRefused(f"{argument} is a folder: give a file name, e.g. {argument.rstrip('/')}/session.md")
        return resolved
    written = Path(os.path.normpath(path))  # where the name points before any symlink is followed
    if any(base == written or base in written.parents for base in (root, session.root.absolute())):
        raise SaveRefused(
            f"{argument} leads outside the repository through a symlink; /save does not follow it: give another path"
        )
    return (
        written
        if _confirmed(session, f"{written} is outside the repository; write the session there? [y/N] ")
        else None
    )


def _confirmed(session: Conversation, question: str) -> bool:
    """The person's yes at the session prompt; no prompt (no input) or anything but yes is a no."""
    if session.read is None or session.flags.no_input:
        raise SaveRefused(
            f"{question.split(';')[0]}; /save writes there only when you confirm, and this session takes no input"
        )
    try:
        answer = session.read(question).strip().lower()
    except (EOFError, KeyboardInterrupt):
        answer = ""
    if answer not in ("y", "yes"):
        session.console.print("not saved")
        return False
    return True


def _write_new_text(path: Path, text: str) -> None:
    """Write `text` to `path`, refusing a symlink that appeared there since it was checked (O_NOFOLLOW)."""
    import os

    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)


def _exit(_session: Conversation, _argument: str) -> bool:
    return True


COMMANDS: dict[str, SlashCommand] = {
    command.name: command
    for command in (
        SlashCommand("findings", "/findings", "list the review's findings", _findings, ("reviewer",)),
        SlashCommand(
            "fix", "/fix N", "have the builder fix finding N on a job branch, then come back", _fix, ("reviewer",)
        ),  # fmt: skip
        SlashCommand("diff", "/diff", "show what this session's jobs changed", _diff),
        SlashCommand("undo", "/undo", "take back the last change this session made", _undo),
        SlashCommand("save", "/save FILE", "write the session as Markdown", _save),
        SlashCommand("help", "/help", "this list", _help),
        SlashCommand("exit", "/exit", "leave the session (Ctrl-D too)", _exit),
    )
}


def can_converse(flags: CommonFlags) -> bool:
    """A session needs a person at a terminal: both ends a TTY, input allowed, no JSON."""
    import sys

    return flags.interactive and sys.stdout.isatty() and not (flags.json or flags.stream_json)


def prompt_reader(root: Path) -> Reader:
    """A prompt_toolkit prompt with the project's history; Enter sends, Esc Enter (or Alt-Enter) adds a line."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, InMemoryHistory
    from prompt_toolkit.key_binding import KeyBindings

    bindings = KeyBindings()

    @bindings.add("escape", "enter")
    def _newline(event: Any) -> None:
        event.current_buffer.insert_text("\n")

    history: Any = InMemoryHistory()
    folder = root / ".pedro"
    with contextlib.suppress(OSError):
        folder.mkdir(exist_ok=True)
        history = FileHistory(str(folder / HISTORY_NAME))
    session: PromptSession[str] = PromptSession(history=history, key_bindings=bindings, multiline=False)
    return lambda message: session.prompt(message)


@contextlib.contextmanager
def held_server(config: PedroConfig) -> Iterator[PedroConfig]:
    """For --model-file, one llama-server for the whole session (each turn would otherwise start its own)."""
    import sys

    from pedro.cli.render import PlainRenderer
    from pedro.jobs.service import managed_server

    with managed_server(config, PlainRenderer(sys.stderr)) as running:
        held = running.model_copy(deep=True)
        held.backend.model_file = ""
        yield held


def open_session(
    role: str, flags: CommonFlags, task_vars: dict[str, Any] | None, *, asked: str, checks: ReviewChecks | None = None
) -> int:
    """Run the first job (when there is one) and converse until the user leaves; exit 0. A review's `checks` are the
    findings pedro's own checks made, which the model's are merged with."""
    from rich.console import Console

    from pedro.cli.common import load

    root, config = load(flags)
    console = Console(highlight=False)
    with held_server(config) as running:
        session = Conversation(role, flags, root, running, console, checks=checks)
        if task_vars is not None:
            session.start(task_vars, asked=asked)
            if session.job_id is None:
                return 1
        session.loop(prompt_reader(root))
    return 0
