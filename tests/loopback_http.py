"""What the loopback fake servers (``tests.ollama_server``, ``tests.openai_server``) share.

Each fake serves on a thread of its own and tracks every connection and handler thread, so
``stop()`` can hang up on them and join them within a bound, and a test's teardown can fail
when one is left running. The handlers share the plumbing: JSON in and out, a chunked body
that notices a client hanging up (how Stop looks from the server's side).
"""

from __future__ import annotations

import contextlib
import json
import select
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class Disconnected(Exception):
    """The client hung up while the server was answering."""


@dataclass
class RecordedRequest:
    method: str
    path: str
    body: Any


class LoopbackFake:
    """A scriptable server's lifecycle; a subclass says which server and handler serve it."""

    thread_name = "fake-server"

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self.disconnected = threading.Event()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: LoopbackServer[Any] | None = None
        self._thread: threading.Thread | None = None

    def _server(self, address: tuple[str, int]) -> LoopbackServer[Any]:
        """The HTTP server for ``address``, with this fake's handler."""
        raise NotImplementedError

    # --------------------------------------------------------------- control
    def start(self, port: int = 0, host: str = "127.0.0.1") -> Self:
        self._stopping.clear()  # a server can be stopped and started again ("Ollama is back")
        self._httpd = self._server((host, port))
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        kwargs={"poll_interval": 0.05}, name=self.thread_name,
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> int:
        """Stop serving, hang up on open connections, join handlers; returns threads left."""
        if self._httpd is None:
            return 0
        self._stopping.set()
        self._httpd.shutdown()
        left = self._httpd.close_all(timeout)
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout)
        self._httpd = None
        return left

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @contextlib.contextmanager
    def running(self) -> Iterator[Self]:
        """Started for a test; stopped afterwards, failing when a handler thread is left."""
        self.start()
        try:
            yield self
        finally:
            left = self.stop()
            assert left == 0, f"{left} {type(self).__name__} handler threads did not end"

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # ------------------------------------------------------------- internals
    def _record(self, method: str, path: str, body: Any) -> None:
        with self._lock:
            self.requests.append(RecordedRequest(method, path, body))

    def wait(self, seconds: float) -> bool:
        """Sleep inside the server, waking early on stop; True if stopping."""
        return self._stopping.wait(seconds) if seconds > 0 else self._stopping.is_set()


class LoopbackServer[F: LoopbackFake](ThreadingHTTPServer):
    """Tracks connections and handler threads so stop() can end them all, bounded."""

    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True
    conn_thread_name: str | None = None  # None: threading's default name

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler],
                 fake: F) -> None:
        self.fake = fake
        self._conns: set[socket.socket] = set()
        self._workers: list[threading.Thread] = []
        self._conn_lock = threading.Lock()
        super().__init__(address, handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        thread = threading.Thread(target=self.process_request_thread,
                                  args=(request, client_address), daemon=True,
                                  name=self.conn_thread_name)
        with self._conn_lock:
            self._conns.add(request)
            self._workers = [t for t in self._workers if t.is_alive()]
            self._workers.append(thread)
        thread.start()

    def shutdown_request(self, request: Any) -> None:
        with self._conn_lock:
            self._conns.discard(request)
        super().shutdown_request(request)

    def close_all(self, timeout: float) -> int:
        with self._conn_lock:
            conns, workers = list(self._conns), list(self._workers)
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        deadline = time.monotonic() + timeout
        for thread in workers:
            thread.join(max(0.0, deadline - time.monotonic()))
        return sum(t.is_alive() for t in workers)


class LoopbackHandler[F: LoopbackFake](BaseHTTPRequestHandler):
    """JSON in and out, and chunked streams that raise ``Disconnected`` on a hang-up."""

    protocol_version = "HTTP/1.1"
    server: LoopbackServer[F]
    stream_type = "application/octet-stream"  # a streamed answer's Content-Type
    json_separators: tuple[str, str] | None = None  # None: json.dumps' default

    def log_message(self, format: str, *args: Any) -> None:
        pass

    @property
    def fake(self) -> F:
        return self.server.fake

    def _dumps(self, payload: Any) -> bytes:
        return json.dumps(payload, separators=self.json_separators).encode()

    def _body(self) -> Any:
        """The request's JSON body; its text when it is not JSON, None when empty."""
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return raw.decode(errors="replace")

    def _json(self, status: int, payload: Any) -> None:
        data = self._dumps(payload)
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _start_stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", self.stream_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def _peer_closed(self) -> bool:
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            return bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def _write(self, data: bytes) -> None:
        """One chunk of the streamed body."""
        if self._peer_closed():
            raise Disconnected
        try:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError) as exc:
            raise Disconnected from exc

    def _end_stream(self) -> None:
        with contextlib.suppress(OSError):
            self.wfile.write(b"0\r\n\r\n")

    def _hang_up(self, partial: bytes = b"") -> None:
        """Drop the connection mid-body (no terminating chunk)."""
        with contextlib.suppress(OSError):
            if partial:
                self.wfile.write(partial)
            self.connection.shutdown(socket.SHUT_RDWR)
        self.close_connection = True
