"""Review findings read out of the reviewer's answer: numbered, with severity and file:line where it gave them."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any, Literal

Severity = Literal["critical", "major", "minor", "nit", "note"]
SEVERITIES: tuple[Severity, ...] = ("critical", "major", "minor", "nit", "note")
Origin = Literal["tool", "model"]
"""Who found it: a check pedro ran (a failing test, a linter's message) or the model's answer."""
MODEL_SOURCE = "model"

# Small models write the convention the reviewer prompt asks for loosely: "- [major] a.py:3 — text",
# "1. **Major** `a.py:3`: text", "* (nit) a.py line 3 - text". The severity and the location are each optional.
_ITEM = re.compile(r"^\s*(?:[-*•]|\d{1,3}[.)])\s+(?P<body>\S.*)$")
_SEVERITY = re.compile(
    r"^(?:\[|\(|\*\*)?\s*(?P<severity>critical|high|major|medium|minor|low|nit|nitpick|note|info)\s*"
    r"(?:\]|\)|\*\*)?\s*[:\-–—]?\s*",
    re.IGNORECASE,
)
_LOCATION = re.compile(
    r"^`?(?P<path>[\w./\\-]*\w\.\w+|[\w./\\-]+/[\w.-]+)`?(?:(?::|\s+line\s+)(?P<line>\d+)(?:[-:]\d+)?)?`?"
    r"\s*[:\-–—,]?\s*",
    re.IGNORECASE,
)
# The source pedro writes after a finding (`_(ruff E711)_`): small models copy the checks' list, label and all, and
# a model's finding must not read as a check's.
_LABEL = re.compile(r"\s*_\([^()]*\)_\s*$")
# Every severity word the pattern accepts, as one of the five.
_SEVERITY_WORDS: dict[str, Severity] = {
    **{severity: severity for severity in SEVERITIES},
    **{"high": "major", "medium": "minor", "low": "nit", "nitpick": "nit", "info": "note"},
}


@dataclass(frozen=True)
class Finding:
    """One problem the reviewer reported."""

    number: int
    severity: Severity
    text: str
    path: str = ""
    line: int | None = None
    origin: Origin = "model"
    source: str = MODEL_SOURCE
    """What reported it: `ruff E711`, `mypy arg-type`, a test id (`tests/test_x.py::test_y`), or `model`."""
    anchored: bool = False
    """Its file:line is a line of the change (a check's own location always is): pedro looked, the model's word is
    not enough."""
    note: str = ""
    """Why a model's finding is not anchored: the line does not exist, or the change does not touch it."""
    test: str = ""
    """The failing test behind it, when a test run reported it (/fix then starts with test-driven repair)."""

    @property
    def label(self) -> str:
        """Where it comes from, for a reader: `ruff E711`, `model`, `model, not anchored: calc.py has no line 99`."""
        if self.origin == "tool" or self.anchored:
            return self.source
        return f"{self.source}, not anchored: {self.note}" if self.note else f"{self.source}, not anchored"

    @property
    def location(self) -> str:
        """path:line, the path alone, or "" when the reviewer named no file."""
        if not self.path:
            return ""
        return f"{self.path}:{self.line}" if self.line is not None else self.path

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_findings(text: str) -> list[Finding]:
    """The list items of `text` that carry a severity or a file location and say what is wrong, numbered from 1 in
    order."""
    found: list[Finding] = []
    for raw in text.splitlines():
        item = _ITEM.match(raw)
        if item is None:
            continue
        body = item.group("body").strip()
        severity_match = _SEVERITY.match(body)
        severity: Severity = "note"
        if severity_match is not None:
            severity = _SEVERITY_WORDS[severity_match.group("severity").lower()]
            body = body[severity_match.end() :]
        location = _LOCATION.match(body)
        path, line = "", None
        if location is not None and ("." in location.group("path") or "/" in location.group("path")):
            path = location.group("path").strip("`")
            line = int(location.group("line")) if location.group("line") else None
            body = body[location.end() :]
        if severity_match is None and not path:
            continue
        text_part = _description(body)
        if not text_part:
            continue  # a place without a word on what is wrong there: a reply cut mid-item, nothing to report
        found.append(Finding(len(found) + 1, severity, text_part, path, line))
    return found


def _description(body: str) -> str:
    """What is wrong, as written after the severity and the place: without a copied source label, and without the
    backticks of a place or text in one code span, while a code span that ends the text keeps its own."""
    text = _LABEL.sub("", body).strip()
    ticks = text.count("`")
    if ticks % 2 or (ticks == 2 and text.startswith("`") and text.endswith("`")):
        text = text.strip("`").strip()
    return text


def findings_markdown(findings: list[Finding]) -> str:
    """The findings as a numbered Markdown list, or a line saying there are none."""
    if not findings:
        return "No findings.\n"
    lines = []
    for finding in findings:
        where = f" `{finding.location}`" if finding.location else ""
        lines.append(f"{finding.number}. **{finding.severity}**{where} — {finding.text} _({finding.label})_")
    return "\n".join(lines) + "\n"
