"""One turn: the user's message, room made if needed, the reply streamed, counts learned.

A request that fits goes at once (a due compaction then runs while the user reads); one that
does not waits for the running compaction, bounded by ``compaction_timeout_s``. A request
Ollama refuses as too long is learned from, fitted again and resent once. A send that gets
no reply leaves the chat and its text goes back to the input: nothing is half-kept.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass

from ollm_desktop.backend import CONTEXT_OVERFLOW, BackendError, ChatChunk, ChatDone
from ollm_desktop.engine import ContextEngine, Message, PinsOverBudget, count_message_tokens
from ollm_desktop.engine.facts_extract import extract as extract_facts
from ollm_desktop.engine.models import ImageRef
from ollm_desktop.session.calibrations import tools_raw
from ollm_desktop.session.chat_settings import keep_alive_for, request_options
from ollm_desktop.session.compactions import Compactions
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.documents import WithDocuments, without_documents
from ollm_desktop.session.events import (
    BusyChanged,
    Change,
    CompactionStarted,
    ReplyChunk,
    ReplyFinished,
    ReplyInfo,
    ReplyStarted,
    ReplyThinking,
    SendFailed,
)
from ollm_desktop.session.give_back import give_back
from ollm_desktop.session.images import with_image_data
from ollm_desktop.session.recall import RecallService
from ollm_desktop.session.reply_limits import reply_stats
from ollm_desktop.session.tool_turns import ToolTurns
from ollm_desktop.storage import StorageError
from ollm_desktop.storage.models import RecallRecord

SAVE_INTERVAL = 1.0  # seconds between saves of a streamed reply
LONG_REPLY = 20_000  # characters from which a reply is tokenised on a thread


def _read_ahead(text: str, scale: float, overhead: int) -> int:
    """A long reply's count, and its facts and references extracted, on a thread: the
    engine reads them from its cache when the reply joins the chat (a 512 KB line's took
    0.1-0.3 s on the loop)."""
    extract_facts("assistant", text)
    return count_message_tokens(text, scale, overhead)

STILL_STREAMING = "A reply is still streaming; stop it first."
NO_MODEL = "Choose a model first (its server must be running)."
TOO_LONG = ("This message is about {0:,} tokens but the model's context leaves room for {1:,}. "
            "Shorten it, or choose a larger context size.")

REFITTED = ("The model counted more tokens than estimated; the context was fitted again and "
            "the message resent.")
STILL_OVERFLOW = ("Even after fitting the context again, the model counted this request as "
                  "longer than its context. Your message is back in the input: shorten it, "
                  "unpin messages, or choose a larger context size.")
KEPT_PREVIOUS = "{0} The previous reply is kept."
TRUNCATION_SUSPECTED = ("The server reported fewer prompt tokens than were sent: it may have "
                        "dropped part of the context. The token estimate has been recalibrated.")


@dataclass
class Streamed:
    """What one streamed request brought: its text (without what the reply had before)."""

    text: str = ""
    done: ChatDone | None = None
    failure: BackendError | None = None
    stopped: bool = False
    stored: bool = False  # the reply's row is on disk
    thinking: str = ""  # a thinking model's reasoning (shown on the reply, never sent)
    counted: int = 0  # a long reply's tokens, counted off the loop (0: the engine counts)


class Turns:
    def __init__(self, core: SessionCore, compactions: Compactions) -> None:
        self._core = core
        self._compactions = compactions
        self._unsent_text: str | None = None  # a send whose text is not saved yet
        self.waits = {"turns": 0, "waited": 0}  # sends that waited on a compaction
        self.streaming_id: str | None = None  # the reply streaming at this moment
        self.take_images: Callable[[], list[ImageRef]] = list  # attached to the user's message
        self.pending_tokens: Callable[[], int] = int  # what those images will cost
        self.recall = RecallService(core)  # earlier rounds the new message asks about
        self.with_documents: WithDocuments = without_documents  # the chat's passages added
        self.tools = ToolTurns(self)  # the chat's tools, approvals, the calls' follow-ups

    def check(self, text: str) -> str | None:
        """Why ``text`` cannot be sent now (None: it can)."""
        core = self._core
        if core.streaming:
            return STILL_STREAMING
        if not core.model:
            return NO_MODEL
        engine = core.engine
        if engine is None:
            return None
        usage = engine.usage()
        tokens = count_message_tokens(text, engine.config.estimate_scale,
                                      engine.config.message_overhead) + self.pending_tokens()
        room = usage.usable - usage.system - usage.goal - usage.pinned
        if tokens > room * 0.9:
            return TOO_LONG.format(tokens, room)
        return None

    def begin(self, text: str | None) -> None:
        """Mark the turn as started (the adapter then runs ``run`` as a task); ``text``: the
        message to give back if it is stopped before it is saved (None for a Regenerate or a
        Continue, which send no new message)."""
        self._core.streaming = True
        self._unsent_text = text
        self._core.publish(BusyChanged(True))

    def ended(self) -> None:
        """The turn's task is over: reset the busy state; a turn stopped before it could save
        its text gives it back (a task cancelled before its first step never runs its own
        ``finally``)."""
        core = self._core
        text, self._unsent_text = self._unsent_text, None
        if core.streaming:
            core.streaming = False
            core.publish(BusyChanged(False))
        if text is not None:
            core.publish(SendFailed(text, "Stopped before the message was sent."))

    async def run(self, text: str) -> None:
        core = self._core
        engine, chat = core.engine, core.chat
        assert engine is not None and chat is not None
        user = engine.add_message(Message(role="user", content=text, images=self.take_images()))
        try:
            core.store.append_message(chat.id, user)
        except StorageError as exc:
            # Not on disk means not sent: the text goes back to the input, nothing is half-kept.
            engine.remove_last(user.id)
            self._unsent_text = None
            core.streaming = False
            core.publish(BusyChanged(False))
            core.publish(SendFailed(text, str(exc)))
            return
        self._unsent_text = None
        core.publish(Change(added=(user.model_copy(),)))
        core.sync_calibration()
        core.publish(Change(context=True))
        core.maybe_auto_snapshot()
        try:
            await core.before_send()  # never more than the model's trained context
            await self.tools.prepare()  # the chat's tools, counted (``tool_turns``)
            self.waits["turns"] += 1
            await self.clear_way(engine)
            waited = await self.make_room(engine)
            self.waits["waited"] += waited  # a turn counts once, however long it waited
            refused = await self.stream_reply(user, may_retry=True)
            if refused is not None:
                # Ollama counted more than we did: learn, fit again (bounded), resend once.
                await self.fit_after_overflow(engine)
                core.publish(Change.notice(REFITTED))
                await self.stream_reply(user, may_retry=False)
            await self.tools.follow(user)  # calls approved and answered, the model asked again
        finally:
            core.streaming = False
            core.publish(BusyChanged(False))
        self._compactions.schedule_background()
        self.recall.schedule_embedding()

    async def clear_way(self, engine: ContextEngine) -> bool:
        """A request that fits goes at once, never queued behind our own summary: a warm-up
        stops and a background summary pauses (True if one was paused). A send, a Regenerate
        and a Continue all start here."""
        if self._fits(engine):
            return await self._compactions.cache.before_send()
        return False

    @staticmethod
    def _fits(engine: ContextEngine) -> bool:
        """Would the request go out whole as things stand (nothing left out to fit)?"""
        usage = engine.usage()
        return (not usage.over_budget and usage.dropped_messages == 0
                and usage.total <= usage.usable)

    async def make_room(self, engine: ContextEngine) -> bool:
        """Compact before sending only when the request does not fit; True if the send waited.

        A request that fits is sent at once, even while a compaction runs or one is due. One
        that does not waits for the running compaction (at most ``compaction_timeout_s``),
        then, if it still does not fit, runs one that counts the new message (bounded by the
        engine); whatever is still too large after that is fitted visibly by the engine.
        """
        if self._fits(engine):
            return False
        core = self._core
        waited = False
        if core.compacting:
            waited = True
            core.publish(CompactionStarted())
            await self._compactions.wait(engine.config.compaction_timeout_s)
            if core.compacting or self._fits(engine):
                return True  # a hung compaction is not waited for any longer
        if engine.needs_compaction():
            await self._compactions.run(focus=None, force=False)
            return True
        return waited

    async def fit_after_overflow(self, engine: ContextEngine) -> None:
        """After a refused request: apply what was learned, then compact or fit visibly."""
        core = self._core
        if core.compacting:
            await self._compactions.wait(engine.config.compaction_timeout_s)
        core.sync_calibration(force=True)
        if not core.compacting and engine.needs_compaction():
            await self._compactions.run(focus=None, force=False)
        core.publish(Change(context=True))

    async def stream_reply(self, user: Message, *, may_retry: bool,
                            previous: Message | None = None) -> BackendError | None:
        """Send the request and stream the reply; the refusal when it may be fitted and resent.

        Returns the ``context_overflow`` error when Ollama refused the request as longer than
        its context and ``may_retry``; the user's message is then kept for the resend.
        Otherwise every outcome is handled here and None is returned. ``previous``: the reply
        a Regenerate replaces; when nothing new arrives it is put back instead of the user's
        message being taken back.
        """
        core = self._core
        engine = core.engine
        assert engine is not None
        try:
            messages, recalled = await self.recall.request(engine, user)
            messages, recalled = await self.with_documents(engine, messages, recalled)
        except PinsOverBudget as exc:
            reason = str(exc) or engine.usage().note
            if previous is not None:
                self.put_back(previous)
                core.publish(Change.problem("send", reason))
            else:
                await give_back(self._core, self._compactions, user, reason)
            return None
        estimate = engine.api_tokens()
        reply = Message(role="assistant", content="", partial=True, model=core.model or "",
                        tokens=1)
        core.publish(ReplyStarted(reply.model_copy()))
        got = await self.stream(reply, messages)
        if not got.text and not (got.done and got.done.tool_calls):
            return await self._no_reply(user, reply, messages, got, may_retry=may_retry,
                                        previous=previous)
        self.finish(reply, got, messages, estimate, observe=True, recalled=recalled)
        self._compactions.last_exchange_tokens = user.tokens + reply.tokens
        if got.stopped:
            raise asyncio.CancelledError
        return None

    async def stream(self, reply: Message, messages: list[dict[str, str]]) -> Streamed:
        """Stream a request into ``reply`` (after the text it has), saving it as it grows.

        Stop (cancelling the task) and a failed stream end it like a finished one: the caller
        sees what arrived. ``reply.content`` is left as it was; ``finish`` sets the whole text.
        """
        core = self._core
        engine, chat = core.engine, core.chat
        assert engine is not None and chat is not None
        num_ctx, scale = engine.config.context_size, engine.config.estimate_scale
        prefix = reply.content
        got = Streamed(stored=bool(prefix))  # a reply with text is stored (or appended)
        parts: list[str] = []
        thoughts: list[str] = []
        saved_at = 0.0
        self.streaming_id = reply.id
        try:
            async for event in core.backend.chat_stream(
                    core.model or "", with_image_data(core.store, messages), num_ctx=num_ctx,
                    options=request_options(core, num_ctx), keep_alive=keep_alive_for(core),
                    think=core.thinks(), tools=engine.api_tools() or None):
                if isinstance(event, ChatChunk):
                    thoughts.append(event.thinking)
                    if event.thinking:
                        core.publish(ReplyThinking(reply.id, event.thinking))
                    if not event.text:
                        continue
                    parts.append(event.text)
                    core.publish(ReplyChunk(reply.id, event.text))
                    now = time.monotonic()
                    if now - saved_at >= SAVE_INTERVAL:
                        reply.content = prefix + "".join(parts)
                        got.stored = self._save_reply(chat.id, reply, got.stored,
                                                      index=False)
                        saved_at = now
                elif isinstance(event, ChatDone):
                    got.done = event
        except asyncio.CancelledError:
            got.stopped = True
        except BackendError as exc:
            got.failure = exc
        finally:
            self.streaming_id = None
            reply.content = prefix
        done = got.done
        got.text = "".join(parts) if done is None or not done.content else done.content
        got.thinking = "".join(thoughts)
        if len(got.text) > LONG_REPLY and not got.stopped:  # tokenising it takes 0.1 s and up
            got.counted = await asyncio.to_thread(_read_ahead, prefix + got.text, scale,
                                                  engine.config.message_overhead)
        return got

    def finish(self, reply: Message, got: Streamed, messages: list[dict[str, str]],
               estimate: int, *, observe: bool, recalled: RecallRecord | None = None) -> None:
        """Keep what arrived: the reply joins the engine and the store, the window is told.

        ``observe``: learn from Ollama's prompt count (not for a continued reply, whose
        trailing assistant message the chat template counts differently).
        """
        core = self._core
        engine, chat = core.engine, core.chat
        assert engine is not None and chat is not None
        reply.content += got.text
        reply.partial = got.done is None
        if got.done is not None:  # Ollama's figures for the reply (its row shows them)
            reply.stats = reply_stats(got.done, chat.settings.num_predict)
            reply.tool_calls = list(got.done.tool_calls)
        reply.thinking = (reply.thinking or "") + got.thinking or None
        # Counted like every other message (tokens=0: the engine counts it with the learned
        # factor and template), not by eval_count: the calibration maps contents to what a
        # prompt costs, and eval_count also counts thinking that is never sent back.
        reply.tokens, reply.exact_tokens = got.counted, False
        if engine.message(reply.id) is not None and not engine.remove_last(reply.id):
            raise RuntimeError("the continued reply is no longer the newest message")
        engine.add_message(reply)
        self._save_reply(chat.id, reply, got.stored)
        failure, done = got.failure, got.done
        info = ReplyInfo(stopped=got.stopped, error=failure.message if failure else None,
                         recalled=self.recall.keep(reply, recalled))
        change = Change(updated=(reply.model_copy(),), context=True)
        if done is not None:
            info.prompt_tokens = done.prompt_eval_count
            info.reply_tokens = done.eval_count
            if observe:
                info.truncated = core.calibrations.observe(
                    core.model or "", messages, estimate, done.prompt_eval_count,
                    engine.config.context_size, cached=done.prompt_eval_cached_count,
                    tools_raw=tools_raw(engine.api_tools()))
                core.sync_calibration()
            if info.truncated:
                change = change | Change.notice(TRUNCATION_SUSPECTED)
        change = change | core.save_state()  # goal markers may have changed
        core.publish(Change(updated=change.updated))
        core.publish(ReplyFinished(reply.model_copy(), info))
        if failure is not None:
            change = change | Change.problem(str(failure.kind), failure.message)
        core.publish(Change(context=True, notices=change.notices, problems=change.problems))
        core.maybe_auto_snapshot()

    async def _no_reply(self, user: Message, reply: Message, messages: list[dict[str, str]],
                        got: Streamed, *, may_retry: bool,
                        previous: Message | None) -> BackendError | None:
        """Nothing arrived: take the user's message back so a retry does not duplicate it
        (a Regenerate puts the earlier reply back instead)."""
        core = self._core
        failure, stopped = got.failure, got.stopped
        if got.stored:
            core.store.delete_message(reply.id)
        core.publish(Change(updated=(reply.model_copy(update={"content": "",
                                                              "partial": False}),)))
        overflow = failure is not None and failure.kind == CONTEXT_OVERFLOW
        if overflow:
            assert failure is not None
            num_ctx = core.engine.config.context_size if core.engine else 0
            core.calibrations.learn_overflow(core.model or "", messages, failure, num_ctx)
        if overflow and may_retry and not stopped:
            core.publish(ReplyFinished(reply, ReplyInfo(removed=True, user_message_id=user.id,
                                                        retried=True)))
            return failure
        reason = STILL_OVERFLOW if overflow else (failure.message if failure else None)
        core.publish(ReplyFinished(reply, ReplyInfo(stopped=stopped, error=reason, removed=True,
                                                    user_message_id=user.id)))
        if previous is not None:
            self.put_back(previous)
            if failure is not None:
                core.publish(Change.problem(str(failure.kind), KEPT_PREVIOUS.format(
                    reason or failure.message)))
        if stopped:
            raise asyncio.CancelledError
        if failure is not None and previous is None:
            await give_back(self._core, self._compactions, user, reason or failure.message,
                            kind=str(failure.kind))
        return None

    def put_back(self, previous: Message) -> None:
        """A Regenerate that brought nothing: the reply it replaced returns, as it was."""
        core = self._core
        engine, chat = core.engine, core.chat
        assert engine is not None and chat is not None
        engine.add_message(previous.model_copy())
        self._save_reply(chat.id, previous, False)
        core.publish(Change(added=(previous.model_copy(),), context=True) | core.save_state())

    def _save_reply(self, chat_id: str, reply: Message, stored: bool, *,
                    index: bool = True) -> bool:
        """Append or update the reply row (``index``: its search and recall rows too, or when
        it ends); True once on disk. A failed write (disk full) is reported and does not stop
        the stream: the reply stays in memory and the next save, or the final one, writes it."""
        core = self._core
        try:
            if stored:
                core.store.update_message(chat_id, reply, index=index)
            else:
                core.store.append_message(chat_id, reply)
        except StorageError as exc:
            core.publish(core.storage_failed(exc))
            return stored
        return True
