"""The approval prompt: the exact action, its risk in plain words, and yes / no / always from the person."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

from pedro.tools.base import ApprovalAnswer, ApprovalRequest

_HEADINGS = {
    "action": "pedro wants to do something that needs your approval:",
    "network": "network disabled — approve? This command failed without network access:",
    "timeouts": "pedro paused: several commands in a row ran out of time. The last one:",
}
_QUESTIONS = {
    "action": "Allow it?",
    "network": "Run it once more with the network on?",
    "timeouts": "Keep going?",
}
_YES = frozenset({"y", "yes"})
_ALWAYS = frozenset({"a", "always"})
_NO = frozenset({"n", "no", ""})
_MAX_TRIES = 3


@dataclass
class TerminalApprover:
    """Asks on `out` and reads the answer from `inp`; anything unclear, or the end of input, means no.

    "always" is offered only for actions the policy may remember; for the rest the prompt says why not.
    A Ctrl-C at the prompt is not an answer: it interrupts the job like anywhere else.
    """

    inp: TextIO
    out: TextIO

    def __call__(self, request: ApprovalRequest) -> ApprovalAnswer:
        self.out.write("\n" + render_question(request))
        self.out.flush()
        for _ in range(_MAX_TRIES):
            try:
                line = self.inp.readline()
            except OSError:
                return "no"
            if not line:
                self.out.write("\n(no answer: treated as no)\n")
                return "no"
            answer = line.strip().lower()
            if answer in _YES:
                return "yes"
            if answer in _ALWAYS and request.rememberable:
                return "always"
            if answer in _NO:
                return "no"
            self.out.write(f"please answer {_choices(request)} ")
            self.out.flush()
        return "no"

    def approve(self, question: str) -> bool:
        """The plain yes/no question tools ask themselves (e.g. reading a file that may hold secrets)."""
        return self(ApprovalRequest(kind="action", subject="", risk=question)) == "yes"


def render_question(request: ApprovalRequest) -> str:
    """The whole prompt: heading, the exact command or path, the risk, the choices."""
    lines = [_HEADINGS[request.kind]]
    if request.subject:
        lines.extend(f"    {line}" for line in request.subject.splitlines() or [request.subject])
    lines.append(f"why it asks: {request.risk}")
    if request.kind == "action" and not request.rememberable and request.never_always:
        lines.append(f'(no "always": {request.never_always})')
    if request.rememberable:
        lines.append("  y = yes, this once   n = no   a = always for this session")
    lines.append(f"{_QUESTIONS[request.kind]} {_choices(request)} ")
    return "\n".join(lines)


def _choices(request: ApprovalRequest) -> str:
    return "[y/N/a]" if request.rememberable else "[y/N]"


def refuse_all(_: ApprovalRequest) -> ApprovalAnswer:
    """The asker of a run nobody can answer (--no-input, CI, no terminal)."""
    return "no"
