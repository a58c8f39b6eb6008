"""``--app``'s model: a loopback server between the real app and ``--host``.

It answers each request the app makes by its kind (``request_kind``), never by the exact text
of the last message, since recall adds to that message:

- a chat turn: the scripted or noisy reply, or the host's reply streamed through (``model``),
  with the assistant's planted sentences appended;
- a probe question: refused at once with HTTP 503 (only the request matters: the app then takes
  the question back), or answered by the host when the model's answers are checked;
- a summary (or any other request of the engine): the host's answer streamed through, or the
  loopback summariser's;
- a cache warm-up (``num_predict`` 1 ending with the assistant's reply): passed to the host.

Every request is logged with its kind, times and the host's cache figures (llama.cpp's
``timings`` and the adapter's one-slot model), for the layout issue's measurements.

The host is an Ollama server (``/api/chat`` streamed through) or an OpenAI-compatible one
(``openai_host``): then the request is counted by the server first and refused with Ollama's
over-length 400 when it does not fit ``num_ctx`` (as Ollama with ``truncate: false``), and the
streamed ``/v1/chat/completions`` deltas become the pieces, ``usage`` and ``timings`` the final
chunk's figures.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx

from bench.memory import loopback
from bench.memory.openai_host import (
    Counts,
    HostError,
    OpenAIServer,
    Overflow,
    api_root,
    detect,
    error_text,
    events,
    is_overflow,
)

# Phrases of the engine's summary, condense and description requests (before and after the
# layout issue), so a summary is told from a chat turn whatever its last message is.
SUMMARY_MARKERS = ("compress the chat history", "rewrite this checkpoint",
                   "you compress chat history into a checkpoint",
                   "you shorten an existing conversation checkpoint", "describe the image",
                   "write the checkpoint")
QUESTION_REFUSED = "bench: question captured"


def request_kind(body: dict[str, Any], turn_text: str | None, question: str | None) -> str:
    """chat | question | summary | warmup | other."""
    messages = body.get("messages") or []
    if not messages:
        return "other"
    last = str(messages[-1].get("content", ""))
    if question and last.startswith(question):
        return "question"
    if turn_text and messages[-1].get("role") == "user" and last.startswith(turn_text):
        return "chat"
    edges = (last + "\n" + str(messages[0].get("content", ""))[:400]).lower()
    if any(marker in edges for marker in SUMMARY_MARKERS):
        return "summary"
    predict = (body.get("options") or {}).get("num_predict")
    if predict == 1:
        return "warmup"
    return "other"


@dataclass
class Logged:
    """One request as the relay saw it."""

    kind: str
    measured: bool  # part of the chat (False: during probe questions)
    arrived: float
    messages: list[dict[str, Any]] = field(default_factory=list)
    first: float | None = None
    ended: float | None = None
    outcome: str = "running"  # done | refused | error | cancelled
    summary_running: bool = False  # a summary of ours was in flight when it arrived
    final: dict[str, Any] = field(default_factory=dict)  # the host's final-chunk figures


class Relay:
    """``reply_fn`` of the loopback server in ``--app``."""

    def __init__(self, host: str | None, model: str, *, replies: str, summariser: str) -> None:
        self.host, self.model, self.replies, self.summariser = host, model, replies, summariser
        self.turn_text: str | None = None  # the user message being answered now
        self.reply_text = ""  # its scripted or noisy reply (planted sentences included)
        self.planted: list[str] = []  # the assistant's planted sentences (live replies)
        self.question: str | None = None
        self.answer_questions = False  # forward questions to the host (the QA check)
        self.measuring = True
        self.log: list[Logged] = []
        self._lock = threading.Lock()
        self.counts = Counts()  # an OpenAI-compatible host's counts and refusals
        self._openai: OpenAIServer | None = None
        self._http: httpx.Client | None = None
        if host:
            kind = detect(host)
            if kind != "ollama":
                self._openai = OpenAIServer(host, kind)
            self._http = httpx.Client(base_url=api_root(host), trust_env=False,
                                      timeout=httpx.Timeout(10.0, read=900.0))

    def close(self) -> None:
        if self._http is not None:
            self._http.close()
        if self._openai is not None:
            self._openai.close()

    # ------------------------------------------------------------ bookkeeping
    def _start(self, kind: str, body: dict[str, Any]) -> Logged:
        with self._lock:
            running = any(e.kind == "summary" and e.ended is None for e in self.log)
            entry = Logged(kind, self.measuring, time.monotonic(),
                           messages=[dict(m) for m in body.get("messages") or []],
                           summary_running=running)
            self.log.append(entry)
        return entry

    def last(self, kind: str) -> Logged | None:
        with self._lock:
            return next((e for e in reversed(self.log) if e.kind == kind), None)

    # --------------------------------------------------------------- answers
    def __call__(self, body: dict[str, Any]) -> Any:
        from tests.ollama_server import Reply

        with self._lock:
            turn, question = self.turn_text, self.question
        kind = request_kind(body, turn, question)
        entry = self._start(kind, body)
        if kind == "question" and not self.answer_questions:
            entry.outcome, entry.ended = "refused", time.monotonic()
            return Reply(http_status=503, error=QUESTION_REFUSED)
        if kind == "chat" and self.replies != "model":
            entry.first = entry.ended = time.monotonic()
            entry.outcome = "done"
            return Reply(text=self.reply_text)
        # While questions are asked (the chat is put back after each), a summary or warm-up
        # that a question caused is answered here by the fact-free summariser: sent to the
        # server it would replace the slot's chat, and the next turn, which a user's chat would
        # never have preceded by it, would be read in full (seen: TTFT 7-18 s after each probe).
        local = not self.measuring and not self.answer_questions and kind in ("summary",
                                                                              "warmup")
        if self._http is None or local:  # loopback: the summariser answers everything else
            entry.first = entry.ended = time.monotonic()
            entry.outcome = "done"
            summariser = "fact-free" if local and self._http is not None else self.summariser
            return Reply(text=loopback.REPLIES[summariser](body))
        options = dict(body.get("options") or {})
        if kind == "question":
            options["num_predict"] = 64
        tail = _planted_tail(self.planted) if kind == "chat" else ""
        return self._forward({**body, "options": options}, entry, tail)

    def _forward(self, body: dict[str, Any], entry: Logged, tail: str) -> Any:
        """The host's answer, streamed through; an HTTP error before any output passes on."""
        from tests.ollama_server import Reply

        assert self._http is not None
        if self._openai is not None:
            return self._forward_openai(self._openai, body, entry, tail)
        request = self._http.build_request(
            "POST", "/api/chat", json={**body, "model": self.model, "stream": True})
        response = self._http.send(request, stream=True)
        if response.status_code != 200:
            response.read()
            response.close()
            entry.outcome, entry.ended = "error", time.monotonic()
            try:
                error = str(response.json().get("error", response.text))
            except ValueError:
                error = response.text
            return Reply(http_status=response.status_code, error=error[:300])
        final: dict[str, Any] = {}
        return Reply(stream=_streamed(response, entry, tail, _pieces(response, entry, final)),
                     final=final)

    def _forward_openai(self, server: OpenAIServer, body: dict[str, Any], entry: Logged,
                        tail: str) -> Any:
        """The same through an OpenAI-compatible host: counted first, refused like Ollama."""
        from tests.ollama_server import INPUT_TOO_LONG, Reply

        options = body.get("options") or {}
        messages = list(body.get("messages") or [])
        predict = options.get("num_predict")
        try:
            num_ctx = int(options.get("num_ctx") or 0) or server.window(self.model) or 0
            max_tokens, _ = server.plan(self.model, messages, num_ctx,
                                        predict if isinstance(predict, int) and predict > 0
                                        else None, self.counts)
        except Overflow:
            entry.outcome, entry.ended = "refused", time.monotonic()
            return Reply(http_status=400, error=INPUT_TOO_LONG)
        self.counts.add(requests=1)
        response = server.open_stream(self.model, messages, max_tokens, options)
        if response.status_code != 200:
            response.read()
            response.close()
            entry.outcome, entry.ended = "error", time.monotonic()
            error = error_text(response.status_code, _json(response), response.text) or ""
            if is_overflow(error):
                self.counts.add(server_overflows=1)
                entry.outcome = "refused"
                return Reply(http_status=400, error=INPUT_TOO_LONG)
            return Reply(http_status=response.status_code, error=error[:300])
        final: dict[str, Any] = {}
        pieces = _openai_pieces(response, entry, final, self.counts)
        return Reply(stream=_streamed(response, entry, tail, pieces), final=final)


def _planted_tail(sentences: list[str]) -> str:
    """What ``runner._reply_with_facts`` appends to a model's reply."""
    plain = [s for s in sentences if not s.startswith("[")]
    markers = [s for s in sentences if s.startswith("[")]
    tail = (" " + " ".join(plain)) if plain else ""
    return tail + ("\n\n" + "\n".join(markers) if markers else "")


def _streamed(response: httpx.Response, entry: Logged, tail: str,
              pieces: Generator[str, None, bool]) -> Iterator[str]:
    """The host's ``pieces`` (which return whether its answer ended properly), then ``tail``;
    logs the outcome and the end, and closes the response, however the stream ends."""
    try:
        done = yield from pieces
        if tail:
            entry.first = entry.first or time.monotonic()
            yield tail
        entry.outcome = "done" if done else "error"
    except GeneratorExit:
        entry.outcome = "cancelled"
        raise
    finally:
        entry.ended = time.monotonic()
        response.close()


def _pieces(response: httpx.Response, entry: Logged, final: dict[str, Any],
            ) -> Generator[str, None, bool]:
    import json

    done = False
    for line in response.iter_lines():
        if not line.strip():
            continue
        event = json.loads(line)
        if event.get("error"):
            raise RuntimeError(str(event["error"]))
        piece = (event.get("message") or {}).get("content") or ""
        if piece:
            entry.first = entry.first or time.monotonic()
            yield piece
        if event.get("done"):
            keep = ("prompt_eval_count", "eval_count", "prompt_eval_cached_count",
                    "timings", "slot_model", "done_reason")
            final.update({k: event[k] for k in keep if k in event})
            entry.final = dict(final)
            done = True
    return done


def _json(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _openai_pieces(response: httpx.Response, entry: Logged, final: dict[str, Any],
                   counts: Counts) -> Generator[str, None, bool]:
    """An OpenAI-compatible stream as the pieces of an Ollama one; ``usage`` and llama.cpp's
    ``timings`` fill ``final`` as Ollama's final chunk would carry them."""
    usage: dict[str, Any] = {}
    finish: str | None = None
    try:
        for event in events(response):
            usage = event.get("usage") or usage
            if event.get("timings"):
                final["timings"] = event["timings"]
            for choice in event.get("choices") or []:
                finish = choice.get("finish_reason") or finish
                piece = (choice.get("delta") or {}).get("content") or ""
                if piece:
                    entry.first = entry.first or time.monotonic()
                    yield piece
    except Overflow as exc:  # over-length inside the 200 stream (older llama.cpp builds)
        from tests.ollama_server import INPUT_TOO_LONG

        counts.add(server_overflows=1)
        entry.outcome = "refused"
        raise RuntimeError(INPUT_TOO_LONG) from exc  # Ollama's words, as an error line
    except HostError:  # another error inside the stream: passed on as an error line
        entry.outcome = "error"
        raise
    if isinstance(usage.get("prompt_tokens"), int):
        final["prompt_eval_count"] = usage["prompt_tokens"]
        counts.add(usage_reported=1)
    if isinstance(usage.get("completion_tokens"), int):
        final["eval_count"] = usage["completion_tokens"]
    cached = (final.get("timings") or {}).get("cache_n")
    if isinstance(cached, int):
        final["prompt_eval_cached_count"] = cached
    final["done_reason"] = "length" if finish == "length" else "stop"
    entry.final = dict(final)
    return finish is not None
