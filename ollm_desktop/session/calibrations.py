"""Counting what Ollama counts: one learned calibration per model, persisted, given to engines.

Every request's ``prompt_eval_count`` (and every refusal of a request as too long) teaches the
model's calibration (tokenizer factor, per-message and per-request template overhead, see
``backend.calibration``); the open chat's engine then counts with it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping, Sequence

from ollm_desktop.backend import (
    BackendError,
    TokenCalibration,
    load_calibration,
    save_calibration,
)
from ollm_desktop.engine import ContextEngine, count_tokens
from ollm_desktop.storage import ChatStore, StorageError

log = logging.getLogger(__name__)

SCALE_STEP = 0.05  # a learned factor closer than this to the engine's is not worth a recount

ApiMessages = Sequence[Mapping[str, str]]


@functools.lru_cache(maxsize=4096)
def _content_tokens(text: str) -> int:
    """cl100k tokens of one message as sent (cached: most of a request repeats every turn)."""
    return count_tokens(text)


def raw_tokens(messages: ApiMessages) -> int:
    """cl100k tokens of the contents of a request, without any template overhead."""
    return sum(_content_tokens(str(m.get("content") or "")) for m in messages)


class Calibrations:
    """Per-model calibrations, loaded from and saved to the store."""

    def __init__(self, store: ChatStore) -> None:
        self._store = store
        self._by_model: dict[str, TokenCalibration] = {}

    def for_model(self, model: str) -> TokenCalibration:
        calibration = self._by_model.get(model)
        if calibration is None:
            calibration = load_calibration(self._store, model)
            self._by_model[model] = calibration
        return calibration

    def _save(self, model: str, calibration: TokenCalibration) -> None:
        try:
            save_calibration(self._store, model, calibration)
        except StorageError as exc:
            log.warning("calibration of %s not saved: %s", model, exc)

    def observe(self, model: str, messages: ApiMessages, estimate: int | None,
                actual: int | None, num_ctx: int) -> bool:
        """Learn from Ollama's count of a request we sent; True if it looks truncated.

        ``estimate`` is what the engine believed the request costs (None: the calibration's
        own estimate, for summary requests the engine does not count as a whole).
        """
        if not model or not actual:
            return False
        calibration = self.for_model(model)
        raw, count = raw_tokens(messages), len(messages)
        if estimate is None:
            estimate = calibration.estimate(raw, count)
        truncated = calibration.truncation_suspected(estimate, actual, num_ctx)
        if any(m.get("images") for m in messages):
            return truncated  # the count includes pictures: it says nothing about text
        calibration.observe(raw, actual, messages=count)
        self._save(model, calibration)
        return truncated

    def learn_overflow(self, model: str, messages: ApiMessages, error: BackendError,
                       num_ctx: int) -> None:
        """A refused request proves we under-count: raise the estimate above Ollama's count."""
        if not model or any(m.get("images") for m in messages):
            return  # a refused request with pictures says nothing about text
        calibration = self.for_model(model)
        calibration.observe_overflow(raw_tokens(messages), len(messages),
                                     prompt_tokens=error.prompt_tokens,
                                     num_ctx=error.num_ctx or num_ctx)
        self._save(model, calibration)

    def sync(self, engine: ContextEngine | None, model: str | None, *,
             force: bool = False) -> None:
        """Give the engine what the model's calibration learned (never mid-compaction:
        rescaling every stored count under a running compaction would skew its plan)."""
        if engine is None or not model or engine.compacting:
            return
        calibration = self.for_model(model)
        config = engine.config
        step = 0.0 if force else SCALE_STEP
        if abs(calibration.factor - config.estimate_scale) > step:
            engine.set_estimate_scale(calibration.factor)
        if (calibration.per_message, calibration.per_request) != (config.message_overhead,
                                                                   config.request_overhead):
            engine.set_template_overhead(calibration.per_message, calibration.per_request)
