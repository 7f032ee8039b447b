"""The Tool protocol, the context every tool runs in, and the failures a tool may raise."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from pedro.config import ToolCallingConfig, ToolsConfig
from pedro.effects import Effects
from pedro.messages import ErrorCode, ErrorKind
from pedro.safety.paths import PathRefusedError, confine, relative
from pedro.safety.secrets import child_environment


class ToolFailure(Exception):
    """A tool could not do what the model asked; the message is for the model and says what to do instead."""

    kind: ErrorKind = "failed"
    code: ErrorCode | None = None

    def __init__(self, message: str, *, kind: ErrorKind | None = None) -> None:
        super().__init__(message)
        if kind is not None:
            self.kind = kind


class ToolDeniedError(ToolFailure):
    """Policy refused the action."""

    kind: ErrorKind = "denied"


class ToolTimeoutError(ToolFailure):
    """The action ran past its time limit and was stopped."""

    kind: ErrorKind = "timeout"


class OutputTooLargeError(ToolFailure):
    """The call ran, but its output is over the limit and the user chose an error over a cut (TOOL_OUTPUT_TOO_LARGE)."""

    kind: ErrorKind = "too_large"
    code: ErrorCode | None = "TOOL_OUTPUT_TOO_LARGE"

    def __init__(self, name: str, size: int, limit: int) -> None:
        from pedro.prompts import render_prompt

        super().__init__(render_prompt("feedback/output_too_large.md", name=name, size=size, limit=limit).strip())


class ToolArgs(BaseModel):
    """Base of every tool's arguments: unknown keys are ignored, so a chatty model still gets through."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=False)

    short_keys: ClassVar[tuple[str, ...]] = ()
    """The keys the short spec (small windows) declares, the commonest uses; empty: all. The rest still work."""


@dataclass(frozen=True)
class FileStamp:
    """What a file looked like when the model last read or wrote it, to refuse edits of stale views."""

    size: int
    mtime_ns: int
    sha256: str

    @classmethod
    def of(cls, path: Path) -> FileStamp:
        digest = hashlib.sha256()
        with path.open("rb") as fh:
            st = os.fstat(fh.fileno())
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
        return cls(size=st.st_size, mtime_ns=st.st_mtime_ns, sha256=digest.hexdigest())


# An approval request: a plain-language description of the action and its risk; True means go ahead.
Approver = Callable[[str], bool]

ApprovalAnswer = Literal["yes", "no", "always"]
ApprovalKind = Literal["action", "network", "timeouts"]
NetworkAnswer = Literal["approved", "declined", "unavailable"]


@dataclass(frozen=True)
class ApprovalRequest:
    """One question for the person at the terminal: the exact action, its risk, and whether "always" may cover it.

    `never_always` says why "always" is not offered (destructive classes are asked every time); empty when
    `rememberable` is true or the question is not about an action.
    """

    kind: ApprovalKind
    subject: str
    risk: str
    rememberable: bool = False
    never_always: str = ""


Asker = Callable[[ApprovalRequest], ApprovalAnswer]


def _refuse(_: str) -> bool:
    return False


def _no_network(_: str) -> NetworkAnswer:
    return "unavailable"


@dataclass(frozen=True)
class Grants:
    """What the policy granted one call beyond the defaults: the network for a command, reads outside the repository.
    The dispatcher hands them to the call's tool with the call (ToolContext.for_call); nothing carries over."""

    network: bool = False
    reads: frozenset[Path] = frozenset()


NO_GRANTS = Grants()


@dataclass
class ToolContext:
    """Everything a tool may use: the repository root, limits, child environment and approvals."""

    root: Path
    config: ToolsConfig = field(default_factory=ToolsConfig)
    calling: ToolCallingConfig = field(default_factory=ToolCallingConfig)
    """[tool_calling]: the size limits, what happens to longer output, which tools may run."""
    approve: Approver = _refuse
    env: Mapping[str, str] = field(default_factory=lambda: child_environment(os.environ))
    """The environment of child processes: an allowlist, minus anything that looks like a secret."""
    read_stamps: dict[Path, FileStamp] = field(default_factory=dict)
    read_only: bool = False
    ask: Asker | None = None
    """The richer question (yes / no / always); without one, `approve` answers yes or no."""
    approve_network: Callable[[str], NetworkAnswer] = _no_network
    """Whether a command that failed for want of network may run again with it (the Gate installs this)."""
    grants: Grants = NO_GRANTS
    """What the policy granted the call this context was made for (for_call); the shared context has none."""

    def __post_init__(self) -> None:
        self.root = self.root.resolve()

    def for_call(self, grants: Grants) -> ToolContext:
        """This context for one call the policy granted more: the same root, limits, approvals and read stamps."""
        return self if grants == NO_GRANTS else replace(self, grants=grants)

    def request(self, question: ApprovalRequest) -> ApprovalAnswer:
        """Ask the person; "always" only comes back for questions that offer it."""
        if self.ask is not None:
            answer = self.ask(question)
            return "yes" if answer == "always" and not question.rememberable else answer
        return "yes" if self.approve(f"{question.risk}\n    {question.subject}") else "no"

    @property
    def output_limit(self) -> int:
        """Most bytes of one result the model reads ([tool_calling].max_tool_output_bytes)."""
        return self.calling.max_tool_output_bytes

    def check_output_size(self, name: str, size: int) -> None:
        """Called by a tool before it cuts an output of `size` bytes to fit: under tool_output_overflow = "error"
        the output is replaced by TOOL_OUTPUT_TOO_LARGE instead."""
        if self.calling.tool_output_overflow == "error" and size > self.output_limit:
            raise OutputTooLargeError(name, size, self.output_limit)

    def resolve(self, raw: str, *, must_exist: bool = False) -> Path:
        """Confine a model-given path to the repository, turning a refusal into a tool failure."""
        try:
            path = confine(self.root, raw, must_exist=False)
        except PathRefusedError as exc:
            granted = self._granted_outside(raw)
            if granted is None:
                raise ToolDeniedError(str(exc)) from exc
            path = granted
        if must_exist and not path.exists():
            raise ToolFailure(f"{raw!r} does not exist in the repository; {self.suggest_paths(raw)}")
        return path

    def _granted_outside(self, raw: str) -> Path | None:
        """The path, when it is one the policy granted this call to read outside the repository."""
        if not self.grants.reads or not isinstance(raw, str) or not Path(raw.strip()).is_absolute():
            return None
        path = Path(raw.strip()).resolve()
        return path if path in self.grants.reads else None

    def rel(self, path: Path) -> str:
        """A path as the model should see it."""
        return relative(self.root, path)

    def suggest_paths(self, raw: str) -> str:
        """A hint naming existing files whose name resembles `raw`, for hallucinated paths."""
        import difflib

        name = Path(raw).name
        candidates: list[str] = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = [d for d in dirnames if not d.startswith(".") and d not in _SKIP_DIRS]
            base = Path(dirpath).relative_to(self.root)
            candidates.extend(str(base / fname) for fname in filenames)
            if len(candidates) > 5000:
                break
        by_name = {c: Path(c).name for c in candidates}
        close = difflib.get_close_matches(name, list(by_name.values()), n=3, cutoff=0.6)
        matches = [c for c in candidates if by_name[c] in close][:3]
        if not matches:
            return "use search find_files or navigate list_dir to see what exists"
        return "did you mean: " + ", ".join(matches)

    def check_writable(self, path: Path) -> None:
        """Refuse writes in read-only mode and to pedro's own or git's internals."""
        if self.read_only:
            raise ToolDeniedError("this role is read-only: it cannot change files")
        if not path.is_relative_to(self.root):
            raise ToolDeniedError(f"{path} is outside the repository; files outside it can be read, never changed")
        rel_parts = Path(self.rel(path)).parts
        if rel_parts and rel_parts[0] in (".git", ".pedro"):
            raise ToolDeniedError(f"{self.rel(path)} is inside {rel_parts[0]}/, which tools may not change")


_SKIP_DIRS = frozenset({"node_modules", "__pycache__", ".venv", "venv", "target", "dist", "build"})


class Tool(Protocol):
    """One of the tools: a name, an Args model and a run method that may raise.

    The description the model reads lives in prompts/tools/<name>.md, with every other word it reads.
    """

    name: ClassVar[str]
    Args: ClassVar[type[ToolArgs]]

    def effects(self, args: Any) -> Effects:
        """What the call will do, from its validated arguments: the one answer every consumer asks."""
        ...

    def run(self, args: Any, ctx: ToolContext) -> str:
        """Do the work and return exactly what the model should read."""
        ...


def tool_spec(tool: Tool, *, short: bool = False) -> dict[str, Any]:
    """The OpenAI-style function definition the model sees; `short` for small context windows.

    The schema keeps what a model needs to write a call (keys, types, enums, required keys and, in full, each
    key's description) and drops what only costs tokens: titles, defaults, bounds (the arguments' validation
    still enforces them and says so) and pydantic's `X | null` for an optional key, which is simply not required.
    """
    from pedro.prompts import load_prompt

    own = getattr(tool, "spec", None)
    if callable(own):  # another program's tool (an MCP server's) brings its own schema and description
        spec: dict[str, Any] = own(short=short)
        return spec
    schema = tool.Args.model_json_schema()
    keep = tool.Args.short_keys if short else ()
    properties = {
        key: _compact(prop, descriptions=not short)
        for key, prop in schema.get("properties", {}).items()
        if not keep or key in keep
    }
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    required = [key for key in schema.get("required", []) if key in properties]
    if required:
        parameters["required"] = required
    if "$defs" in schema:
        parameters["$defs"] = schema["$defs"]
    name = f"{tool.name}{'.short' if short else ''}.md"
    # A tool pedro does not ship (a test's, a plugin's) may keep its prompt files beside it: `prompts`, a folder.
    folder = getattr(tool, "prompts", None)
    description = (Path(folder) / name).read_text(encoding="utf-8") if folder else load_prompt(f"tools/{name}")
    description = description.strip()
    return {"type": "function", "function": {"name": tool.name, "description": description, "parameters": parameters}}


_SCHEMA_NOISE = frozenset({"title", "default", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"})


def _compact(prop: Mapping[str, Any], *, descriptions: bool) -> dict[str, Any]:
    """One property's schema without the noise; an optional `X | null` becomes plain `X`."""
    out = {key: value for key, value in prop.items() if key not in _SCHEMA_NOISE}
    if not descriptions:
        out.pop("description", None)
    options = out.get("anyOf")
    if isinstance(options, list):
        typed = [option for option in options if option.get("type") != "null"]
        if len(typed) == 1:
            del out["anyOf"]
            out = {**_compact(typed[0], descriptions=descriptions), **out}
    if isinstance(out.get("items"), Mapping):
        out["items"] = _compact(out["items"], descriptions=descriptions)
    return dict(sorted(out.items(), key=lambda item: _KEY_ORDER.get(item[0], len(_KEY_ORDER))))


_KEY_ORDER = {"type": 0, "enum": 1, "items": 2}
