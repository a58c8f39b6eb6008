"""The benchmark's own client for OpenAI-compatible servers: llama-server, vLLM, LM Studio, others.

Self-contained on purpose: the before/after runs import ``ollm_desktop`` from an older checkout
that may have no OpenAI client, so nothing here imports the app. Synchronous httpx: the
benchmark sends one request at a time (``host.Host`` runs these calls in a worker thread) and
the ``--app`` relay calls them from its handler threads.

What it keeps from shared/notes/platform-facts.md ("OpenAI-compatible servers"):

- the kind, by asking in order: Ollama ``/api/version``, llama.cpp ``/props``, LM Studio
  ``/api/v0/models``, else ``/v1/models`` (vLLM when it lists ``max_model_len``);
- the window: llama.cpp ``/props`` ``default_generation_settings.n_ctx`` (per slot: ``-c`` /
  ``--parallel``), vLLM ``max_model_len``, LM Studio's loaded context; a request must fit the
  smaller of it and the chat's ``num_ctx``;
- counts: llama.cpp ``/apply-template`` + ``/tokenize`` (else ``/v1/chat/completions/
  input_tokens``), vLLM ``/tokenize`` with ``messages``. A prompt that does not fit is refused
  here before it is sent (``Overflow``), as Ollama refuses it with ``truncate: false``;
- ``max_tokens`` on every request (the cap, at most the room left; vLLM refuses a prompt plus
  ``max_tokens`` over its window); never ``truncate_prompt_tokens``;
- over-length in every shape (llama.cpp's HTTP 400 ``exceed_context_size_error``, vLLM's
  "maximum context length", an error inside a 200 body or stream) is ``Overflow``.
"""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx

from bench.memory.tokens import cl100k_messages

KINDS = ("ollama", "llama.cpp", "lmstudio", "vllm", "openai")
MIN_REPLY = 16  # max_tokens never below this when the prompt could not be counted
ROUGH_SCALE = 1.3  # model tokens per cl100k token, generous, when the server cannot count
_OVERFLOW = re.compile(r"exceed_context_size_error|exceeds? the (available )?context|"
                       r"maximum context length|context_length_exceeded|context length "
                       r"exceeded", re.IGNORECASE)
# vLLM: "... maximum context length is 2048 tokens. However, you requested 2100 tokens (1900 in
# the messages, 200 in the completion)": the prompt fits, only max_tokens was too large.
_VLLM_SPLIT = re.compile(r"maximum context length is (\d+).*?\((\d+) in the messages",
                         re.IGNORECASE | re.DOTALL)


class Overflow(RuntimeError):
    """The prompt does not fit: refused by the server, or counted too long before sending."""

    kind = "context_overflow"  # what the engine looks for (a shorter prompt may still fit)


class HostError(RuntimeError):
    """The server answered with another error, or speaks no API the benchmark knows."""


def api_root(url: str) -> str:
    """The server's root from a base URL: ``http://h:8000/v1/`` -> ``http://h:8000``."""
    text = url.strip()
    if "://" not in text:
        text = f"http://{text}"
    split = urllib.parse.urlsplit(text)
    path = split.path.rstrip("/")
    for suffix in ("/chat/completions", "/v1"):
        if path.endswith(suffix):
            path = path[: -len(suffix)].rstrip("/")
    return urllib.parse.urlunsplit((split.scheme.lower(), split.netloc, path, "", ""))


@dataclass
class Counts:
    """How one run's requests were counted and refused, as the server saw them."""

    requests: int = 0  # chat requests sent to the server
    counted: int = 0  # prompts the server counted before they were sent
    refused_before_sending: int = 0  # counted over the window, so never sent
    server_overflows: int = 0  # over-length answers from the server itself
    usage_reported: int = 0  # answers carrying the server's own prompt count
    count_differs: int = 0  # answers whose reported count differs from the count before

    def add(self, **deltas: int) -> None:
        with _COUNTS_LOCK:
            for name, value in deltas.items():
                setattr(self, name, getattr(self, name) + value)


_COUNTS_LOCK = threading.Lock()


@dataclass
class Completion:
    content: str
    prompt_tokens: int | None
    completion_tokens: int | None
    finish: str  # "stop" | "length"
    seconds: float


def _json_or_none(response: httpx.Response) -> Any:
    if response.status_code != 200:
        return None
    try:
        return response.json()
    except ValueError:
        return None


def detect(url: str, timeout: float = 10.0) -> str:
    """The kind of server at ``url`` (one of ``KINDS``); ``HostError`` if none answers.

    Each answer must have its kind's shape, not only status 200 (LM Studio answers unknown
    paths with 200 and an error text)."""
    root = api_root(url)
    try:
        with httpx.Client(base_url=root, trust_env=False, timeout=timeout) as client:
            version = _json_or_none(client.get("/api/version"))
            if isinstance(version, dict) and isinstance(version.get("version"), str):
                return "ollama"
            props = _json_or_none(client.get("/props"))
            if isinstance(props, dict) and isinstance(props.get("default_generation_settings"),
                                                      dict):
                return "llama.cpp"
            studio = _json_or_none(client.get("/api/v0/models"))
            if isinstance(studio, dict) and isinstance(studio.get("data"), list):
                return "lmstudio"
            models = _json_or_none(client.get("/v1/models"))
    except httpx.HTTPError as exc:
        raise HostError(f"no server answers at {root}: {type(exc).__name__}: {exc}") from exc
    if not (isinstance(models, dict) and isinstance(models.get("data"), list)):
        raise HostError(f"{root} speaks neither Ollama's API nor the OpenAI-compatible API "
                        "(no /api/version, no model list at /v1/models)")
    listed = [e for e in models["data"] if isinstance(e, dict)]
    return "vllm" if any("max_model_len" in e for e in listed) else "openai"


def error_text(status: int, payload: Any, raw: str) -> str | None:
    """The error a chat answer carries (an HTTP error, or ``error`` inside a 200), or None."""
    if status == 200 and not (isinstance(payload, dict) and payload.get("error")):
        return None
    inner = payload.get("error", payload) if isinstance(payload, dict) else raw
    if isinstance(inner, dict):
        kind = str(inner.get("type") or "")
        message = str(inner.get("message") or inner.get("detail") or json.dumps(inner))
        return f"{kind}: {message}" if kind else message
    return str(inner or raw)[:500] or f"HTTP {status}"


def is_overflow(error: str) -> bool:
    return bool(_OVERFLOW.search(error))


def completion_room(error: str) -> int | None:
    """vLLM refused prompt + max_tokens although the prompt fits: the room for the reply."""
    match = _VLLM_SPLIT.search(error)
    if match is None:
        return None
    window, prompt = int(match.group(1)), int(match.group(2))
    return window - prompt if prompt < window else None


def _positive(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) and value > 0 else None


def plain(messages: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The OpenAI message shape of the benchmark's (text only) messages."""
    return [{"role": str(m.get("role", "user")), "content": str(m.get("content") or "")}
            for m in messages]


class OpenAIServer:
    """One OpenAI-compatible server of a known kind (``detect``), for one model."""

    def __init__(self, url: str, kind: str, *, read_timeout: float | None = 900.0) -> None:
        self.root, self.kind = api_root(url), kind
        self._http = httpx.Client(base_url=self.root, trust_env=False,
                                  timeout=httpx.Timeout(10.0, read=read_timeout))
        self._window: int | None = None
        self._count_path: str | None = None  # llama.cpp: the count endpoint that answered

    def close(self) -> None:
        self._http.close()

    def _get(self, path: str) -> Any:
        response = self._http.get(path)
        if response.status_code != 200:
            raise HostError(f"{self.kind} at {self.root}: GET {path} answered HTTP "
                            f"{response.status_code}: {response.text[:300]}")
        return response.json()

    def _post(self, path: str, body: dict[str, Any]) -> Any:
        """The JSON answer, or None when the endpoint is missing or failing."""
        try:
            return _json_or_none(self._http.post(path, json=body))
        except httpx.HTTPError:
            return None

    # ------------------------------------------------------------- the catalog
    def listing(self) -> list[dict[str, Any]]:
        data = self._get("/v1/models").get("data")
        return [e for e in data or [] if isinstance(e, dict) and isinstance(e.get("id"), str)]

    def models(self) -> list[str]:
        return [entry["id"] for entry in self.listing()]

    def window(self, model: str) -> int | None:
        """The context the server serves ``model`` with (read once: ``-c`` is fixed)."""
        if self._window is not None:
            return self._window
        window: int | None = None
        if self.kind == "llama.cpp":
            settings = self._get("/props").get("default_generation_settings") or {}
            window = _positive(settings.get("n_ctx"))
        elif self.kind == "lmstudio":
            for entry in self._get("/api/v0/models").get("data") or []:
                if isinstance(entry, dict) and entry.get("id") == model:
                    window = _positive(entry.get("loaded_context_length"))
        if window is None:
            entry = next((e for e in self.listing() if e["id"] == model), None)
            if entry is not None:
                window = _positive(entry.get("max_model_len")) or _positive(
                    (entry.get("meta") or {}).get("n_ctx"))
        if self.kind != "lmstudio":  # LM Studio's model may load (and say its size) later
            self._window = window
        return window

    def trained(self, model: str) -> int | None:
        """The served window where the server says it, else the trained size (``meta``)."""
        window = self.window(model)
        if window is not None:
            return window
        entry = next((e for e in self.listing() if e["id"] == model), None)
        return _positive(((entry or {}).get("meta") or {}).get("n_ctx_train"))

    # ---------------------------------------------------------------- counting
    def count(self, model: str, messages: list[dict[str, str]]) -> int | None:
        """The server's count of the templated prompt; None where it cannot count."""
        if self.kind == "vllm":
            answer = self._post("/tokenize", {"model": model, "messages": messages,
                                              "add_generation_prompt": True})
            count = answer.get("count") if isinstance(answer, dict) else None
            return count if isinstance(count, int) else None
        if self.kind != "llama.cpp" or self._count_path == "none":
            return None
        if self._count_path in (None, "/tokenize"):
            templated = self._post("/apply-template", {"messages": messages})
            if isinstance(templated, dict) and isinstance(templated.get("prompt"), str):
                tokens = self._post("/tokenize", {"content": templated["prompt"],
                                                  "add_special": True, "parse_special": True})
                if isinstance(tokens, dict) and isinstance(tokens.get("tokens"), list):
                    self._count_path = "/tokenize"
                    return len(tokens["tokens"])
        answer = self._post("/v1/chat/completions/input_tokens", {"messages": messages})
        if isinstance(answer, dict) and isinstance(answer.get("input_tokens"), int):
            self._count_path = "/v1/chat/completions/input_tokens"
            return int(answer["input_tokens"])
        self._count_path = "none"
        return None

    def plan(self, model: str, messages: list[dict[str, str]], num_ctx: int,
             num_predict: int | None, counts: Counts) -> tuple[int, int | None]:
        """(max_tokens, the server's count or None); ``Overflow`` when the counted prompt
        leaves no room in the smaller of ``num_ctx`` and the server's window."""
        served = self.window(model)
        window = min(num_ctx, served) if served else num_ctx
        count = self.count(model, messages)
        if count is None:
            room = max(MIN_REPLY, window - round(cl100k_messages(messages) * ROUGH_SCALE))
        elif count >= window:
            counts.add(counted=1, refused_before_sending=1)
            raise Overflow(f"refused before sending: the prompt is {count} tokens ({self.kind} "
                           f"counted it), the window {window} tokens")
        else:
            counts.add(counted=1)
            room = window - count
        return (min(num_predict, room) if num_predict else room), count

    # ---------------------------------------------------------------- chatting
    def complete(self, model: str, messages: list[dict[str, Any]], *, num_ctx: int,
                 num_predict: int | None, seed: int | None, counts: Counts) -> Completion:
        """One whole reply, streamed with ``usage`` (so an error inside the stream is seen,
        and the fakes of the test suite, which always stream, answer it); ``Overflow`` when
        the prompt does not fit."""
        sent = plain(messages)
        max_tokens, count = self.plan(model, sent, num_ctx, num_predict, counts)
        options = {"seed": seed}
        started = time.monotonic()
        for attempt in (1, 2):
            counts.add(requests=1)
            response = self.open_stream(model, sent, max_tokens, options)
            try:
                if response.status_code == 200:
                    done = self._collect(response, counts, count)
                    done.seconds = time.monotonic() - started
                    return done
                response.read()
            finally:
                response.close()
            try:
                payload = response.json()
            except ValueError:
                payload = None
            error = error_text(response.status_code, payload, response.text) or ""
            room = completion_room(error) if attempt == 1 else None
            if room and room < max_tokens:  # vLLM: the prompt fits, only max_tokens did not
                max_tokens = room
                continue
            if is_overflow(error):
                counts.add(server_overflows=1)
                raise Overflow(f"{self.kind} refused the prompt: {error}")
            raise HostError(f"{self.kind} answered HTTP {response.status_code}: {error}")
        raise HostError(f"{self.kind} refused max_tokens twice")  # pragma: no cover

    @staticmethod
    def _collect(response: httpx.Response, counts: Counts, count: int | None) -> Completion:
        """The stream's text, ``usage`` and finish reason; an over-length error event inside
        the 200 stream (older llama.cpp) is ``Overflow``."""
        parts: list[str] = []
        usage: dict[str, Any] = {}
        finish: str | None = None
        try:
            for event in events(response):
                usage = event.get("usage") or usage
                for choice in event.get("choices") or []:
                    finish = choice.get("finish_reason") or finish
                    parts.append((choice.get("delta") or {}).get("content") or "")
        except Overflow:
            counts.add(server_overflows=1)
            raise
        reported = usage.get("prompt_tokens")
        reported = reported if isinstance(reported, int) else None
        if reported is not None:
            counts.add(usage_reported=1,
                       count_differs=int(count is not None and reported != count))
        completion = usage.get("completion_tokens")
        return Completion("".join(parts), reported if reported is not None else count,
                          completion if isinstance(completion, int) else None,
                          "length" if finish == "length" else "stop", 0.0)

    def open_stream(self, model: str, messages: list[dict[str, Any]], max_tokens: int,
                    options: dict[str, Any]) -> httpx.Response:
        """A streamed ``/v1/chat/completions`` with usage; the caller checks the status,
        reads ``events`` and closes it."""
        body: dict[str, Any] = {"model": model, "messages": plain(messages), "stream": True,
                                "stream_options": {"include_usage": True},
                                "max_tokens": max_tokens}
        for name in ("temperature", "top_p", "seed"):
            if options.get(name) is not None:
                body[name] = options[name]
        request = self._http.build_request("POST", "/v1/chat/completions", json=body)
        return self._http.send(request, stream=True)


def events(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """The JSON payloads of an SSE stream; ``Overflow`` / ``HostError`` on an error event,
    a bare ``error:`` line (older llama.cpp) or an ``error`` inside a payload."""
    for line in response.iter_lines():
        name, _, value = line.partition(":")
        value = value.strip()
        if name not in ("data", "error") or not value or value == "[DONE]":
            continue
        try:
            payload = json.loads(value)
        except ValueError:
            continue
        if name == "error" or (isinstance(payload, dict) and payload.get("error")):
            error = error_text(500, payload if isinstance(payload, dict) else None, value)
            error = error or value
            raise (Overflow if is_overflow(error) else HostError)(error)
        if isinstance(payload, dict):
            yield payload
