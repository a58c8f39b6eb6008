"""Asking the model for a summary: time limits, output cap, the gate, one retry.

The model is untrusted and often small: every answer goes through ``summary_gate``; a refused
answer gets one stricter retry; a good answer that is merely long is trimmed by code (a
second call costs more than it keeps). When the model fails twice the caller builds an
extractive checkpoint by code instead. Each call is bounded by ``summary_timeout_s`` and by
the compaction's deadline, and asks for at most ``budget.summary_predict`` output tokens.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ollm_desktop.engine import budget, prompts, summary_gate
from ollm_desktop.engine.models import BreakerState, CompactionReport, EngineConfig
from ollm_desktop.engine.tokens import count_tokens, truncate_to_tokens

log = logging.getLogger(__name__)

Prompt = list[dict[str, str]]
Summarize = Callable[..., Awaitable[str]]
MakePrompt = Callable[[str | None], Prompt]
# A good answer up to this many times its target is trimmed by code, not asked again.
TRIM_FACTOR = 2.0
MIN_CALL_SECONDS = 1.0  # less time than this left: do not start a call


class SummaryFailed(Exception):
    """The summarizer raised, timed out, or produced an unusable text twice.

    ``too_long``: the server refused the prompt as longer than its context (asking again with
    the same prompt would fail again; a shorter prompt may not)."""

    def __init__(self, message: str, *, too_long: bool = False) -> None:
        super().__init__(message)
        self.too_long = too_long


def refused_as_too_long(exc: BaseException) -> bool:
    """The summarize callable's error says the prompt was over the context: the app's
    ``BackendError`` of kind ``context_overflow`` (duck-typed: the engine imports no backend)."""
    return getattr(exc, "kind", None) == "context_overflow"


def accepts_max_tokens(fn: Callable[..., Any]) -> bool:
    """Whether the summarize callable takes ``max_tokens`` (sent as Ollama's num_predict)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "max_tokens" or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def trim(text: str, target: int) -> str:
    """Cut a too-long summary at a line (then a sentence) within ``target`` tokens."""
    if count_tokens(text) <= target:
        return text
    cut = truncate_to_tokens(text, target)
    return cut.rstrip()


class Deadline:
    """The time left for one compaction run (aging and merging included)."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        return self.end - time.monotonic()

    @property
    def expired(self) -> bool:
        return self.left() < MIN_CALL_SECONDS


class SummaryCaller:
    def __init__(self, fn: Summarize, config: EngineConfig, stats: dict[str, int]) -> None:
        self._fn = fn
        self._config = config
        self._stats = stats
        self._takes_max = accepts_max_tokens(fn)

    async def call(self, prompt: Prompt, *, max_tokens: int, deadline: Deadline,
                   report: CompactionReport) -> str:
        """One model call; raises ``SummaryFailed`` on error, time-out or no text."""
        if deadline.expired:
            report.timed_out = True
            raise SummaryFailed("the compaction's time limit was reached")
        overhead = self._config.message_overhead
        input_tokens = sum(count_tokens(m["content"]) + overhead for m in prompt)
        shared = prompt[-1]["content"].startswith(prompts.CHAT_SUMMARY_OPENING)
        read = count_tokens(prompt[-1]["content"]) + overhead if shared else input_tokens
        report.summarizer_calls += 1
        report.summarizer_input_tokens += input_tokens
        report.summarizer_read_tokens += read
        self._stats["summarizer_calls"] += 1
        self._stats["summarizer_input_tokens"] += input_tokens
        self._stats["summarizer_read_tokens"] = self._stats.get("summarizer_read_tokens", 0) \
            + read
        timeout = min(self._config.summary_timeout_s, deadline.left())
        kwargs = {"max_tokens": max_tokens} if self._takes_max else {}
        try:
            text = await asyncio.wait_for(self._fn(prompt, **kwargs), timeout=timeout)
        except asyncio.CancelledError:
            raise
        except TimeoutError as exc:
            report.timed_out = report.timed_out or timeout < self._config.summary_timeout_s
            raise SummaryFailed(f"the summarizer timed out after {timeout:.0f} s") from exc
        except Exception as exc:
            raise SummaryFailed(f"{type(exc).__name__}: {exc}",
                                too_long=refused_as_too_long(exc)) from exc
        if not isinstance(text, str):
            raise SummaryFailed("the summarizer returned no text")
        self._stats["summarizer_output_tokens"] = (self._stats.get("summarizer_output_tokens", 0)
                                                   + count_tokens(text))
        return text

    async def _gated(self, prompt: Prompt, *, material: str, target: int, max_tokens: int,
                     deadline: Deadline, report: CompactionReport) -> str:
        raw = await self.call(prompt, max_tokens=max_tokens, deadline=deadline, report=report)
        verdict = summary_gate.inspect_summary(
            raw, material=material, prompt=prompts.instruction_text(prompt),
            target=target)
        if not verdict.ok:
            report.gate_rejections.append(verdict.reason or "rejected")
            raise SummaryFailed(f"unusable summary ({verdict.reason}: {verdict.detail})"
                                if verdict.detail else f"unusable summary ({verdict.reason})")
        return verdict.text

    async def summarize(self, make_prompt: MakePrompt, *, material: str, input_tokens: int,
                        target: int, level: int, deadline: Deadline,
                        report: CompactionReport) -> str:
        """A gated summary within ``target``; raises ``SummaryFailed`` after two failures."""
        max_tokens = budget.summary_predict(self._config, target)
        try:
            text = await self._gated(make_prompt(None), material=material, target=target,
                                     max_tokens=max_tokens, deadline=deadline, report=report)
        except SummaryFailed as first:
            if first.too_long:
                raise  # the same prompt again would be refused again
            report.retried = True
            note = prompts.retry_note(str(first), target)
            try:
                text = await self._gated(make_prompt(note), material=material, target=target,
                                         max_tokens=max_tokens, deadline=deadline,
                                         report=report)
            except SummaryFailed as second:
                # The retry is longer (its note): refused as too long, the caller falls back
                # to the standalone prompt as it would after a first refusal.
                raise SummaryFailed(f"{first}; then {second}",
                                    too_long=second.too_long) from second
        tokens = count_tokens(text)
        limit = min(target, max(16, input_tokens - 1))
        if tokens <= limit:
            return text
        if tokens <= limit * TRIM_FACTOR or deadline.expired:
            report.trimmed = True
            return trim(text, limit)
        # Far too long: condensing the answer costs far less than re-reading the history.
        report.retried = True
        try:
            shorter = await self._gated(
                prompts.condense_prompt(text, target=limit, level=level,
                                        stricter=prompts.stricter_note(tokens, limit)),
                material=text, target=limit, max_tokens=max_tokens, deadline=deadline,
                report=report)
        except SummaryFailed:
            shorter = text
        report.trimmed = report.trimmed or count_tokens(shorter) > limit
        return trim(shorter, limit)


def breaker_open(breaker: BreakerState, message_count: int) -> bool:
    return breaker.open_until is not None and message_count < breaker.open_until


def record_outcome(breaker: BreakerState, *, model_ok: bool, message_count: int) -> None:
    """Back off after repeated failures: skip the model for 8, 16, 32, 64 messages (4-32 turns).

    A model that always fails then costs a call every few turns, not two every turn.
    """
    if model_ok:
        breaker.failures, breaker.open_until = 0, None
        return
    breaker.failures += 1
    if breaker.failures >= 2:
        pause = min(64, 8 * 2 ** (breaker.failures - 2))
        breaker.open_until = message_count + pause
