"""The session's shared state and the steps every operation repeats (save, snapshot, publish).

``ChatSession`` is this plus its services (turns, compactions, snapshots, Ollama); the
services get the core, never the facade, so nothing imports its host back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from types import MappingProxyType
from typing import Any

from ollm_desktop.backend import (
    ChatServer,
    ManagedOllama,
    ModelDetails,
    ModelInfo,
    OllamaBackend,
)
from ollm_desktop.engine import (
    ContextEngine,
    EngineConfig,
    EngineEvent,
    EngineState,
    Message,
)
from ollm_desktop.session.calibrations import ApiMessages, Calibrations
from ollm_desktop.session.engine_thread import release_heap
from ollm_desktop.session.events import (
    NOTHING,
    Change,
    CompactionProgress,
    ContextSnapshot,
    SessionEvent,
)
from ollm_desktop.session.settings import Settings
from ollm_desktop.session.snapshot_labels import auto_label
from ollm_desktop.storage import ChatStore, StorageError
from ollm_desktop.storage.models import ChatRecord, SnapshotInfo

log = logging.getLogger(__name__)

Spawn = Callable[[Coroutine[Any, Any, Any], str], "asyncio.Task[Any]"]
Publish = Callable[[SessionEvent], None]
SummaryCall = Callable[[ApiMessages, int | None], Coroutine[Any, Any, str]]

AUTO_SNAPSHOT_RATIO = 0.80
WARNED_MARK = "compression-warning-shown"
MODEL_SIZE = "model-size"  # chat value: "<model>\n<billions>", its last known size
DRAFT = "draft"  # chat value: the unsent text left in the input
CONTEXT_ORIGIN = "context-origin"  # chat value: where its context size was last set
BUSY_TEXT = "Wait for the reply or compaction to finish."
NO_CHAT = "Open a chat first."
LOWERED_TO_TRAINED = ("{0} was trained for {1:,} tokens, so this chat now sends {1:,} (it was "
                      "set to {2:,}). To go beyond, allow it in Preferences.")
LOWERED_TO_WINDOW = ("The server serves {0} with {1:,} tokens of context, so this chat now sends "
                     "{1:,} (it was set to {2:,}).")
BEYOND_TRAINED = ("This chat sends {2:,} tokens of context, beyond the {1:,} {0} was trained "
                  "for (allowed in Preferences): past {1:,} tokens the model may lose track, and "
                  "Ollama needs more memory and time for each request.")


async def _nothing() -> None:
    return None


def _default_spawn(tasks: set[asyncio.Task[Any]]) -> Spawn:
    def spawn(coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        task.set_name(name)
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        return task

    return spawn


class SessionCore:
    """Owns the open chat (record + engine), the store, the backend and the preferences.

    ``publish`` receives what happens while an operation runs (stream chunks, progress);
    ``spawn`` starts background work (the Qt adapter passes its own, so it keeps every task
    handle for Stop and shutdown).
    """

    def __init__(self, store: ChatStore, settings: Settings, backend: ChatServer | None = None,
                 *, model: str | None = None, host: str | None = None,
                 managed: ManagedOllama | None = None) -> None:
        self.store = store
        self.settings = settings
        # A command-line host is used for this run only; it is never written to the settings.
        self.host_override = host
        # The facade replaces this with the open chat's connection (session.connections).
        self.backend: ChatServer = backend or OllamaBackend(
            host or settings.ollama_host, timeout=settings.request_timeout,
            keep_alive=settings.keep_alive)
        self.managed = managed or ManagedOllama()
        self.chat: ChatRecord | None = None
        self.engine: ContextEngine | None = None
        self.model: str | None = model or settings.default_model
        self.models: list[ModelInfo] = []
        self.model_details: ModelDetails | None = None
        self.calibrations = Calibrations(store)
        self.streaming = False
        self.compaction_task: asyncio.Task[Any] | None = None
        self.publish: Publish = lambda event: None
        self._own_tasks: set[asyncio.Task[Any]] = set()
        self.spawn: Spawn = _default_spawn(self._own_tasks)
        self.summarize: SummaryCall | None = None  # set by the facade (its Ollama service)
        # Awaited by a turn before its request (the facade: load the model's details, fit).
        self.before_send: Callable[[], Coroutine[Any, Any, None]] = _nothing
        self._beyond_noted: set[tuple[str, int]] = set()
        self._unsubscribe: Callable[[], None] | None = None
        self._warned_critical: set[str] = set()
        self._last_percent = 0.0  # context use at the last check (auto snapshot on crossing)

    # ------------------------------------------------------------------ state
    @property
    def compacting(self) -> bool:
        return self.compaction_task is not None and not self.compaction_task.done()

    @property
    def busy(self) -> bool:
        return self.streaming or self.compacting

    def busy_problem(self) -> Change:
        return Change.problem("busy", BUSY_TEXT)

    def idle_chat_refusal(self, *, during_compaction: bool = False) -> Change | None:
        """Why an operation that changes the open chat cannot run now: there is none, or a
        reply streams or a compaction runs (both planned with the state it would change).
        ``during_compaction``: the compaction works on a copy and checks the chat before its
        result is applied (``engine.compaction_draft``), so the operation may run."""
        if self.chat is None or self.engine is None:
            return Change.problem("input", NO_CHAT)
        if self.streaming or (not during_compaction and (self.compacting
                                                         or self.engine.compacting)):
            return self.busy_problem()
        return None

    def context_size_for_new_chat(self) -> int:
        size = self.settings.context_size
        trained = self.model_details.context_length if self.model_details else None
        size = min(size, trained) if trained else size
        window = self.server_window()
        return min(size, window) if window else size

    def server_window(self) -> int | None:
        """The context the server serves the model with, when the server fixes it (llama.cpp,
        vLLM, LM Studio, a generic server): no chat may plan beyond it."""
        return self.model_details.window if self.model_details else None

    def fit_to_window(self, *, in_turn: bool = False) -> Change:
        """The budget is the smaller of the chat's setting and the server's window: the
        chat's context is lowered to the window (as to a trained length, but never beyond)."""
        chat, engine, window = self.chat, self.engine, self.server_window()
        if chat is None or engine is None or not window or engine.config.context_size <= window:
            return NOTHING
        if engine.compacting or (self.streaming and not in_turn):
            return NOTHING
        size = engine.config.context_size
        try:
            self.store.set_chat_context_size(chat.id, window)
        except StorageError as exc:
            return self.storage_failed(exc)
        self.chat = self.store.get_chat(chat.id) or chat
        engine.config.context_size = window
        engine.load_state(engine.state())
        return Change(context=True) | Change.notice(
            LOWERED_TO_WINDOW.format(self.model or "the model", window, size))

    def fit_to_trained(self, *, in_turn: bool = False) -> Change:
        """Never send more than the model was trained for, unless the user allowed it.

        The open chat's context is lowered to the model's trained length (its budget and meter
        follow). While a reply streams the change waits for the next turn (``in_turn``: the
        turn itself calls this before its request); a running compaction keeps it too.
        """
        window = self.fit_to_window(in_turn=in_turn)
        chat, engine = self.chat, self.engine
        trained = self.model_details.context_length if self.model_details else None
        if chat is None or engine is None or not trained or engine.config.context_size <= trained:
            return window
        size, model = engine.config.context_size, self.model or "The model"
        if self.settings.allow_beyond_trained:
            if (chat.id, size) in self._beyond_noted:
                return window
            self._beyond_noted.add((chat.id, size))
            return window | Change.notice(BEYOND_TRAINED.format(model, trained, size))
        if engine.compacting or (self.streaming and not in_turn):
            return window
        try:
            self.store.set_chat_context_size(chat.id, trained)
        except StorageError as exc:
            return window | self.storage_failed(exc)
        self.chat = self.store.get_chat(chat.id) or chat
        engine.config.context_size = trained
        engine.load_state(engine.state())
        return window | Change(context=True) | Change.notice(
            LOWERED_TO_TRAINED.format(model, trained, size))

    def config_for(self, chat: ChatRecord) -> EngineConfig:
        """The chat's engine settings: the user's preferences plus what the model counts."""
        s = self.settings
        config = EngineConfig(
            context_size=chat.context_size, trigger_ratio=s.trigger_ratio,
            preserve_recent_tokens=s.preserve_recent_tokens,
            keep_recent_turns=s.keep_recent_turns,
            preserve_user_messages=s.preserve_user_messages,
            summary_timeout_s=s.summary_timeout_s, compaction_timeout_s=s.compaction_timeout_s)
        model = chat.model or self.model
        if model:
            calibration = self.calibrations.for_model(model)
            config.estimate_scale = calibration.factor
            config.message_overhead = calibration.per_message
            config.request_overhead = calibration.per_request
        return config

    def system_prompt_for(self, chat: ChatRecord) -> str:
        """The chat's own system prompt, else the Preferences' default (read when used, so a
        chat that follows the default follows its changes)."""
        own = chat.settings.system_prompt
        return self.settings.system_prompt if own is None else own

    def sync_system_prompt(self) -> Change:
        """Make the open chat's engine send the prompt it should (the system message counts
        in the budget, so the context is figured again). Not during a compaction, which
        planned with the old one: the next send or open catches up."""
        chat, engine = self.chat, self.engine
        if chat is None or engine is None or engine.compacting:
            return NOTHING
        prompt = self.system_prompt_for(chat)
        if engine.system_prompt == prompt:
            return NOTHING
        engine.set_system_prompt(prompt)
        return Change(save=True, context=True)

    def attach(self, engine: ContextEngine | None) -> None:
        if self._unsubscribe:
            self._unsubscribe()
            self._unsubscribe = None
        if engine is not self.engine:
            release_heap()  # what a compaction froze of the old chat may be freed now
        self.engine = engine
        if engine is not None:
            self._unsubscribe = engine.subscribe(self._on_engine_event)
            engine.set_model_info(self.parameter_billions())

    def parameter_billions(self) -> float | None:
        """The open chat's model size: the server's figure (details, else the model list),
        else the last one this chat knew for its model, so that the reliability shown never
        moves because the server is down. A newly learned figure is remembered."""
        details, model = self.model_details, self.model
        known = details.parameter_billions if details else None
        if known is None:
            listed = next((m for m in self.models if m.name == model), None)
            known = listed.parameter_billions if listed else None
        chat = self.chat
        if chat is None or not model:
            return known
        remembered = f"{model}\n{known!r}" if known is not None else None
        try:
            stored = self.store.chat_value(chat.id, MODEL_SIZE)
            if remembered is not None and stored != remembered:
                self.store.set_chat_value(chat.id, MODEL_SIZE, remembered)
        except StorageError as exc:
            log.error("the model's size could not be remembered: %s", exc)
            return known
        if known is None and stored and stored.partition("\n")[0] == model:
            with contextlib.suppress(ValueError):
                known = float(stored.partition("\n")[2])
        return known

    def chat_note(self, chat_id: str, name: str) -> str:
        """A small remembered value of a chat (``DRAFT``, ``CONTEXT_ORIGIN``; "" when none)."""
        try:
            return self.store.chat_value(chat_id, name) or ""
        except StorageError as exc:
            log.error("the chat's %s could not be read: %s", name, exc)
            return ""

    def set_chat_note(self, chat_id: str, name: str, text: str) -> None:
        """Remember it (blank text forgets it); a failure only logs: nothing depends on it."""
        try:
            if self.store.get_chat(chat_id) is not None:
                self.store.set_chat_value(chat_id, name, text if text.strip() else None)
        except StorageError as exc:
            log.error("the chat's %s could not be saved: %s", name, exc)

    def draft(self, chat_id: str) -> str:
        """The unsent text the user left in a chat."""
        return self.chat_note(chat_id, DRAFT)

    def save_draft(self, chat_id: str, text: str) -> None:
        self.set_chat_note(chat_id, DRAFT, text)

    def thinks(self) -> bool | None:
        """``think: true`` for a model whose /api/show lists "thinking"; else nothing is sent
        (older servers and other models reject or ignore the field)."""
        details = self.model_details
        return True if details is not None and "thinking" in details.capabilities else None

    def _on_engine_event(self, event: EngineEvent) -> None:
        if event.name == "compaction-progress" and event.stage is not None:
            self.publish(CompactionProgress(event.stage, float(event.progress or 0.0)))
        elif event.name == "goal-updated":
            self.publish(Change(context=True))

    def sync_calibration(self, *, force: bool = False) -> None:
        self.calibrations.sync(self.engine, self.model, force=force)

    # ------------------------------------------------------------ read side
    def context_snapshot(self) -> ContextSnapshot:
        """One immutable picture of the open chat's context (copies, never live objects)."""
        engine, chat = self.engine, self.chat
        if engine is None:
            return ContextSnapshot(chat=chat, model=self.model)
        reliability = engine.reliability()
        warn = bool(reliability.warning) and chat is not None and self._first_warning(chat.id)
        return ContextSnapshot(
            chat=chat, model=self.model, usage=engine.usage(), reliability=reliability,
            visibility=MappingProxyType(dict(engine.visibility())),
            groups=tuple(g.model_copy(deep=True) for g in engine.groups),
            goal=engine.goal.model_copy(deep=True), can_undo=engine.can_undo,
            compaction_count=engine.compaction_count, warn=warn,
            trained_context=self.model_details.context_length if self.model_details else None,
            server_window=self.server_window())

    def _first_warning(self, chat_id: str) -> bool:
        """True once per chat, ever: the warning's having been shown is stored with the chat."""
        if chat_id in self._warned_critical:
            return False
        self._warned_critical.add(chat_id)
        try:
            if self.store.has_chat_mark(chat_id, WARNED_MARK):
                return False
            self.store.set_chat_mark(chat_id, WARNED_MARK)
        except StorageError as exc:
            log.error("could not store the warning mark: %s", exc)
        return True

    def display_messages(self) -> list[Message]:
        return [m.model_copy() for m in self.engine.display_messages()] if self.engine else []

    def message(self, message_id: str) -> Message | None:
        found = self.engine.message(message_id) if self.engine else None
        return found.model_copy() if found is not None else None

    # ------------------------------------------------------------ write side
    def choose_model(self, model: str) -> bool:
        """Select ``model`` (for the open chat too); False when nothing changed."""
        model = model.strip()
        if not model or model == self.model:
            return False
        self.model = model
        self.model_details = None
        if self.chat:
            try:
                self.store.set_chat_model(self.chat.id, model)
            except StorageError as exc:
                self.publish(self.storage_failed(exc))
            self.chat = self.store.get_chat(self.chat.id) or self.chat
        return True

    def save_state(self) -> Change:
        """Write the open chat's engine state; a failed write is reported, never raised."""
        if self.chat and self.engine:
            try:
                self.store.save_engine_state(self.chat.id, self.engine.state())
            except StorageError as exc:
                return self.storage_failed(exc)
        return NOTHING

    def storage_failed(self, exc: StorageError) -> Change:
        log.error("storage write failed: %s", exc)
        return Change.problem("storage", f"Could not save: {exc}")

    def take_snapshot(self, reason: str, label: str = "", state: EngineState | None = None,
                      encoded: bytes | None = None) -> SnapshotInfo | None:
        """A snapshot of the open chat now, or of ``state`` (taken earlier, with its label;
        ``encoded`` already, off the loop)."""
        if not (self.chat and self.engine):
            return None
        label = label or auto_label(reason, self.engine)  # tells same-second ones apart
        try:
            info = self.store.create_snapshot(
                self.chat.id, state or self.engine.state(), reason=reason, label=label,
                model=self.model,
                tier=self.engine.tier.tier, keep_auto=self.settings.snapshot_retention,
                encoded=encoded)
        except StorageError as exc:
            self.publish(self.storage_failed(exc))
            return None
        self.publish(Change(snapshots=True))
        return info

    def maybe_auto_snapshot(self) -> None:
        """Snapshot once when context use crosses 80 % (a restore point before compaction)."""
        if self.engine is None:
            return
        percent = self.engine.usage().percent
        crossed = percent >= AUTO_SNAPSHOT_RATIO > self._last_percent
        self._last_percent = percent
        if crossed:
            self.take_snapshot("auto-threshold")
