"""Chats as families of branches, pinned chats, and the trash (a deleted chat kept until its
undo is over): the store's chat-list side."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from ollm_desktop.storage.database import Database
from ollm_desktop.storage.rows import now


class Families(Database):
    if TYPE_CHECKING:
        def delete_chat(self, chat_id: str) -> None: ...  # ChatStore's

    def set_chat_pinned(self, chat_id: str, pinned: bool) -> None:
        with self._write() as conn:
            conn.execute("UPDATE chats SET pinned = ? WHERE id = ?", (pinned, chat_id))

    def unpin_family(self, family_id: str) -> None:
        """A family leaves the Pinned section: its root and every branch of it."""
        with self._write() as conn:
            conn.execute("UPDATE chats SET pinned = 0 WHERE id = ? OR root_id = ?",
                         (family_id, family_id))

    def set_branch_label(self, chat_id: str, label: str) -> None:
        """What the chat list calls a branch (renaming a branch renames this)."""
        with self._write() as conn:
            conn.execute("UPDATE chats SET branch_label = ? WHERE id = ?", (label, chat_id))

    def set_family(self, chat_id: str, *, parent_id: str | None, root_id: str | None,
                   kind: str, label: str) -> None:
        """Make ``chat_id`` a branch (``kind`` 'branch', of ``root_id``'s family) or a fork."""
        with self._write() as conn:
            conn.execute("UPDATE chats SET parent_id = ?, root_id = ?, branch_kind = ?, "
                         "branch_label = ? WHERE id = ?",
                         (parent_id, root_id, kind, label, chat_id))

    def family_ids(self, family_id: str) -> list[str]:
        """The chats (not in the trash) of a family: its root and its branches."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT id FROM chats WHERE (id = ? OR root_id = ?) AND trashed_at IS NULL "
                "ORDER BY created_at, rowid", (family_id, family_id)).fetchall()
        return [r[0] for r in rows]

    def lineages(self, chat_ids: list[str]) -> dict[str, list[tuple[str, str, str]]]:
        """Per chat, its messages in order as (message id, origin, created_at): a copied
        message's origin is the id it was first written with, so chats that share a point of
        their history share its origin."""
        found: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        if not chat_ids:
            return found
        marks = ", ".join("?" for _ in chat_ids)
        with self._read() as conn:
            rows = conn.execute(
                "SELECT chat_id, id, coalesce(json_extract(meta, '$.origin'), id), created_at "
                f"FROM messages WHERE chat_id IN ({marks}) ORDER BY chat_id, seq",
                chat_ids).fetchall()
        for chat_id, message_id, origin, created in rows:
            found[chat_id].append((message_id, origin, created))
        return found

    # -------------------------------------------------------------------- trash
    def trash_chat(self, chat_id: str) -> None:
        """Hide a chat from every list and search; :meth:`restore_chat` brings it back."""
        with self._write() as conn:
            conn.execute("UPDATE chats SET trashed_at = ? WHERE id = ?", (now(), chat_id))

    def restore_chat(self, chat_id: str) -> None:
        with self._write() as conn:
            conn.execute("UPDATE chats SET trashed_at = NULL WHERE id = ?", (chat_id,))

    def trashed_ids(self) -> list[str]:
        with self._read() as conn:
            return [r[0] for r in conn.execute(
                "SELECT id FROM chats WHERE trashed_at IS NOT NULL ORDER BY trashed_at")]

    def is_trashed(self, chat_id: str) -> bool:
        with self._read() as conn:
            row = conn.execute("SELECT trashed_at IS NOT NULL FROM chats WHERE id = ?",
                               (chat_id,)).fetchone()
        return bool(row and row[0])

    def purge_trashed(self, chat_id: str | None = None) -> list[str]:
        """Delete for good the chats in the trash (only ``chat_id``, when given and still
        there): a restored chat is never purged. Returns the ids deleted."""
        gone = [i for i in self.trashed_ids() if chat_id is None or i == chat_id]
        for trashed in gone:
            self.delete_chat(trashed)
        return gone
