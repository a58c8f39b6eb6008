"""Keeping the server's prompt cache on the chat: a send never queues behind our own summary,
and a background compaction's new request is read by the server while the user reads.

Ollama and llama.cpp hold one prompt per slot and re-read only what follows the longest
common prefix with it. So:

- **A send pauses a background summary.** When the user sends while a background compaction
  is running, its summary stream is closed (which stops generation on the server) and the
  compaction runs again after the reply. A paused summary is no failure (the circuit breaker
  never sees it). After ``MAX_PAUSES`` pauses in a row it is let run to its end, so a chat
  whose user types fast still compacts. A compaction a send must wait for (the request would
  not fit without it) is never paused.
- **A warm-up after a background compaction.** The compaction rewrote part of the request;
  the app sends the new request's messages with a reply of one token (discarded), so the
  server reads it now, not when the user sends. A send cancels a warm-up still running.

A send (a Regenerate and a Continue too) waits at most ``CANCEL_WAIT_S`` for what it cancelled
to end: cancelling an httpx connect can leave a task stuck on the qasync loop (as the chat
controller's shutdown and ``session.recall`` note), and a send never waits on it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ollm_desktop.engine import PinsOverBudget
from ollm_desktop.session.chat_settings import keep_alive_for
from ollm_desktop.session.core import SessionCore

log = logging.getLogger(__name__)

MAX_PAUSES = 3  # background summaries paused in a row by sends; the next runs to its end
WARM_PREDICT = 1  # tokens the warm-up asks for (read the prompt, write almost nothing)
CANCEL_WAIT_S = 1.0  # the longest a send waits for a cancelled summary or warm-up to end


class ServerCache:
    def __init__(self, core: SessionCore) -> None:
        self._core = core
        self.background: asyncio.Task[Any] | None = None  # the running background compaction
        self.warm_task: asyncio.Task[Any] | None = None
        self.pauses = 0  # in a row
        # A send cancelled the running background compaction (read by the compaction: a
        # pause is said, a cancel at shutdown is not).
        self.paused = False
        self.stats = {"paused": 0, "ran_through": 0, "warmed": 0, "warm_cancelled": 0}

    def may_pause(self) -> bool:
        return self.pauses < MAX_PAUSES

    def running(self) -> bool:
        """A background compaction is running (the open chat's compaction task)."""
        task = self.background
        return task is not None and not task.done() and self._core.compaction_task is task

    def pausable(self) -> bool:
        """The running compaction, if any, is a background one a send would pause."""
        return self.running() and self.may_pause()

    async def before_send(self) -> bool:
        """A send starts: stop a warm-up, pause a background summary (True if paused)."""
        await self._cancel_warm()
        task = self.background
        if task is None or not self.running():
            return False
        if not self.may_pause():
            self.stats["ran_through"] += 1
            return False
        self.paused = True
        task.cancel()
        await _ended(task)
        self.pauses += 1
        self.stats["paused"] += 1
        return True

    def finished(self, compacted: bool) -> None:
        """A background compaction ran to its end: warm the server with its request."""
        self.pauses = 0
        self.paused = False
        if compacted:
            self.warm()

    def warm(self) -> None:
        core = self._core
        if core.streaming or core.engine is None or not core.model:
            return
        self.warm_task = core.spawn(self._warm(), "warm-server-cache")

    async def _warm(self) -> None:
        core = self._core
        engine, model = core.engine, core.model
        if engine is None or not model:
            return
        try:
            messages = [dict(m) for m in engine.api_messages()]
        except PinsOverBudget:
            return
        if not messages or any("images" in m for m in messages):
            return  # pictures are sent with their bytes by a turn, not here
        try:
            await core.backend.chat(model, messages, num_ctx=engine.config.context_size,
                                    options={"num_predict": WARM_PREDICT},
                                    keep_alive=keep_alive_for(core))
            self.stats["warmed"] += 1
        except asyncio.CancelledError:
            self.stats["warm_cancelled"] += 1
            raise
        except Exception as exc:  # a warm-up is a courtesy: its failure changes nothing
            log.debug("cache warm-up failed: %s", exc)

    async def _cancel_warm(self) -> None:
        task = self.warm_task
        if task is not None and not task.done():
            task.cancel()
            await _ended(task)

    async def close(self) -> None:
        await self._cancel_warm()


async def _ended(task: asyncio.Task[Any]) -> None:
    """Give a cancelled task ``CANCEL_WAIT_S`` to end, then go on: never ``await task``, which
    waits forever for one stuck on the loop (and forwards our own cancellation into it)."""
    _done, stuck = await asyncio.wait({task}, timeout=CANCEL_WAIT_S)
    if stuck:
        log.warning("task %s did not end %.1f s after it was cancelled", task.get_name(),
                    CANCEL_WAIT_S)
    elif not task.cancelled():
        task.exception()  # retrieved: how it ended changes nothing for the send
