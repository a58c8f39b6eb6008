"""Tool calls in the window: the chat's tool picker (``toolPicker``) and one row per call
(``toolCallRow``) with its tool, its arguments in full, its status and time, and, while it
awaits approval, ``toolAllowOnce``, ``toolAllowAlways`` and ``toolDeny``.

The rows sit in a strip under the conversation, never in a dialog: nothing modal opens while a
reply streams. Arguments are the model's text: shown as plain text only.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from ollm_desktop.ui.conversation.host import ToolCallsHost

STATUS = {"asked": "waiting for you", "running": "running…", "done": "done",
          "failed": "failed", "denied": "denied", "not run": "not run"}
MAX_ROWS = 6  # the newest calls; the conversation keeps every result


def plain(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)  # untrusted: never rich text
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class ToolCallRow(QFrame):
    """One call: ``answer(call_id, decision)`` is the controller's ``answer_tool_call``."""

    def __init__(self, event: Any, answer: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("toolCallRow")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.call_id: str = event.call.id
        self._answer = answer
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        head = QHBoxLayout()
        self.title = plain(f"Tool call: {event.call.name}" + (f"  ·  {event.server}" if event.server
                                                      else ""))
        self.status = plain("")
        self.status.setObjectName("toolCallStatus")
        head.addWidget(self.title, 1)
        head.addWidget(self.status)
        layout.addLayout(head)
        arguments = json.dumps(event.call.arguments, indent=2, ensure_ascii=False) \
            if event.call.valid else event.call.raw_arguments
        self.arguments = plain(arguments)
        self.arguments.setObjectName("toolCallArguments")
        self.arguments.setStyleSheet("font-family: monospace;")
        layout.addWidget(self.arguments)
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
            self.status.setText(STATUS["running"] if decision != "deny" else STATUS["denied"])

    def update_from(self, event: Any) -> None:
        text = STATUS.get(event.status, event.status)
        if event.seconds is not None:
            text += f" · {event.seconds:.1f} s"
        self.status.setText(text)
        waiting = event.status in ("asked", "running")
        self.buttons.setVisible(event.status == "asked")
        self.arguments.setVisible(waiting)  # a finished call folds to its line: click to open
        self.setToolTip("" if waiting else self.arguments.text())

    def mousePressEvent(self, event: Any) -> None:
        self.arguments.setVisible(not self.arguments.isVisible())
        super().mousePressEvent(event)


class ToolCallsStrip(QWidget):
    """The picker and the newest calls' rows."""

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("toolCalls")
        self.controller = controller
        self.rows: dict[str, ToolCallRow] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.picker = QToolButton()
        self.picker.setObjectName("toolPicker")
        self.picker.setText(self.tr("Tools"))
        self.picker.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu = QMenu(self.picker)
        self.menu.aboutToShow.connect(self.fill_menu)
        self.picker.setMenu(self.menu)
        top = QHBoxLayout()
        top.addWidget(self.picker)
        self.summary = plain("")
        top.addWidget(self.summary, 1)
        layout.addLayout(top)
        self.list = QVBoxLayout()
        layout.addLayout(self.list)
        controller.toolCall.connect(self.on_call)
        controller.chatOpened.connect(lambda _chat: self.reset())
        self.reset()

    def reset(self) -> None:
        for row in self.rows.values():
            row.deleteLater()
        self.rows.clear()
        self.show_summary()

    def show_summary(self) -> None:
        choice = self.controller.tool_choice()
        names = [*choice.servers, *([self.tr("its context tools")] if choice.context_tools
                                    else [])]
        self.summary.setText(self.tr("This chat uses no tools.") if not names else
                             self.tr("Tools from: ") + ", ".join(names))

    def fill_menu(self) -> None:
        """One checkable entry per configured server (a new chat: none checked)."""
        self.menu.clear()
        names = self.controller.tool_servers()
        choice = self.controller.tool_choice()
        if not names:
            self.menu.addAction(self.tr("No tool servers: add one in Preferences")) \
                .setEnabled(False)
        for name in names:
            action = self.menu.addAction(name)
            action.setCheckable(True)
            action.setChecked(name in choice.servers)
            action.toggled.connect(lambda on, n=name: self.toggle(n, on))
        self.menu.addSeparator()
        own = self.menu.addAction(self.tr("The model's own context tools"))
        own.setObjectName("toolPickerContextTools")
        own.setCheckable(True)
        own.setChecked(choice.context_tools)
        own.toggled.connect(self.toggle_context_tools)

    def toggle(self, name: str, on: bool) -> None:
        choice = self.controller.tool_choice()
        servers = [s for s in choice.servers if s != name] + ([name] if on else [])
        self.controller.set_tool_choice(choice.model_copy(update={"servers": servers}))
        self.show_summary()

    def toggle_context_tools(self, on: bool) -> None:
        choice = self.controller.tool_choice()
        self.controller.set_tool_choice(choice.model_copy(update={"context_tools": on}))
        self.show_summary()

    def on_call(self, event: Any) -> None:
        row = self.rows.get(event.call.id)
        if row is None:
            row = ToolCallRow(event, self.controller.answer_tool_call, self)
            self.rows[event.call.id] = row
            self.list.addWidget(row)
            while len(self.rows) > MAX_ROWS:
                oldest = next(iter(self.rows))
                self.rows.pop(oldest).deleteLater()
        else:
            row.update_from(event)


def install(content: ToolCallsHost) -> ToolCallsStrip:
    strip = ToolCallsStrip(content.controller)
    parent = content.message_input.parentWidget()
    layout = parent.layout() if parent is not None else None
    if isinstance(layout, QVBoxLayout):  # above the input, under the conversation
        layout.insertWidget(max(0, layout.indexOf(content.message_input)), strip)
    return strip
