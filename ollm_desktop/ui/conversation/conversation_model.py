"""The conversation as a flat list model: messages plus compaction boundary markers.

Long chats hold thousands of rows and QListView re-lays out every row on each insert or
``dataChanged``; so appends are single-row inserts, updates touch one row found through an
id -> row dict, and streamed chunks are batched on a timer (one ``dataChanged`` per flush).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
)

from ollm_desktop.ui.conversation.reply_info import reply_model, reply_stats, reply_tooltip
from ollm_desktop.ui.text.row_labels import (
    format_count,
    marker_text,
    role_label,
    visibility_label,
)

if TYPE_CHECKING:  # the window's first picture draws rows before the engine is imported
    from ollm_desktop.engine.models import CompressedGroup, Message
    from ollm_desktop.quick_history import StoredMessage
    from ollm_desktop.ui.text.markdown import SafeTextDocument
from ollm_desktop.ui.conversation.roles import (
    CLIPPED,
    DIMMED_VISIBILITIES,
    KIND_MARKER,
    KIND_MESSAGE,
    SUMMARIZED,
    VERBATIM,
    GroupIdRole,
    GroupRole,
    KindRole,
    LayoutRevisionRole,
    MessageIdRole,
    MessageRole,
    PartialRole,
    PinnedRole,
    ReplyModelRole,
    ReplyStateRole,
    ReplyStatsRole,
    RevisionRole,
    VisibilityRole,
)

__all__ = [
    "STREAM_FLUSH_MS",
    "ConversationModel",
    "ConversationRow",
    "MessageIdRole",
    "PinnedRole",
    "format_count",
]

STREAM_FLUSH_MS = 70

# Revisions are unique across models and resets so a (id, revision) cache key never lies.
_revisions = itertools.count(1)

AnyIndex = QModelIndex | QPersistentModelIndex


@dataclass(slots=True)
class ConversationRow:
    kind: str
    key: str  # message id, or group id for a marker
    message: Message | None = None
    group: CompressedGroup | None = None
    visibility: str = VERBATIM
    revision: int = 0  # any visible change (content, pin, visibility, partial)
    layout_revision: int = 0  # only changes that can alter the height (content, partial)
    streaming: bool = False  # the reply streaming at this moment (cursor, "writing…")
    actions: bool = False  # a stopped newest reply: Continue and Regenerate on the row
    marks: Callable[[SafeTextDocument], SafeTextDocument] | None = None  # a search hit's highlight



class ConversationModel(QAbstractListModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[ConversationRow] = []
        self._message_rows: dict[str, int] = {}
        self._marker_rows: dict[str, int] = {}
        self._pending: dict[str, list[str]] = {}
        self._streaming_id: str | None = None
        self._actions_key: str | None = None  # the row showing Continue / Regenerate
        self.user_share = 0  # tokens the user's messages may keep verbatim (0: no promise)
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(STREAM_FLUSH_MS)
        self._flush_timer.timeout.connect(self.flush_stream)

    # ------------------------------------------------------------ Qt model API
    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        row_number = index.row()
        if not index.isValid() or row_number >= len(self.rows):
            return None
        row = self.rows[row_number]
        message = row.message
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return message.content if message is not None else self.marker_text(row.group)
        if role == MessageIdRole:
            return row.key if message is not None else None
        if role == PinnedRole:
            return bool(message is not None and message.pinned)
        if role == KindRole:
            return row.kind
        if role == GroupIdRole:
            return row.key if row.kind == KIND_MARKER else None
        if role == VisibilityRole:
            return row.visibility
        if role == RevisionRole:
            return row.revision
        if role == LayoutRevisionRole:
            return row.layout_revision
        if role == MessageRole:
            return message
        if role == GroupRole:
            return row.group
        if role == PartialRole:
            return bool(message is not None and message.partial)
        if role == ReplyStateRole:
            if message is not None and message.cut_off and not message.partial:
                return "cut off"
            if message is None or not message.partial:
                return ""
            return "writing" if row.streaming else "stopped"
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return self._accessible_text(row)
        if role == Qt.ItemDataRole.ToolTipRole:
            return reply_tooltip(message) if message is not None else None
        if role == ReplyModelRole:
            return reply_model(message)
        if role == ReplyStatsRole:
            return reply_stats(message)
        return None

    # ------------------------------------------------------------ public API
    def set_preview(self, messages: Sequence[StoredMessage]) -> None:
        """The stored chat before the engine is loaded: plain rows, no markers or dimming.

        ``set_history`` replaces them when the chat opens; rows whose text is the same keep
        their cached size, so the swap costs no layout. The rows are never edited meanwhile.
        """
        self.set_history([cast("Message", m) for m in messages], [], {})

    def set_history(self, messages: list[Message], groups: list[CompressedGroup],
                    visibility: dict[str, str]) -> None:
        """Full reset; rows whose text did not change keep their layout revision (cache)."""
        previous = {r.key: r for r in self.rows if r.message is not None}
        self._pending.clear()
        self._flush_timer.stop()
        positions = {m.id: i for i, m in enumerate(messages)}
        anchors: dict[str, list[CompressedGroup]] = {}
        for group in groups:
            present = [i for i in (group.span_ids or group.message_ids) if i in positions]
            if present:
                anchors.setdefault(max(present, key=positions.__getitem__), []).append(group)
        rows: list[ConversationRow] = []
        for message in messages:
            vis = visibility.get(message.id, VERBATIM)
            old = previous.get(message.id)
            row = ConversationRow(KIND_MESSAGE, message.id, message, visibility=vis)
            row.streaming = message.partial and message.id == self._streaming_id
            if old is not None and old.message is not None and \
                    old.message.content == message.content and \
                    old.message.partial == message.partial and \
                    old.message.cut_off == message.cut_off and \
                    (old.streaming, old.actions) == (row.streaming, False):
                row.layout_revision = old.layout_revision
                same = old.message.pinned == message.pinned and old.visibility == vis
                row.revision = old.revision if same else next(_revisions)
            else:
                row.layout_revision = next(_revisions)
                row.revision = next(_revisions)
            rows.append(row)
            for group in anchors.get(message.id, ()):
                rows.append(ConversationRow(KIND_MARKER, group.id, group=group,
                                            revision=next(_revisions),
                                            layout_revision=next(_revisions)))
        last = next((r for r in reversed(rows) if r.message is not None), None)
        self._actions_key = None
        if last is not None and last.message is not None and \
                (last.message.partial or last.message.cut_off) and not last.streaming:
            last.actions, self._actions_key = True, last.key
            last.layout_revision, last.revision = next(_revisions), next(_revisions)
        self.beginResetModel()
        self.rows = rows
        self._reindex(0)
        self.endResetModel()

    def append_message(self, message: Message) -> None:
        if message.id in self._message_rows:
            self.update_message(message)
            return
        position = len(self.rows)
        self.beginInsertRows(QModelIndex(), position, position)
        self.rows.append(ConversationRow(
            KIND_MESSAGE, message.id, message, revision=next(_revisions),
            layout_revision=next(_revisions),
            streaming=message.partial and message.id == self._streaming_id))
        self._message_rows[message.id] = position
        self.endInsertRows()
        self._restate_tail()

    def update_message(self, message: Message) -> None:
        """Replace a message (content, pin, partial, tokens); pending stream text is dropped."""
        position = self._message_rows.get(message.id)
        if position is None:
            return
        self._pending.pop(message.id, None)
        row = self.rows[position]
        old = row.message
        assert old is not None
        row.message = message
        if (old.content, old.partial, old.cut_off, old.thinking) != (
                message.content, message.partial, message.cut_off, message.thinking):
            row.layout_revision = next(_revisions)
        row.revision = next(_revisions)
        self._restate(position, emit=False)
        index = self.index(position)
        self.dataChanged.emit(index, index)
        self._restate_tail()

    def append_stream_text(self, message_id: str, text: str) -> None:
        """Queue a streamed chunk; chunks are applied together every STREAM_FLUSH_MS."""
        if not text:
            return
        self._pending.setdefault(message_id, []).append(text)
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def flush_stream(self) -> None:
        """Apply queued chunks now: one ``dataChanged`` for all rows they touch."""
        self._flush_timer.stop()
        pending, self._pending = self._pending, {}
        touched: list[int] = []
        for message_id, parts in pending.items():
            position = self._message_rows.get(message_id)
            if position is None:
                continue
            row = self.rows[position]
            assert row.message is not None
            row.message = row.message.model_copy(
                update={"content": row.message.content + "".join(parts)})
            row.layout_revision = next(_revisions)
            row.revision = next(_revisions)
            touched.append(position)
        if touched:
            self.dataChanged.emit(self.index(min(touched)), self.index(max(touched)))

    def remove_message(self, message_id: str) -> None:
        position = self._message_rows.get(message_id)
        if position is None:
            return
        self._pending.pop(message_id, None)
        self.beginRemoveRows(QModelIndex(), position, position)
        del self.rows[position]
        del self._message_rows[message_id]
        self._reindex(position)
        self.endRemoveRows()
        self._restate_tail()

    def set_visibility(self, visibility: dict[str, str]) -> None:
        changed: list[int] = []
        for position, row in enumerate(self.rows):
            if row.message is None:
                continue
            vis = visibility.get(row.key, VERBATIM)
            if vis != row.visibility:
                row.visibility = vis
                row.revision = next(_revisions)
                changed.append(position)
        if changed:
            self.dataChanged.emit(self.index(changed[0]), self.index(changed[-1]),
                                  [VisibilityRole, RevisionRole])

    def set_streaming(self, message_id: str | None) -> None:
        """The reply streaming at this moment (None: none). Any other unfinished reply is
        shown as stopped: after Stop, or a stored partial reply after a restart."""
        old, self._streaming_id = self._streaming_id, message_id
        if old == message_id:
            return
        for key in (old, message_id):
            position = self._message_rows.get(key) if key else None
            if position is not None:
                self._restate(position)
        self._restate_tail()

    @property
    def streaming_id(self) -> str | None:
        return self._streaming_id

    def set_user_share(self, tokens: int) -> None:
        """The budget share of the user's own messages, named on their summarised rows."""
        if tokens == self.user_share:
            return
        self.user_share = tokens
        changed = [p for p, r in enumerate(self.rows) if r.message is not None
                   and r.message.role == "user" and r.visibility == SUMMARIZED]
        for position in changed:
            self.rows[position].revision = next(_revisions)
        if changed:
            self.dataChanged.emit(self.index(changed[0]), self.index(changed[-1]),
                                  [RevisionRole])

    def visibility_text(self, row: ConversationRow) -> str:
        """The row's visibility as said in its header; a summarised message of the user's
        says why, when "keep my own messages word for word" is on."""
        message = row.message
        if message is not None and message.role == "user" and row.visibility == SUMMARIZED \
                and self.user_share > 0:
            return self.tr("summarised — your messages exceeded their share of the budget "
                           "({0} tokens)").format(format_count(self.user_share))
        return visibility_label(row.visibility)

    def marker_position(self, group_id: str) -> tuple[int, int] | None:
        """(number, count) of a group's marker among the markers shown, in display order."""
        markers = [r.key for r in self.rows if r.kind == KIND_MARKER]
        return (markers.index(group_id) + 1, len(markers)) if group_id in markers else None

    # ------------------------------------------------------------ lookups
    def row_of_message(self, message_id: str) -> int | None:
        return self._message_rows.get(message_id)

    def row_of_group(self, group_id: str) -> int | None:
        return self._marker_rows.get(group_id)

    def message(self, message_id: str) -> Message | None:
        position = self._message_rows.get(message_id)
        return None if position is None else self.rows[position].message

    def has_pending_stream(self) -> bool:
        return bool(self._pending)

    def marker_text(self, group: CompressedGroup | None) -> str:
        return marker_text(group)

    # ------------------------------------------------------------ internals
    def last_message_row(self) -> int | None:
        for position in range(len(self.rows) - 1, -1, -1):
            if self.rows[position].kind == KIND_MESSAGE:
                return position
        return None

    def _restate(self, position: int, *, emit: bool = True) -> bool:
        """Recompute a row's streaming / actions flags; True (and a relayout) if they moved."""
        row = self.rows[position]
        message = row.message
        streaming = actions = False
        if message is not None and (message.partial or message.cut_off):
            streaming = message.partial and row.key == self._streaming_id
            actions = not streaming and position == self.last_message_row()
        if (streaming, actions) == (row.streaming, row.actions):
            return False
        row.streaming, row.actions = streaming, actions
        row.layout_revision, row.revision = next(_revisions), next(_revisions)
        if emit:
            index = self.index(position)
            self.dataChanged.emit(index, index)
        return True

    def _restate_tail(self) -> None:
        """Only the newest message offers Continue / Regenerate: move them when it changes."""
        holder = self._message_rows.get(self._actions_key) if self._actions_key else None
        last = self.last_message_row()
        for position in sorted({p for p in (holder, last) if p is not None}):
            self._restate(position)
        self._actions_key = self.rows[last].key if last is not None and \
            self.rows[last].actions else None

    def _reindex(self, start: int) -> None:
        if start == 0:
            self._message_rows.clear()
            self._marker_rows.clear()
        for position in range(start, len(self.rows)):
            row = self.rows[position]
            target = self._message_rows if row.kind == KIND_MESSAGE else self._marker_rows
            target[row.key] = position

    def _accessible_text(self, row: ConversationRow) -> str:
        message = row.message
        if message is None:
            return self.marker_text(row.group)
        parts = [role_label(message.role)]
        if message.pinned:
            parts.append(self.tr("pinned"))
        if row.visibility in DIMMED_VISIBILITIES or row.visibility == CLIPPED:
            parts.append(self.visibility_text(row))
        if message.partial:
            parts.append(self.tr("writing") if row.streaming else self.tr("stopped"))
        elif message.cut_off:
            parts.append(self.tr("cut off at the length limit"))
        if reply_model(message):
            parts.append(self.tr("by {0}").format(reply_model(message)))
        return ", ".join(parts) + ": " + message.content[:500]
