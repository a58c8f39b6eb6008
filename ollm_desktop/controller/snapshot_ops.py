"""Snapshots, export and import of the open chat (a mixin of ``ChatController``)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ollm_desktop.controller.ops_base import OpsBase
from ollm_desktop.storage.models import ChatRecord, SnapshotInfo


class SnapshotOps(OpsBase):
    def create_snapshot(self, label: str = "") -> SnapshotInfo | None:
        return self.session.snapshots.create(label)

    def delete_snapshot(self, snapshot_id: str) -> None:
        self._op(self.session.snapshots.delete, snapshot_id)

    def restore_snapshot(self, snapshot_id: str) -> bool:
        return self._op(self.session.snapshots.restore, snapshot_id, idle=True)

    def undo_restore(self) -> bool:
        return self._op(self.session.snapshots.undo_restore, idle=True)

    def export_markdown(self, path: Path) -> None:
        self.session.snapshots.export_markdown(path)

    def export_json(self, path: Path) -> None:
        self.session.snapshots.export_json(path)

    def export_in_background(self, path: Path, kind: str) -> asyncio.Task[Any]:
        """The export rendered and written on a thread; the task raises OSError if it fails."""
        return self._spawn(self.session.snapshots.export_off_loop(path, kind), "export")

    def import_json(self, path: Path) -> ChatRecord | None:
        chat = self._open_new(self.session.snapshots.import_json(path))
        if chat is not None:
            self.session.take_snapshot("import")
        return chat
