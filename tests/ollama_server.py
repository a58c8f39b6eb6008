"""A loopback fake of Ollama's HTTP API for tests (stdlib only).

It speaks the wire format the real server uses (see shared/notes/platform-facts.md):
NDJSON chunked streams for ``/api/chat`` and ``/api/pull``, ``DELETE /api/delete``, ``/api/show``
with each model's ``capabilities`` and trained context, JSON errors with HTTP status codes,
an ``{"error": ...}`` line mid-stream. Each test scripts the behaviour (models, replies, cut
streams, delays, Ollama's silent prompt truncation) and then asserts on what the app sent
(``requests``) and on what happened to each stream (``streams``: finished, cut, or the client
hung up, which is how Stop must look from the server's side).

Prompts are counted independently of the app (``model_tokens``: a tokenizer approximation that
lands at about 1.2x cl100k on chat text, plus Llama-3-like template overhead per message and per
request), so a test can catch the app under-counting. A request with ``"truncate": false`` whose
prompt exceeds ``options.num_ctx`` is refused with Ollama's 400 error, as a real server does.

With ``--llama-cpp URL`` the server becomes an Ollama-API adapter in front of a llama.cpp server
(its OpenAI-compatible ``/v1/chat/completions``): a real small model for benchmarks, with
llama.cpp's own prompt token count reported as ``prompt_eval_count``.

Use the ``ollama_server`` fixture (``pytest_plugins = ["tests.ollama_server"]``) or run
``python -m tests.ollama_server --port N`` (without ``--port`` the port of $OLLAMA_HOST is used,
so a fake ``ollama`` executable can simply exec this module).
"""

from __future__ import annotations

import argparse
import base64
import collections
import contextlib
import dataclasses
import datetime as _dt
import functools
import hashlib
import json
import os
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from bench.memory.slot import prefix_figures as prefix_and_possible
from tests.loopback_http import Disconnected, LoopbackFake, LoopbackHandler, LoopbackServer
from tests.loopback_http import RecordedRequest as RecordedRequest  # still importable from here

VERSION = "0.12.6"
_WORD = re.compile(r"\w+|[^\w\s]")
_PIECE = re.compile(r"\s*\S+|\s+")
_UNIT = re.compile(r"[^\W\d_]+|\d+|[^\w\s]+|_|\n")
# Ollama's wording when a prompt does not fit and truncation is off. The same error string
# (errInputTooLong, "the input length exceeds the context length") answers /api/embed with
# truncate=false; /api/chat gained the same `truncate` field with the context-shift rework
# (ollama PR #17944, issue #17889; shared/notes/platform-facts.md), answered with HTTP 400.
INPUT_TOO_LONG = "the input length exceeds the context length"
# Llama 3's chat template: <|start_header_id|>role<|end_header_id|>\n\n ... <|eot_id|> around
# every message; <|begin_of_text|> plus the assistant header added for generation per request.
PER_MESSAGE = 5
PER_REQUEST = 6
# What one attached image costs in the fake model's prompt: a fixed figure of its own (as a
# vision model's projector makes a fixed number of embeddings per image), not the app's
# estimate, so a test can catch the app under-counting pictures.
IMAGE_TOKENS = 700


def estimate_tokens(text: str) -> int:
    """A crude tokenizer (words and punctuation): the legacy ``counter = "words"``."""
    return len(_WORD.findall(text))


@functools.lru_cache(maxsize=8192)  # every request re-sends the chat: count each text once
def model_tokens(text: str) -> int:
    """The fake model's tokenizer: about 1.2x cl100k on English chat text and code.

    Not the app's tokenizer on purpose (a shared counter hides under-counting). Letters: the
    first 6 one piece, then one per further 4 (``deployment`` -> 2); every digit one piece (as
    SmolLM2 and Llama 2 split numbers); a run of punctuation one piece per 2 characters;
    newlines and underscores one each; spaces are free (merged into the next piece).
    """
    count = 0
    for unit in _UNIT.findall(text):
        first = unit[0]
        if first.isalpha():
            count += 1 + (len(unit) - 3) // 4 if len(unit) > 6 else 1
        elif first.isdigit():
            count += len(unit)
        elif first in "\n_":
            count += 1
        else:
            count += (len(unit) + 1) // 2
    return count


def message_text(message: dict[str, Any]) -> str:
    """What the template writes of one message: its text, a result's tool name and a reply's
    calls (as JSON, as most tool templates do)."""
    text = str(message.get("content", ""))
    if message.get("tool_name"):
        text = f"{message['tool_name']}\n{text}"
    if message.get("tool_calls"):
        text += "\n" + json.dumps(message["tool_calls"], sort_keys=True)
    return text


def tools_tokens(tools: list[dict[str, Any]] | None) -> int:
    """What the tools' schemas cost in the prompt (the template writes them as JSON)."""
    return sum(model_tokens(json.dumps(tool, sort_keys=True)) + 4 for tool in tools or [])


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
    parameter_count: int = 8_030_261_248
    capabilities: tuple[str, ...] = ("completion",)  # ("completion", "thinking"): reasons

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
    done_reason: str = "stop"  # "length" when options.num_predict cut the reply
    prompt_eval_count: int | None = None  # override the computed count
    trailing_chunks: int = 0  # (misbehaving server) more content lines after done
    thinking: str = ""  # reasoning streamed first as message.thinking (as Ollama does)
    # Tool calls ({"name", "arguments": {object}}), sent whole in one ``done: false`` chunk
    # after the text, as Ollama streams them (``message.tool_calls``).
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    # A relayed answer (another server's stream): its pieces as they come, and fields for the
    # final chunk that the stream fills as it ends (counts, timings). Closed on disconnect.
    stream: Iterator[str] | None = None
    final: dict[str, Any] = field(default_factory=dict)

    def pieces(self) -> list[str]:
        return list(self.chunks) if self.chunks is not None else split_pieces(self.text)


@dataclass
class StreamRecord:
    """What happened to one streamed reply, as seen by the server."""

    model: str
    planned: int
    sent: int = 0
    outcome: str = "running"  # done | disconnected | cut | error | stopped
    prompt_eval_count: int | None = None
    truncated: bool = False
    num_predict: int | None = None  # options.num_predict of the request, if any
    finished: threading.Event = field(default_factory=threading.Event)
    # The one-slot cache model (``FakeOllama.slot_figures``): prompt, prefix and possible
    # tokens of this request against what the slot held; and the request's messages.
    slot: dict[str, int] = field(default_factory=dict)
    messages: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Rejection:
    """A chat request refused because its prompt exceeded num_ctx with ``truncate: false``."""

    model: str
    prompt_tokens: int
    num_ctx: int


class FakeOllama(LoopbackFake):
    """The scriptable server. Thread-safe: handlers run on their own threads."""

    thread_name = "fake-ollama"

    def __init__(self, models: list[FakeModel] | None = None) -> None:
        super().__init__()
        self.models: list[FakeModel] = list(models) if models is not None else [
            FakeModel("llama3.2:3b", "llama", "3.2B", 131072),
            FakeModel("gemma3:270m", "gemma3", "268.10M", 32768, "Q8_0", 291_000_000),
        ]
        self.pullable: dict[str, FakeModel] = {}
        self.replies: collections.deque[Reply] = collections.deque()
        self.reply_fn: Callable[[dict[str, Any]], str | Reply] | None = None
        self.default_reply = Reply()
        self.truncate_to_num_ctx = False  # simulate Ollama dropping the oldest messages
        # Refuse prompts over num_ctx by our own count (off when a relay's host does it).
        self.check_num_ctx = True
        # One slot, as Ollama runs by default: the previous request's tokens and its reply's
        # (the fake's own units), to say what share of each prompt a server could reuse.
        self.slot_held: list[str] = []
        self.prompt_scale = 1.0  # multiplies every count (a model with a hungrier tokenizer)
        # "model": model_tokens + template overhead; "words": the legacy word count + 4 per
        # message (only for tests that script exact prompt numbers and are about something else).
        self.counter = "model"
        # What prompt_eval_count counts after a cache hit (issue 21 item 7): "full" (the whole
        # prompt), "new-only" (Ollama 0.30's llama-server runner: the tokens read anew only),
        # "cached-field" (the whole prompt, and prompt_eval_cached_count: Ollama PR #17943).
        self.count_rule = "full"
        self.slot: list[tuple[str, str, int]] = []  # one slot: (role, content, tokens) held
        self.per_message = PER_MESSAGE
        self.per_request = PER_REQUEST
        self.image_tokens = IMAGE_TOKENS  # per image on a message (``images``, base64)
        self.rejected: list[Rejection] = []
        self.llama_cpp: LlamaCppBackend | None = None  # forward /api/chat to llama.cpp
        self.version = VERSION
        self.path_delays: dict[str, float] = {}
        self.path_failures: dict[str, collections.deque[tuple[int, str]]] = {}
        self.pull_delay = 0.0
        self.streams: list[StreamRecord] = []
        self.loaded: dict[str, int] = {}  # model -> num_ctx of its last load
        # /api/embed: the models it answers for, and words that mean the same to it.
        self.embedding_models: set[str] = {"all-minilm", "nomic-embed-text", "embeddinggemma"}
        self.embed_aliases: dict[str, str] = {}

    def _server(self, address: tuple[str, int]) -> LoopbackServer[Any]:
        return _Server(address, _Handler, self)

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

    def message_counts(self, messages: list[dict[str, Any]],
                       tools: list[dict[str, Any]] | None = None) -> tuple[list[int], int]:
        """Tokens of each message (template included: its text, a result's tool name, a
        reply's calls) and of the per-request overhead (with the tools' schemas, which the
        template writes into the prompt)."""
        if self.counter == "words":
            return [round((estimate_tokens(str(m.get("content", ""))) + 4) * self.prompt_scale)
                    for m in messages], 0
        counts = [round((model_tokens(message_text(m)) + self.per_message)
                        * self.prompt_scale) + self.image_tokens * len(m.get("images") or [])
                  for m in messages]
        return counts, round((self.per_request + tools_tokens(tools)) * self.prompt_scale)

    def full_count(self, messages: list[dict[str, Any]],
                   tools: list[dict[str, Any]] | None = None) -> int:
        """The prompt's size before any truncation."""
        counts, extra = self.message_counts(messages, tools)
        return sum(counts) + extra

    def prompt_count(self, messages: list[dict[str, Any]], num_ctx: int | None,
                     tools: list[dict[str, Any]] | None = None) -> tuple[int, bool]:
        """Ollama's prompt_eval_count for ``messages``; truncates like Ollama when enabled."""
        counts, extra = self.message_counts(messages, tools)
        total = sum(counts) + extra
        if not (self.truncate_to_num_ctx and num_ctx and total > num_ctx):
            return total, False
        # Keep system messages and the newest message, then newer-to-older while they fit.
        keep = {i for i, m in enumerate(messages) if m.get("role") == "system"}
        keep.add(len(messages) - 1)
        used = extra + sum(counts[i] for i in keep)
        for i in range(len(messages) - 2, -1, -1):
            if i in keep:
                continue
            if used + counts[i] > num_ctx:
                break
            keep.add(i)
            used += counts[i]
        return min(used, num_ctx), True

    def cached_prefix(self, messages: list[dict[str, Any]]) -> int:
        """Tokens of the leading messages the one slot still holds (the previous request
        and the reply it generated)."""
        counts, _extra = self.message_counts(messages)
        cached = 0
        with self._lock:
            held = list(self.slot)
        for (role, content, tokens), message, count in zip(held, messages, counts,
                                                           strict=False):
            if (role, content) != (message.get("role"), message.get("content")):
                break
            cached += min(tokens, count)
        return cached

    def hold(self, messages: list[dict[str, Any]], reply: str) -> None:
        """The slot now holds this request and its reply."""
        held = [*messages, {"role": "assistant", "content": reply}]
        counts, _extra = self.message_counts(held)
        tokens = self.slot_tokens(messages) + _UNIT.findall(reply)
        with self._lock:
            self.slot = [(str(m.get("role")), str(m.get("content")), n)
                         for m, n in zip(held, counts, strict=True)]
            self.slot_held = tokens

    @staticmethod
    def slot_tokens(messages: list[dict[str, Any]]) -> list[str]:
        """The prompt as the fake model's units of a simple chat template."""
        text = "".join(f"<|{m.get('role', 'user')}|>\n{m.get('content', '')}<|end|>\n"
                       for m in messages)
        return _UNIT.findall(text + "<|assistant|>\n")

    def slot_figures(self, messages: list[dict[str, Any]]) -> dict[str, int]:
        with self._lock:
            held = list(self.slot_held)
        return prefix_figures(held, self.slot_tokens(messages))


class _Server(LoopbackServer[FakeOllama]):
    conn_thread_name = "fake-ollama-conn"

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that drops an idle keep-alive connection is not an error."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class _Handler(LoopbackHandler[FakeOllama]):
    stream_type = "application/x-ndjson"
    json_separators = (",", ":")  # compact, as Ollama writes its JSON

    # ------------------------------------------------------------ plumbing
    def _text(self, status: int, text: str) -> None:
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _chunk(self, payload: dict[str, Any]) -> None:
        """One NDJSON line of the streamed body."""
        self._write(self._dumps(payload) + b"\n")

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
        elif path == "/api/embed":
            self._embed(body)
        else:
            self._text(404, "404 page not found")

    def do_DELETE(self) -> None:
        """``DELETE /api/delete {"model"}``: 200 with an empty body, 404 for an unknown name."""
        body = self._body()
        if not self._prologue(body):
            return
        if self.path.split("?")[0] != "/api/delete":
            self._text(405, "405 method not allowed")
            return
        name = str(body.get("model") or body.get("name") or "") if isinstance(body, dict) \
            else ""
        if not name:
            self._json(400, {"error": "model is required"})
            return
        fake = self.fake
        model = fake._model(name)  # "name" also finds "name:latest", as Ollama does
        with fake._lock:
            if model is not None:
                fake.models = [m for m in fake.models if m is not model]
                fake.loaded.pop(model.name, None)
        if model is None:
            self._json(404, {"error": f"model '{name}' not found"})
            return
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

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
                                "general.parameter_count": model.parameter_count}
        if model.context_length is not None:
            info[f"{model.family}.context_length"] = model.context_length
        self._json(200, {
            "license": "", "modelfile": f"FROM {model.name}\n", "parameters": "",
            "template": "{{ .Prompt }}", "details": model.details(), "model_info": info,
            "capabilities": list(model.capabilities), "modified_at": "2026-10-01T12:00:00Z",
        })

    def _chat(self, body: dict[str, Any]) -> None:
        fake = self.fake
        name = str(body.get("model") or "")
        if fake._model(name) is None:
            self._json(404, {"error": f"model '{name}' not found"})
            return
        options = body.get("options") or {}
        num_ctx = options.get("num_ctx")
        with fake._lock:
            fake.loaded[name] = int(num_ctx) if num_ctx else 4096
        if fake.llama_cpp is not None:
            fake.llama_cpp.chat(self, name, body)
            return
        messages = body.get("messages") or []
        if bad := _bad_images(messages):
            self._json(400, {"error": bad})  # Ollama's wording for undecodable image data
            return
        tools = body.get("tools") or None
        if fake.check_num_ctx and body.get("truncate") is False and num_ctx \
                and fake.full_count(messages, tools) > num_ctx:
            self._reject(name, fake.full_count(messages, tools), int(num_ctx))
            return
        reply = fake._next_reply(body)
        if fake.wait(reply.delay_before):
            self.close_connection = True
            return
        if reply.http_status is not None:
            self._json(reply.http_status, {"error": reply.error})
            return
        prompt, truncated = fake.prompt_count(messages, num_ctx, tools)
        cached = fake.cached_prefix(messages)
        if fake.count_rule == "new-only":
            prompt -= cached
        self._cached = cached if fake.count_rule == "cached-field" else None
        if reply.prompt_eval_count is not None:
            prompt = reply.prompt_eval_count
        if reply.stream is not None:
            self._chat_relay(name, reply, prompt, bool(body.get("stream", True)))
            return
        pieces = reply.pieces()
        num_predict = _positive_int(options.get("num_predict"))
        if num_predict is not None and len(pieces) > num_predict:
            pieces = pieces[:num_predict]
            reply = dataclasses.replace(reply, chunks=pieces, done_reason="length")
        record = StreamRecord(name, len(pieces), prompt_eval_count=prompt, truncated=truncated,
                              num_predict=num_predict, slot=fake.slot_figures(messages),
                              messages=list(messages))
        with fake._lock:
            fake.streams.append(record)
        try:
            if body.get("stream", True):
                self._chat_stream(name, reply, pieces, prompt, record)
            else:
                self._chat_whole(name, reply, pieces, prompt, record)
        finally:
            fake.hold(messages, "".join(pieces[:record.sent]))
            record.finished.set()
        if record.outcome == "done":
            fake.hold(messages, "".join(pieces))

    def _reject(self, name: str, prompt_tokens: int, num_ctx: int) -> None:
        """Ollama's answer to an over-length prompt sent with ``truncate: false``."""
        with self.fake._lock:
            self.fake.rejected.append(Rejection(name, prompt_tokens, num_ctx))
        self._json(400, {"error": INPUT_TOO_LONG})

    def _metrics(self, prompt: int, evals: int) -> dict[str, Any]:
        """Ollama's figures (nanoseconds) as a 3B model on a laptop gives them: the prompt
        read at 250 tokens/s, the reply written at 25 tokens/s, a model already loaded."""
        load, reading, writing = 20_000_000, prompt * 4_000_000, max(1, evals) * 40_000_000
        cached = getattr(self, "_cached", None)  # count_rule "cached-field" only
        return {"total_duration": load + reading + writing + 2_000_000, "load_duration": load,
                "prompt_eval_count": prompt, "prompt_eval_duration": reading,
                "eval_count": evals, "eval_duration": writing,
                **({"prompt_eval_cached_count": cached} if cached is not None else {})}

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
                         "message": {"role": "assistant", "content": "".join(pieces),
                                     **({"thinking": reply.thinking} if reply.thinking else {}),
                                     **({"tool_calls": [{"function": c} for c in
                                                        reply.tool_calls]}
                                        if reply.tool_calls else {})},
                         "done": True, "done_reason": reply.done_reason,
                         **self._metrics(prompt, len(pieces))})

    def _chat_relay(self, name: str, reply: Reply, prompt: int, streaming: bool) -> None:
        """Pass another server's answer on, piece by piece; a disconnect closes its stream."""
        fake, source = self.fake, reply.stream
        assert source is not None
        record = StreamRecord(name, 0, prompt_eval_count=prompt)
        with fake._lock:
            fake.streams.append(record)
        text: list[str] = []
        try:
            if streaming:
                self._start_stream()
            try:
                for piece in source:
                    if streaming:
                        self._chunk({"model": name, "created_at": _now(), "done": False,
                                     "message": {"role": "assistant", "content": piece}})
                    text.append(piece)
                    record.sent += 1
            except Disconnected:
                raise
            except Exception as exc:  # the other server failed mid-answer
                record.outcome = "error"
                if streaming:
                    self._chunk({"error": str(exc)})
                    self._end_stream()
                else:
                    self._json(502, {"error": str(exc)})
                return
            final = {**self._metrics(prompt, record.sent), **reply.final}
            record.prompt_eval_count = final.get("prompt_eval_count", prompt)
            record.planned = record.sent
            done = {"model": name, "created_at": _now(), "done": True,
                    "done_reason": final.pop("done_reason", "stop"), **final}
            if streaming:
                self._chunk({**done, "message": {"role": "assistant", "content": ""}})
                self._end_stream()
            else:
                self._json(200, {**done, "message": {"role": "assistant",
                                                     "content": "".join(text)}})
            record.outcome = "done"
        except Disconnected:
            record.outcome = "disconnected"
            self.close_connection = True
            fake.disconnected.set()
        finally:
            close = getattr(source, "close", None)
            if close is not None:
                close()
            record.finished.set()

    def _chat_stream(self, name: str, reply: Reply, pieces: list[str], prompt: int,
                     record: StreamRecord) -> None:
        fake = self.fake
        self._start_stream()
        try:
            for thought in split_pieces(reply.thinking) if reply.thinking else []:
                if fake.wait(reply.delay_per_chunk):  # reasoning streams at the same pace
                    record.outcome = "stopped"
                    self._hang_up()
                    return
                self._chunk({"model": name, "created_at": _now(), "done": False,
                             "message": {"role": "assistant", "content": "", "thinking": thought}})
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
            if reply.tool_calls:  # whole, in one chunk before the final one (as Ollama does)
                self._chunk({"model": name, "created_at": _now(), "done": False,
                             "message": {"role": "assistant", "content": "", "tool_calls": [
                                 {"function": {"index": i, **call}}
                                 for i, call in enumerate(reply.tool_calls)]}})
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
        except Disconnected:
            record.outcome = "disconnected"
            self.close_connection = True
            fake.disconnected.set()

    def _embed(self, body: dict[str, Any]) -> None:
        """``/api/embed``: deterministic vectors (``embed_vector``), any model in
        ``embedding_models`` (or the chat models' list)."""
        fake, name = self.fake, str(body.get("model") or "")
        if name not in fake.embedding_models and fake._model(name) is None:
            self._json(404, {"error": f"model '{name}' not found"})
            return
        texts = body.get("input")
        texts = [texts] if isinstance(texts, str) else list(texts or [])
        self._json(200, {"model": name, "prompt_eval_count": sum(
            estimate_tokens(str(t)) for t in texts),
            "embeddings": [embed_vector(str(t), fake.embed_aliases) for t in texts]})

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
            with contextlib.suppress(Disconnected):
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
        except Disconnected:
            self.close_connection = True
            fake.disconnected.set()

    def _install(self, model: FakeModel) -> None:
        if self.fake._model(model.name) is None:
            with self.fake._lock:
                self.fake.models.append(model)


# ------------------------------------------------------------ llama.cpp adapter
class LlamaCppBackend:
    """Answers ``/api/chat`` with a llama.cpp server: a real small model behind Ollama's API.

    Forwards to llama.cpp's OpenAI-compatible ``/v1/chat/completions`` and reports its
    ``usage.prompt_tokens`` / ``usage.completion_tokens`` as ``prompt_eval_count`` /
    ``eval_count``, so counts are the model's own. ``options.num_ctx`` is enforced here (the
    llama.cpp slot may be larger): the prompt is counted with llama.cpp's ``/apply-template`` and
    ``/tokenize`` first; over num_ctx it is refused (``truncate: false``) or cut oldest-first
    like Ollama. Durations are wall time.
    """

    def __init__(self, url: str, timeout: float = 900.0) -> None:
        self.url = url.rstrip("/")
        self._http = httpx.Client(base_url=self.url, trust_env=False,
                                  timeout=httpx.Timeout(10.0, read=timeout))
        self._can_count = True
        # The one-slot model: what llama.cpp's slot holds after the last answer (its prompt's
        # tokens, then the tokens it generated), to say how much of the next prompt it can
        # take from the cache (``prefix_figures``), beside llama.cpp's own ``timings``.
        self._slot: tuple[list[int], str] = ([], "")  # the prompt's tokens, the reply's text
        self._slot_lock = threading.Lock()

    def close(self) -> None:
        self._http.close()

    def tokenize(self, text: str, *, special: bool) -> list[int] | None:
        try:
            tokens = self._http.post("/tokenize", json={"content": text, "add_special": special})
            tokens.raise_for_status()
            return [int(t) for t in tokens.json()["tokens"]]
        except (httpx.HTTPError, KeyError, ValueError, TypeError):
            return None

    def tokens(self, messages: list[dict[str, Any]]) -> list[int] | None:
        """The templated prompt's tokens as llama.cpp will see them; None if it cannot say."""
        if not self._can_count:
            return None
        try:
            templated = self._http.post("/apply-template", json={"messages": messages})
            if templated.status_code == 404:
                self._can_count = False
                return None
            templated.raise_for_status()
            return self.tokenize(templated.json()["prompt"], special=True)
        except (httpx.HTTPError, KeyError, ValueError):
            return None

    def count(self, messages: list[dict[str, Any]]) -> int | None:
        found = self.tokens(messages)
        return None if found is None else len(found)

    def slot_figures(self, prompt: list[int] | None) -> dict[str, int]:
        """The one-slot model's figures for ``prompt``, against what the slot holds now."""
        if not prompt:
            return {}
        with self._slot_lock:
            held, reply = self._slot
        generated = (self.tokenize(reply, special=False) or []) if reply else []
        return prefix_figures([*held, *generated], prompt)

    def hold(self, prompt: list[int] | None, reply: str) -> None:
        """The slot now holds ``prompt`` and the reply generated after it (tokenized when
        the next request asks: nothing slow between a stream's end and the next start)."""
        if prompt is not None:
            with self._slot_lock:
                self._slot = (list(prompt), reply)

    def fit(self, messages: list[dict[str, Any]], num_ctx: int,
            ) -> tuple[list[dict[str, Any]], bool]:
        """Ollama's silent truncation: drop the oldest non-system messages but the last."""
        kept = list(messages)
        while True:
            total = self.count(kept)
            droppable = [i for i, m in enumerate(kept[:-1]) if m.get("role") != "system"]
            if total is None or total <= num_ctx or not droppable:
                return kept, len(kept) != len(messages)
            del kept[droppable[0]]

    def payload(self, body: dict[str, Any], messages: list[dict[str, Any]],
                prompt_count: int | None = None) -> dict[str, Any]:
        options = body.get("options") or {}
        payload: dict[str, Any] = {"messages": [{"role": str(m.get("role", "user")),
                                                 "content": str(m.get("content", ""))}
                                                for m in messages],
                                   "stream": bool(body.get("stream", True))}
        predict = _positive_int(options.get("num_predict"))
        num_ctx = _positive_int(options.get("num_ctx"))
        room = None if num_ctx is None or prompt_count is None else max(1, num_ctx - prompt_count)
        if room is not None:  # Ollama with shift: false stops when the window is full
            predict = room if predict is None else min(predict, room)
        if predict is not None:
            payload["max_tokens"] = predict
        for key in ("temperature", "seed", "top_p"):
            if options.get(key) is not None:
                payload[key] = options[key]
        if payload["stream"]:
            payload["stream_options"] = {"include_usage": True}
        return payload

    def chat(self, handler: _Handler, name: str, body: dict[str, Any]) -> None:
        fake = handler.fake
        messages = list(body.get("messages") or [])
        num_ctx = _positive_int((body.get("options") or {}).get("num_ctx"))
        truncated = False
        prompt_tokens = self.tokens(messages)
        if num_ctx is not None:
            total = None if prompt_tokens is None else len(prompt_tokens)
            if total is not None and total > num_ctx:
                if body.get("truncate") is False:
                    handler._reject(name, total, num_ctx)
                    return
                messages, truncated = self.fit(messages, num_ctx)
                prompt_tokens = self.tokens(messages)
        record = StreamRecord(name, 0, truncated=truncated,
                              num_predict=_positive_int((body.get("options") or {})
                                                        .get("num_predict")))
        with fake._lock:
            fake.streams.append(record)
        try:
            payload = self.payload(body, messages,
                                   None if prompt_tokens is None else len(prompt_tokens))
            no_truncate = body.get("truncate") is False
            if payload["stream"]:
                self._stream(handler, name, payload, record, no_truncate, prompt_tokens)
            else:
                self._whole(handler, name, payload, record, no_truncate, prompt_tokens)
        except httpx.HTTPError as exc:
            record.outcome = "error"
            with contextlib.suppress(OSError):
                handler._json(502, {"error": f"llama.cpp server: {exc}"})
        finally:
            record.finished.set()

    @staticmethod
    def _metrics(usage: dict[str, Any], started: float, first: float | None,
                 timings: dict[str, Any] | None = None, slot: dict[str, int] | None = None,
                 ) -> dict[str, Any]:
        """Ollama's final-chunk figures; llama.cpp's ``timings`` pass through, its cache_n
        as Ollama's ``prompt_eval_cached_count``, and the one-slot model as ``slot_model``."""
        now = time.monotonic()
        prompt_ns = int(((first or now) - started) * 1e9)
        total_ns = int((now - started) * 1e9)
        figures: dict[str, Any] = {
            "total_duration": total_ns, "load_duration": 0,
            "prompt_eval_count": int(usage.get("prompt_tokens") or 0),
            "prompt_eval_duration": prompt_ns,
            "eval_count": int(usage.get("completion_tokens") or 0),
            "eval_duration": max(0, total_ns - prompt_ns)}
        if timings:
            figures["timings"] = timings
            if timings.get("cache_n") is not None:
                figures["prompt_eval_cached_count"] = int(timings["cache_n"])
        if slot:
            figures["slot_model"] = slot
        return figures

    def _error(self, handler: _Handler, name: str, response: httpx.Response,
               no_truncate: bool) -> None:
        text = response.text
        if response.status_code == 400 and "exceed" in text and "context" in text:
            if no_truncate:  # llama.cpp's own context error, seen when counting was not possible
                with handler.fake._lock:
                    handler.fake.rejected.append(Rejection(name, -1, -1))
            handler._json(400, {"error": INPUT_TOO_LONG})
            return
        handler._json(response.status_code if response.status_code >= 400 else 502,
                      {"error": f"llama.cpp server: {text[:300]}"})

    def _whole(self, handler: _Handler, name: str, payload: dict[str, Any],
               record: StreamRecord, no_truncate: bool, prompt: list[int] | None) -> None:
        started = time.monotonic()
        response = self._http.post("/v1/chat/completions", json=payload)
        slot = self.slot_figures(prompt)
        if response.status_code != 200:
            record.outcome = "error"
            self._error(handler, name, response, no_truncate)
            return
        data = response.json()
        choice = (data.get("choices") or [{}])[0]
        content = str((choice.get("message") or {}).get("content") or "")
        self.hold(prompt, content)
        metrics = self._metrics(data.get("usage") or {}, started, None, data.get("timings"),
                                slot)
        record.prompt_eval_count = metrics["prompt_eval_count"]
        record.planned = record.sent = metrics["eval_count"]
        record.outcome = "done"
        handler._json(200, {"model": name, "created_at": _now(),
                            "message": {"role": "assistant", "content": content}, "done": True,
                            "done_reason": _done_reason(choice.get("finish_reason")),
                            **metrics})

    def _stream(self, handler: _Handler, name: str, payload: dict[str, Any],
                record: StreamRecord, no_truncate: bool, prompt: list[int] | None) -> None:
        started, first = time.monotonic(), None
        usage: dict[str, Any] = {}
        timings: dict[str, Any] = {}
        slot: dict[str, int] | None = None
        finish: str | None = None
        text: list[str] = []
        with self._http.stream("POST", "/v1/chat/completions", json=payload) as response:
            if response.status_code != 200:
                response.read()
                record.outcome = "error"
                self._error(handler, name, response, no_truncate)
                return
            handler._start_stream()
            try:
                for line in response.iter_lines():
                    if not line.startswith("data:") or line.strip() == "data: [DONE]":
                        continue
                    event = json.loads(line[5:])
                    if event.get("error"):
                        handler._chunk({"error": str(event["error"])})
                        handler._end_stream()
                        record.outcome = "error"
                        return
                    usage = event.get("usage") or usage
                    timings = event.get("timings") or timings
                    if slot is None:  # llama.cpp started on this prompt: the slot is free
                        slot = self.slot_figures(prompt)
                    for choice in event.get("choices") or []:
                        finish = choice.get("finish_reason") or finish
                        piece = (choice.get("delta") or {}).get("content")
                        if piece:
                            text.append(piece)
                            first = first or time.monotonic()
                            handler._chunk({"model": name, "created_at": _now(),
                                            "message": {"role": "assistant", "content": piece},
                                            "done": False})
                            record.sent += 1
                self.hold(prompt, "".join(text))
                metrics = self._metrics(usage, started, first, timings, slot)
                record.prompt_eval_count = metrics["prompt_eval_count"]
                record.planned = record.sent
                handler._chunk({"model": name, "created_at": _now(),
                                "message": {"role": "assistant", "content": ""}, "done": True,
                                "done_reason": _done_reason(finish), **metrics})
                handler._end_stream()
                record.outcome = "done"
            except Disconnected:  # Stop: leaving the block closes llama.cpp's stream too
                self.hold(prompt, "".join(text))  # the slot keeps what was generated
                record.outcome = "disconnected"
                handler.close_connection = True
                handler.fake.disconnected.set()


class _SlotFigures(dict[str, int]):
    """``possible`` is worked out when first read: a sequence match of the whole prompt
    (difflib) took 0.1-0.4 s per request, on the server's thread, in every test that chats."""

    def __init__(self, held: list[Any], prompt: list[Any]) -> None:
        prefix = 0
        for mine, theirs in zip(prompt, held, strict=False):
            if mine != theirs:
                break
            prefix += 1
        super().__init__(prompt=len(prompt), prefix=prefix)
        self._pair = (held, prompt)

    def __missing__(self, key: str) -> int:
        if key != "possible":
            raise KeyError(key)
        self["possible"] = prefix_and_possible(*self._pair)[1]
        return self["possible"]

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key == "possible" else super().get(key, default)


def prefix_figures(held: list[Any], prompt: list[Any]) -> dict[str, int]:
    """One-slot cache figures of ``prompt`` when the slot holds ``held`` (the previous prompt
    and its reply): ``prefix`` tokens it can reuse (the longest common prefix: what Ollama and
    llama.cpp reuse), and ``possible``: the prompt less the tokens that ``held`` does not
    contain in order at all (the best any layout could reuse). The memory benchmark's model."""
    return _SlotFigures(list(held), list(prompt))


def _bad_images(messages: list[dict[str, Any]]) -> str | None:
    """Why the request's ``images`` are unusable (each must be base64 of the bytes), or None."""
    for message in messages:
        images = message.get("images")
        if images is None:
            continue
        if not isinstance(images, list):
            return "json: cannot unmarshal images"
        for image in images:
            try:
                base64.b64decode(str(image), validate=True)
            except ValueError:
                return "illegal base64 data at input byte 0"
    return None


def _done_reason(finish: Any) -> str:
    return "length" if finish == "length" else "stop"


def _positive_int(value: Any) -> int | None:
    """``options`` values arrive as JSON numbers; Ollama treats <= 0 / -1 as "no limit"."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if number > 0 else None


# ------------------------------------------------------------------ helpers
EMBED_DIMS = 64


def embed_vector(text: str, aliases: dict[str, str] | None = None) -> list[float]:
    """A bag of words hashed into EMBED_DIMS (words of 4+ letters; ``aliases`` map a word to
    the one it means): texts sharing words, or words that mean the same, point alike."""
    vector = [0.0] * EMBED_DIMS
    for word in re.findall(r"[a-z0-9]{4,}", text.lower()):
        word = (aliases or {}).get(word, word)
        digest = hashlib.sha256(word.encode()).digest()
        vector[digest[0] % EMBED_DIMS] += 1.0 if digest[1] % 2 else -1.0
    return vector


def free_port() -> int:
    """A port nothing listens on (bound then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def ollama_server() -> Iterator[FakeOllama]:
    """A started fake Ollama on a random loopback port; stopped (threads joined) afterwards."""
    with FakeOllama().running() as fake:
        yield fake


def _port_from_env() -> int:
    host = os.environ.get("OLLAMA_HOST", "")
    match = re.search(r":(\d+)/?$", host)
    return int(match.group(1)) if match else 11434


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Fake Ollama server for tests")
    parser.add_argument("--port", type=int, default=None)
    parser.add_argument("--models", help="JSON file: list of FakeModel fields")
    parser.add_argument("--ignore-term", action="store_true", help="ignore SIGTERM (tests)")
    parser.add_argument("--llama-cpp", metavar="URL",
                        help="answer /api/chat with this llama.cpp server (a real model)")
    parser.add_argument("--model-name", default="smollm2:135m",
                        help="with --llama-cpp: the model name to list")
    parser.add_argument("--context-length", type=int, default=8192,
                        help="with --llama-cpp: the model's context length to report")
    parser.add_argument("--parameter-size", default="135M",
                        help="with --llama-cpp: the parameter size to report")
    parser.add_argument("command", nargs="?", help="ignored ('serve' when run as ollama)")
    args = parser.parse_args(argv)
    models = None
    if args.models:
        with open(args.models, encoding="utf-8") as handle:
            models = [FakeModel(**row) for row in json.load(handle)]
    elif args.llama_cpp:
        models = [llama_cpp_model(args.model_name, args.context_length, args.parameter_size)]
    fake = FakeOllama(models)
    if args.llama_cpp:
        fake.llama_cpp = LlamaCppBackend(args.llama_cpp)
    port = args.port if args.port is not None else _port_from_env()
    stop = threading.Event()
    signal.signal(signal.SIGTERM,
                  signal.SIG_IGN if args.ignore_term else (lambda *_: stop.set()))
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    fake.start(port)
    backend = f", chat from llama.cpp at {args.llama_cpp}" if args.llama_cpp else ""
    print(f"Listening on 127.0.0.1:{fake.port} (version {fake.version}{backend})", flush=True)
    stop.wait()
    fake.stop()
    if fake.llama_cpp is not None:
        fake.llama_cpp.close()
    print("stopped", file=sys.stderr, flush=True)
    return 0


def llama_cpp_model(name: str, context_length: int, parameter_size: str = "135M") -> FakeModel:
    """The listing of a model served by llama.cpp (``/api/tags``, ``/api/show``)."""
    return FakeModel(name, "llama", parameter_size, context_length, "Q4_1", 98_362_432,
                     parameter_count=_parameter_count(parameter_size))


def _parameter_count(size: str) -> int:
    match = re.fullmatch(r"\s*([\d.]+)\s*([KMB]?)\s*", size, re.IGNORECASE)
    if not match:
        return 0
    scale = {"": 1, "K": 10**3, "M": 10**6, "B": 10**9}[match.group(2).upper()]
    return int(float(match.group(1)) * scale)


if __name__ == "__main__":
    sys.exit(main())
