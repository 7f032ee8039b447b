"""`pedro doctor` and pedro.backends.probe against stub servers on real sockets, real binaries and the real kernel."""

from __future__ import annotations

import errno
import json
import os
import re
import socket
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from cli_util import pedro as run_pedro

from pedro.backends.base import RetryPolicy
from pedro.backends.connection import Connection
from pedro.backends.llamacpp import LlamaCppBackend
from pedro.backends.managed import SMOKE_MARKER, cpu_identity
from pedro.backends.ollama import OllamaBackend
from pedro.backends.openai_compat import OpenAICompatBackend
from pedro.backends.probe import (
    PROBE_MAX_TOKENS,
    probe_model,
    probe_server,
    probe_template,
    probe_tool_calls,
)
from pedro.cli.doctor import (
    check_bubblewrap,
    check_git,
    check_landlock,
    check_llama_server,
    check_ripgrep,
)
from pedro.safety.sandbox import landlock_status

OPENAI_CALL = {
    "role": "assistant",
    "content": "",
    "tool_calls": [
        {"id": "call_0", "type": "function", "function": {"name": "echo", "arguments": '{"word": "ready"}'}}
    ],
}
OLLAMA_CALL = {
    "role": "assistant",
    "content": "",
    "tool_calls": [{"function": {"name": "echo", "arguments": {"word": "ready"}}}],
}
# Recorded from real servers: llama-server started with --no-jinja, and Ollama with a model lacking tool support.
LLAMA_NO_JINJA = (500, "tools param requires --jinja flag")
OLLAMA_NO_TOOLS = (400, "registry.ollama.ai/library/gemma2:2b does not support tools")

NO_RETRIES = RetryPolicy(max_retries=0)


B = TypeVar("B", OpenAICompatBackend, OllamaBackend, LlamaCppBackend)


@pytest.fixture
def own() -> Iterator[Callable[[B], B]]:
    """Close every backend a test makes, so no socket outlives it."""
    made: list[Any] = []

    def keep(backend: B) -> B:
        made.append(backend)
        return backend

    yield keep
    for backend in made:
        backend.close()


def pedro(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """`pedro doctor ARGS` as a real process."""
    return run_pedro("doctor", *args, env=env, cwd=cwd)


def doctor_json(*args: str, env: dict[str, str], cwd: Path) -> tuple[int, dict[str, Any]]:
    proc = pedro(*args, "--json", env=env, cwd=cwd)
    return proc.returncode, json.loads(proc.stdout)


def by_key(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {check["key"]: check for check in report["checks"]}


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def executable(path: Path, script: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + script + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


# -- the probe: native tool calls --------------------------------------------------------------------------------


def test_openai_native_call_is_reported_native(stub_server: Any, own: Any) -> None:
    server = stub_server([OPENAI_CALL])
    backend = own(OpenAICompatBackend(Connection(server.url + "/v1", retry=NO_RETRIES), "m"))
    probe = probe_tool_calls(backend)
    assert probe.verdict == "native"
    assert [(call.name, call.arguments) for call in probe.calls] == [("echo", {"word": "ready"})]
    (request,) = server.requests
    assert [tool["function"]["name"] for tool in request["tools"]] == ["echo"]
    assert request["max_tokens"] == PROBE_MAX_TOKENS and request["stream"] is False


def test_ollama_native_call_is_reported_native(stub_server: Any, own: Any) -> None:
    server = stub_server([OLLAMA_CALL])
    probe = probe_tool_calls(own(OllamaBackend(Connection(server.url, retry=NO_RETRIES), "m")))
    assert probe.verdict == "native" and probe.calls[0].arguments == {"word": "ready"}
    assert server.requests[0]["options"]["num_predict"] == PROBE_MAX_TOKENS


def test_llama_server_without_jinja_is_text_only(stub_server: Any, own: Any) -> None:
    server = stub_server(["ready"], reject_tools=LLAMA_NO_JINJA)
    probe = probe_tool_calls(own(LlamaCppBackend(Connection(server.url, retry=NO_RETRIES), "m")))
    assert probe.verdict == "text_only"
    assert probe.detail == "tools param requires --jinja flag"
    # The rejection is followed by one plain request that proves text mode can generate.
    assert ["tools" in request for request in server.requests] == [True, False]
    assert probe.reply == "ready"


def test_ollama_model_without_tools_is_text_only(stub_server: Any, own: Any) -> None:
    server = stub_server(["ready"], reject_tools=OLLAMA_NO_TOOLS)
    probe = probe_tool_calls(own(OllamaBackend(Connection(server.url, retry=NO_RETRIES), "m")))
    assert probe.verdict == "text_only" and "does not support tools" in probe.detail


def test_text_reply_with_a_readable_call(stub_server: Any, own: Any) -> None:
    server = stub_server(['```echo\n{"word": "ready"}\n```'])
    probe = probe_tool_calls(own(OpenAICompatBackend(Connection(server.url + "/v1", retry=NO_RETRIES), "m")))
    assert probe.verdict == "text_reply" and probe.text_call
    assert "in the reply text" in probe.detail


def test_text_reply_without_a_call(stub_server: Any, own: Any) -> None:
    server = stub_server(["I cannot call tools, sorry."])
    probe = probe_tool_calls(own(OpenAICompatBackend(Connection(server.url + "/v1", retry=NO_RETRIES), "m")))
    assert probe.verdict == "text_reply" and not probe.text_call and probe.reply == "I cannot call tools, sorry."


def test_a_failing_generation_is_failed_not_raised(stub_server: Any, own: Any) -> None:
    server = stub_server([], reject_tools=(500, "CUDA out of memory"))
    probe = probe_tool_calls(own(OpenAICompatBackend(Connection(server.url + "/v1", retry=NO_RETRIES), "m")))
    assert probe.verdict == "failed" and "CUDA out of memory" in probe.detail


# -- the probe: server, model, template ---------------------------------------------------------------------------


def test_unreachable_server_names_the_url(own: Any) -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    for backend in (
        own(OllamaBackend(Connection(url, retry=NO_RETRIES), "m")),
        own(OpenAICompatBackend(Connection(url + "/v1", retry=NO_RETRIES), "m")),
        own(LlamaCppBackend(Connection(url, retry=NO_RETRIES), "m")),
    ):
        server = probe_server(backend)
        assert not server.reachable and url in server.error and "connection refused" in server.error


def test_server_versions(stub_server: Any, own: Any) -> None:
    server = stub_server([])
    assert probe_server(own(OllamaBackend(Connection(server.url), "m"))).version == "0.0.0-stub"
    assert probe_server(own(LlamaCppBackend(Connection(server.url), "m"))).reachable


def test_openai_model_present_and_absent(stub_server: Any, own: Any) -> None:
    server = stub_server([], models=("qwen2.5-coder:7b", "llama3.1:8b"))
    present = probe_model(own(OpenAICompatBackend(Connection(server.url + "/v1"), "llama3.1:8b")))
    assert present.present is True
    absent = probe_model(own(OpenAICompatBackend(Connection(server.url + "/v1"), "gpt-4o")))
    assert absent.present is False and absent.available == ("qwen2.5-coder:7b", "llama3.1:8b")


def test_single_model_llama_server_answers_any_name(stub_server: Any, own: Any) -> None:
    server = stub_server([], models=("/models/Qwen3-8B-Q4_K_M.gguf",), owned_by="llamacpp")
    by_stem = probe_model(own(OpenAICompatBackend(Connection(server.url + "/v1"), "Qwen3-8B-Q4_K_M")))
    assert by_stem.present is True and not by_stem.serves_any_name
    other = probe_model(own(LlamaCppBackend(Connection(server.url), "whatever")))
    assert other.present is True and other.serves_any_name and "Qwen3-8B-Q4_K_M.gguf" in other.detail


def test_ollama_model_tags(stub_server: Any, own: Any) -> None:
    server = stub_server([], models=("llama3.2:latest", "qwen3:8b"), strict_models=True)
    assert probe_model(own(OllamaBackend(Connection(server.url), "llama3.2"))).present is True
    missing = probe_model(own(OllamaBackend(Connection(server.url), "mistral")))
    assert missing.present is False and "mistral" in missing.detail
    unnamed = probe_model(own(OllamaBackend(Connection(server.url), "")))
    assert unnamed.present is False and unnamed.available == ("llama3.2:latest", "qwen3:8b")


def test_template_caps(stub_server: Any, own: Any) -> None:
    yes = stub_server([], template_caps={"supports_tool_calls": True, "supports_tools": True})
    no = stub_server([], template_caps={"supports_tool_calls": False, "supports_tools": False})
    silent = stub_server([])
    assert probe_template(own(LlamaCppBackend(Connection(yes.url), "m"))).supports_tools is True  # type: ignore[union-attr]
    assert probe_template(own(LlamaCppBackend(Connection(no.url), "m"))).supports_tools is False  # type: ignore[union-attr]
    assert probe_template(own(LlamaCppBackend(Connection(silent.url), "m"))).supports_tools is None  # type: ignore[union-attr]
    assert probe_template(own(OpenAICompatBackend(Connection(yes.url + "/v1"), "m"))) is None


# -- the command ----------------------------------------------------------------------------------------------------


def test_doctor_openai_native(tmp_path: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server([OPENAI_CALL])
    args = ("--backend", "openai", "--base-url", server.url + "/v1", "--model", "m")
    code, report = doctor_json(*args, env=cli_env, cwd=tmp_path)
    assert code == 0 and report["usable"] is True and report["exit_code"] == 0
    checks = by_key(report)
    assert checks["server"]["status"] == "ok" and server.url in checks["server"]["detail"]
    assert checks["model"]["status"] == "ok"
    assert checks["tool_calls"]["status"] == "ok" and checks["tool_calls"]["detail"].startswith("native")
    assert report["tool_probe"]["verdict"] == "native"
    assert {"llama_server", "ripgrep", "git", "bubblewrap", "landlock"} <= checks.keys()


RECORDED_LLAMA_MODELS = Path(__file__).parent / "fixtures" / "recorded" / "llamacpp" / "models.json"


def test_the_window_a_llama_server_lists_is_the_window_pedro_uses(
    tmp_path: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    """llama-server's own /v1/models (meta.n_ctx 4096) through the OpenAI-compatible backend: the doctor reports
    the window a run uses, not "unknown" beside a fix naming the very number the server listed."""
    listing = json.loads(RECORDED_LLAMA_MODELS.read_text())["data"]
    server = stub_server([], listing=listing)
    args = ("--backend", "openai", "--base-url", server.url + "/v1", "--model", listing[0]["id"], "--no-probe")
    code, report = doctor_json(*args, env=cli_env, cwd=tmp_path)
    context = by_key(report)["context"]
    assert (code, context["status"], context["detail"]) == (0, "ok", "4096 tokens"), context
    backend = OpenAICompatBackend(Connection(server.url + "/v1"), "a-name-it-ignores")
    try:
        assert backend.context_window() == 4096  # one llama-server model serves any name
    finally:
        backend.close()


@pytest.mark.parametrize(
    ("kind", "url", "said"),
    [
        ("ollama", "{url}/v1", "drop /v1 ({url})"),
        ("ollama", "{url}/api/", "drop /api ({url})"),
        ("llamacpp", "{url}/v1", "drop /v1 ({url})"),
        ("ollama", "{host}", "add http:// ({url})"),
        ("openai", "{host}/v1", "add http:// ({url}/v1)"),
    ],
)
def test_a_mistaken_base_url_is_named_with_its_fix(
    tmp_path: Path, stub_server: Any, cli_env: dict[str, str], kind: str, url: str, said: str
) -> None:
    server = stub_server([], models=("qwen3:8b",))
    host = server.url.removeprefix("http://")
    given = url.format(url=server.url, host=host)
    proc = pedro("--backend", kind, "--base-url", given, "--model", "qwen3:8b", "--no-probe", env=cli_env, cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert said.format(url=server.url) in proc.stderr and "Traceback" not in proc.stderr
    assert "check the model name" not in proc.stdout + proc.stderr
    assert server.paths == []  # refused before anything is sent
    env = {**cli_env, "PEDRO_BASE_URL": given, "PEDRO_BACKEND": kind}
    proc = pedro("--model", "qwen3:8b", "--no-probe", env=env, cwd=tmp_path)
    assert proc.returncode == 2 and "PEDRO_BASE_URL" in proc.stderr, proc.stderr


def test_doctor_plain_text_is_aligned(tmp_path: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server([OPENAI_CALL])
    proc = pedro("--backend", "openai", "--base-url", server.url + "/v1", "--model", "m", env=cli_env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = proc.stdout.splitlines()[1:-1]
    assert rows and all(row[:6] in ("ok    ", "warn  ", "FAIL  ", "skip  ") for row in rows)
    # The detail column starts at the same offset on every row (names are padded to the longest).
    assert len({re.match(r"^\S+\s+.+?\s{2,}(?=\S)", row).end() for row in rows}) == 1  # type: ignore[union-attr]
    assert any(row.startswith("ok    native tool calls") and "native" in row for row in rows)
    assert proc.stdout.rstrip().endswith("backend usable")


def test_doctor_ollama_unknown_model_exits_3(tmp_path: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server([], models=("qwen3:8b",), strict_models=True)
    proc = pedro("--backend", "ollama", "--base-url", server.url, "--model", "llama3.2", env=cli_env, cwd=tmp_path)
    assert proc.returncode == 3
    line = next(row for row in proc.stdout.splitlines() if row.startswith("FAIL"))
    assert "'llama3.2' is not on the server (the server has: qwen3:8b)" in line
    assert "ollama pull llama3.2" in line
    assert server.requests == []  # an unknown model is not probed
    assert "Traceback" not in proc.stderr


def test_doctor_ollama_rejects_tools(tmp_path: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server(["ready"], reject_tools=OLLAMA_NO_TOOLS)
    code, report = doctor_json(
        "--backend", "ollama", "--base-url", server.url, "--model", "m", env=cli_env, cwd=tmp_path
    )
    assert code == 0
    tool = by_key(report)["tool_calls"]
    assert tool["status"] == "warn"
    assert tool["detail"] == f"text only (server rejected tools: {OLLAMA_NO_TOOLS[1]})"
    assert "ollama show m" in tool["fix"]
    assert by_key(report)["context"]["detail"] == "8192 tokens"


def test_doctor_openai_rejects_tools_with_400(tmp_path: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server(["ready"], reject_tools=(400, "tools are not supported by this model"))
    args = ("--backend", "openai", "--base-url", server.url + "/v1", "--model", "m")
    code, report = doctor_json(*args, env=cli_env, cwd=tmp_path)
    assert code == 0
    assert by_key(report)["tool_calls"]["detail"].startswith("text only (server rejected tools: tools are not")


def test_doctor_openai_unknown_model_lists_the_choices(
    tmp_path: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    server = stub_server([], models=("a", "b"))
    args = ("--backend", "openai", "--base-url", server.url + "/v1", "--model", "zzz")
    code, report = doctor_json(*args, env=cli_env, cwd=tmp_path)
    assert code == 3 and report["usable"] is False
    model = by_key(report)["model"]
    assert model["status"] == "fail" and "(the server has: a, b)" in model["detail"] and "--model" in model["fix"]
    assert by_key(report)["tool_calls"]["status"] == "skip"


def test_doctor_unreachable_exits_3_naming_the_url(tmp_path: Path, cli_env: dict[str, str]) -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    for kind, base in (("ollama", url), ("openai", url + "/v1"), ("llamacpp", url)):
        proc = pedro("--backend", kind, "--base-url", base, "--model", "m", env=cli_env, cwd=tmp_path)
        assert proc.returncode == 3, proc.stdout
        fail = next(row for row in proc.stdout.splitlines() if row.startswith("FAIL"))
        assert url in fail and "fix:" in fail
        # The local checks still run, so one command shows everything that is wrong.
        assert "git" in proc.stdout and "ripgrep" in proc.stdout


def test_doctor_no_probe_sends_no_generation(tmp_path: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server([OPENAI_CALL])
    args = ("--backend", "llamacpp", "--base-url", server.url, "--no-probe")
    code, report = doctor_json(*args, env=cli_env, cwd=tmp_path)
    assert code == 0 and server.requests == []
    checks = by_key(report)
    assert checks["tool_calls"]["status"] == "skip" and report["tool_probe"] is None
    assert checks["context"]["detail"] == "8192 tokens"
    assert checks["chat_template"]["status"] == "warn"  # the stub reports no chat_template_caps


@pytest.mark.parametrize(("kind", "path"), [("openai", "/v1"), ("llamacpp", ""), ("ollama", "")])
def test_doctor_no_probe_against_a_server_that_wants_a_key_is_not_usable(
    kind: str, path: str, tmp_path: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    server = stub_server([], api_key="sekrit")
    args = ("--backend", kind, "--base-url", server.url + path, "--model", "m", "--no-probe")
    proc = pedro(*args, env=cli_env, cwd=tmp_path)
    assert proc.returncode == 3, proc.stdout
    assert "backend usable" not in proc.stdout and "backend unusable" in proc.stdout
    fail = next(row for row in proc.stdout.splitlines() if row.startswith("FAIL"))
    assert "answered 401: Invalid API Key" in fail and "pedro sent none" in fail
    assert "api_key_env" in fail and "OPENAI_API_KEY" in fail


def test_doctor_names_the_variable_whose_key_was_refused(
    tmp_path: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    server = stub_server([], api_key="sekrit")
    args = ("--base-url", server.url + "/v1", "--model", "m", "--no-probe")
    env = {**cli_env, "PEDRO_BACKEND__API_KEY_ENV": "MY_KEY", "MY_KEY": "wrong"}
    code, report = doctor_json(*args, env=env, cwd=tmp_path)
    assert code == 3 and not report["usable"]
    access = by_key(report)["server"]
    assert access["status"] == "fail" and "the key in $MY_KEY was refused" in access["detail"]
    assert "check the value of MY_KEY" in access["fix"]
    code, report = doctor_json(*args, env={**env, "MY_KEY": "sekrit"}, cwd=tmp_path)
    assert code == 0 and report["usable"], report


def test_doctor_llamacpp_template_without_tools(tmp_path: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server(["plain words"], template_caps={"supports_tool_calls": False, "supports_tools": False})
    code, report = doctor_json("--backend", "llamacpp", "--base-url", server.url, env=cli_env, cwd=tmp_path)
    assert code == 0
    checks = by_key(report)
    assert "no tool calls" in checks["chat_template"]["detail"] and "--jinja" in checks["chat_template"]["fix"]
    assert checks["tool_calls"]["detail"].startswith("accepted but the model answered in text")


def test_doctor_bad_model_file_exits_3(tmp_path: Path, cli_env: dict[str, str]) -> None:
    bogus = tmp_path / "model.gguf"
    bogus.write_text("not a gguf")
    code, report = doctor_json("--model-file", str(bogus), env=cli_env, cwd=tmp_path)
    assert code == 3
    assert "could not start llama-server" in by_key(report)["server"]["detail"]
    # The header names the file asked about, not a server at a default URL nobody asked for.
    assert (report["backend"], report["base_url"], report["model_file"]) == ("llamacpp", "", str(bogus))
    shown = run_pedro("doctor", "--no-probe", "--model-file", str(bogus), env=cli_env, cwd=tmp_path).stdout
    assert shown.splitlines()[0] == f"pedro doctor: llama-server for {bogus}, model model", shown


@pytest.mark.parametrize(
    ("flags", "env", "said"),
    [
        (("--base-url", "htp:localhost:8080"), {}, "use http://localhost:8080"),
        (("--backend", "ollama"), {"OLLAMA_HOST": "htp:localhost:11434"}, "set it to http://localhost:11434"),
        (("--backend", "ollama"), {"OLLAMA_HOST": "htp://localhost:11434"}, "set it to http://localhost:11434"),
    ],
)
def test_a_mistyped_scheme_is_one_line_with_the_url_meant(
    flags: tuple[str, ...], env: dict[str, str], said: str, repo: Path, cli_env: dict[str, str]
) -> None:
    for command in (("doctor", "--no-probe"), ("build", "--no-input", "--model", "m", "-d", "add sub()")):
        proc = run_pedro(*command, *flags, env={**cli_env, **env}, cwd=repo)
        assert proc.returncode == 2, (command, proc.stderr)
        assert said in proc.stderr and "internal error" not in proc.stderr, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


# -- the machine ----------------------------------------------------------------------------------------------------


def test_bubblewrap_missing_names_the_package() -> None:
    check = check_bubblewrap(None)
    assert check.status == "warn" and check.fix == "apt-get install bubblewrap"


def test_bubblewrap_that_cannot_create_namespaces(tmp_path: Path) -> None:
    fake = executable(tmp_path / "bwrap", 'echo "bwrap: setting up uid map: Permission denied" >&2; exit 1')
    check = check_bubblewrap(str(fake))
    assert check.status == "warn" and "setting up uid map: Permission denied" in check.detail
    assert "apparmor_restrict_unprivileged_userns" in check.fix


def test_bubblewrap_receives_the_probe_argv(tmp_path: Path) -> None:
    seen = tmp_path / "argv"
    fake = executable(tmp_path / "bwrap", f'echo "$@" > {seen}; exit 0')
    assert check_bubblewrap(str(fake)).status == "ok"
    assert seen.read_text().split() == ["--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "true"]


def test_real_bubblewrap_if_installed() -> None:
    import shutil

    binary = shutil.which("bwrap")
    if binary is None:
        pytest.skip("bubblewrap is not installed")
    ran = subprocess.run([binary, "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "true"], check=False)
    assert (check_bubblewrap(binary).status == "ok") == (ran.returncode == 0)


def test_landlock_abi_matches_the_kernel() -> None:
    abi, err = landlock_status()
    check = check_landlock()
    if abi is None:
        assert err in (errno.ENOSYS, errno.EOPNOTSUPP, errno.EPERM)
        assert check.status == "warn" and check.detail.startswith("unavailable") and check.fix
    else:
        assert abi >= 1 and err == 0
        assert check.status == "ok" and check.detail == f"ABI {abi}"


def test_git_and_ripgrep_report_versions() -> None:
    git = check_git()
    assert git.status == "ok" and "git version" in git.detail
    rg = check_ripgrep()
    assert rg.status == "ok" and "ripgrep" in rg.detail


def test_llama_server_found_or_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setenv("PEDRO_LLAMA_CACHE", str(tmp_path / "cache"))
    missing = check_llama_server()
    assert missing.status == "warn" and "install-llama-server" in missing.fix
    binary = executable(tmp_path / "cache" / "bin" / "llama-server", 'echo "version: 4242 (abc)" >&2')
    # Installed and tried on this CPU by scripts/install-llama-server: no need to try again.
    (tmp_path / "cache" / SMOKE_MARKER).write_text(cpu_identity() + "\n")
    found = check_llama_server()
    assert found.status == "ok" and str(binary) in found.detail and "version: 4242 (abc)" in found.detail
    assert "served a model on this CPU" in found.detail


def test_the_install_command_the_doctor_names_is_installed_with_pedro() -> None:
    """pip puts the installer beside the pedro command: the fix works without a source checkout or make."""
    from pedro.backends.managed import INSTALL_HINT

    installer = Path(sys.executable).parent / "install-llama-server"
    assert "make install" not in INSTALL_HINT and INSTALL_HINT.startswith("run install-llama-server ")
    assert installer.is_file() and os.access(installer, os.X_OK), f"{installer} is not installed"
    shown = subprocess.run([installer, "--help"], capture_output=True, text=True, check=False, timeout=30)
    assert shown.returncode == 0 and "PEDRO_LLAMA_CACHE" in shown.stdout and "set -e" not in shown.stdout
    helper = subprocess.run(
        [Path(sys.executable).parent / "install-model", "--help"], capture_output=True, text=True, timeout=30
    )
    assert helper.returncode == 0 and "smollm2" in helper.stdout


def test_a_binary_that_prints_its_version_but_cannot_serve_a_model_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gguf_util import gguf_bytes

    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setenv("PEDRO_LLAMA_CACHE", str(tmp_path / "cache"))
    # What a binary built for another CPU does: --version works, loading a model kills it with SIGILL.
    executable(
        tmp_path / "cache" / "bin" / "llama-server",
        'case "$1" in --version) echo "version: 1 (x)" >&2; exit 0;; --help) exit 0;; esac; kill -ILL $$',
    )
    model = tmp_path / "m.gguf"
    model.write_bytes(gguf_bytes([("general.architecture", 8, "llama"), ("tokenizer.chat_template", 8, "x")]))
    check = check_llama_server(model)
    assert check.status == "fail"
    assert "SIGILL" in check.detail and "PEDRO_LLAMA_METHOD=source" in check.detail
    (tmp_path / "cache" / "SMOKE_OK").write_text("another-cpu\n")
    assert check_llama_server(model).status == "fail"  # a marker from another CPU vouches for nothing


# -- the real thing -------------------------------------------------------------------------------------------------


@pytest.mark.e2e
def test_doctor_against_a_real_llama_server(tmp_path: Path, cli_env: dict[str, str]) -> None:
    from pedro.backends.managed import find_llama_server, find_smollm2_gguf

    model = find_smollm2_gguf()
    if model is None or find_llama_server() is None:
        pytest.skip("needs scripts/install-llama-server and scripts/install-model")
    code, report = doctor_json("--model-file", str(model), env=cli_env, cwd=tmp_path)
    assert code == 0, report
    checks = by_key(report)
    assert checks["server"]["status"] == "ok" and report["base_url"].startswith("http://127.0.0.1:")
    assert checks["model"]["status"] == "ok" and checks["context"]["detail"] == "8192 tokens"
    # SmolLM2-135M's template has no tools; the server takes the field and the model answers in prose.
    assert checks["chat_template"]["status"] == "warn"
    assert report["tool_probe"]["verdict"] in ("text_reply", "native")


# -- a model served without its chat template ----------------------------------------------------------------------


def test_a_template_less_model_on_the_chatml_fallback_is_named_with_the_fix(
    stub_server: Any, own: Any, tmp_path: Path
) -> None:
    from gguf_util import gguf_bytes

    from pedro.backends.probe import describe_missing_template, missing_template

    chatml = "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n'}}{% endfor %}"
    gemma = tmp_path / "gemma.gguf"
    gemma.write_bytes(gguf_bytes([("general.architecture", 8, "gemma3")]))
    server = stub_server([], props={"model_path": str(gemma), "chat_template": chatml})
    missing = missing_template(own(LlamaCppBackend(Connection(server.url, retry=NO_RETRIES), "m")))
    assert missing == (str(gemma), "gemma")
    problem, fix = describe_missing_template(*missing)
    assert "has no chat template" in problem and "--chat-template-file" in fix and "gemma.jinja" in fix
    # Served with a template of its own, or the model's file carries one, or a file pedro cannot see: nothing to say.
    pedros = stub_server([], props={"model_path": str(gemma), "chat_template": "<start_of_turn>user"})
    assert missing_template(own(LlamaCppBackend(Connection(pedros.url, retry=NO_RETRIES), "m"))) is None
    own_template = tmp_path / "own.gguf"
    own_template.write_bytes(gguf_bytes([("general.architecture", 8, "gemma3"), ("tokenizer.chat_template", 8, "x")]))
    with_own = stub_server([], props={"model_path": str(own_template), "chat_template": chatml})
    assert missing_template(own(LlamaCppBackend(Connection(with_own.url, retry=NO_RETRIES), "m"))) is None
    remote = stub_server([], props={"model_path": "/models/elsewhere.gguf", "chat_template": chatml})
    assert missing_template(own(LlamaCppBackend(Connection(remote.url, retry=NO_RETRIES), "m"))) is None
