"""A loopback fake of Ollama's HTTP API for tests (stdlib only).

It speaks the wire format the real server uses (see shared/notes/platform-facts.md):
NDJSON chunked streams for ``/api/chat`` and ``/api/pull``, JSON errors with HTTP status codes,
an ``{"error": ...}`` line mid-stream. Each test scripts the behaviour (models, replies, cut
streams, delays, Ollama's silent prompt truncation) and then asserts on what the app sent
(``requests``) and on what happened to each stream (``streams``: finished, cut, or the client
hung up, which is how Stop must look from the server's side).

Use the ``ollama_server`` fixture (``pytest_plugins = ["tests.ollama_server"]``) or run
``python -m tests.ollama_server --port N`` (without ``--port`` the port of $OLLAMA_HOST is used,
so a fake ``ollama`` executable can simply exec this module).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import datetime as _dt
import json
import os
import re
import select
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

VERSION = "0.12.6"
_WORD = re.compile(r"\w+|[^\w\s]")
_PIECE = re.compile(r"\s*\S+|\s+")


def estimate_tokens(text: str) -> int:
    """A crude tokenizer (words and punctuation) standing in for the model's own."""
    return len(_WORD.findall(text))


def split_pieces(text: str) -> list[str]:
    """Reply text -> streamed pieces, one per word, keeping the whitespace."""
    return _PIECE.findall(text) or ([text] if text else [])


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat().replace("+00:00", "Z")


@dataclass
class FakeModel:
    name: str
    family: str = "llama"
    parameter_size: str = "8.0B"
    context_length: int | None = 131072
    quantization: str = "Q4_K_M"
    size: int = 4_920_000_000

    def tag(self) -> dict[str, Any]:
        return {
            "name": self.name, "model": self.name, "modified_at": "2026-10-01T12:00:00Z",
            "size": self.size, "digest": f"{abs(hash(self.name)):064x}"[:64],
            "details": self.details(),
        }

    def details(self) -> dict[str, Any]:
        return {"parent_model": "", "format": "gguf", "family": self.family,
                "families": [self.family], "parameter_size": self.parameter_size,
                "quantization_level": self.quantization}


@dataclass
class Reply:
    """One scripted answer to ``/api/chat``."""

    text: str = "Hello from the fake Ollama."
    chunks: list[str] | None = None  # explicit pieces instead of splitting ``text``
    http_status: int | None = None  # fail before any output with this status
    error: str = "something went wrong"  # message for http_status / error line
    error_after: int | None = None  # an {"error"} line after this many chunks
    cut_after: int | None = None  # drop the connection after this many chunks
    cut_mid_chunk: bool = False  # with cut_after: leave a chunk half-written
    end_without_done: bool = False  # close the body properly but never send done
    delay_before: float = 0.0
    delay_per_chunk: float = 0.0
    done_reason: str = "stop"
    prompt_eval_count: int | None = None  # override the computed count
    trailing_chunks: int = 0  # (misbehaving server) more content lines after done

    def pieces(self) -> list[str]:
        return list(self.chunks) if self.chunks is not None else split_pieces(self.text)


@dataclass
class RecordedRequest:
    method: str
    path: str
    body: Any


@dataclass
class StreamRecord:
    """What happened to one streamed reply, as seen by the server."""

    model: str
    planned: int
    sent: int = 0
    outcome: str = "running"  # done | disconnected | cut | error | stopped
    prompt_eval_count: int | None = None
    truncated: bool = False
    finished: threading.Event = field(default_factory=threading.Event)


class _Disconnected(Exception):
    pass


class FakeOllama:
    """The scriptable server. Thread-safe: handlers run on their own threads."""

    def __init__(self, models: list[FakeModel] | None = None) -> None:
        self.models: list[FakeModel] = list(models) if models is not None else [
            FakeModel("llama3.2:3b", "llama", "3.2B", 131072),
            FakeModel("gemma3:270m", "gemma3", "268.10M", 32768, "Q8_0", 291_000_000),
        ]
        self.pullable: dict[str, FakeModel] = {}
        self.replies: collections.deque[Reply] = collections.deque()
        self.reply_fn: Callable[[dict[str, Any]], str | Reply] | None = None
        self.default_reply = Reply()
        self.truncate_to_num_ctx = False  # simulate Ollama dropping the oldest messages
        self.prompt_scale = 1.0  # the "model tokenizer" counts this much more than ours
        self.version = VERSION
        self.path_delays: dict[str, float] = {}
        self.path_failures: dict[str, collections.deque[tuple[int, str]]] = {}
        self.pull_delay = 0.0
        self.requests: list[RecordedRequest] = []
        self.streams: list[StreamRecord] = []
        self.loaded: dict[str, int] = {}  # model -> num_ctx of its last load
        self.disconnected = threading.Event()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # --------------------------------------------------------------- control
    def start(self, port: int = 0, host: str = "127.0.0.1") -> FakeOllama:
        self._stopping.clear()  # a server can be stopped and started again ("Ollama is back")
        self._httpd = _Server((host, port), _Handler, self)
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        kwargs={"poll_interval": 0.05}, name="fake-ollama",
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

    def __enter__(self) -> FakeOllama:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # -------------------------------------------------------------- scripting
    def script(self, *replies: Reply | str) -> None:
        for reply in replies:
            self.replies.append(Reply(text=reply) if isinstance(reply, str) else reply)

    def fail(self, path: str, status: int, error: str, times: int = 1) -> None:
        """The next ``times`` requests to ``path`` answer ``status {"error": error}``."""
        queue = self.path_failures.setdefault(path, collections.deque())
        queue.extend([(status, error)] * times)

    def chat_requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r.body for r in self.requests if r.path == "/api/chat"]

    # ------------------------------------------------------------- internals
    def _record(self, method: str, path: str, body: Any) -> None:
        with self._lock:
            self.requests.append(RecordedRequest(method, path, body))

    def _model(self, name: str) -> FakeModel | None:
        with self._lock:
            for model in self.models:
                if model.name == name or model.name == f"{name}:latest":
                    return model
        return None

    def _next_reply(self, request: dict[str, Any]) -> Reply:
        with self._lock:
            if self.replies:
                return self.replies.popleft()
        if self.reply_fn is not None:
            result = self.reply_fn(request)
            return Reply(text=result) if isinstance(result, str) else result
        return self.default_reply

    def _failure(self, path: str) -> tuple[int, str] | None:
        with self._lock:
            queue = self.path_failures.get(path)
            return queue.popleft() if queue else None

    def prompt_count(self, messages: list[dict[str, Any]], num_ctx: int | None,
                     ) -> tuple[int, bool]:
        """Ollama's prompt_eval_count for ``messages``; truncates like Ollama when enabled."""
        counts = [round((estimate_tokens(str(m.get("content", ""))) + 4) * self.prompt_scale)
                  for m in messages]
        total = sum(counts)
        if not (self.truncate_to_num_ctx and num_ctx and total > num_ctx):
            return total, False
        # Keep system messages and the newest message, then newer-to-older while they fit.
        keep = {i for i, m in enumerate(messages) if m.get("role") == "system"}
        keep.add(len(messages) - 1)
        used = sum(counts[i] for i in keep)
        for i in range(len(messages) - 2, -1, -1):
            if i in keep:
                continue
            if used + counts[i] > num_ctx:
                break
            keep.add(i)
            used += counts[i]
        return min(used, num_ctx), True

    def wait(self, seconds: float) -> bool:
        """Sleep inside the server, waking early on stop; True if stopping."""
        return self._stopping.wait(seconds) if seconds > 0 else self._stopping.is_set()


class _Server(ThreadingHTTPServer):
    """Tracks connections and handler threads so stop() can end them all, bounded."""

    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler],
                 fake: FakeOllama) -> None:
        self.fake = fake
        self._conns: set[socket.socket] = set()
        self._workers: list[threading.Thread] = []
        self._conn_lock = threading.Lock()
        super().__init__(address, handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        thread = threading.Thread(target=self.process_request_thread,
                                  args=(request, client_address), daemon=True,
                                  name="fake-ollama-conn")
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


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    # ------------------------------------------------------------ plumbing
    @property
    def fake(self) -> FakeOllama:
        return self.server.fake

    def _body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return raw.decode(errors="replace")

    def _json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _text(self, status: int, text: str) -> None:
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _start_stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def _peer_closed(self) -> bool:
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            return bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def _chunk(self, payload: dict[str, Any]) -> None:
        if self._peer_closed():
            raise _Disconnected
        data = json.dumps(payload, separators=(",", ":")).encode() + b"\n"
        try:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError) as exc:
            raise _Disconnected from exc

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

    def _prologue(self, body: Any) -> bool:
        """Record, apply scripted delay/failure; False when a reply was already sent."""
        path = self.path.split("?")[0]
        self.fake._record(self.command, path, body)
        if self.fake.wait(self.fake.path_delays.get(path, 0.0)):
            self.close_connection = True
            return False
        failure = self.fake._failure(path)
        if failure is not None:
            self._json(failure[0], {"error": failure[1]})
            return False
        return True

    # ------------------------------------------------------------- routes
    def do_HEAD(self) -> None:
        self.fake._record("HEAD", self.path, None)
        self._text(200, "Ollama is running")

    def do_GET(self) -> None:
        if not self._prologue(None):
            return
        path = self.path.split("?")[0]
        fake = self.fake
        if path == "/":
            self._text(200, "Ollama is running")
        elif path == "/api/version":
            self._json(200, {"version": fake.version})
        elif path == "/api/tags":
            with fake._lock:
                models = [m.tag() for m in fake.models]
            self._json(200, {"models": models})
        elif path == "/api/ps":
            self._json(200, {"models": self._running()})
        else:
            self._text(404, "404 page not found")

    def do_POST(self) -> None:
        body = self._body()
        if not self._prologue(body):
            return
        path = self.path.split("?")[0]
        if not isinstance(body, dict):
            self._json(400, {"error": "invalid request body"})
            return
        if path == "/api/show":
            self._show(body)
        elif path == "/api/chat":
            self._chat(body)
        elif path == "/api/pull":
            self._pull(body)
        else:
            self._text(404, "404 page not found")

    def _running(self) -> list[dict[str, Any]]:
        rows = []
        with self.fake._lock:
            loaded = dict(self.fake.loaded)
        for name, num_ctx in loaded.items():
            model = self.fake._model(name)
            if model is None:
                continue
            rows.append({**model.tag(), "expires_at": "2026-10-01T12:10:00Z",
                         "size_vram": model.size, "context_length": num_ctx})
        return rows

    def _show(self, body: dict[str, Any]) -> None:
        name = str(body.get("model") or body.get("name") or "")
        model = self.fake._model(name)
        if model is None:
            self._json(404, {"error": f"model '{name}' not found"})
            return
        info: dict[str, Any] = {"general.architecture": model.family,
                                "general.parameter_count": 8_030_261_248}
        if model.context_length is not None:
            info[f"{model.family}.context_length"] = model.context_length
        self._json(200, {
            "license": "", "modelfile": f"FROM {model.name}\n", "parameters": "",
            "template": "{{ .Prompt }}", "details": model.details(), "model_info": info,
            "capabilities": ["completion"], "modified_at": "2026-10-01T12:00:00Z",
        })

    def _chat(self, body: dict[str, Any]) -> None:
        fake = self.fake
        name = str(body.get("model") or "")
        if fake._model(name) is None:
            self._json(404, {"error": f"model '{name}' not found"})
            return
        reply = fake._next_reply(body)
        if fake.wait(reply.delay_before):
            self.close_connection = True
            return
        if reply.http_status is not None:
            self._json(reply.http_status, {"error": reply.error})
            return
        options = body.get("options") or {}
        num_ctx = options.get("num_ctx")
        with fake._lock:
            fake.loaded[name] = int(num_ctx) if num_ctx else 4096
        messages = body.get("messages") or []
        prompt, truncated = fake.prompt_count(messages, num_ctx)
        if reply.prompt_eval_count is not None:
            prompt = reply.prompt_eval_count
        pieces = reply.pieces()
        record = StreamRecord(name, len(pieces), prompt_eval_count=prompt, truncated=truncated)
        with fake._lock:
            fake.streams.append(record)
        try:
            if body.get("stream", True):
                self._chat_stream(name, reply, pieces, prompt, record)
            else:
                self._chat_whole(name, reply, pieces, prompt, record)
        finally:
            record.finished.set()

    def _metrics(self, prompt: int, evals: int) -> dict[str, Any]:
        return {"total_duration": 5_000_000 + evals * 1_000_000, "load_duration": 1_000_000,
                "prompt_eval_count": prompt, "prompt_eval_duration": prompt * 100_000,
                "eval_count": evals, "eval_duration": max(1, evals) * 1_000_000}

    def _chat_whole(self, name: str, reply: Reply, pieces: list[str], prompt: int,
                    record: StreamRecord) -> None:
        if self.fake.wait(reply.delay_per_chunk * len(pieces)):
            record.outcome = "stopped"
            self.close_connection = True
            return
        if reply.cut_after is not None:
            record.outcome = "cut"
            self._hang_up()
            return
        if reply.error_after is not None:
            record.outcome = "error"
            self._json(500, {"error": reply.error})
            return
        record.sent = len(pieces)
        record.outcome = "done"
        self._json(200, {"model": name, "created_at": _now(),
                         "message": {"role": "assistant", "content": "".join(pieces)},
                         "done": True, "done_reason": reply.done_reason,
                         **self._metrics(prompt, len(pieces))})

    def _chat_stream(self, name: str, reply: Reply, pieces: list[str], prompt: int,
                     record: StreamRecord) -> None:
        fake = self.fake
        self._start_stream()
        try:
            for index, piece in enumerate(pieces):
                if reply.error_after is not None and index == reply.error_after:
                    self._chunk({"error": reply.error})
                    self._end_stream()
                    record.outcome = "error"
                    return
                if reply.cut_after is not None and index == reply.cut_after:
                    record.outcome = "cut"
                    self._hang_up(b"40\r\n{\"model\":" if reply.cut_mid_chunk else b"")
                    return
                if fake.wait(reply.delay_per_chunk):
                    record.outcome = "stopped"
                    self._hang_up()
                    return
                self._chunk({"model": name, "created_at": _now(),
                             "message": {"role": "assistant", "content": piece},
                             "done": False})
                record.sent += 1
            if reply.error_after is not None and reply.error_after >= len(pieces):
                self._chunk({"error": reply.error})
                self._end_stream()
                record.outcome = "error"
                return
            if reply.cut_after is not None:
                record.outcome = "cut"
                self._hang_up()
                return
            if not reply.end_without_done:
                self._chunk({"model": name, "created_at": _now(),
                             "message": {"role": "assistant", "content": ""}, "done": True,
                             "done_reason": reply.done_reason,
                             **self._metrics(prompt, len(pieces))})
                for _ in range(reply.trailing_chunks):
                    self._chunk({"model": name, "created_at": _now(),
                                 "message": {"role": "assistant", "content": "late"},
                                 "done": False})
            self._end_stream()
            record.outcome = "done" if not reply.end_without_done else "cut"
        except _Disconnected:
            record.outcome = "disconnected"
            self.close_connection = True
            fake.disconnected.set()

    def _pull(self, body: dict[str, Any]) -> None:
        fake = self.fake
        name = str(body.get("model") or body.get("name") or "")
        model = fake.pullable.get(name) or fake._model(name)
        stream = body.get("stream", True)
        if model is None:
            if not stream:
                self._json(500, {"error": "pull model manifest: file does not exist"})
                return
            self._start_stream()
            with contextlib.suppress(_Disconnected):
                self._chunk({"status": "pulling manifest"})
                self._chunk({"error": "pull model manifest: file does not exist"})
                self._end_stream()
            return
        digest = "sha256:" + f"{abs(hash(name)):064x}"[:64]
        lines: list[dict[str, Any]] = [{"status": "pulling manifest"}]
        for completed in (0, model.size // 4, model.size // 2, model.size):
            lines.append({"status": f"pulling {digest[7:19]}", "digest": digest,
                          "total": model.size, "completed": completed})
        lines += [{"status": "verifying sha256 digest"}, {"status": "writing manifest"},
                  {"status": "success"}]
        if not stream:
            self._install(model)
            self._json(200, {"status": "success"})
            return
        self._start_stream()
        try:
            for line in lines:
                if fake.wait(fake.pull_delay):
                    self._hang_up()
                    return
                if line["status"] == "success":
                    self._install(model)
                self._chunk(line)
            self._end_stream()
        except _Disconnected:
            self.close_connection = True
            fake.disconnected.set()

    def _install(self, model: FakeModel) -> None:
        if self.fake._model(model.name) is None:
            with self.fake._lock:
                self.fake.models.append(model)


# ------------------------------------------------------------------ helpers
def free_port() -> int:
    """A port nothing listens on (bound then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def ollama_server() -> Iterator[FakeOllama]:
    """A started fake Ollama on a random loopback port; stopped (threads joined) afterwards."""
    fake = FakeOllama().start()
    try:
        yield fake
    finally:
        left = fake.stop()
        assert left == 0, f"{left} fake-Ollama handler threads did not end"


def _port_from_env() -> int:
    host = os.environ.get("OLLAMA_HOST", "")
    match = re.search(r":(\d+)/?$", host)
    return int(match.group(1)) if match else 11434


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Fake Ollama server for tests")
    parser.add_argument("--port", type=int, default=None)
    parser.add_argument("--models", help="JSON file: list of FakeModel fields")
    parser.add_argument("--ignore-term", action="store_true", help="ignore SIGTERM (tests)")
    parser.add_argument("command", nargs="?", help="ignored ('serve' when run as ollama)")
    args = parser.parse_args(argv)
    models = None
    if args.models:
        with open(args.models, encoding="utf-8") as handle:
            models = [FakeModel(**row) for row in json.load(handle)]
    fake = FakeOllama(models)
    port = args.port if args.port is not None else _port_from_env()
    stop = threading.Event()
    signal.signal(signal.SIGTERM,
                  signal.SIG_IGN if args.ignore_term else (lambda *_: stop.set()))
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    fake.start(port)
    print(f"Listening on 127.0.0.1:{fake.port} (version {fake.version})", flush=True)
    stop.wait()
    fake.stop()
    print("stopped", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
