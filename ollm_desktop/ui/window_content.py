"""The main window's content: widgets, actions and menus, wired to the controller.

Imported once, by ``MainWindow.attach``, after the light shell has painted: everything heavy
is imported here, at the top, instead of inside functions. It reads only the controller's
read methods and the ``ContextSnapshot`` it emits; it never holds engine, store or backend
objects.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QSplitter,
    QStatusBar,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.controller import ChatController, ContextSnapshot, ReplyInfo
from ollm_desktop.engine import CompressedGroup, Message
from ollm_desktop.paths import AppPaths
from ollm_desktop.storage.models import ChatRecord, StartupNotice
from ollm_desktop.ui import features, window_actions, window_menus
from ollm_desktop.ui.chat_list.panel import ChatListPanel
from ollm_desktop.ui.composer.context_meter import ContextMeter
from ollm_desktop.ui.conversation import reply_actions
from ollm_desktop.ui.conversation_pane import build_pane
from ollm_desktop.ui.dialogs.chat_settings_dialog import ChatSettingsButton
from ollm_desktop.ui.side_panel import docks
from ollm_desktop.ui.side_panel.checkpoint_panel import GroupPanel
from ollm_desktop.ui.side_panel.goal_panel import GoalPanel
from ollm_desktop.ui.side_panel.snapshot_browser import SnapshotBrowser
from ollm_desktop.ui.status.compaction_progress import CompactionProgress
from ollm_desktop.ui.status.ollama_banner import OllamaBanner
from ollm_desktop.ui.status.ollama_view import OllamaView
from ollm_desktop.ui.status.reliability import ReliabilityIndicator
from ollm_desktop.ui.status.undo_bar import UndoBar
from ollm_desktop.ui.status.warning_bar import ReliabilityWarningBar


class WindowContent(QObject, features.InstalledFeatures):
    """Builds the window's widgets into ``window`` and keeps them in step with the controller;
    features follow it through its signals."""

    actionsUpdated = Signal()  # after update_actions: features refine the actions' states
    groupShown = Signal(str)  # a compressed group's checkpoint is shown (``open_group_id``)
    groupClosed = Signal()

    def __init__(self, window: QMainWindow, controller: ChatController, paths: AppPaths) -> None:
        super().__init__(window)
        self.window, self.controller, self.paths = window, controller, paths
        self.snapshot_browser: SnapshotBrowser | None = None
        self.open_group_id: str | None = None
        self._groups: tuple[CompressedGroup, ...] = ()
        self._build_widgets()
        self._build_actions()
        self.menus = window_menus.build_menus(self)
        self._connect()
        features.install(self)
        self.update_actions()

    def tr(self, text: str) -> str:  # type: ignore[override]
        return self.window.tr(text)

    # ------------------------------------------------------------------ build
    def _build_widgets(self) -> None:
        c = self.controller
        self.chat_panel = ChatListPanel(c.listed_chats, c.search,
                                        lambda: c.chat.id if c.chat else None)
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(4, 8, 4, 8)
        self.banner = OllamaBanner()
        self.banner.hide_banner()
        # The shell's first picture of the stored chat, adopted as it is (typing included).
        pane = self.window.preview or build_pane()  # type: ignore[attr-defined]
        self.conversation_model, self.conversation_view = pane.model, pane.view
        self.conversation_model.setParent(self)
        self.conversation_view.message_delegate.set_code_colours(True)
        self.compaction_progress = CompactionProgress()
        self.warning_bar = ReliabilityWarningBar()
        self.undo_bar = UndoBar()  # "… deleted. Undo" for messages and chats
        self.message_input = pane.input
        self.model_selector = QComboBox()
        self.model_selector.setObjectName("modelSelector")
        self.model_selector.setAccessibleName(self.tr("Model"))
        self.model_selector.setMinimumWidth(200)
        self.send_button = self._button("sendButton", self.tr("Send"))
        self.send_button.setDefault(True)
        self.stop_button = self._button("stopButton", self.tr("Stop"))
        self.stop_button.setEnabled(False)
        self.sending = False
        self.input_error = QLabel()
        self.input_error.setWordWrap(True)
        self.input_error.setStyleSheet("color: palette(highlight);")
        self.input_error.setObjectName("inputError")
        self.input_error.hide()
        self.message_input.textChanged.connect(  # a warning about the text goes with it
            lambda: None if self.message_input.toPlainText().strip() else self.input_error.hide())
        controls = QHBoxLayout()
        controls.addWidget(QLabel(self.tr("Model:")))
        controls.addWidget(self.model_selector)
        self.chat_settings_button = ChatSettingsButton(self.window, c)  # opens its dialog
        controls.addWidget(self.chat_settings_button)
        controls.addStretch(1)
        controls.addWidget(self.stop_button)
        controls.addWidget(self.send_button)
        for widget in (self.banner, self.warning_bar, self.conversation_view,
                       self.compaction_progress, self.undo_bar,
                       self.input_error, self.message_input):
            centre_layout.addWidget(widget, 1 if widget is self.conversation_view else 0)
        centre_layout.addLayout(controls)
        self.group_panel = GroupPanel()  # a compressed group's Summary / History
        self.group_panel.hide()
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for pane in (self.chat_panel, centre, self.group_panel):
            self.splitter.addWidget(pane)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([240, 700, 360])
        self.window.setCentralWidget(self.splitter)
        self.goal_panel = GoalPanel(self.window)
        self.window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.goal_panel)
        self.goal_panel.hide()
        status = QStatusBar()
        self.context_meter = ContextMeter()
        self.reliability_indicator = ReliabilityIndicator()
        status.addPermanentWidget(self.reliability_indicator)
        status.addPermanentWidget(self.context_meter)
        self.window.setStatusBar(status)

    def _button(self, name: str, text: str) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.setAccessibleName(text)
        return button

    def add_action(self, name: str, text: str,
                shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                slot: Callable[[], object] | None = None) -> QAction:
        action = QAction(text, self.window)
        action.setObjectName(name)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if slot is not None:
            action.triggered.connect(slot)
        self.window.addAction(action)
        return action

    def _build_actions(self) -> None:
        c, w, a = self.controller, self.window, self.add_action
        keys = QKeySequence.StandardKey
        self.action_new_chat = a("actionNewChat", self.tr("&New chat"), keys.New, self.new_chat)
        self.action_export_md = a("actionExportMarkdown", self.tr("Export as &Markdown…"), None,
                                  lambda: self._export("markdown"))
        self.action_export_json = a("actionExportJson", self.tr("Export as &JSON…"), None,
                                    lambda: self._export("json"))
        self.action_import = a("actionImport", self.tr("&Import…"), None,
                               lambda: window_actions.import_chat(w, c))
        self.action_set_aside = a("actionOpenSetAside",
                                  self.tr("Recover chats from a d&amaged database…"), None,
                                  lambda: window_actions.open_set_aside(w, c, self.paths))
        # A file is set aside only when the store opens, before this window is built.
        self.action_set_aside.setEnabled(window_actions.has_set_aside(self.paths))
        self.action_quit = a("actionQuit", self.tr("&Quit"), keys.Quit, w.close)
        self.action_compact = a("actionCompactNow", self.tr("&Compact now…"), "Ctrl+Shift+K",
                                lambda: window_actions.compact_now(w, c))
        self.action_undo_compaction = a("actionUndoCompaction", self.tr("&Undo last compaction"),
                                        "Ctrl+Shift+Z", c.undo_last_compaction)
        self.action_branch_before = a("actionBranchBeforeCompaction",
                                      self.tr("Open state before compaction as a &new chat"),
                                      None, c.open_before_compaction_as_chat)
        self.action_undo_restore = a("actionUndoRestore", self.tr("Undo &restore"), None,
                                     c.undo_restore)
        self.action_snapshots = a("actionSnapshots", self.tr("&Snapshots…"), "Ctrl+Shift+S",
                                  self.open_snapshot_browser)
        self.action_create_snapshot = a("actionCreateSnapshot", self.tr("Create s&napshot…"),
                                        None, lambda: window_actions.create_snapshot(w, c))
        self.action_goal = a("actionGoal", self.tr("&Goal"), "Ctrl+G")
        docks.follow(self.action_goal, self.goal_panel)  # a tab beside the facts
        self.action_preferences = a("actionPreferences", self.tr("&Preferences…"),
                                    keys.Preferences, self._preferences)
        self.action_toggle_pin = a("actionTogglePin", self.tr("&Pin / unpin message"), "Ctrl+P",
                                   self.conversation_view.toggle_pin_selected)
        self.action_about = a("actionAbout", self.tr("&About ollm-desktop"), None,
                              lambda: window_actions.about(w, self.paths))
        self.action_regenerate, self.action_continue = reply_actions.build_actions(self)
        QShortcut(QKeySequence("Ctrl+Return"), w, self.send).setWhatsThis(
            self.tr("Send the message (with either send key)"))
        QShortcut(QKeySequence("Escape"), w, c.stop).setWhatsThis(self.tr("Stop the reply"))

    def _connect(self) -> None:
        c, panel = self.controller, self.chat_panel
        panel.newChatRequested.connect(self.new_chat)
        panel.openRequested.connect(c.open_chat)
        panel.renameRequested.connect(c.rename_chat)
        panel.deleteRequested.connect(c.delete_chat)
        self.send_button.clicked.connect(self.send)
        self.stop_button.clicked.connect(c.stop)
        self.message_input.submitted.connect(self.send)
        self.message_input.escaped.connect(c.stop)
        self.conversation_view.pinToggled.connect(c.toggle_pin)
        self.conversation_view.groupActivated.connect(self.show_group)
        self.group_panel.undoRequested.connect(c.undo_last_compaction)
        self.group_panel.closed.connect(self.close_group)
        self.goal_panel.goalEdited.connect(c.set_goal_description)
        self.banner.retryRequested.connect(c.refresh_ollama)
        self.banner.startOllamaRequested.connect(
            lambda: window_actions.start_ollama(self.window, c))
        self.banner.pullRequested.connect(c.pull_model)
        c.chatsChanged.connect(panel.refresh)
        c.chatsChanged.connect(self._show_title)  # a rename, or the name from the first message
        c.chatOpened.connect(self._chat_opened)
        c.historyReset.connect(self.reload_history)
        c.messageAdded.connect(self._message_added)
        c.messageUpdated.connect(self.conversation_model.update_message)
        c.replyChunk.connect(self.conversation_model.append_stream_text)
        c.replyFinished.connect(self._reply_finished)
        c.sendFailed.connect(self._send_failed)
        c.contextChanged.connect(self._context_changed)
        c.reliabilityWarning.connect(self._reliability_warning)
        c.compactionStarted.connect(self.compaction_progress.start)
        c.compactionProgress.connect(self.compaction_progress.set_progress)
        for ended in (c.compactionFinished, c.compactionFailed):  # said in one place, a skip too
            ended.connect(lambda r: self.compaction_progress.finish(r.reason))
        c.snapshotsChanged.connect(self._snapshots_changed)
        c.busyChanged.connect(self._busy_changed)
        self.ollama_view = OllamaView(c, self.banner, self.model_selector, self.window)
        c.pullProgress.connect(
            lambda p: self.banner.set_pull_progress(p.status, p.completed, p.total))
        c.error.connect(self.show_error)
        c.notice.connect(lambda text: self.window.statusBar().showMessage(text, 8000))
        reply_actions.connect(self)  # stopped replies, the user's share, the rows' buttons
        panel.messageRequested.connect(partial(reply_actions.open_search_hit, self))
        self.group_panel.numbering = self.conversation_model.marker_position

    # ------------------------------------------------------------------ state
    def open_initial_chat(self) -> None:
        self.chat_panel.refresh()
        chats = self.controller.list_chats()
        last = self.controller.settings.last_chat_id
        target = next((c for c in chats if c.id == last), chats[0] if chats else None)
        if target is not None:
            self.controller.open_chat(target.id)
        else:
            self.reload_history()
        self.message_input.setFocus()  # typing goes to the input at once

    def show_notices(self, notices: list[StartupNotice]) -> None:
        window_actions.show_notices(self.window, notices)

    def update_actions(self) -> None:
        c = self.controller
        has_chat = c.chat is not None
        busy = c.busy or c.compacting
        for action in (self.action_export_md, self.action_export_json,
                       self.action_create_snapshot, self.action_snapshots):
            action.setEnabled(has_chat)
        self.action_compact.setEnabled(has_chat and not busy)
        self.action_undo_compaction.setEnabled(has_chat and not busy and c.snapshot.can_undo)
        self.action_branch_before.setEnabled(self.action_undo_compaction.isEnabled())
        self.actionsUpdated.emit()

    # -------------------------------------------------------------- messages
    def new_chat(self) -> None:
        self.controller.new_chat()
        self.message_input.setFocus()

    def _chat_opened(self, chat: ChatRecord) -> None:
        self.window.shown_chat_id = chat.id  # type: ignore[attr-defined]
        self._show_title()
        self.warning_bar.hide()  # it belongs to the chat it was shown for
        if not self.controller.compacting:  # so does the last compaction's result
            self.compaction_progress.finish()
        self.chat_panel.refresh()
        self.close_group()
        self.update_actions()

    def _show_title(self) -> None:
        chat = self.controller.chat
        self.window.setWindowTitle(f"{chat.title} — ollm-desktop" if chat else "ollm-desktop")

    def reload_history(self) -> None:
        c = self.controller
        if c.chat is None:
            self.conversation_model.set_history([], [], {})
            self.window.setWindowTitle("ollm-desktop")
        else:
            snap = c.snapshot
            self.conversation_model.set_history(c.display_messages(), list(snap.groups),
                                                dict(snap.visibility))
            self.conversation_view.scrollToBottom()
        self.update_actions()

    def _message_added(self, message: Message) -> None:
        self.conversation_model.append_message(message)
        self.conversation_view.scrollToBottom()

    def _reply_finished(self, message: Message, info: ReplyInfo) -> None:
        if info.removed:
            self.conversation_model.remove_message(message.id)
        else:
            self.conversation_model.update_message(message)
        self.update_actions()

    def send(self) -> None:
        text = self.message_input.toPlainText()
        if not text.strip() and not self.controller.pending_images():
            return
        self.input_error.hide()
        self.sending = True  # a chat the send opens (new, or a branch) keeps the input
        try:
            sent = self.controller.send(text) is not None
        finally:
            self.sending = False
        if sent:
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
        self.update_actions()

    # -------------------------------------------------------------- context
    def _context_changed(self, snap: ContextSnapshot) -> None:
        if snap.usage is not None:
            self.context_meter.set_usage(snap.usage)
        if snap.reliability is not None:
            self.reliability_indicator.set_reliability(snap.reliability, snap.compaction_count)
            if self.warning_bar.isVisible():  # the same figure as the status bar, always
                if snap.reliability.warning:
                    self.warning_bar.update_figures(snap.reliability, snap.model or "?",
                                                    snap.compaction_count)
                else:  # a restore or an undo took away what it warned about
                    self.warning_bar.hide()
        if snap.goal is not None:
            self.goal_panel.set_goal(snap.goal)
        self.conversation_model.set_visibility(dict(snap.visibility))
        old, self._groups = self._groups, snap.groups
        if [g.id for g in old] != [g.id for g in snap.groups] or any(
                a.current_tokens != b.current_tokens or a.level != b.level
                for a, b in zip(old, snap.groups, strict=True)):
            self.reload_history()
        if self.open_group_id:
            if any(g.id == self.open_group_id for g in snap.groups):
                self.show_group(self.open_group_id)
            else:
                self.close_group()
        self.update_actions()

    def show_group(self, group_id: str) -> None:
        view = self.controller.group_view(group_id)
        if view is None:
            return
        group, originals, is_newest = view
        self.group_panel.show_group(group, originals, is_newest=is_newest)
        self.group_panel.show()
        sizes = self.splitter.sizes()
        if sizes[2] < 200:  # first opening, or collapsed by the user: give it room again
            room = min(420, max(300, sizes[1] // 3))
            self.splitter.setSizes([sizes[0], max(300, sizes[1] - room), room])
        self.open_group_id = group_id
        self.groupShown.emit(group_id)

    def close_group(self) -> None:
        self.open_group_id = None
        self.group_panel.hide()
        self.groupClosed.emit()

    def _reliability_warning(self, snap: ContextSnapshot) -> None:
        if snap.reliability is not None:  # a bar in the window: nothing modal, ever
            self.warning_bar.show_warning(snap.reliability, snap.model or "?",
                                          snap.compaction_count)

    # --------------------------------------------------------------- dialogs
    def open_snapshot_browser(self) -> SnapshotBrowser:
        self.snapshot_browser = window_actions.snapshot_browser(self.window, self.controller,
                                                                self.snapshot_browser)
        return self.snapshot_browser

    def _snapshots_changed(self) -> None:
        if self.snapshot_browser is not None and self.snapshot_browser.isVisible():
            self.snapshot_browser.refresh()

    def _preferences(self) -> None:
        models = [self.model_selector.itemText(i) for i in range(self.model_selector.count())
                  if self.model_selector.itemData(i) is None]  # not the "(not installed)" rows
        window_actions.preferences(self.window, self.controller, models)
        reply_actions.follow_send_key(self)  # the send key may have changed

    def show_error(self, kind: str, text: str) -> None:
        self.ollama_view.show_error(kind, text)
        self.window.statusBar().showMessage(text, 10000)

    def _export(self, kind: str) -> None:
        window_actions.export_in_background(
            self.window, self.controller, kind, self.show_error,
            lambda text: self.window.statusBar().showMessage(text, 6000))
