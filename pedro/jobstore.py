"""The job store: .pedro/jobs/<id>/{job.json, events.jsonl}, appended and flushed after every step."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

from pedro.errors import JobNotFoundError, PedroError, UsageError
from pedro.messages import EXIT_CODES, Event, Message
from pedro.process import another_pedro_alive
from pedro.safety.secrets import Redactor
from pedro.workspace import exclude_from_git, state_dir

_JOB_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z-]*")
_MAKING = ".making-"
"""The prefix of a job folder being created (then `<pid>-<job id>`), renamed once its job.json is written."""


def _pid_of(folder: Path) -> int | None:
    """The pid in a `.making-<pid>-<job id>` folder's name."""
    head = folder.name.removeprefix(_MAKING).split("-", 1)[0]
    return int(head) if head.isdigit() else None


@dataclass
class Job:
    """What job.json holds: who ran what, how it ended, and the totals."""

    id: str
    role: str
    task: str
    backend: str
    model: str
    status: str = "running"
    exit_status: str | None = None
    exit_code: int | None = None
    summary: str = ""
    started_at: float = field(default_factory=time.time)
    finished_at: float | None = None
    totals: dict[str, Any] = field(default_factory=dict)
    base_url: str = ""
    baseline: str = ""
    """Fingerprint of the working tree when the job began: completion evidence survives a resume."""
    short_tools: bool = False
    test_command: str = ""
    """The command given with --test, so a resumed job asks the same tests for its evidence."""
    evidence: dict[str, Any] = field(default_factory=dict)
    """The tests' baseline (which passed and failed when the job began, by id); at the end also their final state
    and the verdict per test (pedro.evidence)."""
    pid: int | None = None
    """The pedro process running the job; a `running` job whose process is gone was interrupted."""
    request: str = ""
    """What the person asked for, in their words (the description); the task is the role's wording around it."""
    build: dict[str, Any] = field(default_factory=dict)
    """A direct build's record: the file and function it wrote, the examples from the request it checked, whether
    anything checked what the code does (pedro.build)."""

    @property
    def headline(self) -> str:
        """One line that says what the job is about: the person's request, else the task's first line."""
        text = (self.request or self.task).strip()
        return text.splitlines()[0] if text else ""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Job:
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        return cls(**known)


class JobStore:
    """Jobs of one repository, under <repo>/.pedro/jobs/."""

    def __init__(self, repo: Path, *, redactor: Redactor | None = None) -> None:
        self.repo = repo
        self.redactor = redactor if redactor is not None else Redactor()
        self.root = repo / ".pedro" / "jobs"
        self._streams: dict[str, IO[str]] = {}

    def create(self, *, role: str, task: str, backend: str, model: str) -> Job:
        """Start a new job directory with its job.json, atomically: it is made under a temporary name and renamed
        once the record is in it, so an interrupted start never leaves a job folder without its record."""
        self._prepare()
        job_id = time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2)
        job = Job(id=job_id, role=role, task=task, backend=backend, model=model, pid=os.getpid())
        making = self.root / f"{_MAKING}{os.getpid()}-{job_id}"
        making.mkdir(mode=0o700, parents=True)
        self._write(making / "job.json", job)
        making.rename(self.job_dir(job_id))
        return job

    def job_dir(self, job_id: str) -> Path:
        return self.root / job_id

    def save(self, job: Job) -> None:
        """Rewrite job.json atomically."""
        self._write(self.job_dir(job.id) / "job.json", job)

    @staticmethod
    def _write(path: Path, job: Job) -> None:
        tmp = path.with_suffix(".json.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as fh:
            json.dump(asdict(job), fh, indent=2)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        tmp.replace(path)

    def append(self, job_id: str, event: Event) -> None:
        """Append one event line and flush it, so a killed run leaves a readable trace."""
        stream = self._streams.get(job_id)
        if stream is None:
            path = self.job_dir(job_id) / "events.jsonl"
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            # backslashreplace: a lone surrogate from a model reply becomes a valid JSON escape, not a crash.
            stream = self._streams[job_id] = os.fdopen(fd, "a", encoding="utf-8", errors="backslashreplace")
        line = json.dumps(event.to_dict(), ensure_ascii=False, default=str)
        stream.write(self.redactor.redact(line) + "\n")
        stream.flush()

    def append_message(self, job_id: str, message: Message) -> None:
        """Append one message of the conversation to history.jsonl, so an interrupted job can resume."""
        path = self.job_dir(job_id) / "history.jsonl"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8", errors="backslashreplace") as fh:
            fh.write(self.redactor.redact(json.dumps(message.to_dict(), ensure_ascii=False)) + "\n")

    def save_output(self, job_id: str, name: str, text: str) -> Path:
        """Keep the full text of an output masked by compaction, where the model can read it back; its path."""
        folder = self.job_dir(job_id) / "outputs"
        folder.mkdir(mode=0o700, exist_ok=True)
        path = folder / f"{name}.txt"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as fh:
            fh.write(self.redactor.redact(text))
        return path

    def messages(self, job_id: str) -> list[Message]:
        """The saved conversation of a job; a torn last line from a killed run is skipped."""
        path = self.job_dir(job_id) / "history.jsonl"
        out: list[Message] = []
        if not path.is_file():
            return out
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                out.append(Message.from_dict(json.loads(line)))
            except (ValueError, KeyError, TypeError):
                continue
        return out

    def last_seq(self, job_id: str) -> int:
        """The sequence number of the job's last recorded event (0 when there is none)."""
        events = self.events(job_id)
        return int(events[-1].get("seq", 0)) if events else 0

    @contextmanager
    def ending_on_error(self, job: Job) -> Iterator[None]:
        """Record `job` as ended when the block (its set-up before the loop) fails, so it is never left running."""
        try:
            yield
        except PedroError as exc:
            job.status = job.exit_status = exc.exit_status
            job.exit_code = EXIT_CODES[exc.exit_status]
            job.summary, job.finished_at = self.redactor.redact(str(exc)), time.time()
            self.save(job)
            raise

    def close(self) -> None:
        for stream in self._streams.values():
            stream.close()
        self._streams.clear()

    def load(self, job_id: str) -> Job:
        """The job with this id, or the only one whose id starts with it. An id is letters, digits and dashes: a
        path (`../x`, `/tmp/x`) names no job, so nothing outside the store is ever read as one."""
        if not _JOB_ID.fullmatch(job_id):
            raise JobNotFoundError(f"{job_id!r} is not a job id; see `pedro jobs list` for the ids")
        matches = (
            [job_id]
            if (self.root / job_id / "job.json").is_file()
            else [p.name for p in self._job_dirs() if p.name.startswith(job_id)]
        )
        if len(matches) != 1:
            hint = "several jobs match; give more of the id" if matches else "see `pedro jobs list` for the ids"
            raise JobNotFoundError(f"no single job {job_id!r} in {self.root}; {hint}")
        try:
            data = json.loads((self.root / matches[0] / "job.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise UsageError(f"job {matches[0]} has an unreadable job.json ({exc})") from exc
        job = Job.from_dict(data)
        if job.id != matches[0]:
            raise UsageError(f"job {matches[0]} has a job.json for another job ({job.id!r})")
        return job

    def events(self, job_id: str) -> list[dict[str, Any]]:
        """Every readable event of a job; a torn last line from a killed run is skipped."""
        path = self.job_dir(job_id) / "events.jsonl"
        out: list[dict[str, Any]] = []
        if not path.is_file():
            return out
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
        return out

    def all(self) -> list[Job]:
        """All jobs, newest first."""
        jobs = []
        for path in self._job_dirs():
            try:
                jobs.append(Job.from_dict(json.loads((path / "job.json").read_text(encoding="utf-8"))))
            except (OSError, ValueError, TypeError):
                continue
        return sorted(jobs, key=lambda job: job.started_at, reverse=True)

    def settle_abandoned(self) -> list[Job]:
        """Mark `running` jobs whose pedro process is gone as interrupted (killed, or the machine stopped)."""
        settled = []
        for job in self.all():
            if job.status != "running" or another_pedro_alive(job.pid):
                continue
            job.status = job.exit_status = "interrupted"
            job.exit_code = EXIT_CODES["interrupted"]
            job.summary = (
                f"the pedro process ended before the job finished (killed, or the machine stopped); "
                f"`pedro jobs resume {job.id}` continues it"
            )
            job.finished_at = job.finished_at or time.time()
            self.save(job)
            settled.append(job)
        return settled

    def _job_dirs(self) -> list[Path]:
        if not self.root.is_dir():
            return []
        return [p for p in self.root.iterdir() if p.is_dir() and not p.name.startswith(".")]

    def sweep_unfinished_starts(self) -> list[str]:
        """Remove the folders of job starts that were interrupted before their record was written."""
        removed = []
        for path in self.root.glob(f"{_MAKING}*") if self.root.is_dir() else ():
            if path.is_dir() and not another_pedro_alive(_pid_of(path)):
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path.name)
        return removed

    def _prepare(self) -> None:
        state_dir(self.repo, "jobs")
        exclude_from_git(self.repo)
