"""A real HTTP server on 127.0.0.1 whose chat replies never finish: headers, a head, then the same beat forever."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SSE_KEEP_ALIVE = b": keep-alive\n\n"


@dataclass
class EndlessServer:
    """Paths in `answers` get that JSON at once; every other POST is a 200 reply that never ends.

    The beat is what servers and proxies send to keep a slow reply's connection open: an SSE comment, a blank
    NDJSON line, or whitespace before a JSON body. It is bounded by `give_up` seconds so that a client which
    never stops waiting fails its test instead of hanging it; the server then closes the connection mid-reply.
    """

    content_type: str = "text/event-stream"
    head: bytes = b""
    beat: bytes = SSE_KEEP_ALIVE
    beats: Callable[[int], bytes] | None = None
    """The n-th beat (0, 1, ...) when they differ: a model that keeps writing new tokens."""
    interval: float = 0.05
    give_up: float = 20.0
    answers: dict[str, Any] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)
    sent: int = 0
    """Beats written so far, over all requests."""
    url: str = ""
    _server: ThreadingHTTPServer | None = None

    def start(self) -> EndlessServer:
        endless = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_: Any) -> None:
                return

            def do_GET(self) -> None:
                endless.requests.append(f"GET {self.path}")
                self._answer(endless.answers.get(self.path, {}))

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                endless.requests.append(f"POST {self.path}")
                if self.path in endless.answers:
                    self._answer(endless.answers[self.path])
                    return
                self.send_response(200)
                self.send_header("Content-Type", endless.content_type)
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                ends = time.monotonic() + endless.give_up
                try:
                    self.wfile.write(endless.head)
                    while time.monotonic() < ends:
                        self.wfile.write(endless.beat if endless.beats is None else endless.beats(endless.sent))
                        self.wfile.flush()
                        endless.sent += 1
                        time.sleep(endless.interval)
                except OSError:
                    return  # the client hung up: what a client that keeps a time limit does

            def _answer(self, payload: Any) -> None:
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True).start()  # stop() waits a poll
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
