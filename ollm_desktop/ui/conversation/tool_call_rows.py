"""Tool calls inside the conversation: each call is a collapsible row (``toolCallRow``) in the
row of the reply that asked for it, with its tool, its arguments in full, its status (asked,
running, done, failed, denied), the time it took and its result cut for display with "Show
all"; while it awaits approval, ``toolAllowOnce``, ``toolAllowAlways`` and ``toolDeny``.
Never a dialog: nothing modal opens while a reply streams. A result the engine has pruned says
so on its call's row.

The reply's row is painted by the list's delegate; its calls are real widgets (buttons must be
clickable and found by name), so each reply's calls sit in a panel placed over the bottom of
that row's card, and the row is made taller by the panel's height (``row_tool_calls``). The
panels follow the rows when the list scrolls or lays out again. Arguments and results are the
model's and the tool's text: shown as plain text only.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ollm_desktop.ui.conversation import row_tool_calls
from ollm_desktop.ui.conversation.message_delegate import PAD_H, PAD_V

if TYPE_CHECKING:
    from ollm_desktop.ui.conversation.conversation_view import ConversationView

STATUS = {"asked": "waiting for you", "running": "running…", "done": "done",
          "failed": "failed", "denied": "denied", "not run": "not run"}
SHOWN_CHARS = 400  # of a result, in its row before "Show all"
FOLDED_H = 40  # a folded call's row, about: what a stored reply's row reserves until built
NEAR = 1.0  # viewport heights above and below where stored calls' rows are built
PRUNED = ("Pruned to save room: the model now sees only this call and the result's first "
          "line (the whole result stays in the chat, and recall brings it back when asked).")


def plain(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)  # untrusted: never rich text
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class ToolCallRow(QFrame):
    """One call: ``answer(call_id, decision)`` is the controller's ``answer_tool_call``;
    ``result_text(message_id)`` the result's whole text (None: not known)."""

    folded = Signal()  # opened or closed: its reply's row changes height

    def __init__(self, event: Any, answer: Any, result_text: Any = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("toolCallRow")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.call_id: str = event.call.id
        self.result_id: str | None = None
        self.pruned = False
        self._answer = answer
        self._result_text = result_text or (lambda message_id: None)
        self._status = ""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.setSpacing(2)
        head = QHBoxLayout()
        self.title = plain(f"⚙ {event.call.name}" + (f"  ·  {event.server}" if event.server
                                                     else ""))
        self.title.setObjectName("toolCallTitle")
        self.status = plain("")
        self.status.setObjectName("toolCallStatus")
        self.toggle = QPushButton(self.tr("Details"))
        self.toggle.setObjectName("toolCallToggle")
        self.toggle.setFlat(True)
        self.toggle.setCheckable(True)
        self.toggle.toggled.connect(self._fold)
        head.addWidget(self.title, 1)
        head.addWidget(self.status)
        head.addWidget(self.toggle)
        layout.addLayout(head)
        self.pruned_note = plain(self.tr(PRUNED))
        self.pruned_note.setObjectName("toolCallPruned")
        self.pruned_note.hide()
        layout.addWidget(self.pruned_note)
        arguments = json.dumps(event.call.arguments, indent=2, ensure_ascii=False) \
            if event.call.valid else event.call.raw_arguments
        self.arguments = plain(arguments)
        self.arguments.setObjectName("toolCallArguments")
        self.arguments.setStyleSheet("font-family: monospace;")
        layout.addWidget(self.arguments)
        self.result = plain("")
        self.result.setObjectName("toolCallResult")
        self.result.setStyleSheet("font-family: monospace;")
        self.show_all = QPushButton(self.tr("Show all"))
        self.show_all.setObjectName("toolResultShowAll")
        self.show_all.setFlat(True)
        self.show_all.clicked.connect(self._show_all)
        layout.addWidget(self.result)
        layout.addWidget(self.show_all, 0, Qt.AlignmentFlag.AlignLeft)
        self.buttons = QWidget()
        row = QHBoxLayout(self.buttons)
        row.setContentsMargins(0, 0, 0, 0)
        for name, text, decision in (("toolAllowOnce", self.tr("Allow once"), "once"),
                                     ("toolAllowAlways",
                                      self.tr("Always for this tool in this chat"), "always"),
                                     ("toolDeny", self.tr("Deny"), "deny")):
            button = QPushButton(text)
            button.setObjectName(name)
            button.clicked.connect(lambda _=False, d=decision: self.decide(d))
            row.addWidget(button)
        row.addStretch(1)
        layout.addWidget(self.buttons)
        self.update_from(event)

    def decide(self, decision: str) -> None:
        if self._answer(self.call_id, decision):
            self.buttons.hide()
            self._set_status(STATUS["running"] if decision != "deny" else STATUS["denied"])

    def update_from(self, event: Any) -> None:
        text = STATUS.get(event.status, event.status)
        if event.seconds is not None:
            text += f" · {event.seconds:.1f} s"
        if event.result_id:
            self.result_id = event.result_id
        self._set_status(text)
        asked = event.status == "asked"
        self.buttons.setVisible(asked)
        # Open while it waits for the user (the arguments in full); folded once it ran.
        self.toggle.setChecked(asked)
        self._fold(asked)

    def _set_status(self, text: str) -> None:
        self._status = text
        self.status.setText(text + (self.tr(" · pruned") if self.pruned else ""))

    def set_pruned(self, pruned: bool) -> bool:
        """True when that changed (the row's height with it)."""
        if pruned == self.pruned:
            return False
        self.pruned = pruned
        self.pruned_note.setVisible(pruned)
        self._set_status(self._status)
        return True

    def _fold(self, open_: bool) -> None:
        self.arguments.setVisible(open_)
        whole = self._result_text(self.result_id) if self.result_id else None
        self.result.setVisible(open_ and whole is not None)
        self.show_all.setVisible(open_ and whole is not None and len(whole) > SHOWN_CHARS)
        if open_ and whole is not None and not self.result.text():
            cut = whole[:SHOWN_CHARS]
            self.result.setText(cut + (f"\n… ({len(whole) - SHOWN_CHARS:,} more characters)"
                                       if len(whole) > SHOWN_CHARS else ""))
        self.updateGeometry()
        self.folded.emit()

    def _show_all(self) -> None:
        whole = self._result_text(self.result_id) if self.result_id else None
        if whole is not None:
            self.result.setText(whole)
            self.show_all.hide()
            self.updateGeometry()
            self.folded.emit()


class CallsPanel(QFrame):
    """The calls of one reply, inside its row."""

    def __init__(self, key: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("toolCallsInRow")
        self.key = key
        self.rows: dict[str, ToolCallRow] = {}
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.box.setSpacing(4)


class CallsInConversation(QObject):
    """Every reply's calls, kept in their rows as the list scrolls and lays out."""

    def __init__(self, view: ConversationView, controller: Any) -> None:
        super().__init__(view)
        self.view, self.controller = view, controller
        self.panels: dict[str, CallsPanel] = {}  # by reply message id
        self.rows: dict[str, ToolCallRow] = {}  # by call id
        view.viewport().installEventFilter(self)
        controller.toolCall.connect(self.on_call)
        controller.contextChanged.connect(self.on_context)
        self._live: dict[str, Any] = {}  # calls asked or running: kept through a reload
        # A stored chat's calls by reply, built when their row comes near the viewport (a
        # long tool chat would otherwise make thousands of widgets when it opens).
        self._stored: dict[str, list[Any]] = {}
        controller.chatOpened.connect(self._opened)
        controller.historyReset.connect(self.reset)
        self._rebuild = QTimer(self)  # after the list is filled from the history
        self._rebuild.setSingleShot(True)
        self._rebuild.setInterval(0)
        self._rebuild.timeout.connect(self.from_history)
        self._follow = QTimer(self)  # after a scroll or a relayout: rows move, some come near
        self._follow.setSingleShot(True)
        self._follow.setInterval(0)
        self._follow.timeout.connect(self.place)
        view.verticalScrollBar().valueChanged.connect(self._moved)
        view.verticalScrollBar().rangeChanged.connect(self._moved)

    # ------------------------------------------------------------ events
    def _opened(self, _chat: object) -> None:
        self._live.clear()  # another chat: its calls come from its history
        self.reset()

    def reset(self) -> None:
        for panel in self.panels.values():
            panel.deleteLater()
        self.panels.clear()
        self.rows.clear()
        self._stored.clear()
        if row_tool_calls.forget(self.view.message_delegate):  # rows that were taller: sized
            self.view.message_delegate.clear_caches()  # again (a chat without calls keeps
            self.view.doItemsLayout()  # its sizes: no second layout of 10,000 rows)
        self._rebuild.start()

    def from_history(self) -> None:
        """The calls of a chat opened from the store: each reply's calls with their results'
        outcome (done or failed; a call whose result is missing was not run)."""
        model = self.view.conversation_model
        if model is None or self.panels or self._stored:
            return
        results = {row.message.tool_call_id: row.message for row in model.rows
                   if row.message is not None and row.message.role == "tool"}
        delegate = self.view.message_delegate
        for row in model.rows:
            events = []
            for call in getattr(row.message, "tool_calls", None) or ():
                result = results.get(call.id)
                status = "not run" if result is None else "failed" if result.tool_error \
                    else "done"
                events.append(SimpleNamespace(call=call, server="", status=status, seconds=None,
                                              result_id=result.id if result else None))
            if events:
                self._stored[row.key] = events
                row_tool_calls.set_height(delegate, row.key, len(events) * FOLDED_H)
        for event in list(self._live.values()):  # a call still waiting keeps its buttons
            self._build(self._reply_of(event.call.id) or "")
            self.on_call(event)
        self.place()

    def _build(self, key: str) -> None:
        """A stored reply's calls, made into rows now that it is near the viewport."""
        for event in self._stored.pop(key, []):
            self.on_call(event, stored=True)
        seen = getattr(self.controller.snapshot, "visibility", None) or {}
        for call_row in self.panels[key].rows.values() if key in self.panels else ():
            if call_row.result_id and call_row.set_pruned(
                    seen.get(call_row.result_id) == "pruned"):
                self._resized(call_row)

    def on_call(self, event: Any, stored: bool = False) -> None:
        if not stored:
            if event.status in ("asked", "running"):
                self._live[event.call.id] = event
            else:
                self._live.pop(event.call.id, None)
        row = self.rows.get(event.call.id)
        if row is not None:
            row.update_from(event)
            self._resized(row)
            return
        key = self._reply_of(event.call.id)
        if key is None:
            return
        panel = self.panels.get(key)
        if panel is None:
            panel = CallsPanel(key, self.view.viewport())
            self.panels[key] = panel
        row = ToolCallRow(event, self.controller.answer_tool_call, self._result_text, panel)
        panel.rows[event.call.id] = row
        row.folded.connect(lambda row=row: self._resized(row))
        panel.box.addWidget(row)
        self.rows[event.call.id] = row
        panel.show()
        self._resized(row)

    def on_context(self, snapshot: Any) -> None:
        seen = getattr(snapshot, "visibility", None) or {}
        for row in self.rows.values():
            if row.result_id and row.set_pruned(seen.get(row.result_id) == "pruned"):
                self._resized(row)

    # ------------------------------------------------------------ layout
    def _reply_of(self, call_id: str) -> str | None:
        """The reply that made the call: the newest one holding it (or the newest reply)."""
        model = self.view.conversation_model
        if model is None:
            return None
        newest = None
        for row in reversed(model.rows):
            message = row.message
            if message is None or message.role != "assistant":
                continue
            newest = newest or row.key
            if any(call.id == call_id for call in getattr(message, "tool_calls", ())):
                return row.key
        return newest

    def _result_text(self, message_id: str) -> str | None:
        model = self.view.conversation_model
        message = model.message(message_id) if model is not None else None
        return message.content if message is not None else None

    def _resized(self, row: ToolCallRow) -> None:
        panel = row.parentWidget()
        if not isinstance(panel, CallsPanel):
            return
        row_tool_calls.set_height(self.view.message_delegate, panel.key, self._height(panel))
        self.place()

    def _height(self, panel: CallsPanel) -> int:
        """The panel's height at the text's width (its labels wrap)."""
        width = self.view.message_delegate.text_width()
        layout = panel.layout()
        return layout.totalHeightForWidth(width) if layout is not None and \
            layout.hasHeightForWidth() else panel.sizeHint().height()

    def place(self) -> None:
        """Each panel over the bottom of its reply's card (hidden when its row is not laid
        out: a filtered list, a chat switch in flight)."""
        model, delegate = self.view.conversation_model, self.view.message_delegate
        if model is None:
            return
        area = self.view.viewport().rect()
        near = area.adjusted(0, -int(area.height() * NEAR), 0, int(area.height() * NEAR))
        for key in list(self._stored):
            position = model.row_of_message(key)
            if position is not None and near.intersects(
                    self.view.visualRect(model.index(position, 0, QModelIndex()))):
                self._build(key)
        for key, panel in list(self.panels.items()):
            position = model.row_of_message(key)
            if position is None:
                panel.hide()
                continue
            rect = self.view.visualRect(model.index(position, 0, QModelIndex()))
            if not rect.isValid() or not near.intersects(rect):
                panel.hide()
                continue
            card = delegate.card_rect(rect)
            row = model.rows[position]
            width = delegate.text_width()
            height = self._height(panel)
            row_tool_calls.set_height(delegate, key, height)  # a new width wraps anew
            top = card.bottom() - PAD_V + 1 - delegate.footer_for(row) - height
            if panel.width() != width or panel.height() != height:
                panel.setFixedSize(width, height)
            if panel.pos().x() != card.left() + PAD_H or panel.pos().y() != top:
                panel.move(card.left() + PAD_H, top)
            if not panel.isVisible():
                panel.show()

    def _moved(self, *_args: object) -> None:
        if (self.panels or self._stored) and not self._follow.isActive():
            self._follow.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Paint, QEvent.Type.Resize) and (
                self.panels or self._stored):
            self.place()
        return False
