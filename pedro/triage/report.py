"""The triage report: the versioned JSON of docs/triage.md, and the Markdown, SARIF 2.1.0 and GitHub Actions
annotations made from it. Every fact says whether it came from pedro's parser or from the model."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from pedro import __version__
from pedro.changedlines import _unquote as unquote_git_path
from pedro.controls import neutralise
from pedro.safety.paths import repository_path
from pedro.triage.culprit import MAX_CULPRITS, Culprit, find_culprit
from pedro.triage.fix import VerifiedFix
from pedro.triage.logparse import LoggedFailure, ParsedLog

SCHEMA = "pedro.triage/1"
NO_MODEL = "no_model"
"""The report's exit_status when no model was asked."""
FAILURES_REPORTED_EXIT_CODE = 5
"""pedro triage without a model found failing tests and reported them (docs/exit-codes.md)."""
Source = Literal["parser", "model"]
_SECTION = re.compile(
    r"^\s*(?:#+\s*|\*\*)?(?P<name>failing tests|probable cause|root cause|suspected files|suggested fix|confidence)"
    r"\s*(?:\*\*)?\s*:?\s*(?:\*\*)?(?P<rest>.*)$",
    re.IGNORECASE | re.MULTILINE,
)
_PATH_LINE = re.compile(r"(?P<file>[\w./-]+\.[A-Za-z]\w*):(?P<line>\d+)")
_CONFIDENCE = re.compile(r"\b(low|medium|high)\b", re.IGNORECASE)
_HUNK = re.compile(r"^@@ -(?P<old>\d+)(?:,(?P<old_n>\d+))? \+\d+(?:,\d+)? @@")


@dataclass(frozen=True)
class Fact:
    """A piece of text and where it came from."""

    text: str
    source: Source

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "source": self.source}


@dataclass(frozen=True)
class SuspectedFile:
    file: str
    line: int | None
    source: Source


@dataclass
class TriageReport:
    """What the triage found: the parsed failing tests, and the model's diagnosis where it gave one. Every file in it
    is a path inside the repository (build_report sees to that), so each output format can take them as they are."""

    job_id: str | None
    """None when no model was asked (no job ran)."""
    exit_status: str
    parsed: ParsedLog | None
    root_cause: Fact | None = None
    suspected_files: list[SuspectedFile] = field(default_factory=list)
    confidence: str | None = None
    suggested_fix: Fact | None = None
    culprits: list[Culprit | None] = field(default_factory=list)
    """One for each of the parsed failures, in order (the first MAX_CULPRITS of them)."""
    fix: VerifiedFix | None = None
    """A patch the tests confirmed (pedro.triage.fix); an unverified candidate is never one."""

    @property
    def model_asked(self) -> bool:
        return self.exit_status != NO_MODEL

    def culprit(self, index: int) -> Culprit | None:
        return self.culprits[index] if index < len(self.culprits) else None

    def to_dict(self) -> dict[str, Any]:
        parsed = self.parsed
        return {
            "schema": SCHEMA,
            "job_id": self.job_id,
            "exit_status": self.exit_status,
            "runner": parsed.runner if parsed else None,
            "counts": {"passed": parsed.passed, "failed": parsed.failed} if parsed else None,
            "failing_tests": [
                {
                    "name": f.name,
                    "file": f.file or None,
                    "line": f.line,
                    "message": f.message,
                    "excerpt": f.excerpt,
                    "source": "parser",
                    **_culprit_dict(self.culprit(index)),
                }
                for index, f in enumerate(parsed.failures if parsed else ())
            ],
            "root_cause": self.root_cause.to_dict() if self.root_cause else None,
            "suspected_files": [{"file": s.file, "line": s.line, "source": s.source} for s in self.suspected_files],
            "confidence": self.confidence,
            "suggested_fix": self.suggested_fix.to_dict() if self.suggested_fix else None,
            "verified_fix": self.fix.to_dict() if self.fix else None,
        }


def _culprit_dict(culprit: Culprit | None) -> dict[str, Any]:
    frame = culprit.frame if culprit else None
    function = culprit.function if culprit else None
    change = culprit.change if culprit else None
    return {
        "deepest_frame": {"file": frame.path, "line": frame.line} if frame else None,
        "function": (
            {"name": function.qualified_name, "file": function.path}
            | {"start_line": function.start_line, "end_line": function.end_line}
            if function
            else None
        ),
        "last_change": change.to_dict() if change else None,
    }


def build_report(
    job_id: str | None, exit_status: str, parsed: ParsedLog | None, summary: str, root: Path
) -> TriageReport:
    """The report: the parser's failing tests and where each leads in the code, then what the model's final
    answer says, read leniently.

    The log, a JUnit report and the model may name any file (`../../etc/passwd`, `/etc/shadow`, `file:///…`): a
    path that resolves outside the repository is left out of the finding, which stays."""
    if parsed is not None:
        parsed = replace(parsed, failures=tuple(_inside(failure, root) for failure in parsed.failures))
    report = TriageReport(job_id, exit_status, parsed)
    report.culprits = [find_culprit(failure, root) for failure in (parsed.failures if parsed else ())[:MAX_CULPRITS]]
    sections = _sections(summary) if exit_status == "completed" else {}
    cause = sections.get("probable cause") or sections.get("root cause")
    if cause:
        report.root_cause = Fact(cause, "model")
    if fix := sections.get("suggested fix"):
        report.suggested_fix = Fact(fix, "model")
    if confidence := _CONFIDENCE.search(sections.get("confidence", "")):
        report.confidence = confidence.group(1).lower()
    failures = parsed.failures if parsed else ()
    report.suspected_files += _suspected_files(report.culprits, failures, sections.get("suspected files", ""), root)
    return report


def _suspected_files(
    culprits: list[Culprit | None], failures: tuple[LoggedFailure, ...], named: str, root: Path
) -> list[SuspectedFile]:
    """Each place once: where the failures lead in the code first, then where the tests failed, then the files the
    model names that exist."""
    suspected: list[SuspectedFile] = []
    seen: set[tuple[str, int | None]] = set()
    places = [_culprit_place(culprit) for culprit in culprits if culprit is not None]
    places += [(failure.file, failure.line) for failure in failures if failure.file]
    for place in places:
        if place not in seen:
            seen.add(place)
            suspected.append(SuspectedFile(place[0], place[1], "parser"))
    for match in _PATH_LINE.finditer(named):
        file = repository_path(root, match.group("file"))
        key = (file or "", int(match.group("line")))
        # Only files that exist: a small model's invented path is not a fact.
        if file and key not in seen and (root / file).is_file():
            seen.add(key)
            suspected.append(SuspectedFile(key[0], key[1], "model"))
    return suspected


def _culprit_place(culprit: Culprit) -> tuple[str, int | None]:
    if culprit.frame is not None:
        return culprit.frame.path, culprit.frame.line
    unit = culprit.function
    return (unit.path, unit.start_line) if unit is not None else ("", None)


def _inside(failure: LoggedFailure, root: Path) -> LoggedFailure:
    file = repository_path(root, failure.file) if failure.file else None
    return replace(failure, file=file or "", line=failure.line if file else None)


def _sections(summary: str) -> dict[str, str]:
    """The triager's four sections (prompts/roles/triager.md), by lower-cased name."""
    found: dict[str, str] = {}
    matches = list(_SECTION.finditer(summary))
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(summary)
        body = (match.group("rest") + summary[match.end() : end]).strip()
        if body:
            found.setdefault(match.group("name").lower(), body)
    return found


def to_markdown(report: TriageReport) -> str:
    """The report for a person: the Markdown file and GitHub's step summary. The model's text and the log's are
    neutralised as on the terminal, so no escape sequence they hold reaches the page or a terminal showing it."""
    return neutralise(_markdown(report))


def _markdown(report: TriageReport) -> str:
    parsed = report.parsed
    lines = ["## pedro triage", ""]
    if parsed is None:
        lines += ["No test runner's output was recognised in the log.", ""]
    else:
        lines += [f"{parsed.runner}: {parsed.failed} failing, {parsed.passed} passing.", ""]
        if parsed.failures:
            lines += ["| test | where | message | leads to |", "|---|---|---|---|"]
            for index, f in enumerate(parsed.failures):
                where = f"{f.file}:{f.line}" if f.file and f.line else f.file
                lead = _describe_culprit(report.culprit(index))
                lines.append(f"| `{_cell(f.name)}` | {_cell(where)} | {_cell(f.message)} | {_cell(lead)} |")
            lines.append("")
    if report.root_cause:
        lines += [f"**Probable cause** (model): {report.root_cause.text}", ""]
    if report.suspected_files:
        listed = ", ".join(
            f"`{s.file}:{s.line}` ({s.source})" if s.line else f"`{s.file}` ({s.source})"
            for s in report.suspected_files
        )
        lines += [f"**Suspected files**: {listed}", ""]
    if report.confidence:
        lines += [f"**Confidence** (model): {report.confidence}", ""]
    if report.fix:
        lines += [fix_markdown(report.fix).rstrip("\n"), ""]
    if report.suggested_fix:
        lines += [f"**Suggested fix** (model, not verified): {report.suggested_fix.text}", ""]
    if report.model_asked:
        lines.append(f"Job `{report.job_id}` ({report.exit_status}); `pedro jobs show {report.job_id}` has the trace.")
    else:
        lines.append("No model was asked: all of this is what pedro read from the log and the repository.")
    return "\n".join(lines) + "\n"


def fix_markdown(fix: VerifiedFix) -> str:
    """The verified fix for a person: what verified it, and the diff (not neutralised: to_markdown does that)."""
    return "\n".join([f"**Verified fix** ({fix.verdict}):", "", "```diff", fix.diff.rstrip("\n"), "```"]) + "\n"


def _describe_culprit(culprit: Culprit | None) -> str:
    """`median` (stats/mean.py:9-11), raised at stats/mean.py:11, last changed in abc1234 (2026-11-24) subject"""
    if culprit is None:
        return ""
    parts = []
    if culprit.function is not None:
        unit = culprit.function
        parts.append(f"`{unit.qualified_name}` ({unit.path}:{unit.start_line}-{unit.end_line})")
    if culprit.frame is not None:
        parts.append(f"deepest frame {culprit.frame.path}:{culprit.frame.line}")
    if culprit.change is not None:
        change = culprit.change
        parts.append(f"last changed in `{change.commit[:10]}` ({change.date[:10]}) {change.subject}")
    return ", ".join(parts)


def to_sarif(report: TriageReport) -> dict[str, Any]:
    """SARIF 2.1.0, one result per failing test, for code-scanning upload."""
    results = []
    fix_changes = artifact_changes(report.fix.diff) if report.fix is not None else []
    for index, f in enumerate(report.parsed.failures if report.parsed else ()):
        result: dict[str, Any] = {
            "ruleId": "failing-test",
            "level": "error",
            "message": {"text": f"{f.name}: {f.message}" if f.message else f.name},
        }
        if f.file:
            region = {"region": {"startLine": f.line}} if f.line else {}
            result["locations"] = [{"physicalLocation": {"artifactLocation": _artifact(f.file), **region}}]
        culprit = report.culprit(index)
        if culprit is not None and culprit.function is not None:
            unit = culprit.function
            result["relatedLocations"] = [
                {
                    "id": 1,
                    "physicalLocation": {
                        "artifactLocation": _artifact(unit.path),
                        "region": {"startLine": unit.start_line, "endLine": unit.end_line},
                    },
                    "message": {"text": _describe_culprit(culprit).replace("`", "")},
                }
            ]
        if report.fix is not None:
            result["fixes"] = [
                {"description": {"text": report.fix.verdict.replace("`", "")}, "artifactChanges": fix_changes}
            ]
        results.append(result)
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "pedro triage",
                        "version": __version__,
                        "rules": [{"id": "failing-test", "shortDescription": {"text": "A test failed in CI"}}],
                    }
                },
                "results": results,
            }
        ],
    }


def _artifact(path: str) -> dict[str, str]:
    """A repository path as SARIF's artifactLocation: a relative URI reference, so a space, `#`, `%` or a colon in
    the first segment (which would read as a scheme) is percent-encoded; the path is already inside the repository."""
    return {"uri": quote(path, safe="/")}


def artifact_changes(diff: str) -> list[dict[str, Any]]:
    """The diff as SARIF artifactChanges: for each hunk, the old lines it replaces and the new lines' text."""
    changes: dict[str, list[dict[str, Any]]] = {}
    current: list[dict[str, Any]] | None = None
    new_lines: list[str] = []
    for line in diff.splitlines():
        if line.startswith("+++ "):
            # git quotes a path with a `"`, a backslash or a control character, and ends one with a space in a tab.
            path = unquote_git_path(line[4:].rstrip("\t"))
            current = None if path == "/dev/null" else changes.setdefault(path.removeprefix("b/"), [])
        elif (hunk := _HUNK.match(line)) is not None and current is not None:
            old, count = int(hunk.group("old")), int(hunk.group("old_n") or "1")
            new_lines = []
            start = old if count else old + 1
            region = {"startLine": start, "startColumn": 1, "endLine": old + count if count else start, "endColumn": 1}
            current.append({"deletedRegion": region, "insertedContent": {"text": ""}, "_new": new_lines})
        elif current and line[:1] in (" ", "+"):
            new_lines.append(line[1:] + "\n")
    out = []
    for path, replacements in changes.items():
        for replacement in replacements:
            replacement["insertedContent"]["text"] = "".join(replacement.pop("_new"))
        out.append({"artifactLocation": _artifact(path), "replacements": replacements})
    return out


def github_annotations(report: TriageReport) -> list[str]:
    """GitHub Actions workflow commands, one `::error` per failing test with a file."""
    out = []
    for f in report.parsed.failures if report.parsed else ():
        props = [f"file={_prop(f.file)}"] if f.file else []
        if f.file and f.line:
            props.append(f"line={f.line}")
        props.append(f"title={_prop(f.name)}")
        out.append(f"::error {','.join(props)}::{_data(f.message or 'test failed')}")
    return out


def write_report(report: TriageReport, path: Path) -> None:
    """JSON for .json, SARIF for .sarif, Markdown otherwise."""
    if path.suffix == ".json":
        text = json.dumps(report.to_dict(), indent=2) + "\n"
    elif path.suffix == ".sarif":
        text = json.dumps(to_sarif(report), indent=2) + "\n"
    else:
        text = to_markdown(report)
    path.write_text(text, encoding="utf-8")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")
