"""The real `pedro` process against a stdlib stub server on 127.0.0.1: flags, exit codes, jobs, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from cli_util import build, fenced, pedro
from repo_util import git

from pedro.tooltable import tool_names

CALC = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n"


@pytest.fixture
def calc_repo(repo: Path) -> Path:
    (repo / "calc.py").write_text(CALC)
    git(repo, "add", "calc.py")
    git(repo, "commit", "-q", "-m", "calc")
    return repo


def test_acceptance_build_fixes_add(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    replies = [
        "Let me find add.\n" + fenced("search", '{"action": "grep", "pattern": "def add"}'),
        fenced("file", '{"action": "read", "path": "calc.py"}'),
        fenced(
            "code_edit",
            json.dumps({"action": "replace", "path": "calc.py", "old": "return a - b", "new": "return a + b"}),
        ),
        fenced("bash", "python -c 'import calc; assert calc.add(2, 3) == 5; print(\"add ok\")'"),
        "TASK COMPLETE\nadd() now adds.",
    ]
    server = stub_server(replies)
    proc = pedro(
        "build",
        "--description",
        "Fix add()",
        "--backend",
        "openai",
        "--base-url",
        f"{server.url}/v1",
        "--model",
        "m",
        "--no-input",
        env=cli_env,
        cwd=calc_repo,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert "return a + b" in (calc_repo / "calc.py").read_text()
    assert len(server.requests) == 5
    # each tool's result appears in the next request
    expectations = ["calc.py:1", "return a - b", "return a + b", "add ok"]
    for request, expected in zip(server.requests[1:], expectations, strict=True):
        assert expected in json.dumps(request["messages"][-1]), expected
    assert server.requests[0]["model"] == "m"
    jobs = pedro("jobs", "list", env=cli_env, cwd=calc_repo)
    assert jobs.returncode == 0 and "completed" in jobs.stdout
    job_id = jobs.stdout.split()[0]
    record = json.loads((calc_repo / ".pedro" / "jobs" / job_id / "job.json").read_text())
    assert record["status"] == "completed" and record["exit_code"] == 0
    shown = pedro("jobs", "show", job_id, env=cli_env, cwd=calc_repo)
    assert shown.returncode == 0 and "code_edit: ok" in shown.stdout


def test_json_mode_prints_only_events_on_stdout(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server(
        [
            fenced("code_edit", {"path": "calc.py", "old": "a - b", "new": "a + b"}),
            "TASK COMPLETE\ndone",
        ]
    )
    proc = build(server, calc_repo, cli_env, "--json")
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    assert events[0]["type"] == "job.started" and events[-1]["type"] == "job.finished"
    assert all(e["schema"] == 1 and "seq" in e and "ts" in e and "job_id" in e for e in events)
    assert [e["seq"] for e in events] == sorted(e["seq"] for e in events)
    assert events[-1]["exit_code"] == 0
    assert "round" in proc.stderr  # human text goes to stderr


def test_round_limit_exits_4(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    read = fenced("file", '{"action": "read", "path": "calc.py"}')
    server = stub_server([read, read, read])
    proc = build(server, calc_repo, cli_env, "--max-rounds", "2", description="x")
    assert proc.returncode == 4, proc.stderr
    assert len(server.requests) == 2
    assert "--max-rounds N` continues it with more rounds" in proc.stderr


def test_unreachable_server_exits_3_naming_the_url(calc_repo: Path, cli_env: dict[str, str]) -> None:
    proc = pedro(
        "build",
        "-d",
        "x",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--model",
        "m",
        "--no-input",
        env=cli_env,
        cwd=calc_repo,
    )
    assert proc.returncode == 3
    assert "http://127.0.0.1:9/v1" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["build", "-d", "x", "--backend", "nope"], "nope"),
        (["build", "--max-rounds", "0", "-d", "x"], "max-rounds"),
        (["build"], "--description"),
        (
            ["build", "-d", "x", "--model", "m", "--no-input", "--base-url", "http://127.0.0.1:9/v1", "--bogus"],
            "--bogus",
        ),
    ],
)
def test_bad_flags_exit_2(calc_repo: Path, cli_env: dict[str, str], args: list[str], needle: str) -> None:
    proc = pedro(*args, env=cli_env, cwd=calc_repo)
    assert proc.returncode == 2, proc.stderr
    assert needle in proc.stderr
    assert "Traceback" not in proc.stderr


def test_bad_config_exits_2_naming_key_and_file(calc_repo: Path, cli_env: dict[str, str]) -> None:
    (calc_repo / ".pedro.toml").write_text("[agent]\nmax_rounds = 'lots'\n")
    proc = pedro("build", "-d", "x", "--model", "m", env=cli_env, cwd=calc_repo)
    assert proc.returncode == 2
    assert "agent.max_rounds" in proc.stderr and ".pedro.toml" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_outside_git_exits_2_with_hint(tmp_path: Path, cli_env: dict[str, str]) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    proc = pedro("build", "-d", "x", "--model", "m", env=cli_env, cwd=plain)
    assert proc.returncode == 2
    assert "git init" in proc.stderr


def test_version_and_help(tmp_path: Path, cli_env: dict[str, str]) -> None:
    version = pedro("--version", env=cli_env, cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("pedro ")
    helptext = pedro("--help", env=cli_env, cwd=tmp_path)
    assert helptext.returncode == 0
    for command in ("build", "debug", "review", "triage", "jobs", "tools", "doctor"):
        assert command in helptext.stdout
    bare = pedro(env=cli_env, cwd=tmp_path)  # a bare `pedro` shows the same help and succeeds
    assert (bare.returncode, bare.stdout) == (0, helptext.stdout)


def test_tools_list_and_run(calc_repo: Path, cli_env: dict[str, str]) -> None:
    listed = pedro("tools", "list", "--json", env=cli_env, cwd=calc_repo)
    names = [spec["function"]["name"] for spec in json.loads(listed.stdout)]
    assert names == list(tool_names())  # every tool of the table, in its order
    ran = pedro("tools", "run", "file", '{"action": "read", "path": "calc.py"}', "--json", env=cli_env, cwd=calc_repo)
    envelope = json.loads(ran.stdout)
    assert envelope["ok"] is True and envelope["error_kind"] is None and "return a - b" in envelope["output"]
    refused = pedro(
        "tools", "run", "file", '{"action": "read", "path": "../../etc/passwd"}', "--json", env=cli_env, cwd=calc_repo
    )
    assert refused.returncode == 1 and json.loads(refused.stdout)["ok"] is False
    bad = pedro("tools", "run", "file", "{not json", env=cli_env, cwd=calc_repo)
    assert bad.returncode == 2 and "not valid JSON" in bad.stderr


def test_triage_reads_log_from_stdin(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server(["TASK COMPLETE\nFailing tests: test_add\nProbable cause: add subtracts"])
    proc = pedro(
        "triage",
        "--base-url",
        f"{server.url}/v1",
        "--model",
        "m",
        "--no-input",
        env=cli_env,
        cwd=calc_repo,
        stdin="FAILED test_calc.py::test_add - assert -1 == 5\n",
    )
    assert proc.returncode == 0, proc.stderr
    assert "assert -1 == 5" in json.dumps(server.requests[0]["messages"])
    tools = {t["function"]["name"] for t in server.requests[0].get("tools", [])}
    assert tools == {"file", "search", "navigate", "git", "bash", "test"}


def test_review_sends_the_diff_and_reads_only(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    git(calc_repo, "checkout", "-q", "-b", "feature")
    (calc_repo / "calc.py").write_text(CALC.replace("a * b", "a ** b"))
    git(calc_repo, "commit", "-qam", "mul")
    server = stub_server(
        [
            fenced("git", '{"action": "diff", "ref": "main"}'),
            "TASK COMPLETE\n- [major] calc.py:6 — mul raises to a power instead of multiplying",
        ]
    )
    proc = pedro("review", "--base-url", f"{server.url}/v1", "--model", "m", "--no-input", env=cli_env, cwd=calc_repo)
    assert proc.returncode == 0, proc.stderr
    assert "calc.py" in json.dumps(server.requests[0]["messages"])
    assert "a ** b" in json.dumps(server.requests[1]["messages"][-1])
    tools = {t["function"]["name"] for t in server.requests[0].get("tools", [])}
    assert tools == {"file", "search", "navigate", "git"}


def test_ollama_native_calls_end_to_end(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    def native(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"function": {"name": name, "arguments": arguments}}],
        }

    server = stub_server(
        [
            native("file", {"action": "read", "path": "calc.py"}),
            native("code_edit", {"action": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"}),
            "TASK COMPLETE\nfixed",
        ]
    )
    proc = pedro(
        "build",
        "-d",
        "Fix add()",
        "--backend",
        "ollama",
        "--base-url",
        server.url,
        "--model",
        "m",
        "--no-input",
        env=cli_env,
        cwd=calc_repo,
    )
    assert proc.returncode == 0, proc.stderr
    assert "a + b" in (calc_repo / "calc.py").read_text()
    assert len(server.requests) == 3
    for request in server.requests:
        assert request["tools"] and request["options"]["num_ctx"] > 0
    assert len({request["options"]["num_ctx"] for request in server.requests}) == 1
    second = server.requests[1]["messages"]
    assert second[-1]["role"] == "tool" and "return a - b" in second[-1]["content"]


def test_secrets_never_reach_the_model_or_the_trace(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    planted = "hunter2-planted-value-93f1"
    key = "sk-proj-a8Hk2LmQ9xZ3vB7nR4tY6uW1eC5dF0gJ"
    (calc_repo / "notes.txt").write_text(f"api key: {key}\n")
    server = stub_server(
        [
            fenced("bash", "env; cat notes.txt; echo $MY_SERVICE_TOKEN"),
            fenced("code_edit", {"path": "calc.py", "old": "a - b", "new": "a + b"}),
            "TASK COMPLETE\ndone",
        ]
    )
    env = {**cli_env, "MY_SERVICE_TOKEN": planted}
    proc = build(server, calc_repo, env, description="x")
    assert proc.returncode == 0, proc.stderr
    seen = json.dumps(server.requests)
    assert "notes.txt" in seen or "REDACTED" in seen
    assert planted not in seen and key not in seen
    assert "REDACTED" in seen
    trace = "".join(p.read_text() for p in (calc_repo / ".pedro" / "jobs").rglob("events.jsonl"))
    assert planted not in trace and key not in trace


def test_streamed_call_whose_arguments_arrive_before_its_name(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    edit = {"action": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"}
    call = {
        "id": "call_x",
        "type": "function",
        "args_before_name": True,
        "function": {"name": "code_edit", "arguments": json.dumps(edit)},
    }
    server = stub_server([{"role": "assistant", "content": "", "tool_calls": [call]}, "TASK COMPLETE\nfixed"])
    proc = pedro(
        "build",
        "-d",
        "Fix add()",
        "--backend",
        "openai",
        "--base-url",
        f"{server.url}/v1",
        "--model",
        "m",
        "--no-input",
        env=cli_env,
        cwd=calc_repo,
    )
    assert proc.returncode == 0, proc.stderr
    assert server.requests[0]["stream"] is True
    assert "a + b" in (calc_repo / "calc.py").read_text()


def test_small_window_gets_short_tool_descriptions(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    small = stub_server(["TASK COMPLETE\nnothing"], context_length=4096)
    large = stub_server(["TASK COMPLETE\nnothing"], context_length=32768)
    sizes = {}
    for server in (small, large):
        pedro(
            "review",
            "--base",
            "HEAD~1",
            "--backend",
            "llamacpp",
            "--base-url",
            server.url,
            "--model",
            "m",
            "--no-input",
            env=cli_env,
            cwd=calc_repo,
        )
        request = server.requests[0]
        # What the model reads before the task: the system prompt and the tool list the request carries natively.
        sizes[server.context_length] = len(request["messages"][0]["content"]) + len(json.dumps(request["tools"]))
    assert sizes[4096] < sizes[32768] * 0.7


def test_job_branch_snapshots_and_undo(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    (calc_repo / "README.md").write_text("# sample\nmy uncommitted note\n")
    main_before = git(calc_repo, "rev-parse", "main")
    server = stub_server(
        [
            fenced("code_edit", {"path": "calc.py", "old": "a - b", "new": "a + b"}),
            fenced("file", {"action": "write", "path": "new.py", "content": "x = 1\n"}),
            "TASK COMPLETE\ndone",
        ]
    )
    proc = build(server, calc_repo, cli_env)
    assert proc.returncode == 0, proc.stderr
    job_id = pedro("jobs", "list", env=cli_env, cwd=calc_repo).stdout.split()[0]
    assert git(calc_repo, "branch", "--show-current").strip() == f"pedro/{job_id}"
    assert git(calc_repo, "rev-parse", "main") == main_before  # the user's branch never moves
    assert "my uncommitted note" in (calc_repo / "README.md").read_text()  # carried to the job branch
    shown = pedro("jobs", "show", job_id, env=cli_env, cwd=calc_repo).stdout
    assert f"refs/pedro/snapshots/{job_id}/1" in shown and "job start" in shown

    step = pedro("undo", env=cli_env, cwd=calc_repo)  # back to before round 2: the edit stays, new.py goes
    assert step.returncode == 0, step.stderr
    assert not (calc_repo / "new.py").exists() and "a + b" in (calc_repo / "calc.py").read_text()
    first = pedro("undo", "--start", job_id, env=cli_env, cwd=calc_repo)
    assert first.returncode == 0, first.stderr
    assert "a - b" in (calc_repo / "calc.py").read_text()
    assert "my uncommitted note" in (calc_repo / "README.md").read_text()

    again = pedro("undo", job_id, env=cli_env, cwd=calc_repo)
    assert again.returncode == 2 and "nothing to undo" in again.stderr


def test_git_variables_a_hook_exported_do_not_redirect_pedro(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str], tmp_path: Path
) -> None:
    other = tmp_path / "other"
    git(tmp_path, "init", "-q", str(other))
    env = {**cli_env, "GIT_DIR": str(other / ".git"), "GIT_INDEX_FILE": str(other / ".git" / "index")}
    server = stub_server([fenced("file", {"action": "write", "path": "new.py", "content": "x = 1\n"}), "TASK COMPLETE"])
    proc = build(server, calc_repo, env)
    assert proc.returncode == 0, proc.stderr
    assert "refs/pedro/snapshots/" in git(calc_repo, "for-each-ref", "refs/pedro")
    assert git(other, "for-each-ref").strip() == "" and not (other / ".git" / "index").exists()


def test_undo_keeps_what_the_user_changed_while_the_job_ran(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    def the_user_edits(request: int) -> None:
        if request == 2:  # while the model writes its second reply, the user works on other files
            (calc_repo / "README.md").write_text("# sample\nmy note, typed while the job ran\n")
            (calc_repo / "todo.txt").write_text("buy milk\n")

    server = stub_server(
        [
            fenced("code_edit", {"path": "calc.py", "old": "a - b", "new": "a + b"}),
            fenced("file", {"action": "write", "path": "new.py", "content": "x = 1\n"}),
            "TASK COMPLETE\ndone",
        ],
        on_request=the_user_edits,
    )
    assert build(server, calc_repo, cli_env).returncode == 0
    job_id = pedro("jobs", "list", env=cli_env, cwd=calc_repo).stdout.split()[0]

    step = pedro("undo", env=cli_env, cwd=calc_repo)  # the job's last round: new.py goes, the rest stays
    assert step.returncode == 0, step.stderr
    assert not (calc_repo / "new.py").exists() and "a + b" in (calc_repo / "calc.py").read_text()
    first = pedro("undo", "--start", job_id, env=cli_env, cwd=calc_repo)
    assert first.returncode == 0, first.stderr
    assert "a - b" in (calc_repo / "calc.py").read_text()
    assert (calc_repo / "README.md").read_text() == "# sample\nmy note, typed while the job ran\n"
    assert (calc_repo / "todo.txt").read_text() == "buy milk\n"
    assert "kept as they are, since only you changed them: README.md, todo.txt" in first.stdout


def test_undo_force_goes_back_over_the_users_change_and_says_where_it_is(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    server = stub_server([fenced("code_edit", {"path": "calc.py", "old": "a - b", "new": "a + b"}), "TASK COMPLETE"])
    assert build(server, calc_repo, cli_env, description="x").returncode == 0
    (calc_repo / "calc.py").write_text("# the user's own edit\n")
    (calc_repo / "notes.txt").write_text("mine\n")
    refused = pedro("undo", env=cli_env, cwd=calc_repo)
    assert refused.returncode != 0 and "calc.py" in refused.stderr and "pedro undo --force" in refused.stderr
    forced = pedro("undo", "--force", env=cli_env, cwd=calc_repo)
    assert forced.returncode == 0, forced.stderr
    assert "a - b" in (calc_repo / "calc.py").read_text() and (calc_repo / "notes.txt").read_text() == "mine\n"
    backup = forced.stdout.split("git show ")[1].split(":PATH")[0]
    assert git(calc_repo, "show", f"{backup}:calc.py") == "# the user's own edit\n"


def test_undo_says_plainly_what_snapshots_do_not_hold(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    (calc_repo / ".gitignore").write_text("build/\nnode_modules/\n*.db\n.env\n")
    git(calc_repo, "add", ".gitignore")
    git(calc_repo, "commit", "-qm", "ignore")
    (calc_repo / "build").mkdir()
    (calc_repo / "build" / "app.bin").write_bytes(b"\x7fELF compiled")
    (calc_repo / "node_modules" / "left-pad").mkdir(parents=True)
    (calc_repo / "node_modules" / "left-pad" / "index.js").write_text("module.exports = 1\n")
    (calc_repo / "dev.db").write_bytes(b"\0" * (2 * 1024 * 1024))
    (calc_repo / ".env").write_text("DEBUG=1\n")  # small and ignored: in the snapshot
    wipe = "python3 -c \"import os, shutil; shutil.rmtree('build'); os.remove('dev.db')\""
    write = fenced("file", {"action": "write", "path": "new.py", "content": "x = 1\n"})
    server = stub_server([write, fenced("bash", {"command": wipe}), "TASK COMPLETE"])
    proc = build(server, calc_repo, cli_env)
    assert proc.returncode == 0, proc.stderr
    assert "undo cannot restore them" in proc.stderr and "build/" in proc.stderr
    assert not (calc_repo / "build").exists() and not (calc_repo / "dev.db").exists()
    undone = pedro("undo", "--start", env=cli_env, cwd=calc_repo)
    assert undone.returncode == 0, undone.stderr
    assert "not restored" in undone.stdout and "build/, dev.db, node_modules/" in undone.stdout
    assert "missing now: build/, dev.db; rebuild or reinstall them" in undone.stdout
    assert ".env" not in undone.stdout and (calc_repo / ".env").read_text() == "DEBUG=1\n"
    assert not (calc_repo / "new.py").exists()


def test_undo_refuses_when_files_changed_since(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server(
        [
            fenced("code_edit", {"path": "calc.py", "old": "a - b", "new": "a + b"}),
            "TASK COMPLETE\ndone",
        ]
    )
    assert build(server, calc_repo, cli_env, description="x").returncode == 0
    (calc_repo / "calc.py").write_text("# the user's own edit\n")
    refused = pedro("undo", env=cli_env, cwd=calc_repo)
    assert refused.returncode != 0 and "calc.py" in refused.stderr and "Traceback" not in refused.stderr
    assert (calc_repo / "calc.py").read_text() == "# the user's own edit\n"


def test_destructive_requests_are_refused_and_fed_back(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str], tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep\n")
    (calc_repo / "README.md").write_text("# sample\nuncommitted work\n")
    main_before = git(calc_repo, "rev-parse", "main")
    server = stub_server(
        [
            fenced("bash", 'rm -rf ~ "$HOME"'),
            fenced("bash", "git reset --hard && git clean -fdx"),
            fenced("file", {"action": "write", "path": "../outside/x", "content": "pwn"}),
            fenced("bash", f"echo pwn > {outside}/x"),
            fenced("git", {"action": "push"}),
            fenced("file", {"action": "read", "path": "/etc/passwd"}),
            "TASK COMPLETE\ntried everything",
        ]
    )
    proc = build(server, calc_repo, cli_env, description="x")
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 1  # nothing changed, so both completion claims are refused: failed
    assert sorted(p.name for p in outside.iterdir()) == ["keep.txt"]
    assert "uncommitted work" in (calc_repo / "README.md").read_text()
    assert git(calc_repo, "rev-parse", "main") == main_before
    results = [request["messages"][-1]["content"] for request in server.requests[1:7]]
    # refused by policy, except the redirect to /tmp, which the sandbox's private /tmp turns into a failure,
    # and the push, which has no remote to go to (and would need approval)
    assert [("ERROR (denied)" in r) for r in results[:4]] == [True, True, True, False]
    assert "ERROR (" in results[4] and "ERROR (denied)" in results[5]
    assert "No such file or directory" in results[3] or "Read-only" in results[3]
    assert "root:x:" not in json.dumps(server.requests)


def test_resume_continues_the_saved_conversation(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server(
        [
            fenced("code_edit", {"path": "calc.py", "old": "a - b", "new": "a + b"}),
            "TASK COMPLETE\nfixed after resuming",
        ]
    )
    first = build(server, calc_repo, cli_env, "--max-rounds", "1")
    assert first.returncode == 4, first.stderr
    job_id = pedro("jobs", "list", env=cli_env, cwd=calc_repo).stdout.split()[0]
    resumed = pedro("jobs", "resume", job_id, "--no-input", env=cli_env, cwd=calc_repo)  # same backend by default
    assert resumed.returncode == 0, resumed.stderr
    first_request, resumed_request = server.requests[0]["messages"], server.requests[1]["messages"]
    assert resumed_request[: len(first_request)] == first_request  # the same conversation, continued
    assert "a + b" in json.dumps(resumed_request[-1])
    record = json.loads((calc_repo / ".pedro" / "jobs" / job_id / "job.json").read_text())
    assert record["status"] == "completed"
    trace = (calc_repo / ".pedro" / "jobs" / job_id / "events.jsonl").read_text()
    seqs = [json.loads(line)["seq"] for line in trace.splitlines()]
    assert seqs == sorted(set(seqs))  # strictly increasing across both runs
    again = pedro("jobs", "resume", job_id, env=cli_env, cwd=calc_repo)
    assert again.returncode == 2 and "already completed" in again.stderr


@pytest.mark.serial
def test_ctrl_c_stops_the_tool_and_saves_the_job(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    import signal
    import time

    server = stub_server([fenced("bash", "sleep 60")])
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pedro",
            "build",
            "-d",
            "x",
            "--base-url",
            f"{server.url}/v1",
            "--model",
            "m",
            "--no-input",
        ],
        cwd=calc_repo,
        env=cli_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not server.requests and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.5)  # the bash call is running now
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=30)
    assert time.monotonic() - started < 5
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    job_id = pedro("jobs", "list", env=cli_env, cwd=calc_repo).stdout.split()[0]
    record = json.loads((calc_repo / ".pedro" / "jobs" / job_id / "job.json").read_text())
    assert record["status"] == "interrupted"


def test_a_job_that_changes_nothing_leaves_you_on_your_branch(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    (calc_repo / "notes.txt").write_text("my uncommitted notes\n")
    server = stub_server(["Let me think.", "Still thinking."])
    proc = pedro(
        "build", "-d", "Fix add()", "--base-url", f"{server.url}/v1", "--model", "m", "--no-input",
        "--max-rounds", "2", env=cli_env, cwd=calc_repo,
    )  # fmt: skip
    assert proc.returncode == 4, proc.stderr
    assert git(calc_repo, "branch", "--show-current").strip() == "main"
    assert git(calc_repo, "branch", "--list", "pedro/*").strip() == ""
    assert (calc_repo / "notes.txt").read_text() == "my uncommitted notes\n"
    assert "the job changed no file: back on main" in proc.stdout + proc.stderr


def test_a_job_that_changed_files_says_which_and_how_back(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    edit = fenced("code_edit", {"action": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"})
    server = stub_server([edit, "Done."])
    proc = pedro(
        "build", "-d", "Fix add()", "--base-url", f"{server.url}/v1", "--model", "m", "--no-input",
        "--max-rounds", "2", env=cli_env, cwd=calc_repo,
    )  # fmt: skip
    output = proc.stdout + proc.stderr
    branch = git(calc_repo, "branch", "--show-current").strip()
    assert branch.startswith("pedro/"), output
    assert f"the job changed 1 file: calc.py; you are on branch {branch}. `git switch main` returns you" in output


def test_the_request_as_an_argument_and_h_for_help(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server(["Looking."])
    proc = pedro(
        "build", "Fix add() in calc.py", "--base-url", f"{server.url}/v1", "--model", "m", "--no-input",
        "--max-rounds", "1", "--stream-json", env=cli_env, cwd=calc_repo,
    )  # fmt: skip
    assert "Fix add() in calc.py" in json.dumps(server.requests[0]["messages"])
    events = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert events and events[0]["type"] == "job.started"  # --stream-json alone means JSON events
    both = pedro("build", "one thing", "-d", "another", env=cli_env, cwd=calc_repo)
    assert both.returncode == 2 and "give the request once" in both.stderr
    assert "Usage: pedro build" in pedro("build", "-h", env=cli_env, cwd=calc_repo).stdout


def test_terminal_control_sequences_in_model_text_are_shown_not_obeyed(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    hostile = "Working.\x1b]0;pwned title\x07 and \x1b[2J cleared\rTASK COMPLETE\nDone \x1b[31mred\x1b[0m."
    server = stub_server([hostile])
    proc = pedro(
        "build", "Fix add", "--base-url", f"{server.url}/v1", "--model", "m", "--no-input", "--max-rounds", "1",
        env=cli_env, cwd=calc_repo,
    )  # fmt: skip
    shown = proc.stdout + proc.stderr
    assert "\x1b" not in shown and "\x07" not in shown
    assert "␛]0;pwned title␇" in shown and "␛[2J" in shown


def test_openai_base_url_and_key_are_honoured(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server(["Looking."])
    env = {**cli_env, "OPENAI_BASE_URL": f"{server.url}/v1", "OPENAI_API_KEY": "sk-test-123"}
    proc = pedro("build", "Fix add", "--backend", "openai", "--model", "m", "--no-input", "--max-rounds", "1",
                 env=env, cwd=calc_repo)  # fmt: skip
    assert "Traceback" not in proc.stderr
    assert len(server.requests) == 1, proc.stderr
    assert server.headers[0].get("Authorization") == "Bearer sk-test-123"


def test_a_finished_job_continues_with_a_new_message(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    edit = fenced("code_edit", {"action": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"})
    first = stub_server([edit, "TASK COMPLETE\nFixed add."])
    done = pedro("build", "Fix add", "--base-url", f"{first.url}/v1", "--model", "m", "--no-input",
                 env=cli_env, cwd=calc_repo)  # fmt: skip
    assert done.returncode == 0, done.stderr
    refused = pedro("jobs", "resume", "--last", env=cli_env, cwd=calc_repo)
    assert refused.returncode == 2 and "-m TEXT" in refused.stderr
    doc = fenced("code_edit", {"action": "replace", "path": "calc.py", "old": "def add(a, b):\n",
                               "new": 'def add(a, b):\n    """Sum."""\n'})  # fmt: skip
    second = stub_server([doc, "TASK COMPLETE\nAdded a docstring."])
    again = pedro("jobs", "resume", "--last", "-m", "Also give add a docstring.", "--base-url", f"{second.url}/v1",
                  "--no-input", env=cli_env, cwd=calc_repo)  # fmt: skip
    assert again.returncode == 0, again.stderr
    sent = second.requests[0]["messages"]
    assert sent[-1] == {"role": "user", "content": "Also give add a docstring."}
    assert any("Fixed add." in str(m.get("content")) for m in sent)  # the earlier conversation came along
    assert '"""Sum."""' in (calc_repo / "calc.py").read_text()


def test_a_turn_that_ended_unanswered_still_continues_with_a_new_message(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # The model is still writing when the job's time limit passes: the saved conversation has no reply.
    slow = stub_server(["Looking."], on_request=lambda _n: time.sleep(8))
    cut = pedro("build", "Fix add", "--base-url", f"{slow.url}/v1", "--model", "m", "--no-input", "--time-limit", "3",
                env=cli_env, cwd=calc_repo)  # fmt: skip
    assert "time limit" in cut.stderr, cut.stderr
    # The way on is more time, not more rounds.
    assert "--time-limit SECONDS` continues it with more time" in cut.stderr and "--max-rounds" not in cut.stderr
    edit = fenced("code_edit", {"action": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"})
    second = stub_server([edit, "TASK COMPLETE\nFixed add."])
    again = pedro("jobs", "resume", "--last", "-m", "add() subtracts; make it add.", "--base-url", f"{second.url}/v1",
                  "--no-input", env=cli_env, cwd=calc_repo)  # fmt: skip
    assert "no saved conversation" not in again.stderr and again.returncode == 0, again.stderr
    roles = [m["role"] for m in second.requests[0]["messages"]]
    assert roles[-3:] == ["user", "assistant", "user"]  # the unanswered turn is said, and the roles take turns
    assert second.requests[0]["messages"][-1]["content"] == "add() subtracts; make it add."


def test_jobs_clean_removes_merged_job_branches_and_old_snapshots_but_never_unique_commits(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    edit = fenced("code_edit", {"action": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"})
    jobs = []
    for committed in (False, True):
        server = stub_server([edit if not committed else edit.replace("a + b", "b + a"), "TASK COMPLETE\nok"])
        done = pedro("build", "Fix add", "--base-url", f"{server.url}/v1", "--model", "m", "--no-input",
                     *(() if committed else ("--no-commit",)), env=cli_env, cwd=calc_repo)  # fmt: skip
        assert done.returncode == 0, done.stderr
        branch = git(calc_repo, "branch", "--show-current").strip()
        jobs.append(branch)
        if not committed:  # the job's own commit is work only its branch has
            git(calc_repo, "checkout", "-q", "--", ".")
        git(calc_repo, "switch", "-q", "main")
    dry = pedro("jobs", "clean", "--older-than", "0", "--dry-run", env=cli_env, cwd=calc_repo)
    assert f"would remove branch {jobs[0]}" in dry.stdout and git(calc_repo, "branch", "--list", jobs[0]).strip()
    cleaned = pedro("jobs", "clean", "--older-than", "0", env=cli_env, cwd=calc_repo)
    assert cleaned.returncode == 0, cleaned.stderr
    assert f"removed branch {jobs[0]}" in cleaned.stdout
    assert f"kept branch {jobs[1]}: 1 commit(s) no other branch has" in cleaned.stdout
    assert git(calc_repo, "branch", "--list", jobs[0]).strip() == ""
    assert git(calc_repo, "branch", "--list", jobs[1]).strip()
    assert git(calc_repo, "for-each-ref", "refs/pedro/snapshots/").strip() == ""


def test_pedro_config_names_the_layer_of_each_key(calc_repo: Path, cli_env: dict[str, str]) -> None:
    (calc_repo / ".pedro.toml").write_text("[agent]\nmax_idle_replies = 2\n")
    env = {**cli_env, "PEDRO_MAX_ROUNDS": "7"}
    shown = pedro("config", env=env, cwd=calc_repo)
    assert shown.returncode == 0, shown.stderr
    assert "max_rounds = 7    # the environment (PEDRO_*)" in shown.stdout
    assert f"max_idle_replies = 2    # {calc_repo / '.pedro.toml'}" in shown.stdout
    assert "max_repeats = 3    # default" in shown.stdout
    data = json.loads(pedro("config", "--json", env=env, cwd=calc_repo).stdout)
    assert data["agent"]["max_rounds"] == {"value": 7, "from": "the environment (PEDRO_*)"}
    example = pedro("config", "--example", env=env, cwd=calc_repo).stdout
    assert "[backend]" in example and "instructions_max_chars" in example


def test_pedro_config_shows_profiles_presets_and_what_they_set(calc_repo: Path, cli_env: dict[str, str]) -> None:
    (calc_repo / ".pedro.toml").write_text(
        '[backend]\nmodel = "qwen3:8b"\n[sampling_profiles.careful]\ntemperature = 0.1\ntop_k = 40\n'
        '[models."qwen3*"]\nsampling_profile = "careful"\ntool_mode = "text"\n'
    )
    env = {**cli_env, "PEDRO_TOOL_CALLING__DENY_TOOLS": "bash,git"}
    shown = pedro("config", env=env, cwd=calc_repo)
    assert shown.returncode == 0, shown.stderr
    preset = f'the preset [models."qwen3*"] in {calc_repo / ".pedro.toml"}'
    assert f'tool_mode = "text"    # {preset}' in shown.stdout
    assert f'sampling_profile = "careful"    # {preset}' in shown.stdout
    assert 'top_k = 40    # the sampling profile "careful"' in shown.stdout
    assert "# top_p is not set    # default" in shown.stdout
    assert 'deny_tools = ["bash", "git"]    # the environment (PEDRO_*)' in shown.stdout
    assert '"qwen3*" = { sampling_profile = "careful", tool_mode = "text" }' in shown.stdout
    tomllib.loads(shown.stdout)  # what it shows is valid TOML


def test_a_bad_config_key_points_at_pedro_config_example(calc_repo: Path, cli_env: dict[str, str]) -> None:
    proc = pedro("build", "x", "--model", "m", env={**cli_env, "PEDRO_AGENT__MAX_ROUNDS": "zero"}, cwd=calc_repo)
    assert proc.returncode == 2 and "`pedro config --example`" in proc.stderr


def test_json_job_started_names_the_model_server_sandbox_snapshot_and_branch(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    server = stub_server([fenced("code_edit", {"path": "calc.py", "old": "a - b", "new": "a + b"}), "TASK COMPLETE"])
    proc = build(server, calc_repo, cli_env, "--json")
    started = json.loads(proc.stdout.splitlines()[0])
    assert started["type"] == "job.started"
    assert started["model"] == "m" and started["server"] == f"{server.url}/v1"
    assert started["sandbox"] and started["branch"] == f"pedro/{started['job_id']}"
    assert started["snapshot"] == f"refs/pedro/snapshots/{started['job_id']}/1"


def test_a_usage_error_leaves_nothing_git_status_shows(calc_repo: Path, cli_env: dict[str, str]) -> None:
    """The run lock is taken before the flags are all checked: its folder must not show up as untracked."""
    proc = pedro("build", "-d", "x", "--model-file", "/nowhere/m.gguf", "--no-input", env=cli_env, cwd=calc_repo)
    assert proc.returncode == 2 and "does not exist" in proc.stderr
    assert (calc_repo / ".pedro" / "run.lock").exists()
    assert git(calc_repo, "status", "--porcelain") == ""


def test_a_job_whose_start_snapshot_fails_ends_before_any_call_runs(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # The first snapshot is taken beside the first request; when it cannot be stored, the model's call never runs.
    (calc_repo / ".git" / "refs" / "pedro").write_text("in the way\n")
    server = stub_server([fenced("file", {"action": "write", "path": "new.py", "content": "x = 1\n"}), "TASK COMPLETE"])
    proc = build(server, calc_repo, cli_env, "--json")
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and not (calc_repo / "new.py").exists()
    events = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    finished = next(e for e in events if e["type"] == "job.finished")
    assert finished["reason"] == "unprotected" and "snapshot" in finished["summary"].lower()
    assert not [e for e in events if e["type"] == "tool_call.started"]
    assert git(calc_repo, "branch", "--show-current").strip() == "main"  # never switched to the job branch


def test_the_job_says_what_its_start_snapshot_leaves_out(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    (calc_repo / ".gitignore").write_text("dist/\n")
    (calc_repo / "dist").mkdir()
    (calc_repo / "dist" / "app.js").write_text("built\n")
    git(calc_repo, "add", ".gitignore")
    git(calc_repo, "commit", "-qm", "ignore dist")
    server = stub_server([fenced("file", {"action": "write", "path": "new.py", "content": "x = 1\n"}), "TASK COMPLETE"])
    proc = build(server, calc_repo, cli_env)
    assert proc.returncode == 0, proc.stderr
    said = proc.stdout + proc.stderr
    assert "not in the snapshot" in said and "dist" in said
