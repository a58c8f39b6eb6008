"""ChatController: the thin Qt adapter of a :class:`ChatSession`.

Widgets call its methods and listen to its typed signals; it holds no business logic. Every
operation goes through one helper (busy guard, run, save, emit: ``_op``), in the manner of
Anki's ``CollectionOp``; long ones run as asyncio tasks on the qasync loop whose handles are
kept here (qasync does not keep them alive, and Stop needs them).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import QObject, Signal

from ollm_desktop.backend import ChatServer, ModelInfo
from ollm_desktop.backend.mcp_config import Parsed
from ollm_desktop.controller.branch_ops import BranchOps
from ollm_desktop.controller.chat_list_ops import ChatListOps
from ollm_desktop.controller.connection_ops import ConnectionOps
from ollm_desktop.controller.document_ops import DocumentOps
from ollm_desktop.controller.fact_ops import FactOps
from ollm_desktop.controller.image_ops import ImageOps
from ollm_desktop.controller.message_ops import MessageOps
from ollm_desktop.controller.recall_ops import RecallOps
from ollm_desktop.controller.snapshot_ops import SnapshotOps
from ollm_desktop.controller.tool_ops import ToolOps
from ollm_desktop.engine import CompactionReport, CompressedGroup, GoalState, Message, tier_for
from ollm_desktop.session import (
    Change,
    ChatSession,
    CompactionEnded,
    CompactionProgress,
    CompactionStarted,
    ContextSnapshot,
    ModelsChanged,
    OllamaStatus,
    PullProgress,
    ReplyChunk,
    ReplyFinished,
    ReplyInfo,
    ReplyStarted,
    SendFailed,
    SessionEvent,
    Settings,
    StatusChanged,
)
from ollm_desktop.session.events import BusyChanged, ReplyThinking
from ollm_desktop.session.tool_loop import CallEvent
from ollm_desktop.storage import ChatStore
from ollm_desktop.storage.models import ChatRecord, ChatSettings, SearchHit, Snapshot, SnapshotInfo

log = logging.getLogger(__name__)

PROBE_TASKS = frozenset({"refresh-ollama", "model-details", "describe-models", "delete-model",
                         "close-backend"})
PROBE_GRACE = 1.5  # seconds a probe may take to end by itself at shutdown
CANCEL_GRACE = 3.0  # seconds cancelled tasks get to unwind at shutdown


def context_tier(size: int) -> int:
    """The budget tier (1-4) of a context size, for labels in the window."""
    return tier_for(size).tier


class ChatController(BranchOps, MessageOps, ChatListOps, ImageOps, ConnectionOps, RecallOps,
                     FactOps, DocumentOps, ToolOps, SnapshotOps, QObject):
    """Runs the session's operations on the Qt event loop and turns their results into signals."""

    chatsChanged = Signal()
    chatOpened = Signal(ChatRecord)
    historyReset = Signal()  # reload messages from display_messages()
    messageAdded = Signal(Message)
    messageUpdated = Signal(Message)
    replyStarted = Signal(str)  # id of the assistant message being streamed
    replyChunk = Signal(str, str)  # message id, text
    replyThinking = Signal(str, str)  # message id, reasoning text (a thinking model's)
    replyFinished = Signal(Message, ReplyInfo)
    sendFailed = Signal(str, str)  # the user's text (back into the input), error text
    contextChanged = Signal(ContextSnapshot)  # usage, reliability, visibility, groups, goal
    reliabilityWarning = Signal(ContextSnapshot)  # once per chat when it turns critical
    compactionStarted = Signal()
    compactionProgress = Signal(str, float)  # stage, percent
    compactionFinished = Signal(CompactionReport)
    compactionFailed = Signal(CompactionReport)
    snapshotsChanged = Signal()
    busyChanged = Signal(bool)  # a reply is streaming
    # A compaction's task has ended (``compacting`` is False only from then on: its result's
    # signals come while the task still runs, so actions that wait for it re-check here).
    compactionTaskEnded = Signal()
    ollamaStatus = Signal(OllamaStatus)
    modelsChanged = Signal(tuple)  # tuple[ModelInfo, ...]
    pullProgress = Signal(PullProgress)
    error = Signal(str, str)  # kind, user-facing text
    notice = Signal(str)  # informational text for the status bar
    pendingImagesChanged = Signal()  # the images waiting for the next message changed
    documentsChanged = Signal()  # the open chat's documents or a file's reading progress
    toolCall = Signal(CallEvent)  # a call's row: asked, running, done, failed, denied

    def __init__(self, store: ChatStore, settings: Settings,
                 backend: ChatServer | None = None, *, model: str | None = None,
                 host: str | None = None, api_key_env: str | None = None,
                 mcp_config: Parsed | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = ChatSession(store, settings, backend, model=model, host=host,
                                   api_key_env=api_key_env, mcp_config=mcp_config)
        self.session.publish = self._publish
        self.session.spawn = self._spawn
        self.session.documents.changed = self.documentsChanged.emit
        self._tasks: set[asyncio.Task[Any]] = set()
        self._reply_task: asyncio.Task[Any] | None = None
        self._snapshot = ContextSnapshot()
        self._status: OllamaStatus | None = None  # what ollamaStatus last carried

    # ----------------------------------------------------------------- tasks
    def _spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.get_name() in ("compaction", "background-compaction"):
            self.compactionTaskEnded.emit()
        if task is self._reply_task:
            self._reply_task = None
            self.session.turns.ended()
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            log.error("task %s failed", task.get_name(), exc_info=exc)
            self.error.emit("internal", self.tr("Unexpected error: {0}").format(exc))

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
        await self.session.close()

    # ------------------------------------------------------ the one helper
    def _op(self, operation: Callable[..., Change], *args: Any, idle: bool = False,
            **kwargs: Any) -> bool:
        """Busy guard, run, save, emit; False when the operation could not run or failed."""
        if idle and self.session.busy:
            self._apply(self.session.busy_problem())
            return False
        change = operation(*args, **kwargs)
        if change.save:
            change = change | self.session.save_state()
        self._apply(change)
        return not change.problems

    def _apply(self, change: Change) -> None:
        # The snapshot first: historyReset's handlers read it (groups, visibility) at once.
        fresh = change.context or change.history
        if fresh:
            self._snapshot = self.session.context_snapshot()
        if change.chats:
            self.chatsChanged.emit()
        if change.opened is not None:
            self.chatOpened.emit(change.opened)
        if change.history:
            self.historyReset.emit()
        for message in change.added:
            self.messageAdded.emit(message)
        for message in change.updated:
            self.messageUpdated.emit(message)
        if fresh:
            self.contextChanged.emit(self._snapshot)
            if self._snapshot.warn:
                self.reliabilityWarning.emit(self._snapshot)
        if change.snapshots:
            self.snapshotsChanged.emit()
        for text in change.notices:
            self.notice.emit(text)
        for problem in change.problems:
            self.error.emit(problem.kind, problem.text)

    def _publish(self, event: SessionEvent) -> None:
        """Events the session sends while an operation runs."""
        match event:
            case Change():
                self._apply(event)
            case ReplyChunk(message_id, text):
                self.replyChunk.emit(message_id, text)
            case ReplyThinking(message_id, text):
                self.replyThinking.emit(message_id, text)
            case ReplyStarted(message):
                self.replyStarted.emit(message.id)
                self.messageAdded.emit(message)
            case ReplyFinished(message, info):
                self.replyFinished.emit(message, info)
            case SendFailed(text, reason):
                self.sendFailed.emit(text, reason)
            case BusyChanged(busy):
                self.busyChanged.emit(busy)
            case CompactionStarted():
                self.compactionStarted.emit()
            case CompactionProgress(stage, percent):
                self.compactionProgress.emit(stage, percent)
            case CompactionEnded(report) if report.status == "failed":
                self.compactionFailed.emit(report)
            case CompactionEnded(report):
                self.compactionFinished.emit(report)
            case StatusChanged(status):
                self._status = status
                self.ollamaStatus.emit(status)
            case ModelsChanged(models):
                self.modelsChanged.emit(models)
            case CallEvent():  # a call's row: asked, running, done, failed, denied
                self.toolCall.emit(event)
            case PullProgress():
                self.pullProgress.emit(event)

    # ------------------------------------------------------------- read side
    @property
    def busy(self) -> bool:
        return self.session.streaming

    @property
    def compacting(self) -> bool:
        return self.session.compacting

    @property
    def chat(self) -> ChatRecord | None:
        return self.session.chat

    @property
    def model(self) -> str | None:
        return self.session.model

    @property
    def models(self) -> list[ModelInfo]:
        return list(self.session.models)

    @property
    def snapshot(self) -> ContextSnapshot:
        """The newest context snapshot (what ``contextChanged`` last carried)."""
        return self._snapshot

    @property
    def server_status(self) -> OllamaStatus | None:
        """The newest server status (what ``ollamaStatus`` last carried); None before any."""
        return self._status

    @property
    def host(self) -> str:
        return self.session.ollama.host

    @property
    def settings(self) -> Settings:
        """A copy of the preferences: change them with ``apply_settings``."""
        return self.session.settings.model_copy(deep=True)

    @property
    def turn_waits(self) -> dict[str, int]:
        return self.session.turns.waits

    def can_start_ollama(self) -> bool:
        return self.session.ollama.can_start()

    def display_messages(self) -> list[Message]:
        return self.session.display_messages()

    def message(self, message_id: str) -> Message | None:
        return self.session.message(message_id)

    def group_view(self, group_id: str) -> tuple[CompressedGroup, list[Message], bool] | None:
        return self.session.group_view(group_id)

    def list_chats(self) -> list[ChatRecord]:
        return self.session.list_chats()

    def search(self, text: str) -> list[SearchHit]:
        return self.session.search(text)

    def list_snapshots(self) -> list[SnapshotInfo]:
        return self.session.snapshots.infos()

    def get_snapshot(self, snapshot_id: str) -> Snapshot:
        return self.session.snapshots.get(snapshot_id)

    # ------------------------------------------------------------------ chats
    def new_chat(self, title: str | None = None) -> ChatRecord | None:
        self.stop()
        self._op(self.session.new_chat, title)
        return self.session.chat

    def open_chat(self, chat_id: str) -> None:
        self.stop()
        self._op(self.session.open_chat, chat_id)

    def rename_chat(self, chat_id: str, title: str) -> None:
        self._op(self.session.rename_chat, chat_id, title)

    def delete_chat(self, chat_id: str) -> None:
        self._op(self.session.delete_chat, chat_id)

    # ------------------------------------------------------ model, settings
    def set_model(self, model: str) -> None:
        self._op(self.session.set_model, model)

    def set_context_size(self, size: int, *, apply_now: bool = False) -> None:
        self._op(self.session.set_context_size, size, apply_now=apply_now)

    def apply_chat_settings(self, settings: ChatSettings, context_size: int | None = None) -> bool:
        """The open chat's own settings (None size: the default); False when refused."""
        return self._op(self.session.chat_settings.apply, settings, context_size)

    def apply_settings(self, new: Settings | None = None) -> None:
        """New preferences take effect (saved at exit by the app), then Ollama is probed."""
        self._op(self.session.apply_settings, new)
        self.refresh_ollama()

    def remember_window(self, geometry: str, state: str, splitter: str) -> None:
        s = self.session.settings
        s.window_geometry, s.window_state, s.splitter_state = geometry, state, splitter

    def refresh_ollama(self) -> asyncio.Task[Any]:
        return self._spawn(self.session.ollama.refresh(), "refresh-ollama")

    def start_ollama(self, remember: bool | None = None) -> asyncio.Task[Any]:
        """Start ``ollama serve`` (stopped again at exit); ``remember`` answers "next time?"."""
        if remember is not None:
            self.session.settings.start_ollama = "always" if remember else "never"
        return self._spawn(self.session.ollama.start(), "start-ollama")

    def pull_model(self, model: str) -> asyncio.Task[Any]:
        """Download ``model``; the task's result is True when it arrived (cancel: Cancel)."""
        return self._spawn(self.session.ollama.pull(model), "pull")

    def delete_model(self, model: str) -> asyncio.Task[Any]:
        """Delete ``model`` from the server; the task's result is True when it went."""
        return self._spawn(self.session.ollama.delete(model), "delete-model")

    # ------------------------------------------------------------------ turns
    def send(self, text: str) -> asyncio.Task[Any] | None:
        """Start a turn; returns None (and says why through ``sendFailed``) when it cannot."""
        text = text.strip()
        if not text and not self.pending_images():  # images may go without words
            return None
        if (refused := self._branch_for_edit(text)) is not None:  # an edit: its branch first
            self.sendFailed.emit(text, refused)
            return None
        change, reason = self.session.start_turn(text)
        self._apply(change)
        if reason is not None:
            self.sendFailed.emit(text, reason)
            return None
        self._reply_task = self._spawn(self.session.turns.run(text), "turn")
        return self._reply_task

    def stop(self) -> None:
        """Stop = cancel the task consuming the stream; the connection closes with it."""
        if self._reply_task and not self._reply_task.done():
            self._reply_task.cancel()

    # ------------------------------------------------------------ compaction
    def compact(self, focus: str | None = None) -> asyncio.Task[Any] | None:
        """Manual compaction ("Compact now…"), with an optional focus text."""
        started = self.session.compactions.start_manual(focus)
        if isinstance(started, Change):
            self._apply(started)
            return None
        return started

    def undo_last_compaction(self) -> bool:
        return self._op(self.session.compactions.undo_last)

    def open_before_compaction_as_chat(self) -> ChatRecord | None:
        return self._open_new(self.session.snapshots.branch_before_compaction())

    # ------------------------------------------------------------ pins, goal
    def set_pinned(self, message_id: str, pinned: bool) -> None:
        self._op(self.session.set_pinned, message_id, pinned)

    def toggle_pin(self, message_id: str) -> None:
        self._op(self.session.toggle_pin, message_id)

    def set_goal_description(self, text: str) -> None:
        self._op(self.session.set_goal_description, text)

    def set_goal(self, goal: GoalState) -> None:
        self._op(self.session.set_goal, goal)

    # ------------------------------------------------------------ snapshots
    def _open_new(self, result: ChatRecord | Change) -> ChatRecord | None:
        """Open a chat an operation just stored (a branch, an import), or report why not."""
        if isinstance(result, Change):
            self._apply(result)
            return None
        self.chatsChanged.emit()
        self.open_chat(result.id)
        return result
