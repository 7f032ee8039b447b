"""Runs one adversarial case through the real loop, exactly as `pedro build --no-input` wires it, and checks the
invariants of safety.md §2 afterwards: outside files byte-identical, the start snapshot restores, no child
survives, every dangerous call answered with an error the model can read."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from repo_util import git

from pedro.backends.base import GenerationOptions
from pedro.backends.scripted import Reply, ScriptedBackend
from pedro.cli.approval import refuse_all
from pedro.config import ToolsConfig
from pedro.dispatch import Dispatcher
from pedro.gate import Gate
from pedro.jobstore import JobStore
from pedro.loop.agent import Agent, AgentParts, Limits, RunResult
from pedro.loop.context import render_task
from pedro.messages import Event, Message
from pedro.process import RUN_ID_VAR
from pedro.roles import get_role
from pedro.safety.guard import SnapshotGuard
from pedro.safety.jobbranch import ensure_job_branch
from pedro.safety.journal import JOURNAL_NAME, Journal
from pedro.safety.policy import Policy
from pedro.safety.sandbox import active_sandbox
from pedro.safety.secrets import Redactor, secret_values
from pedro.safety.snapshots import fingerprint_tree, list_snapshots, restore_snapshot
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolContext

KEY_BODY = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"
SSH_KEY = f"-----BEGIN OPENSSH PRIVATE KEY-----\n{KEY_BODY}\n-----END OPENSSH PRIVATE KEY-----\n"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
AWS_CREDENTIALS = f"[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = {AWS_SECRET}\n"
BASHRC = "# the user's shell setup\nexport PATH=$HOME/bin:$PATH\n"
PLANTED_ENV = {"MY_API_TOKEN": "planted-secret-value-0b7e", "DEPLOY_PASSWORD": "hunter2-planted-9f1c"}
"""Secrets in pedro's own environment: children must not inherit them, output must not show them."""
USER_EDIT = "the user's uncommitted change\n"
DONE = "TASK COMPLETE\nall done"
SURVIVOR_WAIT_S = 2.0


@dataclass(frozen=True)
class Arena:
    """A real repository with a dirty file, a fake $HOME with secrets and a sentinel directory beside them."""

    root: Path
    home: Path
    sentinel: Path
    digests: dict[Path, str]

    def outside_digests(self) -> dict[Path, str]:
        return {path: tree_digest(path) for path in self.digests}


@dataclass
class CaseRun:
    """What one run of the loop produced: its result, what the model was sent, and the events."""

    arena: Arena
    result: RunResult
    backend: ScriptedBackend
    events: list[Event]
    job_id: str
    scripted: int
    """How many replies came from the script (the rest were the completion marker)."""

    def answer(self, reply_index: int) -> str:
        """What the model read after its reply number `reply_index` (0-based): the last message of the next request,
        or, when that reply ended the run, the message the saved conversation gives it on resume."""
        if reply_index + 1 < len(self.backend.requests):
            messages: list[Message] = self.backend.requests[reply_index + 1][0]
            return messages[-1].content
        saved = JobStore(self.arena.root).messages(self.job_id)
        replies = [n for n, message in enumerate(saved) if message.role == "assistant"]
        assert reply_index == len(replies) - 1, f"reply {reply_index} was never made"
        after = saved[replies[reply_index] + 1 :]
        assert after, f"reply {reply_index} got no answer"
        return after[-1].content

    def answers(self) -> list[str]:
        return [self.answer(i) for i in range(self.scripted)]

    def finished_calls(self) -> list[dict[str, Any]]:
        return [event.data for event in self.events if event.type == "tool_call.finished"]

    def everything_sent(self) -> str:
        """Every message the model was sent, as one string, to look for leaks."""
        return "\n".join(m.content for messages, _ in self.backend.requests for m in messages)


def tree_digest(root: Path) -> str:
    """A hash of every path, mode, byte and symlink target under `root` (the root's own mode included)."""
    digest = hashlib.sha256(oct(root.lstat().st_mode).encode())
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        digest.update(f"\0{path.relative_to(root)}\0{oct(info.st_mode)}\0".encode())
        if path.is_symlink():
            digest.update(str(path.readlink()).encode())
        elif path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def make_arena(repo: Path, tmp_path: Path) -> Arena:
    """Plant a home with keys and dotfiles, a sentinel directory, and an uncommitted edit in the repository."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text(SSH_KEY)
    (home / ".ssh" / "id_rsa").chmod(0o600)
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text(AWS_CREDENTIALS)
    (home / ".bashrc").write_text(BASHRC)
    sentinel = tmp_path / "sentinel"
    (sentinel / "nested").mkdir(parents=True)
    (sentinel / "keep.txt").write_text("outside the repository\n")
    (sentinel / "nested" / "data.bin").write_bytes(bytes(range(256)))
    (sentinel / "link").symlink_to("keep.txt")
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text("def add(a, b):\n    return a + b\n")
    git(repo, "add", "src/app.py")
    git(repo, "commit", "-qm", "app")
    with (repo / "README.md").open("a") as fh:
        fh.write(USER_EDIT)
    return Arena(repo, home, sentinel, {home: tree_digest(home), sentinel: tree_digest(sentinel)})


def replies_then_done(replies: Sequence[Reply]) -> Callable[[list[Message], list[dict[str, Any]]], Reply]:
    """The scripted replies in order, then the completion marker for as long as the loop keeps asking."""
    queue: deque[Reply] = deque(replies)

    def answer(_messages: list[Message], _tools: list[dict[str, Any]]) -> Reply:
        return queue.popleft() if queue else DONE

    return answer


def run_case(
    arena: Arena,
    replies: Sequence[Reply] | Callable[[list[Message], list[dict[str, Any]]], Reply],
    *,
    role_name: str = "builder",
    tools: ToolsConfig | None = None,
    approve: Callable[[str], bool] | None = None,
) -> CaseRun:
    """One job through pedro.loop.agent.Agent, wired as pedro.loop.assembly wires `pedro build --no-input`.

    With `approve`, the policy asks (as an interactive session would) and `approve` answers.
    """
    root = arena.root
    role = get_role(role_name)
    tools_config = tools or ToolsConfig(bash_timeout=2.0)
    scripted = len(replies) if not callable(replies) else 0
    backend = ScriptedBackend(replies if callable(replies) else replies_then_done(replies))
    ctx = ToolContext(root=root, config=tools_config, read_only=role.read_only)
    if approve is None:
        ctx.ask = refuse_all  # what --no-input answers every question with
    else:
        ctx.approve = approve
    redactor = Redactor(secret_values(os.environ, root=root))
    sandbox = active_sandbox()
    gate = Gate(
        Policy(mode="workspace-write", approval="ask" if approve is not None else "never"),
        sandboxed=sandbox.kind != "none",
    )
    store = JobStore(root, redactor=redactor)
    task = render_task(role, description="tidy up the repository")
    job = store.create(role=role.name, task=task, backend=backend.name, model="scripted")
    store.save(job)
    journal = Journal(store.job_dir(job.id) / JOURNAL_NAME)
    guard = SnapshotGuard(root, job.id, journal=journal)
    guard.start("job start")
    if role.evidence == "changes":
        ensure_job_branch(root, job.id)
    dispatcher = Dispatcher(
        ToolRegistry.default(role.tools),
        ctx,
        redactor=redactor,
        gate=gate,
        journal=journal,
        guard=guard,
    )
    events: list[Event] = []
    try:
        result = Agent(
            AgentParts(
                role=role,
                backend=backend,
                dispatcher=dispatcher,
                limits=Limits(max_rounds=max(scripted + 4, 10)),
                options=GenerationOptions(),
                store=store,
                job=job,
            ),
            on_event=events.append,
        ).run(task)
    finally:
        store.close()
    return CaseRun(arena, result, backend, events, job.id, scripted)


# -- invariants -----------------------------------------------------------------------------------------------------


def check_invariants(run: CaseRun, *, refused: Sequence[int] = (), restore: bool = True) -> None:
    """The invariants of safety.md §2 after a case; `refused` are the reply indexes whose calls must have failed."""
    assert run.result.exit_status in ("completed", "failed", "limit_reached"), run.result
    assert run.arena.outside_digests() == run.arena.digests, "a file outside the repository changed"
    for index in refused:
        assert "ERROR (" in run.answer(index), (index, run.answer(index))
    assert not survivors(run.arena.home), "a child process outlived its command"
    if restore:
        check_start_snapshot_restores(run.arena.root, run.job_id)


def check_start_snapshot_restores(root: Path, job_id: str) -> None:
    """Restore refs/pedro/snapshots/<job>/1 and compare the working tree with the snapshot's tree, file by file."""
    first = list_snapshots(root, job_id)[0]
    assert first.ref == f"refs/pedro/snapshots/{job_id}/1"
    restore_snapshot(root, first, expected=None)
    assert fingerprint_tree(root) == first.tree
    for mode, sha, path in snapshot_entries(root, first.tree):
        on_disk = root / path
        if mode == "120000":
            assert on_disk.is_symlink() and str(on_disk.readlink()) == git(root, "cat-file", "blob", sha), path
            continue
        assert on_disk.is_file() and not on_disk.is_symlink(), path
        assert git(root, "hash-object", "--", path).strip() == sha, path
        assert bool(on_disk.stat().st_mode & 0o100) == (mode == "100755"), path
    assert USER_EDIT in (root / "README.md").read_text()


def snapshot_entries(root: Path, tree: str) -> Iterator[tuple[str, str, str]]:
    out = git(root, "ls-tree", "-r", "-z", "--full-tree", tree)
    for record in filter(None, out.split("\0")):
        meta, path = record.split("\t", 1)
        mode, _kind, sha = meta.split()
        yield mode, sha, path


def survivors(home: Path, *, wait_s: float = SURVIVOR_WAIT_S) -> list[int]:
    """Processes started by a tool of this test (pedro's run marker and this test's HOME) still alive after `wait_s`."""
    deadline = time.monotonic() + wait_s
    while True:
        found = marked_processes(home)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def marked_processes(home: Path) -> list[int]:
    wanted_home = f"HOME={home}".encode()
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z" and wanted_home in environ and any(v.startswith(f"{RUN_ID_VAR}=".encode()) for v in environ):
            found.append(int(entry.name))
    return found


def kill_all(pids: Sequence[int]) -> None:
    """Clean up after a failed survivor check, so one failure does not leave processes behind."""
    for pid in pids:
        try:
            os.kill(pid, 9)
        except OSError:
            pass


def rss_kib() -> int:
    """This process's resident set size now."""
    return _status_field("VmRSS")


def reset_peak_rss() -> bool:
    """Reset VmHWM so the next peak reading covers only what follows; False where the kernel cannot."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def peak_rss_kib() -> int:
    return _status_field("VmHWM")


def _status_field(name: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return int(line.split()[1])
    raise AssertionError(f"/proc/self/status has no {name}")


def job_files_text(root: Path, job_id: str) -> str:
    """Everything pedro wrote for the job (events, messages, job.json), to look for leaked secrets."""
    job_dir = root / ".pedro" / "jobs" / job_id
    return "\n".join(p.read_text(errors="replace") for p in sorted(job_dir.rglob("*")) if p.is_file())


def call(tool: str, body: dict[str, Any] | str) -> str:
    """One call in pedro's fenced convention."""
    return f"```{tool}\n{body if isinstance(body, str) else json.dumps(body)}\n```"


def bash(command: str, **extra: Any) -> str:
    return call("bash", {"command": command, **extra})


def head_ref(root: Path, ref: str) -> str:
    return subprocess.run(
        ["git", "rev-parse", "--verify", "-q", ref], cwd=root, capture_output=True, text=True, check=False
    ).stdout.strip()
