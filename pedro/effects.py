"""What one tool call may do, declared by its tool from the validated arguments; the gate, the journal, the
snapshot guard and the task-state note all ask this one declaration."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Effects:
    """The effects of one call. Paths are as the model named them (the tools resolve them)."""

    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    deletes: tuple[str, ...] = ()
    command: str | None = None
    """The shell command it runs, when the model chose one (bash, test with a command)."""
    runs_commands: bool = False
    """It starts programs (bash, test): anything in the working tree may change."""
    changes_git: bool = False
    """It changes the repository's state through git (commit, checkout, branch, push)."""
    network: bool = False
    external: str = ""
    # Another program's tool (an MCP server's), by name: pedro cannot know what it does, so the policy decides the
    # call as such (approval; refused where nobody can answer).

    @property
    def changes_files(self) -> bool:
        """Whether the working tree or the repository may differ after the call."""
        return bool(self.writes or self.deletes) or self.runs_commands or self.changes_git

    @property
    def changed_paths(self) -> tuple[str, ...]:
        return (*self.writes, *self.deletes)


NONE = Effects()
"""A call that does not run (unknown tool, invalid arguments) has no effects."""

IN_DOUBT = Effects(runs_commands=True)
"""What a call is taken to do when its tool cannot say: anything (Codex's is_mutating: true if in doubt)."""


def external(name: str) -> Effects:
    """A call to `name`, a tool of another program that cannot say what it does: in doubt, and put to the policy."""
    return Effects(runs_commands=True, external=name)
