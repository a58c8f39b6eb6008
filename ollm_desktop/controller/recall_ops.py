"""Recall (issue 23): the controller's side; the session does the work."""

from __future__ import annotations

from ollm_desktop.controller.ops_base import OpsBase
from ollm_desktop.storage.models import RecallRecord


class RecallOps(OpsBase):
    def recall_status(self) -> str:
        """What recall does in the open chat (words, meaning, or off and why)."""
        return self.session.recall.status()

    def recall_records(self) -> dict[str, RecallRecord]:
        """Per reply of the open chat, what its request recalled."""
        return self.session.recall.records()

    def recall_excluded(self) -> set[str]:
        """The open chat's messages kept out of recall."""
        return self.session.recall.excluded()

    def set_recall_excluded(self, message_id: str, excluded: bool) -> bool:
        return self._op(self.session.recall.set_excluded, message_id, excluded)
