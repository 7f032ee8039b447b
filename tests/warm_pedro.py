"""`python -m pedro` for the tests without paying its imports each time: a process that has imported pedro forks a child
per run, and the child runs pedro's `__main__` with the run's arguments, folder, environment and streams.

The CLI tests start some five hundred pedro processes, and half of each one's CPU is its imports: on two cores that
is minutes of the suite. A child is still a process of its own (its pid, exit status, signals, streams and the
processes it starts are its own), only its imports were done before it was forked; what is read from the
environment while Python starts (PYTHON*, the locale) is the one thing the fork cannot change, so a run whose
environment sets those has a warm process started with them, and a run that passes interpreter flags starts a
process of its own as before.
PEDRO_TESTS_COLD=1 starts every run that way.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

# What Python reads from the environment as it starts, before any code runs: a fork keeps the parent's.
_READ_AT_START = re.compile(r"^(PYTHON|LC_|LANG$|LANGUAGE$)")
_RUN_IMPORTS = ("pedro.cli.app", "pedro.loop.assembly", "pedro.jobs.service", "pedro.repair.pipeline", "pedro.startup")

_SERVER = r"""
import json, os, runpy, selectors, socket, sys, time

for name in sys.argv[2:]:
    __import__(name)

def serve(path):
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "accept")
    selector.register(0, selectors.EVENT_READ, "parent")  # its end of the pipe closes when the tests end
    os.write(1, b"ready\n")
    while True:
        for key, _ in selector.select():
            if key.data == "parent":
                return None
            if key.data == "accept":
                conn, _ = listener.accept()
                head, fds, _, _ = socket.recv_fds(conn, 65536, 3)
                size, _, body = head.partition(b"\n")
                while len(body) < int(size):
                    body += conn.recv(65536)
                pid = os.fork()
                if pid == 0:
                    selector.close()
                    listener.close()
                    conn.close()
                    return json.loads(body), fds
                for fd in fds:
                    os.close(fd)
                pidfd = os.pidfd_open(pid)
                selector.register(pidfd, selectors.EVENT_READ, (pid, conn))
                conn.sendall(b"%d\n" % pid)
            else:
                pid, conn = key.data
                selector.unregister(key.fileobj)
                os.close(key.fileobj)
                _, status = os.waitpid(pid, 0)
                try:
                    conn.sendall(b"%d\n" % os.waitstatus_to_exitcode(status))
                except OSError:
                    pass  # the test gave up on it
                conn.close()

served = serve(sys.argv[1])
if served is None:
    sys.exit(0)
request, fds = served
for target, fd in enumerate(fds):
    os.dup2(fd, target)
    os.close(fd)
os.chdir(request["cwd"])
os.environ.clear()
os.environ.update(request["env"])
time.tzset()
sys.path[0] = os.getcwd()
sys.argv = ["pedro", *request["args"]]
code = 0
try:
    runpy.run_module("pedro", run_name="__main__", alter_sys=True)
except SystemExit as exit:
    code = exit.code
# What ending the interpreter does that can be seen, without tearing down every module it holds (a tenth of a
# second with pedro's imports): wait for the threads that are not daemons, run the exit handlers, flush the streams.
import atexit, threading
threading._shutdown()
atexit._run_exitfuncs()
for stream in (sys.stdout, sys.stderr):
    try:
        stream.flush()
    except (OSError, ValueError):
        pass
if code is None:
    code = 0
elif not isinstance(code, int):
    print(code, file=sys.stderr, flush=True)
    code = 1
os._exit(code)
"""


_Startup = frozenset[tuple[str, str]]


def _startup(env: dict[str, str]) -> _Startup:
    """The variables of `env` that Python reads as it starts."""
    return frozenset((name, value) for name, value in env.items() if _READ_AT_START.match(name))


class _Server:
    """One warm process per test worker and per set of the variables Python reads as it starts, started on first
    use with those variables."""

    def __init__(self, startup: _Startup) -> None:
        self.folder = tempfile.mkdtemp(prefix="pedro-warm-")
        self.path = f"{self.folder}/socket"
        env = {name: value for name, value in os.environ.items() if not _READ_AT_START.match(name)}
        self.process = subprocess.Popen(
            [sys.executable, "-c", _SERVER, self.path, *_RUN_IMPORTS],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**env, **dict(startup)},
        )
        assert self.process.stdout is not None
        if self.process.stdout.readline() != b"ready\n":
            raise OSError("the warm pedro did not start")

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=10)
        Path(self.path).unlink(missing_ok=True)
        Path(self.folder).rmdir()


_SERVERS: dict[tuple[int, _Startup], _Server] = {}
_STARTING = threading.Lock()


def _server(env: dict[str, str]) -> _Server | None:
    if os.environ.get("PEDRO_TESTS_COLD") == "1":
        return None
    key = (os.getpid(), _startup(env))
    with _STARTING:
        server = _SERVERS.get(key)
        if server is None or server.process.poll() is not None:
            try:
                server = _SERVERS[key] = _Server(key[1])
            except OSError:
                return None
    return server


@atexit.register
def _close_servers() -> None:
    for key in [key for key in _SERVERS if key[0] == os.getpid()]:
        _SERVERS.pop(key).close()


def run(
    args: list[str], *, env: dict[str, str], cwd: Path, stdin: str | None, timeout: float
) -> subprocess.CompletedProcess[str] | None:
    """`python -m pedro ARGS` run by a child of the warm process, as subprocess.run with capture_output and text
    would run it; None where the warm process cannot run it the same way (the caller starts a process itself)."""
    server = _server(env)
    if server is None:
        return None
    in_read, in_write = os.pipe() if stdin is not None else (0, -1)
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(server.path)
        body = json.dumps({"args": args, "cwd": str(cwd), "env": env}).encode()
        socket.send_fds(conn, [b"%d\n" % len(body) + body], [in_read, out_write, err_write])
    finally:
        for fd in (in_read, out_write, err_write):
            if fd > 2:
                os.close(fd)
    replies = conn.makefile("rb")
    pid = int(replies.readline())
    read: dict[int, bytes] = {}
    readers = [threading.Thread(target=_read_all, args=(fd, read), daemon=True) for fd in (out_read, err_read)]
    if stdin is not None:
        readers.append(threading.Thread(target=_write_all, args=(in_write, stdin.encode()), daemon=True))
    for reader in readers:
        reader.start()
    conn.settimeout(timeout)
    try:
        line = replies.readline()
    except TimeoutError:
        os.kill(pid, signal.SIGKILL)
        raise subprocess.TimeoutExpired(["pedro", *args], timeout) from None
    finally:
        for reader in readers:
            reader.join()
        conn.close()
    return subprocess.CompletedProcess(
        [sys.executable, "-m", "pedro", *args], int(line), _text(read[out_read]), _text(read[err_read])
    )


def _read_all(fd: int, read: dict[int, bytes]) -> None:
    chunks = []
    with os.fdopen(fd, "rb") as stream:
        while chunk := stream.read1(1 << 16):
            chunks.append(chunk)
    read[fd] = b"".join(chunks)


def _write_all(fd: int, data: bytes) -> None:
    with os.fdopen(fd, "wb") as stream:
        try:
            stream.write(data)
        except BrokenPipeError:
            pass  # pedro ended without reading it all, as subprocess.run allows


def _text(data: bytes) -> str:
    """As subprocess.run's text mode decodes: the locale's encoding, universal newlines."""
    return data.decode(errors="strict").replace("\r\n", "\n").replace("\r", "\n")
