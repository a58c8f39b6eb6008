"""Regenerate and Continue the newest reply: a service the session holds.

Regenerate takes the newest reply out of the context (engine and store) and sends the same
request again; if nothing new arrives, the earlier reply is put back. The chat as it was, with
the earlier reply, is kept as a branch first: the reply stays an alternative to page back to.
Continue sends the context with the stopped reply as its last message (Ollama then continues
a trailing assistant message) and appends what streams to that same reply, which ends complete.
Both run as a turn does: one at a time, with Stop. As a send, a request that fits stops a
warm-up and pauses a background summary (``Turns.clear_way``); a compaction that cannot be
paused (a manual one, or a background one paused too often) refuses them, and one still running
after a bounded wait does too: it holds the history (a reply can be neither taken out nor
written into while it runs).
"""

from __future__ import annotations

import asyncio
from typing import Literal

from ollm_desktop.engine import ContextEngine, Message, PinsOverBudget
from ollm_desktop.session.branches import Branches
from ollm_desktop.session.compactions import Compactions
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.events import BusyChanged, Change, ReplyFinished, ReplyInfo, ReplyStarted
from ollm_desktop.session.reply_limits import unfinished
from ollm_desktop.session.turns import NO_MODEL, REFITTED, STILL_STREAMING, Turns
from ollm_desktop.storage import StorageError
from ollm_desktop.storage.models import ChatRecord

EditKind = Literal["regenerate", "continue"]

COMPACTING = "The context is being compacted; try again when it has finished."
NOTHING_TO_REGENERATE = "There is no reply to regenerate yet."
NOTHING_TO_CONTINUE = ("Only a stopped or cut-off reply, the newest message, can be "
                       "continued.")
NOT_REMOVABLE = "The newest reply is part of the compacted context and cannot be regenerated."


class ReplyEdits:
    def __init__(self, core: SessionCore, turns: Turns, compactions: Compactions,
                 branches: Branches) -> None:
        self._core = core
        self._turns = turns
        self._compactions = compactions
        self._branches = branches
        # Replies a Regenerate replaced, newest last (this run only): never sent again, kept
        # so an "alternatives" view can offer them later.
        self.replaced: list[Message] = []

    def check(self, kind: EditKind) -> tuple[str, str] | None:
        """Why ``kind`` cannot run now, as (problem kind, text); None when it can."""
        core = self._core
        if core.streaming:
            return "busy", STILL_STREAMING
        if core.compacting and not self._compactions.cache.pausable():
            return "busy", COMPACTING
        if not core.model:
            return "input", NO_MODEL
        engine = core.engine
        messages = engine.display_messages() if engine is not None else []
        last = messages[-1] if messages else None
        if kind == "continue":
            if last is None or not unfinished(last):
                return "input", NOTHING_TO_CONTINUE
            return None
        has_request = any(m.role == "user" for m in messages)
        if last is None or last.role == "system" or not has_request:
            return "input", NOTHING_TO_REGENERATE
        return None

    def _idle(self) -> None:
        core = self._core
        core.streaming = False
        core.publish(BusyChanged(False))

    async def _compaction_out_of_the_way(self, engine: ContextEngine) -> bool:
        """A running compaction holds the history: a background one is paused when the
        request fits (as for a send), else waited for (bounded). False, and said, when one
        still runs."""
        core = self._core
        if not core.compacting:
            return True
        paused = await self._turns.clear_way(engine)
        if not paused and core.compacting:
            await self._compactions.wait(engine.config.compaction_timeout_s)
        if engine.compacting:
            core.publish(Change.problem("busy", COMPACTING))
            return False
        return True

    # ------------------------------------------------------------- regenerate
    async def regenerate(self) -> None:
        """Send the newest request again without its reply (the reply is taken out first)."""
        core, turns = self._core, self._turns
        engine, chat = core.engine, core.chat
        assert engine is not None and chat is not None
        kept: ChatRecord | None = None
        previous: Message | None = None
        try:
            if not await self._compaction_out_of_the_way(engine):
                return
            last = engine.display_messages()[-1]
            if last.role == "assistant":
                previous = last.model_copy()
                kept = self._branches.keep_reply(last.id)  # the chat as it is, as a branch
                if not engine.remove_last(last.id):
                    if kept is not None:
                        self._branches.discard(kept.id)
                        kept = None
                    core.publish(Change.problem("input", NOT_REMOVABLE))
                    return
                try:
                    core.store.delete_message(last.id)
                except StorageError as exc:
                    engine.add_message(previous.model_copy())
                    core.publish(core.storage_failed(exc))
                    return
                self.replaced.append(previous)
                core.publish(Change(history=True, context=True) | core.save_state())
            user = next(m for m in reversed(engine.display_messages()) if m.role == "user")
            await core.before_send()
            await turns.clear_way(engine)  # as a send: a warm-up stops, a summary pauses
            await turns.make_room(engine)
            refused = await turns.stream_reply(user, may_retry=True, previous=previous)
            if refused is not None:
                await turns.fit_after_overflow(engine)
                core.publish(Change.notice(REFITTED))
                await turns.stream_reply(user, may_retry=False, previous=previous)
        finally:
            newest = engine.display_messages()[-1:] if core.engine is engine else []
            if kept is not None and previous is not None and newest and \
                    newest[0].id == previous.id:
                self._branches.discard(kept.id)  # the earlier reply came back: no alternative
            elif kept is not None:
                core.publish(Change(chats=True))
            self._idle()
        self._compactions.schedule_background()

    # --------------------------------------------------------------- continue
    async def continue_reply(self) -> None:
        """Stream the rest of the stopped newest reply into it."""
        core, turns = self._core, self._turns
        engine = core.engine
        assert engine is not None
        try:
            if not await self._compaction_out_of_the_way(engine):
                return
            await core.before_send()
            await turns.clear_way(engine)  # as a send: a warm-up stops, a summary pauses
            last = engine.display_messages()[-1]
            if not unfinished(last):
                return
            reply = last.model_copy()
            try:
                messages = engine.api_messages()
            except PinsOverBudget as exc:
                core.publish(Change.problem("send", str(exc) or engine.usage().note))
                return
            estimate = engine.api_tokens()
            core.publish(ReplyStarted(reply.model_copy()))
            got = await turns.stream(reply, messages)
            if got.text:
                turns.finish(reply, got, messages, estimate, observe=False)
            else:  # nothing more arrived: the reply stays as it was
                reason = got.failure.message if got.failure else None
                core.publish(ReplyFinished(reply.model_copy(),
                                           ReplyInfo(stopped=got.stopped, error=reason)))
                if got.failure is not None:
                    core.publish(Change.problem(str(got.failure.kind), got.failure.message))
            if got.stopped:
                raise asyncio.CancelledError
        finally:
            self._idle()
        self._compactions.schedule_background()
