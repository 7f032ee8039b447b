"""An evaluation's folder, .pedro/evals/<UTC timestamp>/: one trace per run, runs.jsonl, and the two summaries,
rewritten after every run so that an evaluation stopped half way still leaves what it measured."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from pedro.eval.records import RunRecord
from pedro.eval.summary import summarize, summarize_by_scenario
from pedro.workspace import exclude_from_git

EVALS_DIR: Final = Path(".pedro") / "evals"
SUMMARY: Final = "summary.json"
BY_SCENARIO: Final = "summary_by_scenario.json"
RUNS: Final = "runs.jsonl"
TRACES: Final = "traces"


def utc_stamp(moment: float) -> str:
    """A folder name for a moment: ISO 8601 basic format in UTC, e.g. 20260124T070601Z."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(moment))


META_KEYS: Final = ("suite", "started", "finished", "complete", "runs_planned", "settings", "pedro", "resumed")
"""What summary.json holds about the evaluation itself, as against what it computes from the runs."""


class EvalStore:
    """Writes one evaluation's folder under a repository; safe to call from the runner's threads."""

    def __init__(self, repo: Path, *, started: float, meta: Mapping[str, Any]) -> None:
        base = repo / EVALS_DIR
        base.mkdir(parents=True, exist_ok=True)
        exclude_from_git(repo)
        stamp = utc_stamp(started)
        folder, n = base / stamp, 1
        while folder.exists():  # two evaluations started in the same second
            n += 1
            folder = base / f"{stamp}-{n}"
        (folder / TRACES).mkdir(parents=True)
        self._open(folder, meta, [])

    def _open(self, folder: Path, meta: Mapping[str, Any], records: list[RunRecord]) -> None:
        self.folder = folder
        self.meta = dict(meta)
        self.records = records
        self._lock = threading.Lock()

    @classmethod
    def reopen(cls, folder: Path) -> EvalStore:
        """An evaluation's folder as it was left, to go on with: its settings, and the runs it finished. A run that
        Ctrl-C cut short measured nothing, so it is dropped, to be made again."""
        summary = json.loads((folder / SUMMARY).read_text(encoding="utf-8"))
        lines = (folder / RUNS).read_text(encoding="utf-8").splitlines() if (folder / RUNS).is_file() else []
        records = [RunRecord.from_dict(json.loads(line)) for line in lines if line.strip()]
        kept = [record for record in records if record.failure != "interrupted"]
        (folder / RUNS).write_text("".join(json.dumps(r.to_dict(), sort_keys=True) + "\n" for r in kept), "utf-8")
        store = cls.__new__(cls)
        store._open(folder, {key: summary[key] for key in META_KEYS if key in summary}, kept)
        return store

    @property
    def summary_path(self) -> Path:
        return self.folder / SUMMARY

    @property
    def by_scenario_path(self) -> Path:
        return self.folder / BY_SCENARIO

    def write_trace(self, run_id: str, stdout: str, stderr: str = "", log: str = "") -> str:
        """The run's event stream (the JSON lines its --json run printed); its path relative to the folder. What a
        run stopped at its limit wrote on stderr (its threads' stacks then) goes beside it, as <run>.stderr, and
        what pedro's own log said above debug level, as <run>.log."""
        relative = f"{TRACES}/{run_id}.jsonl"
        lines = [line for line in stdout.splitlines() if line.startswith("{")]
        (self.folder / relative).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        if stderr:
            (self.folder / TRACES / f"{run_id}.stderr").write_text(stderr, encoding="utf-8")
        if log:
            (self.folder / TRACES / f"{run_id}.log").write_text(log + "\n", encoding="utf-8")
        return relative

    def add(self, record: RunRecord) -> None:
        """Append the record to runs.jsonl and bring both summaries up to date."""
        with self._lock:
            self.records.append(record)
            with (self.folder / RUNS).open("a", encoding="utf-8") as out:
                out.write(json.dumps(record.to_dict(), sort_keys=True) + "\n")
            self._write_summaries()

    def finish(self, **meta: Any) -> None:
        """The final summaries, with what is known only at the end (finished, complete, …)."""
        with self._lock:
            self.meta.update(meta)
            self._write_summaries()

    def _write_summaries(self) -> None:
        ordered = sorted(self.records, key=lambda record: record.run_id)
        _write_json(self.summary_path, summarize(ordered, self.meta))
        _write_json(self.by_scenario_path, summarize_by_scenario(ordered, self.meta))


def _write_json(path: Path, data: Mapping[str, Any]) -> None:
    """Replace `path` atomically: a reader never sees half a summary."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
