"""Counting what Ollama counts: a mixin of ChatController.

Every request's ``prompt_eval_count`` (and every refusal of a request as too long) teaches the
model's calibration (tokenizer factor, per-message and per-request template overhead, see
``backend.calibration``); this mixin keeps one calibration per model, persists it, and gives
it to the open chat's engine, whose every count then follows. Kept apart from the turn logic.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ollm_desktop.backend import (
    BackendError,
    TokenCalibration,
    load_calibration,
    save_calibration,
)
from ollm_desktop.engine import count_tokens
from ollm_desktop.storage import StorageError

if TYPE_CHECKING:
    from ollm_desktop.controller.chat_controller import ChatController

log = logging.getLogger(__name__)

SCALE_STEP = 0.05  # a learned factor closer than this to the engine's is not worth a recount


@functools.lru_cache(maxsize=4096)
def _content_tokens(text: str) -> int:
    """cl100k tokens of one message as sent (cached: most of a request repeats every turn)."""
    return count_tokens(text)


def raw_tokens(messages: Sequence[Mapping[str, Any]]) -> int:
    """cl100k tokens of the contents of a request, without any template overhead."""
    return sum(_content_tokens(str(m.get("content") or "")) for m in messages)


class CountingActions:
    """Per-model calibration: learn from Ollama's counts, persist, apply to the engine."""

    def _calibration_for(self: ChatController, model: str) -> TokenCalibration:
        calibration = self._calibration.get(model)
        if calibration is None:
            calibration = load_calibration(self.store, model)
            self._calibration[model] = calibration
        return calibration

    def _save_calibration(self: ChatController, model: str, calibration: TokenCalibration) -> None:
        try:
            save_calibration(self.store, model, calibration)
        except StorageError as exc:
            log.warning("calibration of %s not saved: %s", model, exc)

    def _observe_counts(self: ChatController, model: str, messages: Sequence[Mapping[str, Any]],
                        estimate: int | None, actual: int | None, num_ctx: int) -> bool:
        """Learn from Ollama's count of a request we sent; True if it looks truncated.

        ``estimate`` is what the engine believed the request costs (None: the calibration's
        own estimate, for summary requests the engine does not count as a whole).
        """
        if not model or not actual:
            return False
        calibration = self._calibration_for(model)
        raw, count = raw_tokens(messages), len(messages)
        if estimate is None:
            estimate = calibration.estimate(raw, count)
        truncated = calibration.truncation_suspected(estimate, actual, num_ctx)
        calibration.observe(raw, actual, messages=count)
        self._save_calibration(model, calibration)
        return truncated

    def _learn_overflow(self: ChatController, model: str, messages: Sequence[Mapping[str, Any]],
                        error: BackendError) -> None:
        """A refused request proves we under-count: raise the estimate above Ollama's count."""
        if not model:
            return
        calibration = self._calibration_for(model)
        num_ctx = error.num_ctx or (self.engine.config.context_size if self.engine else 0)
        calibration.observe_overflow(raw_tokens(messages), len(messages),
                                     prompt_tokens=error.prompt_tokens, num_ctx=num_ctx)
        self._save_calibration(model, calibration)

    def _sync_calibration(self: ChatController, *, force: bool = False) -> None:
        """Give the engine what the chat model's calibration learned (never mid-compaction:
        rescaling every stored count under a running compaction would skew its plan)."""
        engine, model = self.engine, self.model
        if engine is None or not model or engine.compacting:
            return
        calibration = self._calibration_for(model)
        config = engine.config
        step = 0.0 if force else SCALE_STEP
        if abs(calibration.factor - config.estimate_scale) > step:
            engine.set_estimate_scale(calibration.factor)
        if (calibration.per_message, calibration.per_request) != (config.message_overhead,
                                                                   config.request_overhead):
            engine.set_template_overhead(calibration.per_message, calibration.per_request)
