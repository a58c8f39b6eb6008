"""Tools in the window: the chat's tool picker (``toolPicker``) above the message box, with a
line saying which servers the chat uses. Each call's row (``toolCallRow``, with its approval
buttons) lives in the conversation, inside the row of the reply that asked for it
(``tool_call_rows``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMenu,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.ui.conversation.tool_call_rows import CallsInConversation

if TYPE_CHECKING:
    from ollm_desktop.ui.window_content import WindowContent


def plain(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)  # untrusted: never rich text
    label.setWordWrap(True)
    return label


class ToolCallsStrip(QWidget):
    """The picker and the line naming the chat's tools."""

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("toolCalls")
        self.controller = controller
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
        controller.chatOpened.connect(lambda _chat: self.show_summary())
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


def install(content: WindowContent) -> None:
    strip = ToolCallsStrip(content.controller)
    parent = content.message_input.parentWidget()
    layout = parent.layout() if parent is not None else None
    if not isinstance(layout, QVBoxLayout):  # pragma: no cover - the window's own layout
        return
    index = layout.indexOf(content.message_input)  # above the input, under the conversation
    layout.insertWidget(max(0, index), strip)
    content.tool_calls = strip  # type: ignore[attr-defined]
    content.tool_call_rows = CallsInConversation(  # type: ignore[attr-defined]
        content.conversation_view, content.controller)
