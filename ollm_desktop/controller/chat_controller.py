"""ChatController: the only place where async work (engine, Ollama, store) meets Qt.

Widgets call its methods and listen to its signals; they hold no business logic.
Every long operation runs as an asyncio task on the qasync loop; the handles are kept
here (qasync does not keep them alive, and Stop needs them).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine
from typing import Any

from PySide6.QtCore import QObject, Signal

from ollm_desktop.backend import (
    CONTEXT_OVERFLOW,
    BackendError,
    ChatChunk,
    ChatDone,
    ManagedOllama,
    OllamaBackend,
    TokenCalibration,
)
from ollm_desktop.controller.counting import CountingActions
from ollm_desktop.controller.snapshot_actions import SnapshotActions
from ollm_desktop.controller.status import OllamaStatus, ReplyInfo
from ollm_desktop.engine import (
    CompactionReport,
    ContextEngine,
    EngineConfig,
    EngineEvent,
    GoalState,
    Message,
    PinsOverBudget,
    count_message_tokens,
    parse_parameter_size,
)
from ollm_desktop.settings import Settings
from ollm_desktop.storage import ChatStore, StorageError
from ollm_desktop.storage.models import ChatRecord, SearchHit

log = logging.getLogger(__name__)

SAVE_INTERVAL = 1.0  # seconds between saves of a streamed reply
PROBE_TASKS = frozenset({"refresh-ollama", "model-details", "close-backend"})
PROBE_GRACE = 1.5  # seconds a probe may take to end by itself at shutdown
CANCEL_GRACE = 3.0  # seconds cancelled tasks get to unwind at shutdown
SUMMARY_PREDICT_CAP = 1024  # num_predict of a summary when the engine names no target


class ChatController(QObject, SnapshotActions, CountingActions):
    """Owns the open chat's engine, the store and the Ollama backend."""

    chatsChanged = Signal()
    chatOpened = Signal(object)  # ChatRecord
    historyReset = Signal()  # reload messages, groups and visibility from the controller
    messageAdded = Signal(object)  # Message
    messageUpdated = Signal(object)  # Message
    replyStarted = Signal(str)  # id of the assistant message being streamed
    replyChunk = Signal(str, str)  # message id, text
    replyFinished = Signal(object, object)  # Message, ReplyInfo
    sendFailed = Signal(str, str)  # the user's text (back into the input), error text
    usageChanged = Signal(object)  # ContextUsage
    reliabilityChanged = Signal(object)  # Reliability
    reliabilityWarning = Signal(object)  # Reliability: once per chat when it turns critical
    visibilityChanged = Signal(object)  # dict[message id, visibility]
    groupsChanged = Signal(object)  # list[CompressedGroup]
    goalChanged = Signal(object)  # GoalState
    compactionStarted = Signal()
    compactionProgress = Signal(str, float)  # stage, percent
    compactionFinished = Signal(object)  # CompactionReport
    compactionFailed = Signal(object)  # CompactionReport
    snapshotsChanged = Signal()
    busyChanged = Signal(bool)  # a reply is streaming
    ollamaStatus = Signal(object)  # OllamaStatus
    modelsChanged = Signal(object)  # list[ModelInfo]
    pullProgress = Signal(str, object, object)  # status, completed, total
    error = Signal(str, str)  # kind, user-facing text
    notice = Signal(str)  # informational text for the status bar

    def __init__(
        self,
        store: ChatStore,
        settings: Settings,
        backend: OllamaBackend | None = None,
        *,
        model: str | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.settings = settings
        self.backend = backend or OllamaBackend(
            settings.ollama_host, timeout=settings.request_timeout, keep_alive=settings.keep_alive
        )
        self.managed = ManagedOllama()
        self.chat: ChatRecord | None = None
        self.engine: ContextEngine | None = None
        self.model: str | None = model or settings.default_model
        self.models: list[Any] = []
        self.model_details: Any = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._reply_task: asyncio.Task[Any] | None = None
        self._unsent_text: str | None = None  # a send whose text is not saved yet
        self._auto_start_tried = False
        self._last_percent = 0.0  # context use at the last check (auto snapshot on crossing)
        self._compaction_task: asyncio.Task[Any] | None = None
        self._streaming = False
        self._warned_critical: set[str] = set()
        self._calibration: dict[str, TokenCalibration] = {}
        self._unsubscribe: Any = None
        self._last_exchange_tokens = 0
        self.turn_waits = {"turns": 0, "waited": 0}  # sends that waited on compaction

    # ----------------------------------------------------------------- tasks
    def _spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task is self._reply_task:
            self._turn_ended()
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            log.error("task %s failed", task.get_name(), exc_info=exc)
            self.error.emit("internal", self.tr("Unexpected error: {0}").format(exc))

    @property
    def busy(self) -> bool:
        return self._streaming

    @property
    def compacting(self) -> bool:
        return self._compaction_task is not None and not self._compaction_task.done()

    async def shutdown(self) -> None:
        """Cancel work, save what was streamed, close sockets and the database.

        Replies, compactions and pulls are cancelled at once (the stream's task owns its
        connection, so cancelling closes it). Short probes are first given a moment to end by
        themselves: cancelling an httpx connect that is still in progress can strand anyio's
        connect task on the qasync loop, and the process would then never exit. Whatever is
        still running after the grace periods is logged and left behind, never waited for.
        """
        probes = [t for t in self._tasks if t.get_name() in PROBE_TASKS]
        for task in set(self._tasks) - set(probes):
            task.cancel()
        if probes:
            await asyncio.wait(probes, timeout=PROBE_GRACE)
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            _done, stuck = await asyncio.wait(list(self._tasks), timeout=CANCEL_GRACE)
            for task in stuck:
                log.warning("task %s did not stop at shutdown", task.get_name())
        with contextlib.suppress(Exception):
            await self.backend.close()
        with contextlib.suppress(Exception):
            await self.managed.stop()
        self.store.close()

    # ------------------------------------------------------------------ chats
    def list_chats(self) -> list[ChatRecord]:
        return self.store.list_chats()

    def new_chat(self, title: str | None = None) -> ChatRecord:
        chat = self.store.create_chat(
            title or self.tr("New chat"), model=self.model, context_size=self._context_size(),
            system_prompt=self.settings.system_prompt or None,
        )
        self.chatsChanged.emit()
        self.open_chat(chat.id)
        return chat

    def open_chat(self, chat_id: str) -> None:
        if self._streaming:
            self.stop()
        chat = self.store.get_chat(chat_id)
        if chat is None:
            self.error.emit("storage", self.tr("That chat no longer exists."))
            return
        state = self.store.load_engine_state(chat_id)
        config = self._config_for(chat)
        if state is None:
            engine = ContextEngine(config, self._summarize, self.settings.system_prompt)
        else:
            engine = ContextEngine.from_state(state, config, self._summarize)
        self._attach(engine)
        self.chat = chat
        if chat.model:
            self.model = chat.model
        self.settings.last_chat_id = chat.id
        self.chatOpened.emit(chat)
        self.historyReset.emit()
        self._emit_context()
        if self.model:
            self._spawn(self._load_model_details(self.model), "model-details")

    def rename_chat(self, chat_id: str, title: str) -> None:
        title = title.strip()
        if not title:
            self.error.emit("input", self.tr("A chat needs a name."))
            return
        self.store.rename_chat(chat_id, title)
        if self.chat and self.chat.id == chat_id:
            self.chat = self.store.get_chat(chat_id)
        self.chatsChanged.emit()

    def delete_chat(self, chat_id: str) -> None:
        if self.chat and self.chat.id == chat_id:
            if self._streaming or self.compacting:
                self.error.emit("busy", self.tr("Wait for the reply or compaction to finish."))
                return
            self.chat = None
            self._attach(None)
        self.store.delete_chat(chat_id)
        self.chatsChanged.emit()
        self.historyReset.emit()

    def search(self, text: str) -> list[SearchHit]:
        return self.store.search(text) if text.strip() else []

    def _context_size(self) -> int:
        size = self.settings.context_size
        trained = getattr(self.model_details, "context_length", None)
        return min(size, trained) if trained else size

    def _config_for(self, chat: ChatRecord) -> EngineConfig:
        """The chat's engine settings: the user's preferences plus what the model counts."""
        settings = self.settings
        config = EngineConfig(
            context_size=chat.context_size,
            trigger_ratio=settings.trigger_ratio,
            preserve_recent_tokens=settings.preserve_recent_tokens,
            keep_recent_turns=settings.keep_recent_turns,
            preserve_user_messages=settings.preserve_user_messages,
            summary_timeout_s=settings.summary_timeout_s,
            compaction_timeout_s=settings.compaction_timeout_s,
        )
        model = chat.model or self.model
        if model:
            calibration = self._calibration_for(model)
            config.estimate_scale = calibration.factor
            config.message_overhead = calibration.per_message
            config.request_overhead = calibration.per_request
        return config

    def _attach(self, engine: ContextEngine | None) -> None:
        if self._unsubscribe:
            self._unsubscribe()
            self._unsubscribe = None
        self.engine = engine
        if engine is not None:
            self._unsubscribe = engine.subscribe(self._on_engine_event)
            billions = getattr(self.model_details, "parameter_billions", None)
            engine.set_model_info(billions)

    def _on_engine_event(self, event: EngineEvent) -> None:
        if event.name == "compaction-progress" and event.stage is not None:
            self.compactionProgress.emit(event.stage, float(event.progress or 0.0))
        elif event.name == "goal-updated" and self.engine is not None:
            self.goalChanged.emit(self.engine.goal)

    def _emit_context(self) -> None:
        engine = self.engine
        if engine is None:
            return
        usage = engine.usage()
        self.usageChanged.emit(usage)
        reliability = engine.reliability()
        self.reliabilityChanged.emit(reliability)
        self.visibilityChanged.emit(engine.visibility())
        self.groupsChanged.emit(engine.groups)
        self.goalChanged.emit(engine.goal)
        chat_id = self.chat.id if self.chat else ""
        if reliability.warning and chat_id not in self._warned_critical:
            self._warned_critical.add(chat_id)
            self.reliabilityWarning.emit(reliability)

    def _save_state(self) -> None:
        if self.chat and self.engine:
            try:
                self.store.save_engine_state(self.chat.id, self.engine.state())
            except StorageError as exc:
                self._storage_failed(exc)

    # ------------------------------------------------------------------ model
    def set_model(self, model: str) -> None:
        model = model.strip()
        if not model or model == self.model:
            return
        self.model = model
        if self.chat:
            self.store.set_chat_model(self.chat.id, model)
            self.chat = self.store.get_chat(self.chat.id)
        self._spawn(self._load_model_details(model), "model-details")

    async def _load_model_details(self, model: str) -> None:
        try:
            details = await self.backend.show(model)
        except BackendError as exc:
            if exc.kind == "model_not_found":
                self.error.emit("model_not_found", exc.message)
            return
        if model != self.model:
            return
        self.model_details = details
        if self.engine is not None:
            billions = details.parameter_billions or parse_parameter_size(
                getattr(details, "parameter_size", None))
            self.engine.set_model_info(billions)
            trained = details.context_length
            if trained and self.engine.config.context_size > trained:
                self.notice.emit(self.tr(
                    "{0} was trained for {1:,} tokens; the chat's context of {2:,} is larger and "
                    "the model may lose track beyond that.").format(
                        model, trained, self.engine.config.context_size))
            self._emit_context()

    def set_context_size(self, size: int, *, apply_now: bool = False) -> None:
        """New chats use ``size``; the open chat changes only when asked (it reloads the model)."""
        self.settings.context_size = size
        if apply_now and self.chat and self.engine:
            if self._streaming or self.compacting:
                self.error.emit("busy", self.tr("Wait for the reply or compaction to finish."))
                return
            self.store.set_chat_context_size(self.chat.id, size)
            self.chat = self.store.get_chat(self.chat.id)
            self.engine.config.context_size = size
            self.engine.load_state(self.engine.state())
            self._save_state()
            self._emit_context()

    # ---------------------------------------------------------------- ollama
    def refresh_ollama(self) -> asyncio.Task[Any]:
        return self._spawn(self._refresh_ollama(), "refresh-ollama")

    async def _refresh_ollama(self) -> OllamaStatus:
        host = self.backend.host
        try:
            version = await self.backend.version()
            models = await self.backend.list_models()
        except BackendError as exc:
            can_start = self.managed.find_executable() is not None
            if (can_start and self.settings.start_ollama == "always"
                    and not self._auto_start_tried):
                # The user chose once to let the app start Ollama; do it without asking.
                self._auto_start_tried = True
                if await self.managed.start(host):
                    return await self._refresh_ollama()
            status = OllamaStatus(reachable=False, host=host, error=exc.message,
                                  can_start=can_start)
            self.ollamaStatus.emit(status)
            return status
        self.models = models
        names = [m.name for m in models]
        if self.model is None and names:
            self.set_model(names[0])
        status = OllamaStatus(reachable=True, host=host, version=version, models=names,
                              model_missing=bool(self.model and self.model not in names))
        self.modelsChanged.emit(models)
        self.ollamaStatus.emit(status)
        return status

    def start_ollama(self, remember: bool | None = None) -> asyncio.Task[Any]:
        """Start ``ollama serve`` (stopped again at exit); ``remember`` answers "next time?"."""
        if remember is not None:
            self.settings.start_ollama = "always" if remember else "never"

        async def run() -> None:
            started = await self.managed.start(self.backend.host)
            if not started:
                reason = self.managed.error or self.tr("unknown reason")
                self.error.emit("unreachable",
                                self.tr("Ollama could not be started: {0}").format(reason))
            await self._refresh_ollama()

        return self._spawn(run(), "start-ollama")

    def pull_model(self, model: str) -> asyncio.Task[Any]:
        async def run() -> None:
            try:
                async for progress in self.backend.pull(model):
                    self.pullProgress.emit(progress.status, progress.completed, progress.total)
            except BackendError as exc:
                self.error.emit(str(exc.kind), exc.message)
                return
            self.notice.emit(self.tr("{0} is ready.").format(model))
            await self._refresh_ollama()
            if self.model == model:
                await self._load_model_details(model)

        return self._spawn(run(), "pull")

    def apply_settings(self) -> None:
        """Preferences changed: reconnect if the host moved, then probe Ollama again."""
        host = OllamaBackend.resolve_host(self.settings.ollama_host)
        if host != self.backend.host:
            old = self.backend
            self.backend = OllamaBackend(self.settings.ollama_host,
                                         timeout=self.settings.request_timeout,
                                         keep_alive=self.settings.keep_alive)
            self._spawn(old.close(), "close-backend")
        self._apply_engine_settings()
        self.refresh_ollama()

    def _apply_engine_settings(self) -> None:
        """Preferences that concern the open chat's engine take effect now.

        The time limits are read at the start of each call and run, so they are simply set;
        the verbatim window changes what is sent, so the engine rebuilds its context (only
        when idle: a running compaction or reply keeps the old window until the next open).
        """
        engine, settings = self.engine, self.settings
        if engine is None:
            return
        config = engine.config
        config.summary_timeout_s = settings.summary_timeout_s
        config.compaction_timeout_s = settings.compaction_timeout_s
        window = (settings.preserve_recent_tokens, settings.keep_recent_turns)
        if window != (config.preserve_recent_tokens, config.keep_recent_turns) and not (
                self._streaming or self.compacting or engine.compacting):
            config.preserve_recent_tokens, config.keep_recent_turns = window
            engine.load_state(engine.state())
            self._emit_context()

    async def _summarize(self, prompt: list[dict[str, str]],
                         max_tokens: int | None = None) -> str:
        """The engine's summarizer: one capped, never-truncated request to Ollama.

        ``max_tokens`` (the engine's output budget for this summary) becomes ``num_predict``:
        without it a small model can write thousands of tokens for minutes.
        """
        model = self.settings.summarization_model or self.model
        if not model:
            raise RuntimeError("no model selected")
        num_ctx = self.engine.config.context_size if self.engine else self._context_size()
        predict = max_tokens if max_tokens and max_tokens > 0 else SUMMARY_PREDICT_CAP
        try:
            done = await self.backend.chat(model, prompt, num_ctx=num_ctx,
                                           options={"num_predict": int(predict)})
        except BackendError as exc:
            if exc.kind == CONTEXT_OVERFLOW:
                self._learn_overflow(model, prompt, exc)
            raise
        self._observe_counts(model, prompt, None, done.prompt_eval_count, num_ctx)
        return done.content

    # ----------------------------------------------------------------- turns
    def send(self, text: str) -> asyncio.Task[Any] | None:
        """Start a turn; returns None (and says why) when it cannot start."""
        text = text.strip()
        if not text:
            return None
        if self._streaming:
            self.sendFailed.emit(text, self.tr("A reply is still streaming; stop it first."))
            return None
        if not self.model:
            self.sendFailed.emit(text, self.tr("Choose a model first (Ollama must be running)."))
            return None
        if self.chat is None:
            self.new_chat(self._title_from(text))
        elif self.engine is not None and not self.engine.display_messages():
            self.rename_chat(self.chat.id, self._title_from(text))
        assert self.engine is not None
        usage = self.engine.usage()
        tokens = count_message_tokens(text, self.engine.config.estimate_scale,
                                      self.engine.config.message_overhead)
        room = usage.usable - usage.system - usage.goal - usage.pinned
        if tokens > room * 0.9:
            self.sendFailed.emit(text, self.tr(
                "This message is about {0:,} tokens but the model's context leaves room for "
                "{1:,}. Shorten it, or choose a larger context size.").format(tokens, room))
            return None
        self._streaming = True
        self._unsent_text = text
        self.busyChanged.emit(True)
        self._reply_task = self._spawn(self._turn(text), "turn")
        return self._reply_task

    @staticmethod
    def _title_from(text: str) -> str:
        line = text.strip().splitlines()[0] if text.strip() else "New chat"
        return line[:60] + ("…" if len(line) > 60 else "")

    def _turn_ended(self) -> None:
        """Reset the busy state; a turn stopped before it could save the text gives it back.

        (A task cancelled before its first step never runs its own ``finally``.)
        """
        self._reply_task = None
        text, self._unsent_text = self._unsent_text, None
        if self._streaming:
            self._streaming = False
            self.busyChanged.emit(False)
        if text is not None:
            self.sendFailed.emit(text, self.tr("Stopped before the message was sent."))

    def stop(self) -> None:
        """Stop = cancel the task consuming the stream; the connection closes with it."""
        if self._reply_task and not self._reply_task.done():
            self._reply_task.cancel()

    async def _turn(self, text: str) -> None:
        engine, chat = self.engine, self.chat
        assert engine is not None and chat is not None
        user = engine.add("user", text)
        try:
            self.store.append_message(chat.id, user)
        except StorageError as exc:
            # Not on disk means not sent: the text goes back to the input, nothing is half-kept.
            engine.remove_last(user.id)
            self._unsent_text = None
            self._streaming = False
            self.busyChanged.emit(False)
            self.sendFailed.emit(text, str(exc))
            return
        self._unsent_text = None
        self.messageAdded.emit(user.model_copy())
        self._sync_calibration()
        self._emit_context()
        self._maybe_auto_snapshot()
        try:
            self.turn_waits["turns"] += 1
            waited = await self._make_room(engine)
            self.turn_waits["waited"] += waited  # a turn counts once, however long it waited
            refused = await self._stream_reply(user, may_retry=True)
            if refused is not None:
                # Ollama counted more than we did: learn, fit again (bounded), resend once.
                await self._fit_after_overflow(engine)
                self.notice.emit(self.tr(
                    "The model counted more tokens than estimated; the context was fitted "
                    "again and the message resent."))
                await self._stream_reply(user, may_retry=False)
        finally:
            self._streaming = False
            self._reply_task = None
            self.busyChanged.emit(False)
        self._schedule_background_compaction()

    def _request_fits(self, engine: ContextEngine) -> bool:
        """Would the request go out whole as things stand (nothing left out to fit)?"""
        usage = engine.usage()
        return (not usage.over_budget and usage.dropped_messages == 0
                and usage.total <= usage.usable)

    async def _make_room(self, engine: ContextEngine) -> bool:
        """Compact before sending only when the request does not fit; True if the send waited.

        A request that fits is sent at once, even while a compaction runs or one is due (it
        then runs after the reply, while the user reads). One that does not fit waits for the
        running compaction (at most ``compaction_timeout_s``), then, if it still does not fit,
        runs one that counts the new message (bounded by the engine); whatever is still too
        large after that is fitted visibly by the engine for this turn.
        """
        if self._request_fits(engine):
            return False
        waited = False
        if self.compacting:
            waited = True
            self.compactionStarted.emit()
            await self._wait_for_compaction(engine.config.compaction_timeout_s)
            if self.compacting or self._request_fits(engine):
                return True  # a hung compaction is not waited for any longer
        if engine.needs_compaction():
            await self._run_compaction(focus=None, force=False, reason="before-compaction")
            return True
        return waited

    async def _wait_for_compaction(self, timeout: float) -> None:
        """Wait for the running compaction, at most ``timeout`` seconds; never cancel it."""
        task = self._compaction_task
        if task is not None and not task.done():
            await asyncio.wait({task}, timeout=timeout)

    async def _fit_after_overflow(self, engine: ContextEngine) -> None:
        """After a refused request: apply what was learned, then compact or fit visibly."""
        if self.compacting:
            await self._wait_for_compaction(engine.config.compaction_timeout_s)
        self._sync_calibration(force=True)
        if not self.compacting and engine.needs_compaction():
            await self._run_compaction(focus=None, force=False, reason="before-compaction")
        self._emit_context()

    async def _stream_reply(self, user: Message, *, may_retry: bool) -> BackendError | None:
        """Send the request and stream the reply; the refusal when it may be fitted and resent.

        Returns the ``context_overflow`` error when Ollama refused the request as longer than
        its context and ``may_retry``; the user's message is then kept for the resend.
        Otherwise every outcome is handled here and None is returned.
        """
        engine, chat = self.engine, self.chat
        assert engine is not None and chat is not None
        try:
            messages = engine.api_messages()
        except PinsOverBudget as exc:
            await self._give_back(user, str(exc) or engine.usage().note)
            return None
        estimate = engine.api_tokens()
        num_ctx = engine.config.context_size
        model = self.model or ""
        reply = Message(role="assistant", content="", partial=True, model=model, tokens=1)
        self.replyStarted.emit(reply.id)
        self.messageAdded.emit(reply.model_copy())
        parts: list[str] = []
        saved_at = 0.0
        stored = False
        done: ChatDone | None = None
        failure: BackendError | None = None
        stopped = False
        options = {"num_ctx": num_ctx}
        try:
            async for event in self.backend.chat_stream(model, messages, num_ctx=num_ctx,
                                                        options=options):
                if isinstance(event, ChatChunk):
                    if not event.text:
                        continue
                    parts.append(event.text)
                    self.replyChunk.emit(reply.id, event.text)
                    now = time.monotonic()
                    if now - saved_at >= SAVE_INTERVAL:
                        reply.content = "".join(parts)
                        stored = self._save_reply(chat.id, reply, stored)
                        saved_at = now
                elif isinstance(event, ChatDone):
                    done = event
        except asyncio.CancelledError:
            stopped = True
        except BackendError as exc:
            failure = exc
        content = "".join(parts) if done is None or not done.content else done.content
        if not content:
            # Nothing arrived: take the user's message back so a retry does not duplicate it.
            if stored:
                self.store.delete_message(reply.id)
            self.messageUpdated.emit(reply.model_copy(update={"content": "", "partial": False}))
            overflow = failure is not None and failure.kind == CONTEXT_OVERFLOW
            if overflow:
                assert failure is not None
                self._learn_overflow(model, messages, failure)
            if overflow and may_retry and not stopped:
                self.replyFinished.emit(reply, ReplyInfo(removed=True, user_message_id=user.id,
                                                         retried=True))
                return failure
            reason = failure.message if failure else None
            if overflow:
                reason = self.tr(
                    "Even after fitting the context again, the model counted this request as "
                    "longer than its context. Your message is back in the input: shorten it, "
                    "unpin messages, or choose a larger context size.")
            info = ReplyInfo(stopped=stopped, error=reason, removed=True,
                             user_message_id=user.id)
            self.replyFinished.emit(reply, info)
            if stopped:
                raise asyncio.CancelledError
            if failure is not None:
                await self._give_back(user, reason or failure.message, kind=str(failure.kind))
            return None
        reply.content = content
        reply.partial = done is None
        # Counted like every other message (tokens=0: the engine counts it with the learned
        # factor and template), not by eval_count: the calibration maps contents to what a
        # prompt costs, and eval_count also counts thinking that is never sent back.
        reply.tokens, reply.exact_tokens = 0, False
        engine.add_message(reply)
        self._save_reply(chat.id, reply, stored)
        self._last_exchange_tokens = user.tokens + reply.tokens
        info = ReplyInfo(stopped=stopped, error=failure.message if failure else None)
        if done is not None:
            info.prompt_tokens = done.prompt_eval_count
            info.reply_tokens = done.eval_count
            info.truncated = self._observe_counts(model, messages, estimate,
                                                  done.prompt_eval_count, num_ctx)
            self._sync_calibration()
            if info.truncated:
                self.notice.emit(self.tr(
                    "Ollama reported fewer prompt tokens than were sent: it may have dropped "
                    "part of the context. The token estimate has been recalibrated."))
        self._save_state()  # goal markers may have changed
        self.messageUpdated.emit(reply.model_copy())
        self.replyFinished.emit(reply.model_copy(), info)
        if failure is not None:
            self.error.emit(str(failure.kind), failure.message)
        self._emit_context()
        self._maybe_auto_snapshot()
        if stopped:
            raise asyncio.CancelledError
        return None

    def _save_reply(self, chat_id: str, reply: Message, stored: bool) -> bool:
        """Append or update the reply row; True once it is on disk.

        A failed write (disk full) is reported but does not stop the stream: the reply stays
        in memory and the next save, or the final one, writes it.
        """
        try:
            if stored:
                self.store.update_message(chat_id, reply)
            else:
                self.store.append_message(chat_id, reply)
        except StorageError as exc:
            self._storage_failed(exc)
            return stored
        return True

    def _storage_failed(self, exc: StorageError) -> None:
        log.error("storage write failed: %s", exc)
        self.error.emit("storage", self.tr("Could not save: {0}").format(exc))

    def _take_back(self, user: Message) -> bool:
        """Remove a just-sent user message that got no reply; its text goes back to the input."""
        engine, chat = self.engine, self.chat
        if engine is None or chat is None or not engine.remove_last(user.id):
            return False
        self.store.delete_message(user.id)
        self.historyReset.emit()
        self._emit_context()
        return True

    async def _give_back(self, user: Message, reason: str, kind: str = "send") -> None:
        """A send that got no reply: its message leaves the chat, its text goes back to the input.

        A running compaction holds the history (the engine refuses to take a message back
        then), so it is waited for, bounded; if the message still cannot be taken back it
        stays in the chat and the reason is shown as an error instead.
        """
        engine = self.engine
        if engine is not None and engine.compacting:
            await self._wait_for_compaction(engine.config.compaction_timeout_s)
        if self._take_back(user):
            self.sendFailed.emit(user.content, reason)
        else:
            self.error.emit(kind, reason)

    # ------------------------------------------------------------ compaction
    def _schedule_background_compaction(self) -> None:
        """After a reply, compact while the user reads if the next exchange would cross."""
        engine = self.engine
        if engine is None or self.compacting:
            return
        ahead = self._last_exchange_tokens
        if engine.needs_compaction(ahead_tokens=ahead):
            self._compaction_task = self._spawn(
                self._run_compaction(focus=None, force=False, reason="before-compaction",
                                     ahead_tokens=ahead), "background-compaction")

    def compact(self, focus: str | None = None) -> asyncio.Task[Any] | None:
        """Manual compaction ("Compact now…"), with an optional focus text."""
        if self.engine is None:
            return None
        if self._streaming or self.compacting:
            self.error.emit("busy", self.tr("Wait for the reply or compaction to finish."))
            return None
        self._compaction_task = self._spawn(
            self._run_compaction(focus=focus or None, force=True, reason="before-compaction"),
            "compaction")
        return self._compaction_task

    async def _run_compaction(self, *, focus: str | None, force: bool, reason: str,
                              ahead_tokens: int = 0) -> CompactionReport:
        engine, chat = self.engine, self.chat
        assert engine is not None and chat is not None
        self.compactionStarted.emit()
        self._snapshot(reason)
        report = await engine.compact(focus=focus, force=force, ahead_tokens=ahead_tokens)
        if engine is not self.engine:  # the chat changed meanwhile
            return report
        self._sync_calibration()  # what turns learned while it ran
        if report.status in ("compacted", "truncated"):
            self._save_state()
            self.compactionFinished.emit(report)
        elif report.status == "failed":
            self._save_state()  # the retry point is part of the state
            self.compactionFailed.emit(report)
            self.error.emit("compaction", report.reason)
        else:
            self.compactionFinished.emit(report)
        self._emit_context()
        return report

    def undo_last_compaction(self) -> bool:
        engine = self.engine
        if engine is None or not engine.can_undo:
            self.error.emit("undo", self.tr("There is no compaction to undo."))
            return False
        if self._streaming or self.compacting:
            self.error.emit("busy", self.tr("Wait for the reply or compaction to finish."))
            return False
        self._snapshot("before-undo")
        result = engine.undo_last_compaction()
        if not result.ok:
            self.error.emit("undo", result.reason)
            return False
        self._save_state()
        self.notice.emit(result.reason if not result.left_out else self.tr(
            "{0} (Conversation ▸ Open state before compaction as a new chat keeps every "
            "message in context instead.)").format(result.reason))
        self._emit_context()
        return True

    def set_pinned(self, message_id: str, pinned: bool) -> None:
        if self.engine is None:
            return
        try:
            message = self.engine.set_pinned(message_id, pinned)
        except KeyError:
            return  # a reply still streaming: pin it once it is complete
        self.store.set_pinned(message_id, pinned)
        self.messageUpdated.emit(message.model_copy())
        self._emit_context()

    def toggle_pin(self, message_id: str) -> None:
        message = self.engine.message(message_id) if self.engine else None
        if message is not None:
            self.set_pinned(message_id, not message.pinned)

    def set_goal_description(self, text: str) -> None:
        if self.engine is None:
            return
        goal = self.engine.goal.model_copy(deep=True)
        goal.description = text.strip()
        self.engine.set_goal(goal)
        self._save_state()
        self._emit_context()

    def set_goal(self, goal: GoalState) -> None:
        if self.engine is not None:
            self.engine.set_goal(goal)
            self._save_state()
            self._emit_context()
