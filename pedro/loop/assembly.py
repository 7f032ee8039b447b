"""One assembly: a run's parts built complete from the configuration, the role, the job and the front end — backend,
tools, dispatcher, guard, journal, repair, tests — so that every front end (the CLI, sessions, eval, MCP) wires a run
the same way and no part is finished by assignment afterwards."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pedro.backends import get_backend
from pedro.backends.base import Backend, GenerationOptions
from pedro.build import DirectBuild
from pedro.build.strategy import direct_for_model
from pedro.config import PedroConfig
from pedro.deadline import NO_DEADLINE, Deadline
from pedro.dispatch import Dispatcher
from pedro.evidence import ProjectTests, TestEvidence, TestStates, find_test_command
from pedro.findings import Finding, parse_findings
from pedro.gate import Gate
from pedro.jobstore import Job, JobStore
from pedro.loop.agent import Agent, AgentParts, Limits
from pedro.messages import Event
from pedro.repair import RepairOutcome
from pedro.roles import Role
from pedro.safety.guard import JournalOnlyGuard, SnapshotGuard
from pedro.safety.jobbranch import ensure_job_branch, job_branch
from pedro.safety.journal import JOURNAL_NAME, Journal
from pedro.safety.policy import Policy
from pedro.safety.sandbox import SandboxInfo, active_sandbox
from pedro.safety.sandbox import describe as describe_sandbox
from pedro.safety.snapshots import Snapshot, current_branch, first_snapshot_ref, head_commit, shorten
from pedro.settings import RunSettings
from pedro.tools import ToolRegistry
from pedro.tools.base import Approver, Asker, Tool, ToolContext
from pedro.tools.test import TestRun
from pedro.workspace import is_git_repo

if TYPE_CHECKING:  # MCP loads only when [mcp.servers] names a server; repair when a job repairs
    from pedro.repair.pipeline import Repairer
    from pedro.tools.mcp_client import McpHub

SMALL_WINDOW_TOKENS = 8192
"""A model window below this gets the short tool descriptions."""


@dataclass(frozen=True)
class RunUI:
    """How a run reaches the person, or that there is none: events, notices and approval questions."""

    on_event: Callable[[Event], None]
    notice: Callable[[str], None]
    approve: Approver
    ask: Asker | None
    interactive: bool
    """Whether anyone can answer; without, whatever would ask is refused."""
    quiet: bool = False
    """A follow-up turn of a session: the setup notes the person has already read are left out."""


@dataclass(frozen=True)
class JobSlot:
    """The job a run works on: its store and record, and what the command gave it."""

    store: JobStore
    job: Job
    resumed: bool = False
    test_command: str | None = None
    """`debug --test CMD`; else the job's own, [agent].test_command, or the detected runner."""
    repair_targets: frozenset[str] | None = None
    """The failing tests repair works on (a review finding's test); None for every failing test."""
    read_findings: Callable[[str], list[Finding]] | None = None
    """How a reviewer's answer becomes findings, when not read as written (pedro review's checks)."""


@dataclass(frozen=True)
class Workspace:
    """What keeps the user's work recoverable during a run: the guard, the journal, and the branch the job made."""

    guard: SnapshotGuard | JournalOnlyGuard
    journal: Journal
    branch: tuple[str, str] | None
    """When this run made the job branch: (the branch it came from, the commit it started at)."""
    facts: dict[str, Any] = field(default_factory=dict)
    """For job.started: the first snapshot's ref and the branch the job works on."""


@dataclass(frozen=True)
class Assembled:
    """A run ready to go: the agent, and the workspace the front end settles afterwards (commit, branch)."""

    agent: Agent
    workspace: Workspace


def assemble(config: PedroConfig, role: Role, slot: JobSlot, ui: RunUI) -> Assembled:
    """Every part of the run, complete: the backend, the tools in their context and sandbox behind the gate, the
    journal and the guard the dispatcher reports to, the tests and their repair, the limits."""
    # A job that cannot start (the server down, a snapshot refused) is recorded as ended, never left running.
    with slot.store.ending_on_error(slot.job):
        backend = build_backend(config, ui)
        try:
            return _assemble(config, role, slot, ui, backend)
        except BaseException:
            backend.close()
            raise


def _assemble(config: PedroConfig, role: Role, slot: JobSlot, ui: RunUI, backend: Backend) -> Assembled:
    store, job = slot.store, slot.job
    root = store.repo
    if not slot.resumed:
        job.short_tools = small_window(backend)
        store.save(job)
    ctx = ToolContext(
        root=root,
        config=config.tools,
        calling=config.tool_calling,
        approve=ui.approve,
        ask=ui.ask,
        read_only=role.read_only or config.safety.mode == "read-only",
    )
    sandbox = active_sandbox()
    if not ui.quiet:
        ui.notice(f"sandbox for bash and test: {describe_sandbox(sandbox)}")
    if config.safety.mode != "workspace-write":
        ui.notice(f"safety mode: {config.safety.mode}")
    journal = Journal(store.job_dir(job.id) / JOURNAL_NAME)
    workspace = protect_work(root, job.id, role, ui, journal=journal, resumed=slot.resumed)
    if config.mcp.servers:  # a server the job starts runs in the repository: the snapshot comes first
        for note in workspace.guard.ready():
            ui.notice(note)
    toolsets = mcp_servers(config, role, ui, root, store.job_dir(job.id))
    try:
        return _parts(config, role, slot, ui, _Ground(backend, ctx, sandbox, journal, workspace, toolsets))
    except BaseException:
        for toolset in toolsets:
            toolset.close()
        raise


@dataclass(frozen=True)
class _Ground:
    """What a run stands on once its workspace is protected: the model, the tools' context and sandbox, the journal
    and guard, and the MCP servers started for it."""

    backend: Backend
    ctx: ToolContext
    sandbox: SandboxInfo
    journal: Journal
    workspace: Workspace
    toolsets: list[McpHub]


def _parts(config: PedroConfig, role: Role, slot: JobSlot, ui: RunUI, ground: _Ground) -> Assembled:
    store, job = slot.store, slot.job
    backend, ctx, sandbox, journal, workspace, toolsets = (
        ground.backend,
        ground.ctx,
        ground.sandbox,
        ground.journal,
        ground.workspace,
        ground.toolsets,
    )
    registry = ToolRegistry.default(role.tools)
    for toolset in toolsets:
        # An MCP tool's name is its instance's, which the Tool protocol's class-level name cannot say; it is one.
        registry = registry.joined(cast("list[Tool]", toolset.tools))
    dispatcher = Dispatcher(
        registry,
        ctx,
        redactor=store.redactor,
        gate=Gate(policy(config, interactive=ui.interactive), sandboxed=sandbox.kind != "none"),
        journal=journal,
        guard=workspace.guard,
    )
    options = generation_options(config)
    tests = job_tests(role, ctx, config, slot.test_command or job.test_command or None, job)
    parts = AgentParts(
        role=role,
        backend=backend,
        dispatcher=dispatcher,
        limits=limits(config),
        options=options,
        settings=RunSettings.from_config(config),
        store=store,
        job=job,
        repair=_aimed(repairer(role, config, backend, dispatcher, tests, options), slot.repair_targets),
        direct=DirectBuild(backend, dispatcher, tests, config.build, options, job.request)
        if takes_direct_way(role, config, slot, ui, backend)
        else None,
        tests=tests,
        short_tools=job.short_tools,
        read_findings=slot.read_findings or parse_findings,
        setup={
            "model": config.backend.model,
            "server": config.resolved_base_url(),
            "sandbox": describe_sandbox(sandbox),
            **workspace.facts,
        },
        toolsets=tuple(toolsets),
    )
    return Assembled(Agent(parts, ui.on_event), workspace)


def mcp_servers(config: PedroConfig, role: Role, ui: RunUI, root: Path, job_dir: Path) -> list[McpHub]:
    """The MCP servers of [mcp.servers] started for this job with the tools the role gets (pedro.tools.mcp_client);
    none when there are none, or when the run calls no tools."""
    if not config.mcp.servers or config.tool_calling.tool_use_mode == "disabled":
        return []
    from pedro.tools.mcp_client import McpHub

    hub = McpHub(config.mcp, root=root, notice=ui.notice, log_dir=job_dir)
    try:
        hub.tools = hub.start(role.name)
    except BaseException:
        hub.close()
        raise
    if hub.tools and not ui.quiet:
        ui.notice(f"MCP tools: {', '.join(tool.name for tool in hub.tools)}")
    return [hub]


def build_backend(config: PedroConfig, ui: RunUI) -> Backend:
    """The backend the configuration names; a server pedro did not start that serves a GGUF without a chat
    template (llama-server then falls back to ChatML the model was not trained on) is named in a notice."""
    backend = get_backend(config)
    if not config.backend.model_file:
        from pedro.backends.probe import describe_missing_template, missing_template

        missing = missing_template(backend)
        if missing is not None:
            problem, fix = describe_missing_template(*missing)
            ui.notice(f"{problem}; {fix}")
    return backend


def small_window(backend: Backend) -> bool:
    """Whether the model's window is too small for the full tool descriptions."""
    window = backend.context_window()
    return window is not None and window < SMALL_WINDOW_TOKENS


def policy(config: PedroConfig, *, interactive: bool) -> Policy:
    """The policy of this run: the configured mode and approval, never asking when nobody can answer."""
    roots = tuple(str(Path(root).expanduser().resolve()) for root in config.safety.read_roots)
    approval = config.safety.approval if interactive else "never"
    return Policy(mode=config.safety.mode, approval=approval, read_roots=roots)


def generation_options(config: PedroConfig) -> GenerationOptions:
    backend = config.backend
    return GenerationOptions(
        temperature=backend.temperature,
        max_tokens=backend.max_tokens,
        tool_mode=backend.tool_mode,
        stream=backend.stream,
    )


def limits(config: PedroConfig) -> Limits:
    agent = config.agent
    return Limits(
        max_rounds=agent.max_rounds,
        max_idle_replies=agent.max_idle_replies,
        max_repeats=agent.max_repeats,
        time_limit_s=agent.time_limit_s or None,
    )


def job_tests(role: Role, ctx: ToolContext, config: PedroConfig, given: str | None, job: Job) -> TestEvidence | None:
    """The job's tests, for roles whose completion needs evidence, with the baseline a resumed job recorded (a new
    job takes its own when the loop starts); None when no test command is known."""
    if role.evidence != "changes":
        return None
    args = find_test_command(ctx.root, given, config.agent.test_command)
    if args is None:
        return None
    saved = job.evidence.get("baseline")
    baseline = TestStates.from_dict(saved) if isinstance(saved, dict) else None
    return TestEvidence(ProjectTests(args, ctx), baseline, must_fix=role.fixes_failing_tests, given=bool(given))


def repairer(
    role: Role,
    config: PedroConfig,
    backend: Backend,
    dispatcher: Dispatcher,
    tests: TestEvidence | None,
    options: GenerationOptions,
) -> Repairer | None:
    """Test-driven repair, for roles that use it (before the loop or as a finisher), when tests are known and it may
    edit."""
    if role.repair == "never" or not config.repair.enabled or tests is None or dispatcher.ctx.read_only:
        return None
    from pedro.repair.pipeline import Repairer  # on first use: a job that never repairs does not import it

    return Repairer(backend=backend, dispatcher=dispatcher, tests=tests.tests, config=config.repair, options=options)


def takes_direct_way(role: Role, config: PedroConfig, slot: JobSlot, ui: RunUI, backend: Backend) -> bool:
    """Whether the build starts with the direct way: a new job of a role that writes code, which may edit, when
    [build].strategy (or, for "auto", the model's size) chooses it; the person is told which way and why."""
    read_only = role.read_only or config.safety.mode == "read-only"
    if not role.writes_directly or slot.resumed or read_only or not slot.job.request.strip():
        return False
    if config.tool_calling.tool_use_mode == "disabled":
        return False
    direct, why = direct_for_model(config.build, backend, config.backend.model or config.backend.model_file)
    if ui.quiet:
        return direct
    if direct:
        ui.notice(f'build: pedro writes the code with the model directly and checks it, as {why}; [build].strategy = '
                  f'"loop" gives the model the tools instead')  # fmt: skip
    elif config.build.with_test:
        ui.notice("--with-test: the build goes through the tool loop, which writes what the request asks; ask for "
                  'the test in the request, or set [build].strategy = "direct"')  # fmt: skip
    return direct


@dataclass(frozen=True)
class AimedRepair:
    """Repair held to some failing tests (a review finding's), whichever the caller asks about."""

    repairer: Repairer
    targets: frozenset[str]

    def run(
        self,
        emit: Callable[..., None],
        *,
        start: TestRun | None = None,
        targets: frozenset[str] | None = None,
        deadline: Deadline = NO_DEADLINE,
        outcome: RepairOutcome | None = None,
    ) -> RepairOutcome:
        return self.repairer.run(emit, start=start, targets=targets or self.targets, deadline=deadline, outcome=outcome)

    def warming(self) -> AbstractContextManager[None]:
        return self.repairer.warming()

    def baseline(
        self, emit: Callable[..., None], deadline: Deadline, *, ran: Callable[[TestRun], None] = lambda _run: None
    ) -> TestRun:
        return self.repairer.baseline(emit, deadline, ran=ran)


def _aimed(repair: Repairer | None, targets: frozenset[str] | None) -> Repairer | AimedRepair | None:
    return AimedRepair(repair, targets) if repair is not None and targets else repair


def protect_work(
    root: Path, job_id: str, role: Role, ui: RunUI, *, journal: Journal, resumed: bool = False
) -> Workspace:
    """Snapshot the user's work before anything can change, then move builder and debugger to their own branch."""
    if not is_git_repo(root):
        ui.notice(f"{root} is not a git repository: no snapshots, no job branch; `pedro undo` cannot undo this job")
        return Workspace(JournalOnlyGuard(journal=journal), journal, None, {"snapshot": None, "branch": None})
    guard = SnapshotGuard(root, job_id, journal=journal)
    changes = role.evidence == "changes"
    start, previous = head_commit(root) or "", current_branch(root) or head_commit(root) or ""
    if resumed:
        first = guard.start("job resumed")
        guard.notes.extend(_not_covered(first))
        ref = first.ref
        previous = ensure_job_branch(root, job_id) if changes else previous
    else:
        # A new job's first snapshot is taken beside its first request (every call waits for it): on a large tree
        # it costs as much as listing the tree. Its name is the first of the job's.
        def then() -> None:
            guard.notes.extend(_not_covered(guard.snapshots[0]))
            if changes:
                ensure_job_branch(root, job_id)

        guard.start_beside("job start", then)
        ref = first_snapshot_ref(job_id)
    if not ui.quiet:
        ui.notice(f"snapshot of your work: {ref} (pedro undo --start {job_id} restores it)")
    if not changes:
        return Workspace(guard, journal, None, {"snapshot": ref, "branch": current_branch(root)})
    branch = job_branch(job_id)
    ui.notice(f"working on branch {branch}, with your uncommitted changes; {previous} is untouched")
    made = None if resumed or previous == branch else (previous, start)
    return Workspace(guard, journal, made, {"snapshot": ref, "branch": branch})


def _not_covered(first: Snapshot) -> list[str]:
    if not first.not_covered:
        return []
    return [
        f"not in the snapshot, so undo cannot restore them (ignored build output, dependencies, large ignored "
        f"files): {shorten(first.not_covered)}"
    ]


__all__ = ["Assembled", "JobSlot", "RunUI", "Workspace", "assemble"]
