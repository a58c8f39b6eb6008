"""The facts panel (``factsPanel``): a dock, a tab beside the goal, listing the facts the app
keeps of the chat, one row per key with its history beneath, with who stated it and where it
stands, and where the user adds, edits, forgets or pins one. The assistant's suggestions (never
sent until adopted) show only with "Suggested by the assistant" (``factsSuggestedFilter``).
Never a dialog: adding and editing happen in a line inside the panel, so the chat stays
usable while a reply streams (a change is refused then, and the text stays)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QFont, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.engine.facts_front import FactsView
from ollm_desktop.ui.side_panel.facts.entries import (
    Entry,
    blocking_text,
    has_message,
    rows,
    summary,
)

VALUE, KIND, WHO, TURN, STATE = range(5)
VALUE_WIDTH = 170  # px, the value column's first width (the user may drag it)
ID_ROLE = Qt.ItemDataRole.UserRole


@dataclass(frozen=True)
class FactActions:
    """What the panel's buttons do; each returns False when the change was refused."""

    add: Callable[[str], bool]
    edit: Callable[[str, str], bool]
    forget: Callable[[str], bool]
    pin: Callable[[str, bool], bool]
    jump: Callable[[str], bool]  # show the fact's message in the conversation


class FactsPanel(QDockWidget):
    def __init__(self, actions: FactActions, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Facts"), parent)
        self.setObjectName("factsPanel")
        self.setAccessibleName(self.tr("Facts"))
        self._actions = actions
        self._entries: dict[str, Entry] = {}
        self._editing: str | None = None  # the fact being edited; None: adding one
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(8, 6, 8, 8)
        layout.setSpacing(6)
        self.summary = self._label("factsSummary")
        self.blocking = self._label("factsBlockingPins")
        self.blocking.setStyleSheet("color: palette(highlight); font-weight: bold;")
        self.list = QTreeWidget()
        self.list.setObjectName("factsList")
        self.list.setAccessibleName(self.tr("Facts the app keeps"))
        self.list.setHeaderLabels([self.tr("Fact"), self.tr("Kind"), self.tr("Stated by"),
                                   self.tr("Turn"), self.tr("Status")])
        self.list.setRootIsDecorated(True)
        self.suggested = QCheckBox(self.tr("Suggested by the assistant"))
        self.suggested.setObjectName("factsSuggestedFilter")
        self.suggested.setToolTip(self.tr("Also list the values the assistant proposed that "
                                          "you have not used or pinned, and the values of "
                                          "open questions (neither is sent)"))
        self.suggested.setChecked(False)
        self._view: FactsView | None = None
        self.list.setUniformRowHeights(True)
        self.list.setAlternatingRowColors(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.list.header()
        # The value first and wide enough to read; the status takes what is left (elided, its
        # tooltip whole). Stretching the value and sizing the status to its contents left the
        # value a few pixels wide in the side panel's width.
        header.setStretchLastSection(True)
        header.setSectionResizeMode(VALUE, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(VALUE, VALUE_WIDTH)
        for column in (KIND, WHO, TURN):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.add_button = self._button("factAddButton", self.tr("Add…"),
                                       self.tr("Type a fact the model should always know"))
        self.edit_button = self._button("factEditButton", self.tr("Edit…"),
                                        self.tr("Change the value the model sees"))
        self.forget_button = self._button("factForgetButton", self.tr("Forget"),
                                          self.tr("Never send this fact again (Undo brings "
                                                  "it back)"))
        self.pin_button = self._button("factPinButton", self.tr("Pin"),
                                       self.tr("Always send this fact, even when the "
                                               "room for facts is full"))
        self.jump_button = self._button("factJumpButton", self.tr("Go to message"),
                                        self.tr("Show the message this fact was stated in"))
        buttons = QHBoxLayout()
        for button in (self.add_button, self.edit_button, self.forget_button, self.pin_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.jump_button)
        self.editor = QLineEdit()
        self.editor.setObjectName("factEditor")
        self.editor.setAccessibleName(self.tr("Fact"))
        self.save_button = self._button("factSaveButton", self.tr("Save"), "")
        self.cancel_button = self._button("factCancelButton", self.tr("Cancel"), "")
        self.editor_row = QWidget()
        row = QHBoxLayout(self.editor_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.editor, 1)
        row.addWidget(self.save_button)
        row.addWidget(self.cancel_button)
        self.editor_row.hide()
        self.note = self._label("factsNote")
        for widget in (self.summary, self.blocking, self.suggested, self.list):
            layout.addWidget(widget, 1 if widget is self.list else 0)
        layout.addLayout(buttons)
        layout.addWidget(self.editor_row)
        layout.addWidget(self.note)
        self.setWidget(body)
        self.setMinimumWidth(300)

        self.suggested.toggled.connect(lambda _: self.set_view(self._view))
        self.list.currentItemChanged.connect(lambda *_: self._selection_changed())
        self.list.itemActivated.connect(lambda *_: self.jump())
        self.add_button.clicked.connect(self.start_add)
        self.edit_button.clicked.connect(self.start_edit)
        self.forget_button.clicked.connect(self.forget)
        self.pin_button.clicked.connect(self.toggle_pin)
        self.jump_button.clicked.connect(self.jump)
        self.editor.returnPressed.connect(self.save)
        self.save_button.clicked.connect(self.save)
        self.cancel_button.clicked.connect(self.close_editor)
        self.set_view(None)

    def _label(self, name: str) -> QLabel:
        label = QLabel()
        label.setObjectName(name)
        label.setWordWrap(True)
        label.hide()
        return label

    def _button(self, name: str, text: str, tip: str) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.setAccessibleName(text.rstrip("…"))
        button.setToolTip(tip)
        # The style's 80 px minimum per button made the row wider than the side panel (its
        # right end was cut off): a button may shrink to its text.
        button.setMinimumWidth(button.fontMetrics().horizontalAdvance(text) + 18)
        return button

    # ------------------------------------------------------------ showing
    def set_view(self, view: FactsView | None) -> None:
        """Show ``view`` (None: no chat), keeping the selected fact and any typing."""
        selected = self.selected_id()
        self._view = view
        shown = [r for r in (rows(view) if view is not None else [])
                 if r.shown_by_default or self.suggested.isChecked()]
        self._entries = {e.fact.id: e for r in shown for e in (r.entry, *r.history)}
        self.list.clear()
        for row in shown:
            item = self._item(row.entry)
            for older in row.history:
                item.addChild(self._item(older))
            self.list.addTopLevelItem(item)
        chosen = next((i for i in self.all_items() if i.data(VALUE, ID_ROLE) == selected), None)
        if chosen is not None:
            self.list.setCurrentItem(chosen)
        self.summary.setText(summary(view) if view is not None else "")
        self.summary.setVisible(view is not None)
        self.blocking.setText(blocking_text(view) if view is not None else "")
        self.blocking.setVisible(bool(self.blocking.text()))
        self.add_button.setEnabled(view is not None)
        if self._editing is not None and self._editing not in self._entries:
            self.close_editor()  # the fact went (an undo of its adding, another chat)
        self._selection_changed()

    def _item(self, entry: Entry) -> QTreeWidgetItem:
        grey = QBrush(self.palette().color(QPalette.ColorGroup.Disabled,
                                           QPalette.ColorRole.Text))
        item = QTreeWidgetItem([entry.value, entry.kind, entry.who, entry.turn, entry.state])
        item.setData(VALUE, ID_ROLE, entry.fact.id)
        for column in range(5):
            item.setToolTip(column, entry.tooltip)
            if entry.greyed:
                item.setForeground(column, grey)
        font = QFont(self.list.font())
        font.setStrikeOut(entry.fact.status == "replaced")
        font.setItalic(entry.fact.status == "forgotten")
        font.setBold(entry.blocking)
        item.setFont(VALUE, font)
        return item

    def selected_id(self) -> str | None:
        item = self.list.currentItem()
        return str(item.data(VALUE, ID_ROLE)) if item is not None else None

    def all_items(self) -> list[QTreeWidgetItem]:
        """Every row, a key's history included."""
        out: list[QTreeWidgetItem] = []
        for i in range(self.list.topLevelItemCount()):
            top = self.list.topLevelItem(i)
            if top is not None:
                out.append(top)
                out += [c for c in (top.child(j) for j in range(top.childCount()))
                        if c is not None]
        return out

    def select(self, fact_id: str) -> bool:
        item = next((i for i in self.all_items() if i.data(VALUE, ID_ROLE) == fact_id), None)
        if item is None and not self.suggested.isChecked() and self._view is not None and any(
                f.id == fact_id for f in self._view.facts):
            self.suggested.setChecked(True)  # a suggestion asked for by id: show them
            return self.select(fact_id)
        if item is not None:
            parent = item.parent()
            if parent is not None:
                parent.setExpanded(True)
            self.list.setCurrentItem(item)
            self.list.scrollToItem(item)
        return item is not None

    def select_last(self) -> None:
        """The newest fact (just added): its row, wherever its group lists it."""
        if self._view is not None and self._view.facts:
            self.select(max(self._view.facts, key=lambda f: f.sequence).id)

    def _selected(self) -> Entry | None:
        return self._entries.get(self.selected_id() or "")

    def _selection_changed(self) -> None:
        entry = self._selected()
        status = entry.fact.status if entry is not None else None
        self.edit_button.setEnabled(status in ("current", "replaced"))
        self.forget_button.setEnabled(status in ("current", "replaced"))
        self.pin_button.setEnabled(status == "current")
        pinned = entry is not None and entry.fact.pinned
        self.pin_button.setText(self.tr("Unpin") if pinned else self.tr("Pin"))
        self.jump_button.setEnabled(entry is not None and has_message(entry.fact))
        self.note.hide()

    # ------------------------------------------------------------ the user's changes
    def start_add(self) -> None:
        self._open_editor(None, "")

    def start_edit(self) -> None:
        entry = self._selected()
        if entry is not None:
            self._open_editor(entry.fact.id, entry.fact.value)

    def _open_editor(self, fact_id: str | None, text: str) -> None:
        self._editing = fact_id
        self.editor.setPlaceholderText(
            self.tr("A fact the model should know, e.g. the staging host is stage-2.lan")
            if fact_id is None else "")
        self.editor.setText(text)
        self.save_button.setText(self.tr("Add") if fact_id is None else self.tr("Save"))
        self.editor_row.show()
        self.editor.setFocus()
        self.editor.selectAll()

    def close_editor(self) -> None:
        self._editing = None
        self.editor.clear()
        self.editor_row.hide()

    def save(self) -> bool:
        """Add or change the fact; the editor stays open (with the text) when refused."""
        text = self.editor.text().strip()
        if not text or not self.editor_row.isVisible():
            return False
        editing = self._editing
        done = self._actions.add(text) if editing is None else self._actions.edit(editing, text)
        if done:
            self.close_editor()
        return done

    def forget(self) -> bool:
        fact_id = self.selected_id()
        return fact_id is not None and self._actions.forget(fact_id)

    def toggle_pin(self) -> bool:
        entry = self._selected()
        return entry is not None and self._actions.pin(entry.fact.id, not entry.fact.pinned)

    def jump(self) -> bool:
        """Show the selected fact's message in the conversation (False: it has none there)."""
        entry = self._selected()
        if entry is None or not has_message(entry.fact) or entry.fact.message_id is None:
            return False
        if self._actions.jump(entry.fact.message_id):
            return True
        self.note.setText(self.tr("The message it was stated in is no longer in this chat."))
        self.note.show()
        return False
