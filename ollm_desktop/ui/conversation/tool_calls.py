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
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
    QWidgetAction,
)

from ollm_desktop.ui.conversation.tool_call_rows import CallsInConversation
from ollm_desktop.ui.conversation.tool_result_rows import ToolResultRows

if TYPE_CHECKING:
    from ollm_desktop.ui.conversation.host import ToolCallsHost


def plain(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)  # untrusted: never rich text
    label.setWordWrap(True)
    return label


class ToolCallsStrip(QWidget):
    """The picker and the line naming the chat's tools."""

    in_conversation: CallsInConversation  # each reply's calls in its row (set by ``install``)
    result_rows: ToolResultRows | None  # their results' own rows, hidden (set by ``install``)

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
        """One checkable entry per configured server (a new chat: none checked), each with a
        submenu of its tools once it has started (a chosen server is started for that), and
        the turn's call limit."""
        self.menu.clear()
        for old in self.menu.findChildren(QMenu):  # clear() leaves the submenus it made
            old.setParent(None)
            old.deleteLater()
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
            if name in choice.servers:
                self._tools_menu(name, choice)
        self.menu.addSeparator()
        own = self.menu.addAction(self.tr("The model's own context tools"))
        own.setObjectName("toolPickerContextTools")
        own.setCheckable(True)
        own.setChecked(choice.context_tools)
        own.toggled.connect(self.toggle_context_tools)
        limit = QSpinBox()
        limit.setObjectName("toolPickerMaxCalls")
        limit.setRange(1, 64)
        limit.setValue(choice.max_calls)
        limit.setPrefix(self.tr("At most "))
        limit.setSuffix(self.tr(" calls per turn"))
        limit.valueChanged.connect(self.set_max_calls)
        holder = QWidgetAction(self.menu)
        holder.setDefaultWidget(limit)
        self.menu.addAction(holder)

    def _tools_menu(self, server: str, choice: Any) -> None:
        """The server's tools, each checkable (all, until the user leaves one out)."""
        tools = self.controller.known_tools(server)
        sub = self.menu.addMenu(self.tr("   {0}'s tools").format(server))
        sub.setObjectName(f"toolPickerTools:{server}")
        if tools is None:
            sub.addAction(self.tr("Starting the server to list its tools…")).setEnabled(False)
            self.controller.start_tool_server(server)
            return
        named = [t for t in choice.tools if t.startswith(f"{server}/")]
        for spec in tools:
            key = f"{server}/{spec.name}"
            action = sub.addAction(spec.name + (self.tr("  (read-only)") if spec.read_only
                                                else ""))
            action.setCheckable(True)
            action.setChecked(not named or key in named)
            action.setToolTip(spec.description)
            action.toggled.connect(lambda on, k=key, all_=[f"{server}/{t.name}" for t in tools]:
                                   self.toggle_tool(k, on, all_))

    def toggle_tool(self, key: str, on: bool, every: list[str]) -> None:
        choice = self.controller.tool_choice()
        server = key.split("/", 1)[0]
        named = [t for t in choice.tools if t.startswith(f"{server}/")] or list(every)
        named = [t for t in named if t != key] + ([key] if on else [])
        others = [t for t in choice.tools if not t.startswith(f"{server}/")]
        chosen = others + ([] if sorted(named) == sorted(every) else sorted(named))
        servers = choice.servers if named else [s for s in choice.servers if s != server]
        self.controller.set_tool_choice(choice.model_copy(update={"tools": chosen,
                                                                  "servers": servers}))
        self.show_summary()

    def set_max_calls(self, value: int) -> None:
        choice = self.controller.tool_choice()
        self.controller.set_tool_choice(choice.model_copy(update={"max_calls": value}))

    def toggle(self, name: str, on: bool) -> None:
        choice = self.controller.tool_choice()
        servers = [s for s in choice.servers if s != name] + ([name] if on else [])
        self.controller.set_tool_choice(choice.model_copy(update={"servers": servers}))
        self.show_summary()

    def toggle_context_tools(self, on: bool) -> None:
        choice = self.controller.tool_choice()
        self.controller.set_tool_choice(choice.model_copy(update={"context_tools": on}))
        self.show_summary()


def install(content: ToolCallsHost) -> ToolCallsStrip:
    strip = ToolCallsStrip(content.controller)
    parent = content.message_input.parentWidget()
    layout = parent.layout() if parent is not None else None
    if isinstance(layout, QVBoxLayout):  # above the input, under the conversation
        layout.insertWidget(max(0, layout.indexOf(content.message_input)), strip)
    # each reply's calls, in its own row (kept on the strip, which the window keeps)
    strip.in_conversation = CallsInConversation(content.conversation_view, content.controller)
    model = content.conversation_view.conversation_model
    strip.result_rows = ToolResultRows(content.conversation_view, model) if model else None
    return strip
