"""Counting what the server counts: one learned calibration per connection and model,
persisted, given to engines.

Every request's prompt count (Ollama's ``prompt_eval_count``, an OpenAI-compatible server's
``usage.prompt_tokens``), every exact count a server makes before a send, and every refusal of
a request as too long teach the calibration (tokenizer factor, per-message and per-request
template overhead, see ``backend.calibration``); the open chat's engine then counts with it.

Two counting rules exist. A count is meant to be the whole prompt, but Ollama 0.30's
llama-server runner counted only the tokens it read anew, so after a cache hit the count is
small (fixed by Ollama PR #16428). Such a count must not teach a small tokenizer factor (nor be
taken for a truncation). Where the server says how much came from its cache
(``prompt_eval_cached_count``), the count is read with it; otherwise a count that is about the
size of what follows the previous request's prefix (what the server's one slot still held) is
taken for a new-only count and not learned from.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

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
# A count is taken for "only the newly read tokens" when it is below this share of the whole
# request's estimate and within NEW_ONLY_SLACK of what follows the cached prefix.
NEW_ONLY_BELOW = 0.8
NEW_ONLY_SLACK = (1.5, 32)
# A count this far below our own estimate of a request this large: the server dropped part of
# the prompt (LM Studio's default overflow policy cuts silently), whatever the window said.
WELL_BELOW, WELL_BELOW_MIN = 0.6, 256
SCOPE_SEPARATOR = "\x1e"  # between a connection's id and the model, in a calibration's key

ApiMessages = Sequence[Mapping[str, str]]
Signature = tuple[tuple[str, str], ...]


@functools.lru_cache(maxsize=4096)
def _content_tokens(text: str) -> int:
    """cl100k tokens of one message as sent (cached: most of a request repeats every turn)."""
    return count_tokens(text)


def raw_tokens(messages: ApiMessages) -> int:
    """cl100k tokens of the contents of a request, without any template overhead: each
    message's text, and what the template writes of tools (a reply's calls as JSON, a
    result's tool name). Left out, a tool chat's counts would teach a factor too high by
    all its calls."""
    return sum(_content_tokens(str(m.get("content") or ""))
               + sum(_content_tokens(str(m.get(key) or "")) for key in _TOOL_KEYS if m.get(key))
               for m in messages)


_TOOL_KEYS = ("tool_calls", "tool_name")


def tools_raw(tools: Sequence[Mapping[str, Any]]) -> int:
    """cl100k tokens of the tools' schemas as the template writes them (JSON)."""
    return sum(_content_tokens(json.dumps(tool, sort_keys=True)) for tool in tools)


def _signature(messages: ApiMessages) -> Signature:
    return tuple((str(m.get("role") or ""), str(m.get("content") or "")) for m in messages)


class Calibrations:
    """Per-connection, per-model calibrations, loaded from and saved to the store.

    ``scope`` is the connection's id ("" for the Local Ollama connection, whose rows predate
    connections and are keyed by the model alone): the same model name on two servers may be
    two tokenizers and two templates.
    """

    def __init__(self, store: ChatStore) -> None:
        self._store = store
        self._by_model: dict[str, TokenCalibration] = {}
        self._previous: dict[str, Signature] = {}  # the last request sent, per key
        self.scope = ""

    def key(self, model: str) -> str:
        return f"{self.scope}{SCOPE_SEPARATOR}{model}" if self.scope else model

    def for_model(self, model: str) -> TokenCalibration:
        key = self.key(model)
        calibration = self._by_model.get(key)
        if calibration is None:
            calibration = load_calibration(self._store, key)
            self._by_model[key] = calibration
        return calibration

    def _save(self, model: str, calibration: TokenCalibration) -> None:
        try:
            save_calibration(self._store, self.key(model), calibration)
        except StorageError as exc:
            log.warning("calibration of %s not saved: %s", model, exc)

    def observe(self, model: str, messages: ApiMessages, estimate: int | None,
                actual: int | None, num_ctx: int, *, cached: int | None = None,
                tools_raw: int = 0) -> bool:
        """Learn from the server's count of a request we sent; True if it looks truncated.

        ``estimate`` is what the engine believed the request costs (None: the calibration's
        own estimate, for summary requests the engine does not count as a whole). ``cached``:
        the tokens the server says came from its cache (Ollama's prompt_eval_cached_count).
        ``tools_raw``: cl100k tokens of the tools' schemas sent with it (the server counts them
        in the prompt).
        """
        previous = self._previous.get(self.key(model))
        self._previous[self.key(model)] = _signature(messages)
        if not model or not actual:
            return False
        calibration = self.for_model(model)
        raw, count = raw_tokens(messages) + tools_raw, len(messages)
        if estimate is None:
            estimate = calibration.estimate(raw, count)
        if cached is not None:
            if actual < cached:  # a count of the new tokens only, beside the cached ones
                actual += cached
        elif self._new_only(calibration, messages, previous, actual, estimate):
            return False  # a cache hit counted what was read anew: says nothing of the rest
        truncated = calibration.truncation_suspected(estimate, actual, num_ctx)
        if estimate >= WELL_BELOW_MIN and actual < WELL_BELOW * estimate:
            return True  # cut by the server: its count says nothing about the tokenizer
        if any(m.get("images") for m in messages):
            return truncated  # the count includes pictures: it says nothing about text
        calibration.observe(raw, actual, messages=count)
        self._save(model, calibration)
        return truncated

    @staticmethod
    def _new_only(calibration: TokenCalibration, messages: ApiMessages,
                  previous: Signature | None, actual: int, estimate: int) -> bool:
        """Is ``actual`` the size of what follows the prefix the server's slot still held?

        The slot holds the previous request and the reply it generated: the messages this
        request shares with the previous one, plus the assistant message right after them.
        """
        if not previous or actual >= NEW_ONLY_BELOW * estimate:
            return False
        current = _signature(messages)
        shared = 0
        for held, sent in zip(previous, current, strict=False):
            if held != sent:
                break
            shared += 1
        if shared == len(previous) and shared < len(current) and current[shared][0] == \
                "assistant":
            shared += 1  # the reply the server generated after the previous request
        if shared == 0:
            return False
        rest = messages[shared:]
        anew = calibration.estimate(raw_tokens(rest), len(rest))
        factor, slack = NEW_ONLY_SLACK
        return actual <= factor * anew + slack

    def learn_exact(self, model: str, messages: ApiMessages, exact: int) -> None:
        """The server counted this request exactly before it went: the estimate of it must
        not be below that count (else the engine plans a request the server refuses)."""
        if not model or exact <= 0 or any(m.get("images") for m in messages):
            return
        calibration = self.for_model(model)
        raw, count = raw_tokens(messages), len(messages)
        if raw <= 0 or calibration.estimate(raw, count) >= exact:
            return
        calibration.observe_overflow(raw, count, prompt_tokens=exact, num_ctx=exact)
        self._save(model, calibration)

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
        scale, per_message, per_request = self.target(engine, model, force=force)
        engine.set_calibration(scale=scale, per_message=per_message, per_request=per_request)

    def target(self, engine: ContextEngine, model: str, *,
               force: bool = False) -> tuple[float | None, int, int]:
        """What ``sync`` would give the engine: the learned scale (None: close enough to the
        engine's to keep it) and the template's per-message and per-request overhead. A
        compaction's copy asks it after its summaries (``engine.compaction_draft``)."""
        calibration = self.for_model(model)
        step = 0.0 if force else SCALE_STEP
        scale = calibration.factor
        if abs(scale - engine.config.estimate_scale) <= step:
            return None, calibration.per_message, calibration.per_request
        return scale, calibration.per_message, calibration.per_request
