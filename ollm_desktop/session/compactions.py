"""Compaction runs of the open chat: background, manual, waited for (bounded), undone."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ollm_desktop.engine import CompactionReport, ContextEngine
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.engine_thread import EngineThread
from ollm_desktop.session.events import NOTHING, Change, CompactionEnded, CompactionStarted
from ollm_desktop.session.images import describe_before_compaction
from ollm_desktop.session.server_cache import ServerCache
from ollm_desktop.session.snapshot_labels import auto_label
from ollm_desktop.storage import StorageError
from ollm_desktop.storage.snapshots import encode_state

UNDO_LEFT_OUT_HINT = ("{0} (Conversation ▸ Open state before compaction as a new chat keeps "
                      "every message in context instead.)")
PAUSED = "Compaction paused for your message; it resumes after the reply."


def nothing_to_compact(engine: ContextEngine, reason: str) -> str:
    """Why "Compact now" did nothing, in the user's terms (the engine's reason as detail)."""
    recent = sum(1 for v in engine.visibility().values() if v == "verbatim")
    if not recent:
        return f"Nothing to compact. {reason}"
    last = "the last message is" if recent == 1 else f"the last {recent} messages are"
    return (f"Nothing old enough to compact: {last} kept verbatim (the recent window, whole "
            "exchanges); compaction summarises only what is older.")


class Compactions:
    def __init__(self, core: SessionCore) -> None:
        self._core = core
        self.last_exchange_tokens = 0  # the newest exchange: how much the next one may add
        self.documents_ahead: Callable[[], int] = int  # what the next send's documents may add
        self.cache = ServerCache(core)
        # The stages run on a copy of the chat, on a thread of their own: the window never
        # waits on them; what the user does meanwhile is kept (engine.compaction_draft).
        self.worker = EngineThread("compaction")

    def schedule_background(self) -> None:
        """After a reply, compact while the user reads if the next exchange would cross (a
        compaction a send paused runs again here)."""
        core = self._core
        engine = core.engine
        if engine is None or core.compacting:
            return
        ahead = self.last_exchange_tokens + self.documents_ahead()  # documents keep their room
        if engine.needs_compaction(ahead_tokens=ahead):
            core.compaction_task = core.spawn(self._background(ahead), "background-compaction")
            self.cache.background = core.compaction_task

    async def _background(self, ahead: int) -> CompactionReport:
        try:
            report = await self.run(focus=None, force=False, ahead_tokens=ahead)
        except asyncio.CancelledError:
            paused, self.cache.paused = self.cache.paused, False
            if paused:  # for a send; cancelled otherwise (the app's shutdown): nothing to say
                self._core.publish(CompactionEnded(CompactionReport(status="skipped",
                                                                    reason=PAUSED)))
            raise
        self.cache.finished(report.status == "compacted")
        return report

    def start_manual(self, focus: str | None = None) -> asyncio.Task[Any] | Change:
        """"Compact now…", with an optional focus text; a problem when it cannot start."""
        core = self._core
        if core.engine is None:
            return Change.problem("compaction", "Open a chat first.")
        if core.busy:
            return core.busy_problem()
        core.compaction_task = core.spawn(self.run(focus=focus or None, force=True),
                                          "compaction")
        return core.compaction_task

    async def run(self, *, focus: str | None, force: bool,
                  ahead_tokens: int = 0) -> CompactionReport:
        core = self._core
        engine, chat = core.engine, core.chat
        assert engine is not None and chat is not None
        core.publish(CompactionStarted())
        # The restore point, stored only once a compaction happened (a skip changes nothing):
        # made by the worker from its copy, encoded off the loop too.
        label = auto_label("before-compaction", engine)
        await describe_before_compaction(core)  # a summarised turn keeps its images as text
        core.sync_calibration()  # what turns taught: the copy counts with it
        engine.draft_states = None
        report = await engine.compact(focus=focus, force=force, ahead_tokens=ahead_tokens,
                                      worker=self.worker,
                                      calibration=self.worker.asks_home(
                                          lambda: self._calibration(engine)))
        if engine is not core.engine:  # the chat changed meanwhile
            return report
        if report.status in ("compacted", "truncated"):
            states = engine.draft_states
            before = states.before if states is not None else engine.state()
            encoded = await asyncio.to_thread(encode_state, before)  # nobody else holds it
            if engine is not core.engine:
                return report
            core.take_snapshot("before-compaction", label, state=before, encoded=encoded)
        elif report.status == "skipped" and force:
            report.reason = nothing_to_compact(engine, report.reason)
        change = Change(context=True)
        if report.status in ("compacted", "truncated", "failed"):
            change = change | await self._save(engine)  # a failure's retry point is state too
        if engine is core.engine:
            # What its summaries taught was applied by the worker (``_calibration``): this
            # recounts only if the chat's model changed meanwhile.
            core.sync_calibration()
            await asyncio.sleep(0)  # the window's turn between the recount and the repaint
        if report.status == "failed":
            change = change | Change.problem("compaction", report.reason)
        core.publish(CompactionEnded(report))
        core.publish(change)
        return report

    def _calibration(self, engine: ContextEngine) -> tuple[float | None, int, int] | None:
        """The calibration the compaction's copy counts with after its summaries (on the
        loop: the calibrations live here); None without a model or once the chat changed."""
        core = self._core
        if engine is not core.engine or not core.model:
            return None
        return core.calibrations.target(engine, core.model)

    async def _save(self, engine: ContextEngine) -> Change:
        """Write the compacted state, its slow part (compare, serialise) off the loop: from
        the worker's own copy of it, while nothing was written since (else as usual)."""
        core = self._core
        states, chat = engine.draft_states, core.chat
        after = states.after if states is not None else None
        if (after is None or chat is None or engine is not core.engine
                or not core.store.prints_loaded(chat.id) or after.config != engine.config):
            return core.save_state()
        try:
            prepared = await asyncio.to_thread(core.store.prepare_engine_state, chat.id, after)
            if prepared is None or core.store.commit_engine_state(prepared):
                return NOTHING  # written for its own chat, even if another one opened since
        except StorageError as exc:
            return core.storage_failed(exc)
        return core.save_state() if engine is core.engine else NOTHING

    async def wait(self, timeout: float) -> None:
        """Wait for the running compaction, at most ``timeout`` seconds; never cancel it."""
        task = self._core.compaction_task
        if task is not None and not task.done():
            await asyncio.wait({task}, timeout=timeout)

    def undo_last(self) -> Change:
        core = self._core
        engine = core.engine
        if engine is None or not engine.can_undo:
            return Change.problem("undo", "There is no compaction to undo.")
        if core.busy:
            return core.busy_problem()
        core.take_snapshot("before-undo")
        result = engine.undo_last_compaction()
        if not result.ok:
            return Change.problem("undo", result.reason)
        notice = UNDO_LEFT_OUT_HINT.format(result.reason) if result.left_out else result.reason
        return Change(save=True, context=True, notices=(notice,))

