"""A loopback fake of an OpenAI-compatible server for tests (stdlib HTTP, one thread a client).

It plays llama.cpp's server, vLLM, LM Studio or a generic server by the endpoints it serves
(``flavour``), as shared/notes/platform-facts.md describes them:

- llama.cpp: ``/props`` (per-slot ``n_ctx``), ``/v1/models`` with ``meta`` (``n_params``,
  ``n_ctx_train``), ``/apply-template``, ``/tokenize``, ``/v1/chat/completions/input_tokens``
  (newer builds; ``input_tokens_endpoint``); an over-length prompt is HTTP 400
  ``exceed_context_size_error`` (``overflow_in_stream``: older builds' error event or bare
  ``error:`` line inside a 200 stream); ``timings`` in the last chunk.
- vLLM: ``max_model_len`` in ``/v1/models``, ``/tokenize`` with ``messages``, ``/version``; 400
  "maximum context length is N tokens" for a prompt, or a prompt plus ``max_tokens``, over it;
  reasoning in ``reasoning``.
- LM Studio: ``/api/v0/models`` (``state``, ``max_context_length``, ``loaded_context_length``), a
  model that loads on the first request, silent truncation of an over-length prompt (as its
  default overflow policy), 200 with an error text for unknown paths.
- generic: ``/v1/models`` and ``/v1/chat/completions`` only.

Prompts are counted with the fake model's own tokenizer (``tests.ollama_server.model_tokens``,
about 1.2x cl100k, plus ChatML-like markers), never the app's, so a test catches the app
under-counting. ``usage`` (with ``stream_options.include_usage``) and ``timings`` report it;
``cache_n`` is the one-slot prefix the server would reuse. ``api_key`` makes every call but
``/health`` answer 401 without it.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.loopback_http import Disconnected, LoopbackFake, LoopbackHandler, LoopbackServer
from tests.ollama_server import model_tokens, split_pieces

SPECIAL = re.compile(r"<\|im_start\|>|<\|im_end\|>")
IMAGE_TOKENS = 576  # one picture through a vision projector, a fixed figure of the fake's own


def render(messages: list[dict[str, Any]]) -> str:
    """The fake chat template (ChatML), as ``/apply-template`` returns it."""
    return "".join(render_one(m) for m in messages) + "<|im_start|>assistant\n"


def render_one(message: dict[str, Any]) -> str:
    calls = message.get("tool_calls")
    text = text_of(message) + ("\n" + json.dumps(calls, sort_keys=True) if calls else "")
    return f"<|im_start|>{message.get('role', 'user')}\n{text}<|im_end|>\n"


def render_tools(tools: list[dict[str, Any]] | None) -> str:
    """The tools' schemas as the template writes them, in a system turn of their own."""
    if not tools:
        return ""
    schemas = "\n".join(json.dumps(tool, sort_keys=True) for tool in tools)
    return f"<|im_start|>system\n# Tools\n{schemas}<|im_end|>\n"


def text_of(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if p.get("type") == "text")
    return str(content or "")


def images_of(message: dict[str, Any]) -> int:
    content = message.get("content")
    if not isinstance(content, list):
        return 0
    return sum(1 for p in content if p.get("type") == "image_url")


def tokenize(text: str) -> int:
    """The fake tokenizer: each marker one token, the rest ``model_tokens``."""
    return len(SPECIAL.findall(text)) + model_tokens(SPECIAL.sub(" ", text))


def message_tokens(message: dict[str, Any]) -> int:
    return tokenize(render_one(message)) + IMAGE_TOKENS * images_of(message)


def prompt_tokens(messages: list[dict[str, Any]],
                  tools: list[dict[str, Any]] | None = None) -> int:
    return sum(message_tokens(m) for m in messages) + tokenize("<|im_start|>assistant\n") \
        + tokenize(render_tools(tools))


@dataclass
class ServedModel:
    id: str
    window: int = 4096  # llama.cpp: per-slot n_ctx; vLLM: max_model_len; LM Studio: loaded
    n_params: int = 134_515_008
    n_ctx_train: int = 8192
    vision: bool = False
    loaded: bool = True  # LM Studio: a model not loaded yet loads with the first request


@dataclass
class FakeReply:
    """One scripted answer to ``/v1/chat/completions``."""

    text: str = "Hello from the fake OpenAI-compatible server."
    reasoning: str = ""
    http_status: int | None = None  # fail before any output with this status
    error: str = "something went wrong"
    error_after: int | None = None  # an error event after this many chunks
    cut_after: int | None = None  # drop the connection after this many chunks
    delay_per_chunk: float = 0.0
    # Tool calls ({"name", "arguments": {object}}): streamed after the text as
    # ``delta.tool_calls`` by index (id and name once, the arguments in fragments), then
    # ``finish_reason: "tool_calls"``.
    tool_calls: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Stream:
    """One chat request as the server saw it."""

    model: str
    prompt_tokens: int
    max_tokens: int | None
    sent: int = 0
    outcome: str = "running"  # done | refused | truncated-done | cut | error | disconnected
    kept_messages: int = 0
    finished: threading.Event = field(default_factory=threading.Event)


class FakeOpenAI(LoopbackFake):
    """The scriptable server (thread-safe)."""

    thread_name = "fake-openai"

    def __init__(self, flavour: str = "llama.cpp", models: list[ServedModel] | None = None, *,
                 api_key: str | None = None) -> None:
        super().__init__()
        self.flavour = flavour
        self.models = models if models is not None else [ServedModel("smollm2-135m")]
        self.api_key = api_key
        self.replies: collections.deque[FakeReply] = collections.deque()
        self.reply_fn: Callable[[dict[str, Any]], str | FakeReply] | None = None
        self.overflow_in_stream: str | None = None  # "event" | "line": older llama.cpp
        self.input_tokens_endpoint = True
        self.counting = True  # False: no count endpoint answers (the app must estimate)
        self.scale = 1.0  # multiplies every prompt count (a hungrier tokenizer than learned)
        self.reasoning_field = "reasoning" if flavour == "vllm" else "reasoning_content"
        self.streams: list[Stream] = []
        self.refusals: list[tuple[int, int]] = []  # (prompt tokens, window) refused as too long
        self.slot: list[int] = []  # one slot: per-message tokens of the last prompt + reply
        # Tools: llama.cpp's ``chat_template_caps.supports_tools``; ``refuse_tools`` answers a
        # request with ``tools`` HTTP 400 (vLLM without --enable-auto-tool-choice).
        self.supports_tools = True
        self.refuse_tools = False

    def _server(self, address: tuple[str, int]) -> LoopbackServer[Any]:
        return LoopbackServer(address, _Handler, self)

    # -------------------------------------------------------------- scripting
    def script(self, *replies: FakeReply | str) -> None:
        for reply in replies:
            self.replies.append(FakeReply(text=reply) if isinstance(reply, str) else reply)

    def chat_requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r.body for r in self.requests if r.path == "/v1/chat/completions"]

    def paths(self) -> list[str]:
        with self._lock:
            return [r.path for r in self.requests]

    # ------------------------------------------------------------- internals
    def model(self, name: str) -> ServedModel | None:
        if self.flavour == "llama.cpp":  # one model, whatever the request names
            return self.models[0]
        return next((m for m in self.models if m.id == name), None)

    def next_reply(self, body: dict[str, Any]) -> FakeReply:
        with self._lock:
            if self.replies:
                return self.replies.popleft()
        if self.reply_fn is not None:
            answer = self.reply_fn(body)
            return FakeReply(text=answer) if isinstance(answer, str) else answer
        return FakeReply()

    def cached(self, messages: list[dict[str, Any]]) -> int:
        """Tokens of the longest message prefix the one slot still holds."""
        counts = [message_tokens(m) for m in messages]
        same = 0
        for held, new in zip(self.slot, counts, strict=False):
            if held != new:
                break
            same += new
        return same


class _Handler(LoopbackHandler[FakeOpenAI]):
    stream_type = "text/event-stream"

    # ------------------------------------------------------------ plumbing
    def _allowed(self, path: str) -> bool:
        key = self.fake.api_key
        if not key or path == "/health":
            return True
        if self.headers.get("Authorization", "") == f"Bearer {key}":
            return True
        self._json(401, {"error": {"message": "Invalid API Key", "type": "authentication_error",
                                   "code": 401}})
        return False

    def _unknown(self) -> None:
        if self.fake.flavour == "lmstudio":  # LM Studio: 200 and an error text
            self._json(200, {"error": f"Unexpected endpoint or method. ({self.command} "
                                      f"{self.path})"})
        else:
            self._json(404, {"error": {"code": 404, "message": "File Not Found",
                                       "type": "not_found_error"}})

    def _sse(self, payload: Any) -> None:
        self._write(b"data: " + self._dumps(payload) + b"\n\n")

    # ------------------------------------------------------------- routes
    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        self.fake._record("GET", path, None)
        if not self._allowed(path):
            return
        flavour = self.fake.flavour
        if path == "/health":
            self._json(200, {"status": "ok"})
        elif path == "/props" and flavour == "llama.cpp":
            served = self.fake.models[0]
            self._json(200, {"default_generation_settings": {"n_ctx": served.window,
                                                             "params": {}},
                             "total_slots": 1, "model_alias": served.id,
                             "modalities": {"vision": served.vision, "audio": False},
                             "chat_template_caps": {
                                 "supports_tools": self.fake.supports_tools,
                                 "supports_tool_calls": self.fake.supports_tools},
                             "build_info": "b9999-fake"})
        elif path == "/v1/models":
            self._json(200, {"object": "list", "data": [self._listing(m)
                                                        for m in self.fake.models]})
        elif path == "/version" and flavour == "vllm":
            self._json(200, {"version": "0.11.0-fake"})
        elif path == "/api/v0/models" and flavour == "lmstudio":
            self._json(200, {"object": "list", "data": [self._lmstudio(m)
                                                        for m in self.fake.models]})
        elif path.startswith("/api/v0/models/") and flavour == "lmstudio":
            served = self.fake.model(path.removeprefix("/api/v0/models/"))
            if served is None:
                self._json(404, {"error": "Model not found"})
            else:
                self._json(200, self._lmstudio(served))
        else:
            self._unknown()

    def _listing(self, served: ServedModel) -> dict[str, Any]:
        entry: dict[str, Any] = {"id": served.id, "object": "model", "owned_by": "fake"}
        if self.fake.flavour == "llama.cpp":
            entry["meta"] = {"n_params": served.n_params, "n_ctx_train": served.n_ctx_train,
                             "n_ctx": served.window, "n_vocab": 49152}
        elif self.fake.flavour == "vllm":
            entry["max_model_len"] = served.window
        return entry

    @staticmethod
    def _lmstudio(served: ServedModel) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "id": served.id, "object": "model", "type": "vlm" if served.vision else "llm",
            "arch": "llama", "quantization": "Q4_K_M", "max_context_length": served.n_ctx_train,
            "state": "loaded" if served.loaded else "not-loaded"}
        if served.loaded:
            entry["loaded_context_length"] = served.window
        return entry

    def do_POST(self) -> None:
        path = self.path.split("?")[0]
        body = self._body()
        self.fake._record("POST", path, body)
        if not self._allowed(path):
            return
        flavour = self.fake.flavour
        if not isinstance(body, dict):
            self._json(400, {"error": {"message": "invalid JSON", "code": 400}})
        elif not self.fake.counting and path in ("/tokenize", "/apply-template",
                                                 "/v1/chat/completions/input_tokens"):
            self._unknown()
        elif path == "/v1/chat/completions":
            self._chat(body)
        elif path == "/v1/embeddings" and flavour != "generic":
            self._embeddings(body)
        elif path == "/apply-template" and flavour == "llama.cpp":
            self._json(200, {"prompt": render(body.get("messages") or [])})
        elif path == "/tokenize" and flavour == "llama.cpp":
            count = tokenize(str(body.get("content") or ""))
            self._json(200, {"tokens": list(range(count))})
        elif (path == "/v1/chat/completions/input_tokens" and flavour == "llama.cpp"
              and self.fake.input_tokens_endpoint):
            self._json(200, {"input_tokens": prompt_tokens(body.get("messages") or [],
                                                           body.get("tools")),
                             "object": "response.input_tokens"})
        elif path == "/tokenize" and flavour == "vllm":
            messages = body.get("messages")
            count = prompt_tokens(messages, body.get("tools")) if isinstance(
                messages, list) else tokenize(
                str(body.get("prompt") or ""))
            self._json(200, {"count": count, "max_model_len": self.fake.models[0].window,
                             "tokens": list(range(count))})
        else:
            self._unknown()

    def _embeddings(self, body: dict[str, Any]) -> None:
        texts = body.get("input")
        texts = [texts] if isinstance(texts, str) else list(texts or [])
        rows = []
        for index, text in enumerate(texts):
            digest = hashlib.sha256(str(text).encode()).digest()
            rows.append({"object": "embedding", "index": index,
                         "embedding": [b / 255 for b in digest[:8]]})
        self._json(200, {"object": "list", "data": rows, "model": body.get("model")})

    # --------------------------------------------------------------- chat
    def _chat(self, body: dict[str, Any]) -> None:
        fake = self.fake
        name = str(body.get("model") or "")
        served = fake.model(name)
        if served is None:
            message = (f"The model `{name}` does not exist." if fake.flavour == "vllm"
                       else f"model '{name}' not found")
            self._json(404, {"object": "error", "message": message, "type": "NotFoundError",
                             "code": 404})
            return
        if fake.flavour == "lmstudio" and not served.loaded:
            served.loaded = True  # loads with the first request (JIT)
        messages = list(body.get("messages") or [])
        if body.get("tools") and fake.refuse_tools:
            self._json(400, {"object": "error", "type": "BadRequestError", "code": 400,
                             "message": '"auto" tool choice requires --enable-auto-tool-choice '
                                        'and --tool-call-parser to be set'})
            return
        prompt = round(prompt_tokens(messages, body.get("tools")) * fake.scale)
        max_tokens = body.get("max_tokens")
        record = Stream(name, prompt, max_tokens, kept_messages=len(messages))
        with fake._lock:
            fake.streams.append(record)
        try:
            if prompt >= served.window or (fake.flavour == "vllm" and isinstance(
                    max_tokens, int) and prompt + max_tokens > served.window):
                if fake.flavour == "lmstudio":  # its default policy: cut silently
                    messages, prompt = self._truncate(messages, served.window)
                    record.kept_messages, record.outcome = len(messages), "truncated"
                else:
                    record.outcome = "refused"
                    self._refuse(prompt, served.window, max_tokens)
                    return
            reply = fake.next_reply(body)
            if reply.http_status is not None:
                record.outcome = "error"
                self._json(reply.http_status, {"error": {"message": reply.error,
                                                         "code": reply.http_status}})
                return
            self._stream(body, served, messages, prompt, reply, record)
        finally:
            record.finished.set()

    @staticmethod
    def _truncate(messages: list[dict[str, Any]], window: int,
                  ) -> tuple[list[dict[str, Any]], int]:
        kept = list(messages)
        while prompt_tokens(kept) >= window:
            droppable = [i for i, m in enumerate(kept[:-1]) if m.get("role") != "system"]
            if not droppable:
                break
            del kept[droppable[0]]
        return kept, prompt_tokens(kept)

    def _refuse(self, prompt: int, window: int, max_tokens: Any) -> None:
        fake = self.fake
        with fake._lock:
            fake.refusals.append((prompt, window))
        if fake.flavour == "llama.cpp":
            error = {"code": 400, "type": "exceed_context_size_error",
                     "message": f"request ({prompt} tokens) exceeds the available context size "
                                f"({window} tokens), try increasing it",
                     "n_prompt_tokens": prompt, "n_ctx": window}
            if fake.overflow_in_stream is None:
                self._json(400, {"error": error})
                return
            self._start_stream()  # older builds: the error inside a 200 stream
            with contextlib.suppress(Disconnected):
                if fake.overflow_in_stream == "line":
                    self._write(b"error: " + json.dumps(error).encode() + b"\n\n")
                else:
                    self._sse({"error": error})
            self._end_stream()
            return
        if fake.flavour == "vllm" and prompt < window:
            message = (f"This model's maximum context length is {window} tokens. However, you "
                       f"requested {prompt + int(max_tokens)} tokens ({prompt} in the messages, "
                       f"{max_tokens} in the completion). Please reduce the length of the "
                       "messages or completion.")
        else:
            message = (f"This model's maximum context length is {window} tokens. However, your "
                       f"request has {prompt} input tokens. Please reduce the length of the "
                       "input messages.")
        self._json(400, {"object": "error", "message": message, "type": "BadRequestError",
                         "param": None, "code": 400})

    def _stream(self, body: dict[str, Any], served: ServedModel, messages: list[dict[str, Any]],
                prompt: int, reply: FakeReply, record: Stream) -> None:
        fake = self.fake
        pieces = split_pieces(reply.text)
        room = served.window - prompt
        limit = min(room, body["max_tokens"]) if isinstance(body.get("max_tokens"),
                                                            int) else room
        finish = "stop"
        if len(pieces) > limit:
            pieces, finish = pieces[:limit], "length"
        started = time.monotonic()
        cached = fake.cached(messages)
        self._start_stream()
        base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk",
                "created": int(time.time()), "model": served.id}
        try:
            self._sse({**base, "choices": [{"index": 0, "delta": {"role": "assistant"},
                                            "finish_reason": None}]})
            for thought in split_pieces(reply.reasoning):
                self._sse({**base, "choices": [{"index": 0, "finish_reason": None,
                                                "delta": {fake.reasoning_field: thought}}]})
            for index, piece in enumerate(pieces):
                if reply.cut_after is not None and index == reply.cut_after:
                    record.outcome = "cut"
                    self._hang_up()
                    return
                if reply.error_after is not None and index == reply.error_after:
                    self._sse({"error": {"code": 500, "message": reply.error,
                                         "type": "server_error"}})
                    self._end_stream()
                    record.outcome = "error"
                    return
                if fake.wait(reply.delay_per_chunk):
                    raise Disconnected
                self._sse({**base, "choices": [{"index": 0, "delta": {"content": piece},
                                                "finish_reason": None}]})
                record.sent += 1
            for index, call in enumerate(reply.tool_calls):
                self._tool_call(base, index, call)
            if reply.tool_calls and finish == "stop":
                finish = "tool_calls"
            self._sse({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
            if (body.get("stream_options") or {}).get("include_usage"):
                final: dict[str, Any] = {**base, "choices": [], "usage": {
                    "prompt_tokens": prompt, "completion_tokens": len(pieces),
                    "total_tokens": prompt + len(pieces),
                    "prompt_tokens_details": {"cached_tokens": cached}}}
                if fake.flavour == "llama.cpp":
                    final["timings"] = {
                        "cache_n": cached, "prompt_n": prompt - cached,
                        "prompt_ms": (prompt - cached) * 2.0, "predicted_n": len(pieces),
                        "predicted_ms": len(pieces) * 10.0 + (time.monotonic() - started)}
                self._sse(final)
            self._write(b"data: [DONE]\n\n")
            self._end_stream()
            if record.outcome == "running":
                record.outcome = "done"
            reply_message = {"role": "assistant", "content": "".join(pieces)}
            with fake._lock:
                fake.slot = [message_tokens(m) for m in [*messages, reply_message]]
        except Disconnected:
            record.outcome = "disconnected"
            self.close_connection = True
            fake.disconnected.set()


    def _tool_call(self, base: dict[str, Any], index: int, call: dict[str, Any]) -> None:
        """One call as llama.cpp streams it: id, type and name first, then the arguments'
        JSON text in three fragments."""
        arguments = json.dumps(call.get("arguments") or {})
        third = max(1, len(arguments) // 3)
        fragments = [arguments[:third], arguments[third:2 * third], arguments[2 * third:]]
        self._sse({**base, "choices": [{"index": 0, "finish_reason": None, "delta": {
            "tool_calls": [{"index": index, "id": f"call_fake_{index}", "type": "function",
                            "function": {"name": call["name"], "arguments": ""}}]}}]})
        for fragment in fragments:
            self._sse({**base, "choices": [{"index": 0, "finish_reason": None, "delta": {
                "tool_calls": [{"index": index, "function": {"arguments": fragment}}]}}]})


@pytest.fixture
def openai_server() -> Iterator[FakeOpenAI]:
    """A started fake llama.cpp server on a random loopback port (set ``flavour`` to play
    another); stopped, its threads joined, afterwards."""
    with FakeOpenAI().running() as fake:
        yield fake
