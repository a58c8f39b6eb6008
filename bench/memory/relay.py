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
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx

from bench.memory import loopback

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
        self._http = httpx.Client(base_url=host, trust_env=False,
                                  timeout=httpx.Timeout(10.0, read=900.0)) if host else None

    def close(self) -> None:
        if self._http is not None:
            self._http.close()

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
        if self._http is None:  # loopback: the summariser answers everything else
            entry.first = entry.ended = time.monotonic()
            entry.outcome = "done"
            return Reply(text=loopback.REPLIES[self.summariser](body))
        options = dict(body.get("options") or {})
        if kind == "question":
            options["num_predict"] = 64
        tail = _planted_tail(self.planted) if kind == "chat" else ""
        return self._forward({**body, "options": options}, entry, tail)

    def _forward(self, body: dict[str, Any], entry: Logged, tail: str) -> Any:
        """The host's answer, streamed through; an HTTP error before any output passes on."""
        from tests.ollama_server import Reply

        assert self._http is not None
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
        return Reply(stream=_pieces(response, entry, final, tail), final=final)


def _planted_tail(sentences: list[str]) -> str:
    """What ``runner._reply_with_facts`` appends to a model's reply."""
    plain = [s for s in sentences if not s.startswith("[")]
    markers = [s for s in sentences if s.startswith("[")]
    tail = (" " + " ".join(plain)) if plain else ""
    return tail + ("\n\n" + "\n".join(markers) if markers else "")


def _pieces(response: httpx.Response, entry: Logged, final: dict[str, Any], tail: str,
            ) -> Iterator[str]:
    import json

    done = False
    try:
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
