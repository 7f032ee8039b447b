"""pedro as an MCP client: a real stdio MCP server (tests/fixtures/mcp_server.py, the official SDK) configured in the
user's file, its tools called by the real `pedro build` through the dispatcher and the policy."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_util import build, fenced, processes_holding

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "mcp_server.py"


def user_config(env: dict[str, str], body: str) -> None:
    path = Path(env["XDG_CONFIG_HOME"]) / "pedro" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")


def notes_server(*, read_only: bool = False, command: str = sys.executable, long_names: bool = False) -> str:
    args = [str(FIXTURE), *(["--long-names"] if long_names else [])]
    return (
        f"[mcp.servers.notes]\ncommand = {json.dumps(command)}\nargs = {json.dumps(args)}\n"
        f"read_only = {str(read_only).lower()}\n"
    )


def tool_results(server: Any) -> str:
    """Everything pedro sent the model after its first reply (tool results and feedback)."""
    return "\n".join(json.dumps(request["messages"][2:]) for request in server.requests[1:])


WRITE = fenced("notes__write_note", {"path": "note.txt", "text": "from the server"})


def test_a_tool_of_an_mcp_server_is_in_doubt_and_refused_under_no_input(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    user_config(cli_env, notes_server())
    server = stub_server([WRITE, "TASK COMPLETE", "TASK COMPLETE", "TASK COMPLETE"])
    done = build(server, repo, cli_env)
    offered = [tool["function"]["name"] for tool in server.requests[0].get("tools", [])]
    assert {"notes__lookup", "notes__write_note", "file"} <= set(offered), offered
    assert not (repo / "note.txt").exists()
    said = tool_results(server)
    assert "notes__write_note is a tool of an MCP server" in said and "nobody can approve" in said, said
    assert "MCP tools: notes__lookup" in done.stderr


def test_a_read_only_server_runs_without_approval(repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    user_config(cli_env, notes_server(read_only=True))
    server = stub_server([fenced("notes__lookup", {"word": "pedro"}), WRITE, "TASK COMPLETE", "TASK COMPLETE"])
    build(server, repo, cli_env)
    said = tool_results(server)
    assert "pedro: a word the glossary knows" in said, said
    assert (repo / "note.txt").read_text() == "from the server"


def test_a_server_that_stops_is_a_notice_and_the_job_goes_on(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    user_config(cli_env, notes_server(read_only=True))
    calls = [fenced("notes__stop", {}), fenced("file", {"action": "read", "path": "README.md"}), "TASK COMPLETE"]
    server = stub_server([*calls, "TASK COMPLETE"])
    done = build(server, repo, cli_env)
    assert "MCP server notes is not available" in done.stderr
    assert "# sample" in tool_results(server)  # the job went on with its own tools
    offered = [tool["function"]["name"] for tool in server.requests[-1].get("tools", [])]
    assert "file" in offered and not any(name.startswith("notes__") for name in offered)


def test_a_server_that_cannot_start_is_a_notice(repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    user_config(cli_env, notes_server(command=str(repo / "no-such-program")))
    server = stub_server([fenced("file", {"action": "read", "path": "README.md"}), "TASK COMPLETE", "TASK COMPLETE"])
    done = build(server, repo, cli_env)
    assert "MCP server notes is not available" in done.stderr
    assert "# sample" in tool_results(server)


def test_the_server_sees_no_secret_of_pedros_environment(repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    user_config(cli_env, notes_server(read_only=True))
    cli_env["PEDRO_TEST_SECRET_TOKEN"] = "s3cr3t-value-123"
    server = stub_server([fenced("notes__show_env", {}), "TASK COMPLETE", "TASK COMPLETE"])
    build(server, repo, cli_env)
    assert "leaked=absent" in tool_results(server)


@pytest.mark.parametrize("table", ["[mcp.servers.x]\ncommand = 'sh'\n", "[mcp.roles]\nbuilder = ['x__*']\n"])
def test_a_repository_cannot_configure_mcp(repo: Path, stub_server: Any, cli_env: dict[str, str], table: str) -> None:
    (repo / ".pedro.toml").write_text(table)
    done = build(stub_server(["TASK COMPLETE"]), repo, cli_env)
    assert done.returncode == 2, done.stderr
    assert "may only be set in your user config file" in done.stderr and "Traceback" not in done.stderr


def test_the_policy_decides_a_call_in_doubt_by_mode_and_approval() -> None:
    from pedro.safety.policy import ExternalTool, Policy

    call = ExternalTool("notes__write_note")
    assert Policy().decide(call).verdict == "ask"
    assert Policy(approval="never").decide(call).verdict == "deny"
    assert Policy(mode="read-only").decide(call).verdict == "deny"
    assert Policy(mode="full-access").decide(call).verdict == "allow"


def test_a_url_server_whose_header_variable_is_unset_is_a_notice(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    cli_env.pop("TRACKER_AUTH", None)
    user_config(
        cli_env,
        '[mcp.servers.tracker]\nurl = "http://127.0.0.1:9/mcp"\nheaders_env = { Authorization = "TRACKER_AUTH" }\n',
    )
    server = stub_server(["TASK COMPLETE", "TASK COMPLETE"])
    done = build(server, repo, cli_env)
    assert "MCP server tracker is not available" in done.stderr and "export TRACKER_AUTH" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_environment_cannot_start_mcp_servers(tmp_path: Path) -> None:
    from pedro.config import load_config
    from pedro.errors import ConfigError

    with pytest.raises(ConfigError, match="mcp.servers may only be set in your user config file"):
        load_config(None, env={"PEDRO_MCP__SERVERS": "{}"}, user_file=tmp_path / "none.toml")


def test_mcp_roles_picks_a_roles_tools_and_prompt_tokens_bounds_them(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    user_config(cli_env, notes_server() + '\n[mcp]\nroles = { builder = ["notes__l*", "notes__show_env"] }\n')
    server = stub_server(["TASK COMPLETE", "TASK COMPLETE"])
    build(server, repo, cli_env)
    offered = {tool["function"]["name"] for tool in server.requests[0].get("tools", [])}
    assert {"notes__lookup", "notes__show_env"} <= offered and "notes__write_note" not in offered

    user_config(cli_env, notes_server() + "\n[mcp]\nprompt_tokens = 0\n")
    server = stub_server(["TASK COMPLETE", "TASK COMPLETE"])
    done = build(server, repo, cli_env)
    offered = {tool["function"]["name"] for tool in server.requests[0].get("tools", [])}
    assert "file" in offered and not any(name.startswith("notes__") for name in offered)
    assert "would pass [mcp].prompt_tokens (0): notes__lookup, notes__write_note" in done.stderr


def test_tools_whose_names_are_the_same_once_cut_get_names_of_their_own_and_a_notice(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    user_config(cli_env, notes_server(read_only=True, long_names=True))
    cut = ("notes__summarise_the_glossary_entries_for_every_word_in_the_project_alpha")[:64]
    numbered = cut[:62] + "_2"
    server = stub_server([fenced(cut, {}), fenced(numbered, {}), "TASK COMPLETE", "TASK COMPLETE"])
    done = build(server, repo, cli_env)
    offered = [tool["function"]["name"] for tool in server.requests[0].get("tools", [])]
    assert cut in offered and numbered in offered and all(len(name) <= 64 for name in offered), offered
    said = tool_results(server)
    assert "alpha answered" in said and "beta answered" in said, said
    assert f"is offered to the model as {numbered}" in done.stderr, done.stderr


def test_a_call_that_outlives_its_time_says_pedro_stopped_waiting_not_that_the_tool_stopped(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    user_config(cli_env, notes_server(read_only=True) + "timeout_s = 1\n")
    server = stub_server([fenced("notes__wait", {"seconds": 4}), "TASK COMPLETE", "TASK COMPLETE"])
    build(server, repo, cli_env)
    said = tool_results(server)
    assert "notes__wait did not answer within 1 s ([mcp.servers.notes].timeout_s): pedro stopped waiting" in said
    assert "the server may still be running it" in said and "was stopped" not in said, said


def test_a_server_that_writes_garbage_is_a_notice_and_the_librarys_traceback_goes_to_the_jobs_log(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    garbage = "import sys, time\nprint('this is not JSON-RPC', flush=True)\nsys.stdin.readline()\ntime.sleep(3)\n"
    user_config(
        cli_env,
        f'[mcp.servers.noisy]\ncommand = {json.dumps(sys.executable)}\nargs = ["-c", {json.dumps(garbage)}]\n'
        "[mcp]\nstartup_timeout_s = 2\n",
    )
    server = stub_server(["TASK COMPLETE", "TASK COMPLETE"])
    done = build(server, repo, cli_env)
    assert "MCP server noisy is not available" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    (log,) = (repo / ".pedro" / "jobs").glob("*/debug.log")
    assert "Failed to parse JSONRPC message from server" in log.read_text()  # kept, where a bug report finds it


def test_a_server_dropped_while_it_starts_ends_with_the_job(
    repo: Path, stub_server: Any, cli_env: dict[str, str], tmp_path: Path
) -> None:
    marker = f"slow-mcp-{tmp_path.name}"
    slow = f"import time\n# {marker}\ntime.sleep(60)\n"  # never answers the handshake
    user_config(
        cli_env,
        f'[mcp.servers.slow]\ncommand = {json.dumps(sys.executable)}\nargs = ["-c", {json.dumps(slow)}]\n'
        "[mcp]\nstartup_timeout_s = 1\n",
    )
    done = build(stub_server(["TASK COMPLETE", "TASK COMPLETE"]), repo, cli_env)
    assert "MCP server slow is not available (it did not start within" in done.stderr, done.stderr
    assert processes_holding(marker) == []
