"""The job store: files, modes, appends, listing and lookup."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from pedro.errors import JobNotFoundError
from pedro.jobstore import JobStore
from pedro.messages import Event, Message


def test_create_append_and_load(repo: Path) -> None:
    store = JobStore(repo)
    job = store.create(role="builder", task="Fix add()", backend="openai", model="m")
    store.append(job.id, Event(type="round.started", job_id=job.id, seq=1, data={"round": 1}))
    lines = (store.job_dir(job.id) / "events.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["type"] == "round.started"
    assert json.loads(lines[0])["schema"] == 1
    job.status = "completed"
    store.save(job)
    store.close()
    assert store.load(job.id[:15]).status == "completed"
    assert [j.id for j in store.all()] == [job.id]
    for name in ("job.json", "events.jsonl"):
        assert stat.S_IMODE((store.job_dir(job.id) / name).stat().st_mode) == 0o600


def test_every_job_file_is_private_to_the_user(repo: Path) -> None:
    store = JobStore(repo)
    job = store.create(role="builder", task="t", backend="openai", model="m")
    store.append(job.id, Event(type="round.started", job_id=job.id, seq=1, data={"round": 1}))
    store.append_message(job.id, Message(role="user", content="hello"))
    saved = store.save_output(job.id, "round-1-call-1", "output")
    store.save(job)
    store.close()
    job_dir = store.job_dir(job.id)
    files = [p for p in job_dir.rglob("*") if p.is_file()]
    assert {p.name for p in files} == {"job.json", "events.jsonl", "history.jsonl", saved.name}
    assert {stat.S_IMODE(p.stat().st_mode) for p in files} == {0o600}
    assert {stat.S_IMODE(d.stat().st_mode) for d in (job_dir, saved.parent)} == {0o700}


def test_pedro_dir_is_excluded_from_git(repo: Path) -> None:
    JobStore(repo).create(role="builder", task="t", backend="openai", model="m")
    JobStore(repo).create(role="builder", task="t", backend="openai", model="m")
    exclude = (repo / ".git" / "info" / "exclude").read_text().splitlines()
    assert exclude.count(".pedro/") == 1


def test_torn_last_line_is_skipped(repo: Path) -> None:
    store = JobStore(repo)
    job = store.create(role="builder", task="t", backend="openai", model="m")
    store.append(job.id, Event(type="round.started", job_id=job.id, seq=1))
    store.close()
    with (store.job_dir(job.id) / "events.jsonl").open("a") as fh:
        fh.write('{"type": "tool_call.sta')
    assert [e["type"] for e in store.events(job.id)] == ["round.started"]


def test_unknown_job_names_the_fix(repo: Path) -> None:
    with pytest.raises(JobNotFoundError, match="pedro jobs list"):
        JobStore(repo).load("nope")


def test_a_start_interrupted_before_its_record_leaves_no_job_folder_and_is_swept(repo: Path) -> None:
    store = JobStore(repo)
    job = store.create(role="builder", task="t", backend="ollama", model="m")
    assert [p.name for p in store.root.iterdir()] == [job.id] and (store.job_dir(job.id) / "job.json").is_file()
    # What a start killed between making its folder and writing its record leaves: a folder under the temporary
    # name, owned by a process that is gone (pid 0 is never a live pedro).
    leftover = store.root / ".making-0-20260101-000000-dead"
    leftover.mkdir()
    assert [j.id for j in store.all()] == [job.id]
    assert store.sweep_unfinished_starts() == [leftover.name] and not leftover.exists()
    assert store.load(job.id).id == job.id
