"""Snapshots, export, import and branching of the open chat: a service the session holds."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from ollm_desktop.engine import PinsOverBudget
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.events import Change
from ollm_desktop.session.snapshot_labels import auto_label
from ollm_desktop.storage import StorageError
from ollm_desktop.storage.export import (
    export_json,
    export_markdown,
    image_bytes,
    import_json,
    with_fresh_ids,
)
from ollm_desktop.storage.models import ChatRecord, Snapshot, SnapshotInfo

RESTORED = "Snapshot restored. Undo it with Conversation ▸ Undo restore."


class Snapshots:
    def __init__(self, core: SessionCore) -> None:
        self._core = core

    def create(self, label: str = "") -> SnapshotInfo | None:
        return self._core.take_snapshot("manual", label.strip())

    def infos(self) -> list[SnapshotInfo]:
        chat = self._core.chat
        return self._core.store.list_snapshots(chat.id) if chat else []

    def get(self, snapshot_id: str) -> Snapshot:
        return self._core.store.get_snapshot(snapshot_id)

    def delete(self, snapshot_id: str) -> Change:
        self._core.store.delete_snapshot(snapshot_id)
        return Change(snapshots=True)

    def restore(self, snapshot_id: str) -> Change:
        """Restore a snapshot; the state before it is snapshotted first, so it can be undone."""
        core = self._core
        chat, engine = core.chat, core.engine
        if chat is None or engine is None:
            return Change.problem("snapshot", "Open a chat first.")
        if core.busy:
            return core.busy_problem()
        try:
            snapshot = core.store.get_snapshot(snapshot_id)
        except KeyError:
            return Change.problem("snapshot", "That snapshot no longer exists.")
        if snapshot.info.chat_id != chat.id:
            return Change.problem("snapshot", "That snapshot belongs to another chat.")
        info = snapshot.info
        when = info.created_at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
        restored = f"“{info.label}”" if info.label else f"the snapshot of {when}"
        core.take_snapshot("before-restore", auto_label("before-restore", engine, restored))
        # The chat's settings are not part of a snapshot: its prompt stays the chat's own.
        engine.load_state(snapshot.state.model_copy(
            update={"system_prompt": core.system_prompt_for(chat)}))
        try:
            core.store.replace_chat_state(chat.id, engine.state())
        except StorageError as exc:
            return core.storage_failed(exc) | Change(history=True, context=True)
        core.chat = core.store.get_chat(chat.id)
        return Change(history=True, context=True, snapshots=True, notices=(RESTORED,))

    def undo_restore(self) -> Change:
        """Go back to the state saved just before the newest restore."""
        befores = [s for s in self.infos() if s.reason == "before-restore"]
        if not befores:
            return Change.problem("snapshot", "There is no restore to undo.")
        return self.restore(befores[0].id)

    # ------------------------------------------------------------ export/import
    def _sent_view(self) -> list[dict[str, str]]:
        """What would be sent now; empty while pins alone exceed the context."""
        assert self._core.engine is not None
        try:
            return self._core.engine.api_messages()
        except PinsOverBudget:
            return []

    def export_markdown(self, path: Path) -> None:
        """Raises OSError when the file cannot be written (the caller says so)."""
        if (write := self._export_writer(path, "markdown")) is not None:
            write()

    def export_json(self, path: Path) -> None:
        if (write := self._export_writer(path, "json")) is not None:
            write()

    async def export_off_loop(self, path: Path, kind: str) -> None:
        """Export as ``export_json``/``export_markdown`` do, the rendering and the writing on
        a thread (a long chat's text is megabytes); the state is copied here first."""
        if (write := self._export_writer(path, kind)) is not None:
            await asyncio.to_thread(write)

    def _export_writer(self, path: Path, kind: str) -> Callable[[], object] | None:
        """What the export of the open chat writes, read now; rendered when called."""
        chat, engine = self._core.chat, self._core.engine
        if not (chat and engine):
            return None
        state, sent = engine.state(), self._sent_view()
        if kind == "json":
            images = image_bytes(state, self._image)
            documents = self._core.store.exported_documents(chat.id)
            return lambda: path.write_text(export_json(chat, state, sent, images, documents),
                                           encoding="utf-8")
        return lambda: path.write_text(export_markdown(chat, state, sent), encoding="utf-8")

    def _image(self, key: str) -> tuple[str, bytes] | None:
        store = self._core.store
        data = store.image_data(key)
        return None if data is None else (store.image_mime(key) or "image/png", data)

    def branch_before_compaction(self) -> ChatRecord | Change:
        """The chat as it was when its newest compaction ran, stored as a new chat.

        Offered when undoing would leave older messages out: the earlier state then gets a
        context of its own instead. The caller opens the returned chat.
        """
        core = self._core
        chat, engine = core.chat, core.engine
        state = engine.state_before_last_compaction() if engine else None
        if state is None or chat is None or engine is None:
            return Change.problem("undo", "There is no compaction to go back before.")
        title = f"{chat.title} (before compaction {engine.compaction_count})"
        branch = core.store.create_chat(title, model=chat.model, context_size=chat.context_size,
                                        settings=chat.settings)
        core.store.replace_chat_state(branch.id, with_fresh_ids(state))
        return branch

    def import_json(self, path: Path) -> ChatRecord | Change:
        """Store an exported chat as a new chat; the caller opens it."""
        try:
            found = import_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            return Change.problem("import", f"Could not import {path.name}: {exc}")
        for _key, mime, data in found.images:  # stored under the same id: the hash of the bytes
            self._core.store.put_image(data, mime)
        chat = self._core.store.create_chat(found.title, model=found.model,
                                            context_size=found.context_size,
                                            settings=found.settings)
        self._core.store.replace_chat_state(chat.id, found.state)
        self._core.store.import_documents(chat.id, list(found.documents))
        return chat
