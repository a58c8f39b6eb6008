"""Talks to the host: summaries, turn sends and probe questions, all measured.

The host is an Ollama server or an OpenAI-compatible one (llama-server, vLLM, LM Studio), found
by asking it (``openai_host.detect``); a URL may end with ``/v1``.

- Ollama: every request goes through the official ``ollama.AsyncClient`` (``trust_env=False``, a
  connect timeout, no read timeout) but posts the JSON itself, because ``chat()`` cannot send
  Ollama's top-level ``truncate: false`` / ``shift: false``: with them an over-length prompt is
  an HTTP 400 instead of a silent cut, so overflows are counted, not hidden.
- OpenAI-compatible: ``openai_host.OpenAIServer`` (the benchmark's own small client, not the
  app's: older engines have none). Where the server counts, a prompt over the window is refused
  before it is sent, as Ollama refuses it; counts come from the server's ``usage``.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import httpx
import ollama

from bench.memory.openai_host import Counts, HostError, OpenAIServer, Overflow, api_root, detect
from bench.memory.slot import Slot
from bench.memory.tokens import cl100k_messages, cl100k_text

__all__ = ["Answer", "Host", "HostError", "Overflow", "Summarizer", "Usage"]


@dataclass
class Answer:
    content: str
    prompt_eval_count: int | None
    eval_count: int | None
    done_reason: str | None
    seconds: float


@dataclass
class Usage:
    """What one strategy's requests cost, as the host reports it."""

    summary_calls: int = 0
    summary_failures: int = 0
    summary_input_tokens: int = 0  # cl100k, every message of every summary request
    # what a one-slot server must read of them (not served from its cache: ``slot``)
    summary_read_tokens: int = 0
    summary_output_tokens: int = 0  # eval_count as reported (cl100k if the host gives none)
    summary_seconds: list[float] = field(default_factory=list)
    turn_requests: int = 0
    turn_errors: int = 0  # sends that failed for another reason than length
    overflows: int = 0  # requests refused or reported over num_ctx (summaries included)
    prompt_eval_max: int = 0
    prompt_eval_ratio_max: float = 0.0  # prompt_eval_count / num_ctx, worst request

    def observe(self, answer: Answer | None, num_ctx: int, refused: bool) -> None:
        if refused:
            self.overflows += 1
            self.prompt_eval_ratio_max = max(self.prompt_eval_ratio_max, 1.0)
            return
        if answer is None or not answer.prompt_eval_count:
            return
        count = answer.prompt_eval_count
        self.prompt_eval_max = max(self.prompt_eval_max, count)
        self.prompt_eval_ratio_max = max(self.prompt_eval_ratio_max, count / num_ctx)
        if count > num_ctx:
            self.overflows += 1


class Host:
    """One model on one server: Ollama's API or an OpenAI-compatible one (found on first use).

    ``tag`` names the run the next requests belong to; ``counts`` keeps, per tag, how the
    server counted and refused them (``describe`` for the results file)."""

    def __init__(self, url: str, model: str, *, seed: int = 1, predict_cap: int = 1024,
                 read_timeout: float | None = 900.0) -> None:
        self.url, self.model, self.seed, self.predict_cap = url, model, seed, predict_cap
        self.read_timeout = read_timeout
        self.kind: str | None = None  # one of openai_host.KINDS once asked
        self.client: ollama.AsyncClient | None = None
        self.server: OpenAIServer | None = None
        self.tag = ""
        self.counts: dict[str, Counts] = {}

    async def connect(self) -> str:
        """The server's kind, asked once."""
        if self.kind is None:
            kind = await asyncio.to_thread(detect, self.url)
            if kind == "ollama":
                self.client = ollama.AsyncClient(
                    host=api_root(self.url), trust_env=False,
                    timeout=httpx.Timeout(10.0, read=self.read_timeout))
            else:
                self.server = OpenAIServer(self.url, kind, read_timeout=self.read_timeout)
            self.kind = kind
        return self.kind

    async def close(self) -> None:
        if self.client is not None:
            await self.client._client.aclose()
        if self.server is not None:
            self.server.close()

    def _counts(self) -> Counts:
        return self.counts.setdefault(self.tag, Counts())

    async def chat(self, messages: list[dict[str, str]], *, num_ctx: int,
                   num_predict: int | None) -> Answer:
        """One whole reply; raises ``Overflow`` when the prompt does not fit ``num_ctx`` (or
        the server's own window, which may be smaller)."""
        await self.connect()
        if self.server is not None:
            done = await asyncio.to_thread(
                self.server.complete, self.model, messages, num_ctx=int(num_ctx),
                num_predict=num_predict, seed=self.seed, counts=self._counts())
            return Answer(done.content, done.prompt_tokens, done.completion_tokens,
                          done.finish, done.seconds)
        assert self.client is not None
        options: dict[str, Any] = {"num_ctx": int(num_ctx), "seed": self.seed}
        if num_predict is not None:
            options["num_predict"] = int(num_predict)
        body = {"model": self.model, "messages": messages, "stream": False,
                "options": options, "truncate": False, "shift": False}
        counts = self._counts()
        counts.add(requests=1)
        started = time.monotonic()
        response = await self.client._client.post("/api/chat", json=body)
        seconds = time.monotonic() - started
        if response.status_code == 400 and "exceeds the context length" in response.text:
            counts.add(server_overflows=1)
            raise Overflow(response.text)
        if response.status_code >= 400:
            raise ollama.ResponseError(response.text, response.status_code)
        data = ollama.ChatResponse.model_validate(response.json())
        counts.add(usage_reported=int(data.prompt_eval_count is not None))
        return Answer(data.message.content or "", data.prompt_eval_count, data.eval_count,
                      data.done_reason, seconds)

    async def models(self) -> list[str]:
        await self.connect()
        if self.server is not None:
            return await asyncio.to_thread(self.server.models)
        assert self.client is not None
        listing = await self.client.list()
        return [m.model for m in listing.models if m.model]

    async def context_length(self) -> int | None:
        """Ollama: the model's trained context (``/api/show``). OpenAI-compatible: the window
        the server serves it with (llama.cpp ``/props``, vLLM ``max_model_len``), else the
        trained size (llama.cpp ``meta.n_ctx_train``)."""
        await self.connect()
        if self.server is not None:
            return await asyncio.to_thread(self.server.trained, self.model)
        assert self.client is not None
        info = await self.client.show(self.model)
        for key, value in (info.modelinfo or {}).items():
            if key.endswith(".context_length") and isinstance(value, int):
                return value
        return None

    async def describe(self) -> dict[str, Any]:
        """The server's kind, window and counting, and each run's counts (results file)."""
        await self.connect()
        window = None
        if self.server is not None:
            try:
                window = await asyncio.to_thread(self.server.window, self.model)
            except (HostError, httpx.HTTPError):
                window = None
        counts = {"ollama": "the server's prompt_eval_count",
                  "llama.cpp": "the server's, before sending and in usage",
                  "vllm": "the server's, before sending and in usage"}
        return {"kind": self.kind, "window": window,
                "prompt_counts": counts.get(self.kind or "", "the server's usage only"),
                "runs": {tag: asdict(c) for tag, c in self.counts.items()}}


class Summarizer:
    """The ``summarize`` callable every summarising strategy uses, with its own bookkeeping.

    ``max_tokens`` (the newer engine passes it) becomes ``options.num_predict``; every request
    is capped at the bench guard ``predict_cap`` too, so a runaway small model cannot take
    minutes. The guard is the same for every strategy.
    """

    def __init__(self, host: Host, num_ctx: int, usage: Usage, slot: Slot | None = None,
                 ) -> None:
        self.host, self.num_ctx, self.usage = host, num_ctx, usage
        self.slot = slot  # the one-slot cache model: what a server must read of each request
        # The CPU of this bookkeeping (the one-slot model's diff of ~30K token ids at 32K, the
        # cl100k counts): it runs on the compacting thread inside the engine's summariser call,
        # so ``Strategy._timed`` subtracts it from the engine's CPU (it was 93 % of the
        # "engine CPU" at 32K: about 600 of 650 ms per compaction).
        self.bookkeeping_cpu = 0.0

    async def __call__(self, prompt: list[dict[str, str]], max_tokens: int | None = None,
                       ) -> str:
        cap = self.host.predict_cap
        predict = min(max_tokens, cap) if max_tokens else cap
        self.usage.summary_calls += 1
        counted = time.thread_time()
        self.usage.summary_input_tokens += cl100k_messages(prompt)
        self.bookkeeping_cpu += time.thread_time() - counted
        started = time.monotonic()
        try:
            answer = await self.host.chat(prompt, num_ctx=self.num_ctx, num_predict=predict)
        except Overflow:
            self.usage.summary_failures += 1
            self.usage.observe(None, self.num_ctx, refused=True)
            self.usage.summary_seconds.append(time.monotonic() - started)
            raise
        except Exception:
            self.usage.summary_failures += 1
            self.usage.summary_seconds.append(time.monotonic() - started)
            raise
        self.usage.summary_seconds.append(answer.seconds)
        counted = time.thread_time()
        self.usage.observe(answer, self.num_ctx, refused=False)
        self.usage.summary_output_tokens += (answer.eval_count if answer.eval_count
                                             else cl100k_text(answer.content))
        if self.slot is not None:
            self.usage.summary_read_tokens += self.slot.observe("summary", prompt,
                                                                answer.content)
        self.bookkeeping_cpu += time.thread_time() - counted
        return answer.content
