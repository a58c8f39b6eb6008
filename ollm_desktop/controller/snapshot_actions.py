"""Snapshots, export and import of the open chat: a mixin of ChatController.

Kept apart from the turn and compaction logic; it uses the controller's store, engine, chat
and signals (``snapshotsChanged``, ``historyReset``, ``chatsChanged``, ``error``, ``notice``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ollm_desktop.engine import PinsOverBudget
from ollm_desktop.storage.export import export_json, export_markdown, import_json, with_fresh_ids
from ollm_desktop.storage.models import ChatRecord, Snapshot, SnapshotInfo

if TYPE_CHECKING:
    from ollm_desktop.controller.chat_controller import ChatController

AUTO_SNAPSHOT_RATIO = 0.80


class SnapshotActions:
    """Snapshot browser and File menu actions; mixed into ChatController."""

    def _snapshot(self: ChatController, reason: str, label: str = "") -> SnapshotInfo | None:
        if not (self.chat and self.engine):
            return None
        info = self.store.create_snapshot(
            self.chat.id, self.engine.state(), reason=reason, label=label, model=self.model,
            tier=self.engine.tier.tier, keep_auto=self.settings.snapshot_retention)
        self.snapshotsChanged.emit()
        return info

    def _maybe_auto_snapshot(self: ChatController) -> None:
        engine = self.engine
        if engine is None:
            return
        percent = engine.usage().percent
        crossed = percent >= AUTO_SNAPSHOT_RATIO > self._last_percent
        self._last_percent = percent
        if crossed:
            self._snapshot("auto-threshold")

    def create_snapshot(self: ChatController, label: str = "") -> SnapshotInfo | None:
        return self._snapshot("manual", label.strip())

    def list_snapshots(self: ChatController) -> list[SnapshotInfo]:
        return self.store.list_snapshots(self.chat.id) if self.chat else []

    def get_snapshot(self: ChatController, snapshot_id: str) -> Snapshot:
        return self.store.get_snapshot(snapshot_id)

    def delete_snapshot(self: ChatController, snapshot_id: str) -> None:
        self.store.delete_snapshot(snapshot_id)
        self.snapshotsChanged.emit()

    def restore_snapshot(self: ChatController, snapshot_id: str) -> bool:
        """Restore a snapshot; the state before it is snapshotted first, so it can be undone."""
        if not (self.chat and self.engine):
            return False
        if self._streaming or self.compacting:
            self.error.emit("busy", self.tr("Wait for the reply or compaction to finish."))
            return False
        try:
            snapshot = self.store.get_snapshot(snapshot_id)
        except KeyError:
            self.error.emit("snapshot", self.tr("That snapshot no longer exists."))
            return False
        if snapshot.info.chat_id != self.chat.id:
            self.error.emit("snapshot", self.tr("That snapshot belongs to another chat."))
            return False
        self._snapshot("before-restore")
        self.engine.load_state(snapshot.state)
        self.store.replace_chat_state(self.chat.id, self.engine.state())
        self.chat = self.store.get_chat(self.chat.id)
        self.historyReset.emit()
        self._emit_context()
        self.notice.emit(self.tr("Snapshot restored. Undo it with Conversation ▸ Undo restore."))
        return True

    def undo_restore(self: ChatController) -> bool:
        """Go back to the state saved just before the newest restore."""
        snapshots = [s for s in self.list_snapshots() if s.reason == "before-restore"]
        if not snapshots:
            self.error.emit("snapshot", self.tr("There is no restore to undo."))
            return False
        return self.restore_snapshot(snapshots[0].id)

    # ------------------------------------------------------------ export/import
    def _sent_view(self: ChatController) -> list[dict[str, str]]:
        """What would be sent now; empty while pins alone exceed the context."""
        assert self.engine is not None
        try:
            return self.engine.api_messages()
        except PinsOverBudget:
            return []

    def export_markdown(self: ChatController, path: Path) -> None:
        if self.chat and self.engine:
            path.write_text(export_markdown(self.chat, self.engine.state(), self._sent_view()),
                            encoding="utf-8")

    def export_json(self: ChatController, path: Path) -> None:
        if self.chat and self.engine:
            path.write_text(export_json(self.chat, self.engine.state(), self._sent_view()),
                            encoding="utf-8")

    def open_before_compaction_as_chat(self: ChatController) -> ChatRecord | None:
        """The chat as it was when its newest compaction ran, as a new chat (a branch).

        Offered when undoing would leave older messages out: the earlier state then gets a
        context of its own instead.
        """
        state = self.engine.state_before_last_compaction() if self.engine else None
        if state is None or self.chat is None:
            self.error.emit("undo", self.tr("There is no compaction to go back before."))
            return None
        title = self.tr("{0} (before compaction {1})").format(
            self.chat.title, self.engine.compaction_count if self.engine else "")
        chat = self.store.create_chat(title, model=self.chat.model,
                                      context_size=self.chat.context_size)
        self.store.replace_chat_state(chat.id, with_fresh_ids(state))
        self.chatsChanged.emit()
        self.open_chat(chat.id)
        return chat

    def import_json(self: ChatController, path: Path) -> ChatRecord | None:
        try:
            title, state, model, context_size = import_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            self.error.emit("import", self.tr("Could not import {0}: {1}").format(path.name, exc))
            return None
        chat = self.store.create_chat(title, model=model, context_size=context_size)
        self.store.replace_chat_state(chat.id, state)
        self.chatsChanged.emit()
        self.open_chat(chat.id)
        self._snapshot("import")
        return chat
