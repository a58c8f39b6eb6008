"""Browse, preview, restore, delete and create snapshots of the open chat.

The browser only reads through the controller (``list_snapshots`` / ``get_snapshot``) and
asks for changes with signals; confirmation and label prompts are injectable callables so tests
need no modal loops.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any, Protocol

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.engine.models import Message
from ollm_desktop.storage.models import Snapshot, SnapshotInfo
from ollm_desktop.ui.dialogs import short_dialogs as dialogs
from ollm_desktop.ui.text.markdown import markdown_fragment
from ollm_desktop.ui.text.row_labels import counted, format_count

ID_ROLE = Qt.ItemDataRole.UserRole
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
PREVIEW_MESSAGES = 200  # newest messages shown in the preview
PREVIEW_CHARS = 240  # per message


class SnapshotSource(Protocol):
    def list_snapshots(self) -> list[SnapshotInfo]: ...

    def get_snapshot(self, snapshot_id: str) -> Snapshot: ...

    def display_messages(self) -> list[Message]: ...


class _Item(QTreeWidgetItem):
    """Sorts by a typed key (time, numbers) rather than by the displayed text."""

    def __lt__(self, other: QTreeWidgetItem) -> bool:
        column = self.treeWidget().sortColumn() if self.treeWidget() else 0
        mine, theirs = self.data(column, SORT_ROLE), other.data(column, SORT_ROLE)
        if mine is not None and theirs is not None:
            try:
                return mine < theirs
            except TypeError:
                pass
        return self.text(column).lower() < other.text(column).lower()


class SnapshotBrowser(QDialog):
    restoreRequested = Signal(str)
    deleteRequested = Signal(str)
    createRequested = Signal(str)

    COLUMNS = ("time", "reason", "label", "messages", "tokens", "checkpoints", "model")

    def __init__(self, controller: SnapshotSource | Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.setObjectName("snapshotBrowser")
        self.setAccessibleName(self.tr("Snapshots"))
        self.setWindowTitle(self.tr("Snapshots"))
        # Injectable for tests: (title, text) -> bool, and () -> label or None.
        self.confirm: Callable[[str, str], bool] = self._ask_confirmation
        self.ask_label: Callable[[], str | None] = lambda: dialogs.ask_snapshot_label(self)
        self._infos: dict[str, SnapshotInfo] = {}

        self.list = QTreeWidget()
        self.list.setObjectName("snapshotList")
        self.list.setAccessibleName(self.tr("Snapshot list"))
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setAlternatingRowColors(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setHeaderLabels([self.tr("Time"), self.tr("Reason"), self.tr("Label"),
                                   self.tr("Messages"), self.tr("Tokens"),
                                   self.tr("Checkpoints"), self.tr("Model")])
        for column in (3, 4, 5):
            self.list.headerItem().setTextAlignment(
                column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        header = self.list.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.list.setSortingEnabled(True)
        self.list.sortByColumn(0, Qt.SortOrder.DescendingOrder)

        self.preview = QTextBrowser()
        self.preview.setObjectName("snapshotPreview")
        self.preview.setAccessibleName(self.tr("Snapshot preview"))
        self.preview.setOpenLinks(False)
        self.preview.setReadOnly(True)
        self.preview.document().setDefaultStyleSheet(
            "p { margin-top: 2px; margin-bottom: 4px; } h4 { margin-top: 12px; "
            "margin-bottom: 4px; } h3 { margin-bottom: 2px; }")

        self.empty_label = QLabel(self.tr(
            "No snapshots yet. They are taken automatically before each compaction and when "
            "the context gets full; use Create… to take one now."))
        self.empty_label.setObjectName("snapshotEmpty")
        self.empty_label.setWordWrap(True)

        splitter = QSplitter(Qt.Orientation.Vertical)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.empty_label)
        top_layout.addWidget(self.list)
        splitter.addWidget(top)
        splitter.addWidget(self.preview)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)

        self.create_button = QPushButton(self.tr("Create…"))
        self.create_button.setObjectName("createSnapshotButton")
        self.create_button.setAccessibleName(self.tr("Create snapshot"))
        self.restore_button = QPushButton(self.tr("Restore"))
        self.restore_button.setObjectName("restoreSnapshotButton")
        self.restore_button.setAccessibleName(self.tr("Restore snapshot"))
        self.delete_button = QPushButton(self.tr("Delete"))
        self.delete_button.setObjectName("deleteSnapshotButton")
        self.delete_button.setAccessibleName(self.tr("Delete snapshot"))
        self.close_button = QPushButton(self.tr("Close"))
        self.close_button.setObjectName("closeSnapshotsButton")
        self.close_button.setAccessibleName(self.tr("Close"))
        buttons = QHBoxLayout()
        buttons.addWidget(self.create_button)
        buttons.addStretch(1)
        buttons.addWidget(self.delete_button)
        buttons.addWidget(self.restore_button)
        buttons.addWidget(self.close_button)

        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        layout.addLayout(buttons)

        self.list.currentItemChanged.connect(self._current_changed)
        self.list.itemActivated.connect(lambda *_: self.restore_selected())
        self.create_button.clicked.connect(self.create_snapshot)
        self.restore_button.clicked.connect(self.restore_selected)
        self.delete_button.clicked.connect(self.delete_selected)
        self.close_button.clicked.connect(self.close)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.list,
                  self.delete_selected)
        self._update_buttons()

    def sizeHint(self) -> QSize:
        return QSize(860, 600)

    # ----------------------------------------------------------------- data
    def reason_label(self, reason: str) -> str:
        return {
            "auto-threshold": self.tr("Automatic (context filling up)"),
            "before-compaction": self.tr("Before compaction"),
            "before-undo": self.tr("Before undo"),
            "before-restore": self.tr("Before restore"),
            "manual": self.tr("Manual"),
            "import": self.tr("Import"),
        }.get(reason, reason)

    def refresh(self) -> None:
        """Reload the list, keeping the selection when the snapshot still exists."""
        selected = self.selected_id()
        try:
            infos = list(self.controller.list_snapshots())
        except Exception as exc:  # the store may fail; show it rather than crash the window
            infos = []
            self.preview.setPlainText(self.tr("Could not list snapshots: {0}").format(exc))
        self._infos = {info.id: info for info in infos}
        self.list.setSortingEnabled(False)
        self.list.clear()
        for info in infos:
            self.list.addTopLevelItem(self._make_item(info))
        self.list.setSortingEnabled(True)
        self.empty_label.setVisible(not infos)
        target = None
        if selected in self._infos:
            target = self._find_item(selected)
        if target is None and self.list.topLevelItemCount():
            target = self.list.topLevelItem(0)
        if target is not None:
            self.list.setCurrentItem(target)
        else:
            self.preview.clear()
        self._update_buttons()

    def _make_item(self, info: SnapshotInfo) -> _Item:
        local = info.created_at.astimezone()
        model = info.model or "—"
        values = [local.strftime("%Y-%m-%d %H:%M:%S"), self.reason_label(info.reason),
                  info.label, f"{info.message_count:,}", f"{info.tokens:,}",
                  f"{info.checkpoint_count:,}", model]
        item = _Item(values)
        item.setData(0, ID_ROLE, info.id)
        sort_keys: list[object] = [info.created_at.timestamp(), values[1], info.label.lower(),
                                   info.message_count, info.tokens, info.checkpoint_count,
                                   model.lower()]
        for column, key in enumerate(sort_keys):
            item.setData(column, SORT_ROLE, key)
        for column in (3, 4, 5):
            item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight
                                  | Qt.AlignmentFlag.AlignVCenter)
        item.setToolTip(0, local.strftime("%A %d %B %Y, %H:%M:%S %Z"))
        return item

    def _find_item(self, snapshot_id: str) -> QTreeWidgetItem | None:
        for row in range(self.list.topLevelItemCount()):
            item = self.list.topLevelItem(row)
            if item is not None and item.data(0, ID_ROLE) == snapshot_id:
                return item
        return None

    def selected_id(self) -> str | None:
        item = self.list.currentItem()
        return item.data(0, ID_ROLE) if item is not None else None

    def select(self, snapshot_id: str) -> bool:
        item = self._find_item(snapshot_id)
        if item is not None:
            self.list.setCurrentItem(item)
        return item is not None

    # -------------------------------------------------------------- preview
    def _current_changed(self, current: QTreeWidgetItem | None, _previous: object) -> None:
        self._update_buttons()
        if current is None:
            self.preview.clear()
            return
        snapshot_id = current.data(0, ID_ROLE)
        try:
            snapshot = self.controller.get_snapshot(snapshot_id)
        except Exception as exc:  # a damaged snapshot must not break the browser
            self.preview.setPlainText(self.tr("Could not read this snapshot: {0}").format(exc))
            return
        self.preview.setHtml(self.preview_html(snapshot))

    def _live_groups(self) -> dict[str, Any]:
        snapshot = getattr(self.controller, "snapshot", None)
        return {g.id: g for g in getattr(snapshot, "groups", ())}

    def preview_html(self, snapshot: Snapshot) -> str:
        info, state = snapshot.info, snapshot.state
        when = info.created_at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
        title = escape(info.label or self.reason_label(info.reason))
        meta = escape(self.tr("{0} · {1} · {2} messages · {3} tokens · model {4}").format(
            when, self.reason_label(info.reason), info.message_count, f"{info.tokens:,}",
            info.model or "—"))
        parts = [f"<h3>{title}</h3><p>{meta}</p>"]

        goal = state.goal
        if goal.description or goal.checkpoints:
            parts.append(f"<h4>{escape(self.tr('Goal'))}</h4>")
            if goal.description:
                parts.append(f"<p>{escape(goal.description)}</p>")
            # Words, not symbols: a font without them would show boxes.
            states = {"completed": self.tr("done"), "in-progress": self.tr("in progress"),
                      "pending": self.tr("to do")}
            if goal.checkpoints:
                parts.append("<br>".join(
                    f"<i>{escape(states.get(c.status, states['pending']))}</i>: "
                    f"{escape(c.description)}" for c in goal.checkpoints))

        if state.groups:
            parts.append(f"<h4>{escape(self.tr('Checkpoints ({0})').format(len(state.groups)))}"
                         "</h4>")
            live = self._live_groups()
            for group in state.groups:
                # The same checkpoint still in the chat: its marker's figures, one source.
                same = live.get(group.id)
                shown = same if same is not None and same.summary == group.summary else group
                head = escape(self.tr("{0} messages · {1} → {2} tokens").format(
                    len(shown.message_ids), format_count(shown.original_tokens),
                    format_count(shown.current_tokens)))
                text = _first_lines(markdown_fragment(group.summary).toPlainText(), 3)
                parts.append(f"<p><i>{head}</i><br>{escape(text)}</p>")

        messages = state.messages
        parts.append(f"<h4>{escape(self.tr('Messages ({0})').format(len(messages)))}</h4>")
        if state.system_prompt:
            parts.append(f"<p><b>{escape(self.tr('system'))}</b>: "
                         f"{escape(_first_lines(state.system_prompt, 2))}</p>")
        hidden = max(0, len(messages) - PREVIEW_MESSAGES)
        if hidden:
            parts.append(f"<p><i>{escape(self.tr('… {0} older messages').format(hidden))}"
                         "</i></p>")
        for message in messages[hidden:]:
            pin = f" <i>({escape(self.tr('pinned'))})</i>" if message.pinned else ""
            parts.append(f"<p><b>{escape(message.role)}</b>{pin}: "
                         f"{escape(_first_lines(message.content, 3))}</p>")
        if not messages:
            parts.append(f"<p><i>{escape(self.tr('No messages.'))}</i></p>")
        return "".join(parts)

    # -------------------------------------------------------------- actions
    def _update_buttons(self) -> None:
        has = self.list.currentItem() is not None
        self.restore_button.setEnabled(has)
        self.delete_button.setEnabled(has)

    def restore_selected(self) -> bool:
        snapshot_id = self.selected_id()
        if snapshot_id is None:
            return False
        if not self.confirm(self.tr("Restore snapshot"), self.restore_question(snapshot_id)):
            return False
        self.restoreRequested.emit(snapshot_id)
        return True

    def restore_question(self, snapshot_id: str) -> str:
        """What the restore removes, in numbers, and how to get it back."""
        try:
            kept = {m.id for m in self.controller.get_snapshot(snapshot_id).state.messages}
            current = self.controller.display_messages()
        except Exception:  # a damaged snapshot: the restore itself will say what failed
            return self.tr("Restore this snapshot? Undo restore brings the current state back.")
        newer = sum(1 for m in current if m.id not in kept)
        if not newer:
            return self.tr("Restore this snapshot? No message is taken out (its checkpoints "
                           "and goal come back); Undo restore brings the current state back.")
        return self.tr("Restore this snapshot? {0} will be taken out of the chat; Undo "
                       "restore brings them back.").format(counted(newer, self.tr("newer message"),
                                                    self.tr("newer messages")))

    def delete_selected(self) -> bool:
        snapshot_id = self.selected_id()
        if snapshot_id is None:
            return False
        if not self.confirm(self.tr("Delete snapshot"), self.tr(
                "Delete this snapshot? This cannot be undone.")):
            return False
        self.deleteRequested.emit(snapshot_id)
        return True

    def create_snapshot(self) -> bool:
        label = self.ask_label()
        if label is None:
            return False
        self.createRequested.emit(label)
        return True

    def _ask_confirmation(self, title: str, text: str) -> bool:
        answer = QMessageBox.question(self, title, text)
        return answer == QMessageBox.StandardButton.Yes


def _first_lines(text: str, lines: int) -> str:
    chunk = text.strip().splitlines()
    head = " / ".join(line.strip() for line in chunk[:lines] if line.strip())
    if len(head) > PREVIEW_CHARS:
        head = head[:PREVIEW_CHARS].rstrip() + "…"
    elif len(chunk) > lines:
        head += " …"
    return head

