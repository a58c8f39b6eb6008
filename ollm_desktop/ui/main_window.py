"""The main window's light shell: it paints before the heavy modules are imported.

``MainWindow()`` is a title, a size and a placeholder; ``attach(controller, paths)`` does the
one deferred import (``ui.window_content``) and builds the real content into it.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSize, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QLabel, QMainWindow, QWidget

if TYPE_CHECKING:
    from ollm_desktop.controller import ChatController
    from ollm_desktop.paths import AppPaths
    from ollm_desktop.quick_history import QuickChat
    from ollm_desktop.storage.models import StartupNotice
    from ollm_desktop.ui.conversation_pane import ConversationPane
    from ollm_desktop.ui.side_panel.snapshot_browser import SnapshotBrowser
    from ollm_desktop.ui.window_content import WindowContent

# The content's widgets and actions, reachable from the window (tests, accessibility tools).
FORWARDED = (
    "conversation_model", "conversation_view", "message_input", "model_selector",
    "send_button", "stop_button", "input_error", "banner", "group_panel", "goal_panel",
    "context_meter", "reliability_indicator", "compaction_progress", "splitter", "chat_panel",
    "action_new_chat", "action_export_md", "action_export_json", "action_import",
    "action_compact", "action_undo_compaction", "action_branch_before", "action_undo_restore",
    "action_snapshots", "action_create_snapshot", "action_goal", "action_preferences",
    "action_toggle_pin", "action_about",
)


def _b64(data: QByteArray) -> str:
    return base64.b64encode(bytes(data.data())).decode("ascii")


def _unb64(text: str | None) -> QByteArray:
    return QByteArray(base64.b64decode(text)) if text else QByteArray()


class MainWindow(QMainWindow):
    """Built in two steps; ``MainWindow(controller, paths)`` does both at once."""

    closed = Signal()

    def __init__(self, controller: ChatController | None = None, paths: AppPaths | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.content: WindowContent | None = None
        self.preview: ConversationPane | None = None  # the stored chat, before attach()
        self.shown_chat_id: str | None = None  # the chat whose messages the window shows
        self.early_send = False  # Send pressed in the first picture: sent once the chat opens
        self.setObjectName("mainWindow")
        self.setAccessibleName(self.tr("ollm-desktop main window"))
        self.setWindowTitle("ollm-desktop")
        self.resize(1180, 780)
        placeholder = QLabel(self.tr("Opening your chats…"))
        placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        placeholder.setEnabled(False)
        self.setCentralWidget(placeholder)
        if controller is not None:
            assert paths is not None
            self.attach(controller, paths)

    def show_preview(self, chat: QuickChat, send_key: str = "enter") -> None:
        """The stored chat, drawn and taking typing before the engine and store are loaded.

        Only Qt and the row widgets are imported here; ``attach`` adopts the same model,
        view and input, and the real chat then replaces the rows (adding its markers).
        """
        from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout

        from ollm_desktop.ui.conversation_pane import build_pane

        pane = build_pane(send_key)
        pane.view.message_delegate.set_code_colours(False)  # coloured once attached
        pane.model.set_preview(chat.messages)
        holder = QWidget()
        row = QHBoxLayout(holder)
        row.setContentsMargins(8, 8, 4, 8)
        row.addSpacing(240)  # where the chat list will be: the rows do not jump sideways
        column = QVBoxLayout()
        column.setContentsMargins(4, 0, 4, 0)
        column.addWidget(pane.view, 1)
        column.addWidget(pane.input)
        row.addLayout(column, 1)
        self.setCentralWidget(holder)
        self.setWindowTitle(f"{chat.title} — ollm-desktop")
        pane.view.scrollToBottom()
        pane.input.setFocus()
        pane.input.submitted.connect(self._send_when_ready)
        self.preview, self.shown_chat_id = pane, chat.id

    def _send_when_ready(self) -> None:
        """Enter before the chat has loaded: the text waits in the input and goes out as soon
        as the chat is open (the input says so meanwhile)."""
        if self.content is None and self.preview is not None and \
                self.preview.input.toPlainText().strip():
            self.early_send = True
            self.preview.input.setPlaceholderText(self.tr("Sending when the chat has loaded…"))
            self.statusBar().showMessage(self.tr("Sending when the chat has loaded…"))

    def attach(self, controller: ChatController, paths: AppPaths) -> None:
        """Build the widgets, actions and menus, and wire them to the controller."""
        from ollm_desktop.ui.window_content import WindowContent  # the one deferred import

        self.controller = controller
        self.content = WindowContent(self, controller, paths)
        for name in FORWARDED:
            setattr(self, name, getattr(self.content, name))
        self.chat_search = self.content.chat_panel.search_edit

    def _content(self) -> WindowContent:
        assert self.content is not None, "attach() first"
        return self.content

    def restore_geometry(self, geometry: str | None) -> None:
        """Size and place the shell before it is shown (the rest waits for attach())."""
        if geometry:
            self.restoreGeometry(_unb64(geometry))

    def restore_window_state(self) -> None:
        content = self._content()
        s = content.controller.settings
        if s.window_geometry:
            self.restoreGeometry(_unb64(s.window_geometry))
        if s.window_state:
            self.restoreState(_unb64(s.window_state))
        if s.splitter_state:
            content.splitter.restoreState(_unb64(s.splitter_state))
        content.group_panel.hide()

    def save_window_state(self) -> None:
        content = self._content()
        content.controller.remember_window(_b64(self.saveGeometry()), _b64(self.saveState()),
                                           _b64(content.splitter.saveState()))

    def open_initial_chat(self) -> None:
        content = self._content()
        content.open_initial_chat()
        if self.early_send:
            self.early_send = False
            self.statusBar().clearMessage()
            content.send()

    def show_notices(self, notices: list[StartupNotice]) -> None:
        self._content().show_notices(notices)

    def refresh_chat_list(self) -> None:
        self._content().chat_panel.refresh()

    def open_snapshot_browser(self) -> SnapshotBrowser:
        return self._content().open_snapshot_browser()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closed.emit()
        super().closeEvent(event)

    def sizeHint(self) -> QSize:
        return QSize(1180, 780)
