"""The main window: shows the controller's state and calls its methods (no business logic)."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSize, Qt, Signal
from PySide6.QtWidgets import QLabel, QMainWindow, QWidget

from ollm_desktop import __version__
from ollm_desktop.ui.theme import apply_theme

if TYPE_CHECKING:  # the rest is imported by attach(), after the window has painted once
    from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
    from PySide6.QtWidgets import QListWidgetItem

    from ollm_desktop.controller import ChatController, OllamaStatus, ReplyInfo
    from ollm_desktop.engine import CompactionReport, CompressedGroup, ContextUsage, Message
    from ollm_desktop.paths import AppPaths
    from ollm_desktop.settings import Settings
    from ollm_desktop.storage.models import ChatRecord, StartupNotice
    from ollm_desktop.ui.snapshot_browser import SnapshotBrowser

CHAT_ID_ROLE = Qt.ItemDataRole.UserRole + 1


def _b64(data: QByteArray) -> str:
    return base64.b64encode(bytes(data.data())).decode("ascii")


def _unb64(text: str | None) -> QByteArray:
    return QByteArray(base64.b64decode(text)) if text else QByteArray()


class MainWindow(QMainWindow):
    """Built in two steps so that it paints before the heavy modules are imported.

    ``MainWindow()`` is a light shell (title, size, a placeholder); ``attach(controller,
    settings, paths)`` builds the real content. ``MainWindow(controller, settings, paths)``
    does both at once.
    """

    closed = Signal()

    def __init__(self, controller: ChatController | None = None,
                 settings: Settings | None = None, paths: AppPaths | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller: ChatController | None = None
        self.setObjectName("mainWindow")
        self.setAccessibleName(self.tr("ollm-desktop main window"))
        self.setWindowTitle("ollm-desktop")
        self.resize(1180, 780)
        placeholder = QLabel(self.tr("Opening your chats…"))
        placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        placeholder.setEnabled(False)
        self.setCentralWidget(placeholder)
        if controller is not None:
            assert settings is not None and paths is not None
            self.attach(controller, settings, paths)

    def attach(self, controller: ChatController, settings: Settings, paths: AppPaths) -> None:
        """Build the widgets, actions and menus, and wire them to the controller."""
        from ollm_desktop.controller import OllamaStatus

        self.controller = controller
        self.settings = settings
        self.paths = paths
        self._snapshot_browser: SnapshotBrowser | None = None
        self._open_group_id: str | None = None
        self._groups: list[CompressedGroup] = []
        self._status = OllamaStatus(reachable=False, host=controller.backend.host)
        self._build_widgets()
        self._build_actions()
        self._build_menus()
        self._connect()
        self._update_actions()

    # ------------------------------------------------------------------ build
    def _build_widgets(self) -> None:
        from PySide6.QtWidgets import (
            QComboBox,
            QHBoxLayout,
            QLineEdit,
            QListWidget,
            QPushButton,
            QSplitter,
            QStatusBar,
            QVBoxLayout,
        )

        from ollm_desktop.ui.compaction_progress import CompactionProgress
        from ollm_desktop.ui.context_meter import ContextMeter
        from ollm_desktop.ui.conversation_model import ConversationModel
        from ollm_desktop.ui.conversation_view import ConversationView
        from ollm_desktop.ui.goal_panel import GoalPanel
        from ollm_desktop.ui.group_panel import GroupPanel
        from ollm_desktop.ui.message_input import MessageInput
        from ollm_desktop.ui.ollama_banner import OllamaBanner
        from ollm_desktop.ui.reliability import ReliabilityIndicator

        # Left: chats.
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(8, 8, 4, 8)
        self.new_chat_button = QPushButton(self.tr("New chat"))
        self.chat_search = QLineEdit()
        self.chat_search.setPlaceholderText(self.tr("Search all chats…"))
        self.chat_search.setClearButtonEnabled(True)
        self.chat_search.setAccessibleName(self.tr("Search chats"))
        self.chat_list = QListWidget()
        self.chat_list.setObjectName("chatList")
        self.chat_list.setAccessibleName(self.tr("Chats"))
        self.chat_list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.chat_list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.chat_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.chat_list.setUniformItemSizes(False)
        left_layout.addWidget(self.new_chat_button)
        left_layout.addWidget(self.chat_search)
        left_layout.addWidget(self.chat_list, 1)

        # Centre: banner, conversation, progress, input.
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(4, 8, 4, 8)
        self.banner = OllamaBanner()
        self.banner.hide_banner()
        self.conversation_model = ConversationModel(self)
        self.conversation_view = ConversationView()
        self.conversation_view.setModel(self.conversation_model)
        self.compaction_progress = CompactionProgress()
        self.message_input = MessageInput()
        self.message_input.setObjectName("messageInput")
        self.message_input.setAccessibleName(self.tr("Message"))
        self.message_input.setPlaceholderText(
            self.tr("Message the model… (Ctrl+Enter to send, Esc to stop)"))
        self.message_input.setMaximumHeight(110)
        self.model_selector = QComboBox()
        self.model_selector.setObjectName("modelSelector")
        self.model_selector.setAccessibleName(self.tr("Model"))
        self.model_selector.setMinimumWidth(200)
        self.model_selector.setEditable(False)
        self.send_button = QPushButton(self.tr("Send"))
        self.send_button.setObjectName("sendButton")
        self.send_button.setAccessibleName(self.tr("Send"))
        self.send_button.setDefault(True)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setObjectName("stopButton")
        self.stop_button.setAccessibleName(self.tr("Stop"))
        self.stop_button.setEnabled(False)
        self.input_error = QLabel()
        self.input_error.setWordWrap(True)
        self.input_error.setStyleSheet("color: palette(highlight);")
        self.input_error.hide()
        controls = QHBoxLayout()
        controls.addWidget(QLabel(self.tr("Model:")))
        controls.addWidget(self.model_selector)
        controls.addStretch(1)
        controls.addWidget(self.stop_button)
        controls.addWidget(self.send_button)
        centre_layout.addWidget(self.banner)
        centre_layout.addWidget(self.conversation_view, 1)
        centre_layout.addWidget(self.compaction_progress)
        centre_layout.addWidget(self.input_error)
        centre_layout.addWidget(self.message_input)
        centre_layout.addLayout(controls)

        # Right: a compressed group's Summary / History.
        self.group_panel = GroupPanel()
        self.group_panel.hide()

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(centre)
        self.splitter.addWidget(self.group_panel)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([240, 700, 360])
        self.setCentralWidget(self.splitter)

        self.goal_panel = GoalPanel(self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.goal_panel)
        self.goal_panel.hide()

        status = QStatusBar()
        self.context_meter = ContextMeter()
        self.reliability_indicator = ReliabilityIndicator()
        status.addPermanentWidget(self.reliability_indicator)
        status.addPermanentWidget(self.context_meter)
        self.setStatusBar(status)

    def _action(self, name: str, text: str, shortcut: QKeySequence | str | None = None,
                slot=None) -> QAction:
        from PySide6.QtGui import QAction, QKeySequence

        action = QAction(text, self)
        action.setObjectName(name)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if slot is not None:
            action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        from PySide6.QtGui import QKeySequence, QShortcut

        c = self.controller
        self.action_new_chat = self._action("actionNewChat", self.tr("&New chat"),
                                            QKeySequence.StandardKey.New, self._new_chat)
        self.action_export_md = self._action("actionExportMarkdown",
                                             self.tr("Export as &Markdown…"), None,
                                             self._export_markdown)
        self.action_export_json = self._action("actionExportJson", self.tr("Export as &JSON…"),
                                               None, self._export_json)
        self.action_import = self._action("actionImport", self.tr("&Import…"), None,
                                          self._import_json)
        self.action_quit = self._action("actionQuit", self.tr("&Quit"),
                                        QKeySequence.StandardKey.Quit, self.close)
        self.action_compact = self._action("actionCompactNow", self.tr("&Compact now…"),
                                           "Ctrl+Shift+K", self._compact_now)
        self.action_undo_compaction = self._action(
            "actionUndoCompaction", self.tr("&Undo last compaction"), "Ctrl+Shift+Z",
            c.undo_last_compaction)
        self.action_branch_before = self._action(
            "actionBranchBeforeCompaction",
            self.tr("Open state before compaction as a &new chat"), None,
            c.open_before_compaction_as_chat)
        self.action_undo_restore = self._action("actionUndoRestore", self.tr("Undo &restore"),
                                                None, c.undo_restore)
        self.action_snapshots = self._action("actionSnapshots", self.tr("&Snapshots…"),
                                             "Ctrl+Shift+S", self.open_snapshot_browser)
        self.action_create_snapshot = self._action("actionCreateSnapshot",
                                                   self.tr("Create s&napshot…"), None,
                                                   self._create_snapshot)
        self.action_goal = self._action("actionGoal", self.tr("&Goal"), "Ctrl+G")
        self.action_goal.setCheckable(True)
        self.action_goal.toggled.connect(self.goal_panel.setVisible)
        self.goal_panel.visibilityChanged.connect(self.action_goal.setChecked)
        self.action_preferences = self._action("actionPreferences", self.tr("&Preferences…"),
                                               QKeySequence.StandardKey.Preferences,
                                               self._preferences)
        self.action_toggle_pin = self._action("actionTogglePin", self.tr("&Pin / unpin message"),
                                              "Ctrl+P", self._toggle_pin_selected)
        self.action_about = self._action("actionAbout", self.tr("&About ollm-desktop"), None,
                                         self._about)
        QShortcut(QKeySequence("Ctrl+Return"), self, self._send)
        QShortcut(QKeySequence("Escape"), self, c.stop)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu(self.tr("&File"))
        file_menu.addActions([self.action_new_chat])
        file_menu.addSeparator()
        file_menu.addActions([self.action_export_md, self.action_export_json, self.action_import])
        file_menu.addSeparator()
        file_menu.addAction(self.action_quit)
        conv = bar.addMenu(self.tr("&Conversation"))
        conv.addActions([self.action_compact, self.action_undo_compaction,
                         self.action_branch_before])
        conv.addSeparator()
        conv.addActions([self.action_snapshots, self.action_create_snapshot,
                         self.action_undo_restore])
        conv.addSeparator()
        conv.addActions([self.action_toggle_pin, self.action_goal])
        settings_menu = bar.addMenu(self.tr("&Settings"))
        settings_menu.addAction(self.action_preferences)
        help_menu = bar.addMenu(self.tr("&Help"))
        help_menu.addAction(self.action_about)

    def _connect(self) -> None:
        c = self.controller
        self.new_chat_button.clicked.connect(self._new_chat)
        self.chat_list.itemActivated.connect(self._chat_item_activated)
        self.chat_list.itemClicked.connect(self._chat_item_activated)
        self.chat_list.customContextMenuRequested.connect(self._chat_menu)
        self.chat_search.textChanged.connect(self._search_changed)
        self.send_button.clicked.connect(self._send)
        self.stop_button.clicked.connect(c.stop)
        self.message_input.submitted.connect(self._send)
        self.message_input.escaped.connect(c.stop)
        self.model_selector.activated.connect(self._model_chosen)
        self.conversation_view.pinToggled.connect(c.toggle_pin)
        self.conversation_view.groupActivated.connect(self.show_group)
        self.group_panel.undoRequested.connect(c.undo_last_compaction)
        self.group_panel.closed.connect(self._close_group)
        self.goal_panel.goalEdited.connect(c.set_goal_description)
        self.banner.retryRequested.connect(c.refresh_ollama)
        self.banner.startOllamaRequested.connect(self._start_ollama)
        self.banner.pullRequested.connect(c.pull_model)

        c.chatsChanged.connect(self.refresh_chat_list)
        c.chatOpened.connect(self._chat_opened)
        c.historyReset.connect(self._reload_history)
        c.messageAdded.connect(self._message_added)
        c.messageUpdated.connect(self.conversation_model.update_message)
        c.replyChunk.connect(self.conversation_model.append_stream_text)
        c.replyFinished.connect(self._reply_finished)
        c.sendFailed.connect(self._send_failed)
        c.usageChanged.connect(self._usage_changed)
        c.reliabilityChanged.connect(self.reliability_indicator.set_reliability)
        c.reliabilityWarning.connect(self._reliability_warning)
        c.visibilityChanged.connect(self.conversation_model.set_visibility)
        c.groupsChanged.connect(self._groups_changed)
        c.goalChanged.connect(self.goal_panel.set_goal)
        c.compactionStarted.connect(self.compaction_progress.start)
        c.compactionProgress.connect(self.compaction_progress.set_progress)
        c.compactionFinished.connect(self._compaction_finished)
        c.compactionFailed.connect(self._compaction_failed)
        c.snapshotsChanged.connect(self._snapshots_changed)
        c.busyChanged.connect(self._busy_changed)
        c.ollamaStatus.connect(self._ollama_status)
        c.modelsChanged.connect(self._models_changed)
        c.pullProgress.connect(self.banner.set_pull_progress)
        c.error.connect(self._error)
        c.notice.connect(lambda text: self.statusBar().showMessage(text, 8000))

    # ------------------------------------------------------------------ state
    def restore_window_state(self) -> None:
        if self.settings.window_geometry:
            self.restoreGeometry(_unb64(self.settings.window_geometry))
        if self.settings.window_state:
            self.restoreState(_unb64(self.settings.window_state))
        if self.settings.splitter_state:
            self.splitter.restoreState(_unb64(self.settings.splitter_state))
        self.group_panel.hide()

    def save_window_state(self) -> None:
        self.settings.window_geometry = _b64(self.saveGeometry())
        self.settings.window_state = _b64(self.saveState())
        self.settings.splitter_state = _b64(self.splitter.saveState())

    def open_initial_chat(self) -> None:
        self.refresh_chat_list()
        chats = self.controller.list_chats()
        last = self.settings.last_chat_id
        target = next((c for c in chats if c.id == last), chats[0] if chats else None)
        if target is not None:
            self.controller.open_chat(target.id)
        else:
            self._reload_history()

    def show_notices(self, notices: list[StartupNotice]) -> None:
        from PySide6.QtWidgets import QMessageBox

        for notice in notices:
            text = notice.text + (f"\n\n{self.tr('Backup:')} {notice.backup_path}"
                                  if notice.backup_path else "")
            if notice.level == "info":
                self.statusBar().showMessage(notice.text, 10000)
            else:
                box = QMessageBox(QMessageBox.Icon.Warning, "ollm-desktop", text,
                                  QMessageBox.StandardButton.Ok, self)
                box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
                box.open()

    def restore_geometry(self, geometry: str | None) -> None:
        """Size and place the shell before it is shown (the rest waits for attach())."""
        if geometry:
            self.restoreGeometry(_unb64(geometry))

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closed.emit()
        super().closeEvent(event)

    def sizeHint(self) -> QSize:
        return QSize(1180, 780)

    # ------------------------------------------------------------------ chats
    def refresh_chat_list(self) -> None:
        from PySide6.QtWidgets import QListWidgetItem

        if self.chat_search.text().strip():
            self._search_changed(self.chat_search.text())
            return
        current = self.controller.chat.id if self.controller.chat else None
        self.chat_list.blockSignals(True)
        self.chat_list.clear()
        for chat in self.controller.list_chats():
            item = QListWidgetItem(chat.title)
            item.setData(CHAT_ID_ROLE, chat.id)
            item.setToolTip(self.tr("{0} messages · {1}").format(
                chat.message_count, chat.updated_at.astimezone().strftime("%Y-%m-%d %H:%M")))
            self.chat_list.addItem(item)
            if chat.id == current:
                item.setSelected(True)
                self.chat_list.setCurrentItem(item)
        self.chat_list.blockSignals(False)

    def _search_changed(self, text: str) -> None:
        from PySide6.QtWidgets import QListWidgetItem

        if not text.strip():
            self.refresh_chat_list()
            return
        self.chat_list.clear()
        for hit in self.controller.search(text):
            item = QListWidgetItem(f"{hit.chat_title}\n  {hit.snippet}")
            item.setData(CHAT_ID_ROLE, hit.chat_id)
            item.setToolTip(hit.snippet)
            self.chat_list.addItem(item)

    def _chat_item_activated(self, item: QListWidgetItem) -> None:
        chat_id = item.data(CHAT_ID_ROLE)
        if chat_id and (self.controller.chat is None or self.controller.chat.id != chat_id):
            self.controller.open_chat(chat_id)

    def _chat_menu(self, pos) -> None:
        from PySide6.QtWidgets import QInputDialog, QMenu

        item = self.chat_list.itemAt(pos)
        if item is None:
            return
        chat_id = item.data(CHAT_ID_ROLE)
        menu = QMenu(self)
        rename = menu.addAction(self.tr("Rename…"))
        delete = menu.addAction(self.tr("Delete…"))
        chosen = menu.exec(self.chat_list.viewport().mapToGlobal(pos))
        if chosen is rename:
            title, ok = QInputDialog.getText(self, self.tr("Rename chat"), self.tr("Name:"),
                                             text=item.text().split("\n")[0])
            if ok and title.strip():
                self.controller.rename_chat(chat_id, title)
        elif chosen is delete and self._confirm(
                self.tr("Delete chat"),
                self.tr("Delete this chat, its history and its snapshots? This cannot be "
                        "undone; export it first to keep a copy.")):
            self.controller.delete_chat(chat_id)

    def _new_chat(self) -> None:
        self.controller.new_chat()
        self.message_input.setFocus()

    def _chat_opened(self, chat: ChatRecord) -> None:
        self.setWindowTitle(f"{chat.title} — ollm-desktop")
        self.refresh_chat_list()
        self._close_group()
        self._update_actions()

    # -------------------------------------------------------------- messages
    def _reload_history(self) -> None:
        engine = self.controller.engine
        if engine is None:
            self.conversation_model.set_history([], [], {})
            self.setWindowTitle("ollm-desktop")
        else:
            self.conversation_model.set_history(engine.display_messages(), engine.groups,
                                                engine.visibility())
            self.conversation_view.scrollToBottom()
        self._update_actions()

    def _message_added(self, message: Message) -> None:
        self.conversation_model.append_message(message)
        self.conversation_view.scrollToBottom()

    def _reply_finished(self, message: Message, info: ReplyInfo) -> None:
        if info.removed:
            self.conversation_model.remove_message(message.id)
        else:
            self.conversation_model.update_message(message)
        self._update_actions()

    def _send(self) -> None:
        text = self.message_input.toPlainText()
        if not text.strip():
            return
        self.input_error.hide()
        if self.controller.send(text) is not None:
            self.message_input.clear()

    def _send_failed(self, text: str, reason: str) -> None:
        if not self.message_input.toPlainText().strip():
            self.message_input.setPlainText(text)
        self.input_error.setText(reason)
        self.input_error.show()
        self.message_input.setFocus()

    def _busy_changed(self, busy: bool) -> None:
        self.send_button.setEnabled(not busy)
        self.stop_button.setEnabled(busy)
        self._update_actions()

    def _toggle_pin_selected(self) -> None:
        self.conversation_view.toggle_pin_selected()

    # -------------------------------------------------------------- context
    def _usage_changed(self, usage: ContextUsage) -> None:
        self.context_meter.set_usage(usage)
        self._update_actions()

    def _groups_changed(self, groups: list[CompressedGroup]) -> None:
        old, self._groups = self._groups, list(groups)
        if [g.id for g in old] != [g.id for g in groups] or any(
                a.current_tokens != b.current_tokens or a.level != b.level
                for a, b in zip(old, groups, strict=True)):
            self._reload_history()
        if self._open_group_id:
            if any(g.id == self._open_group_id for g in groups):
                self.show_group(self._open_group_id)
            else:
                self._close_group()

    def show_group(self, group_id: str) -> None:
        engine = self.controller.engine
        if engine is None:
            return
        groups = engine.groups
        group = next((g for g in groups if g.id == group_id), None)
        if group is None:
            return
        originals = [m for mid in (group.span_ids or group.message_ids)
                     if (m := engine.message(mid)) is not None]
        self.group_panel.show_group(group, originals, is_newest=group.id == groups[-1].id
                                    and engine.can_undo)
        self.group_panel.show()
        sizes = self.splitter.sizes()
        if sizes[2] < 200:  # first opening, or collapsed by the user: give it room again
            room = min(420, max(300, sizes[1] // 3))
            self.splitter.setSizes([sizes[0], max(300, sizes[1] - room), room])
        self._open_group_id = group_id

    def _close_group(self) -> None:
        self._open_group_id = None
        self.group_panel.hide()

    def _compaction_finished(self, report: CompactionReport) -> None:
        self.compaction_progress.finish(report.reason if report.status != "skipped" else "")
        if report.reason:
            self.statusBar().showMessage(report.reason, 8000)

    def _compaction_failed(self, report: CompactionReport) -> None:
        self.compaction_progress.finish(report.reason)

    def _reliability_warning(self, reliability) -> None:
        from ollm_desktop.ui import dialogs

        dialogs.show_reliability_warning(self, reliability, self.controller.model or "?",
                                         self.controller.engine.compaction_count
                                         if self.controller.engine else 0)

    # -------------------------------------------------------------- ollama
    def _ollama_status(self, status: OllamaStatus) -> None:
        self._status = status
        if not status.reachable:
            self.banner.show_unreachable(status.host, status.can_start)
        elif status.model_missing and self.controller.model:
            self.banner.show_model_missing(self.controller.model)
        else:
            self.banner.hide_banner()

    def _start_ollama(self) -> None:
        """Start Ollama; the first time, ask whether to do so on every start (remembered)."""
        from PySide6.QtWidgets import QMessageBox

        remember = None
        if self.settings.start_ollama == "ask":
            answer = QMessageBox.question(
                self, self.tr("Start Ollama"),
                self.tr("Start Ollama automatically whenever ollm-desktop opens and it is not "
                        "running? (It is stopped again when you quit. You can change this in "
                        "Preferences.)"))
            remember = answer == QMessageBox.StandardButton.Yes
        self.controller.start_ollama(remember)

    def _models_changed(self, models) -> None:
        names = [m.name for m in models]
        current = self.controller.model
        self.model_selector.blockSignals(True)
        self.model_selector.clear()
        self.model_selector.addItems(names)
        if current and current not in names:
            self.model_selector.addItem(self.tr("{0} (not installed)").format(current), current)
        if current:
            index = self.model_selector.findText(current)
            if index < 0:
                index = self.model_selector.findData(current)
            self.model_selector.setCurrentIndex(index)
        self.model_selector.blockSignals(False)

    def _model_chosen(self, index: int) -> None:
        name = self.model_selector.itemData(index) or self.model_selector.itemText(index)
        self.controller.set_model(name)
        if self._status.reachable and name in self._status.models:
            self.banner.hide_banner()

    def _error(self, kind: str, text: str) -> None:
        if kind == "model_not_found" and self.controller.model:
            self.banner.show_model_missing(self.controller.model)
        elif kind == "unreachable":
            self.banner.show_unreachable(self.controller.backend.host,
                                         self.controller.managed.find_executable() is not None)
        else:
            self.banner.show_error(text)
        self.statusBar().showMessage(text, 10000)

    # --------------------------------------------------------------- dialogs
    def open_snapshot_browser(self, modal: bool = False) -> SnapshotBrowser | None:
        if self._snapshot_browser is None:
            from ollm_desktop.ui.snapshot_browser import SnapshotBrowser

            browser = SnapshotBrowser(self.controller, self)
            browser.restoreRequested.connect(self.controller.restore_snapshot)
            browser.deleteRequested.connect(self.controller.delete_snapshot)
            browser.createRequested.connect(self.controller.create_snapshot)
            self._snapshot_browser = browser
        self._snapshot_browser.refresh()
        self._snapshot_browser.show()
        self._snapshot_browser.raise_()
        return self._snapshot_browser

    def _snapshots_changed(self) -> None:
        if self._snapshot_browser is not None and self._snapshot_browser.isVisible():
            self._snapshot_browser.refresh()

    def _create_snapshot(self) -> None:
        from ollm_desktop.ui import dialogs

        label = dialogs.ask_snapshot_label(self)
        if label is not None:
            self.controller.create_snapshot(label)

    def _compact_now(self) -> None:
        from ollm_desktop.ui import dialogs

        focus = dialogs.ask_compact_focus(self)
        if focus is not None:
            self.controller.compact(focus)

    def _preferences(self) -> None:
        from PySide6.QtWidgets import QApplication

        models = [self.model_selector.itemText(i) for i in range(self.model_selector.count())
                  if self.model_selector.itemData(i) is None]  # not the "(not installed)" rows
        from ollm_desktop.ui.preferences import PreferencesDialog

        dialog = PreferencesDialog(self.settings, models, self)
        if dialog.exec():
            new = dialog.result_settings()
            size_changed = new.context_size != self.settings.context_size
            if new.theme != self.settings.theme:
                apply_theme(QApplication.instance(), new.theme)
            for field in type(new).model_fields:
                setattr(self.settings, field, getattr(new, field))
            if size_changed:
                apply_now = self.controller.chat is not None and self._confirm(
                    self.tr("Context size"),
                    self.tr("Apply the new context size to the open chat now? (The model "
                            "reloads; otherwise it applies to new chats.)"))
                self.controller.set_context_size(new.context_size, apply_now=apply_now)
            self.controller.apply_settings()

    def _about(self) -> None:
        import pydantic
        import PySide6

        from ollm_desktop.ui import dialogs

        versions = {"ollm-desktop": __version__, "PySide6": PySide6.__version__,
                    "pydantic": pydantic.VERSION}
        paths = {self.tr("Data"): str(self.paths.data_dir),
                 self.tr("Config"): str(self.paths.config_dir),
                 self.tr("Logs"): str(self.paths.log_dir)}
        dialogs.show_about(self, versions, paths)

    def _export(self, suffix: str, caption: str, write) -> None:
        from PySide6.QtWidgets import QFileDialog

        if self.controller.chat is None:
            return
        name = self.controller.chat.title.replace("/", "-")[:60] or "chat"
        path, _ = QFileDialog.getSaveFileName(self, caption, str(Path.home() / f"{name}{suffix}"))
        if path:
            try:
                write(Path(path))
            except OSError as exc:
                self._error("export", self.tr("Could not write {0}: {1}").format(path, exc))
            else:
                self.statusBar().showMessage(self.tr("Saved {0}").format(path), 6000)

    def _export_markdown(self) -> None:
        self._export(".md", self.tr("Export as Markdown"), self.controller.export_markdown)

    def _export_json(self) -> None:
        self._export(".json", self.tr("Export as JSON"), self.controller.export_json)

    def _import_json(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import chat"), str(Path.home()),
                                              self.tr("Chat exports (*.json)"))
        if path:
            self.controller.import_json(Path(path))

    def _confirm(self, title: str, text: str) -> bool:
        from PySide6.QtWidgets import QMessageBox

        answer = QMessageBox.question(self, title, text)
        return answer == QMessageBox.StandardButton.Yes

    def _update_actions(self) -> None:
        c = self.controller
        has_chat = c.chat is not None and c.engine is not None
        busy = c.busy or c.compacting
        for action in (self.action_export_md, self.action_export_json,
                       self.action_create_snapshot, self.action_snapshots):
            action.setEnabled(has_chat)
        self.action_compact.setEnabled(has_chat and not busy)
        self.action_undo_compaction.setEnabled(has_chat and not busy and c.engine is not None
                                               and c.engine.can_undo)
        self.action_branch_before.setEnabled(self.action_undo_compaction.isEnabled())
