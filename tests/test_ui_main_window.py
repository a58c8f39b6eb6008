"""The real main window over the real controller, store and backend (loopback fake Ollama).

Every scenario runs in one pass of the qasync loop (see ``controller_harness.run``). Screenshots
of the main states go to the ``screenshot_dir`` fixture ($OLLM_SCREENSHOT_DIR when set).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListView, QProgressBar, QPushButton, QTabWidget, QWidget

from ollm_desktop.paths import app_paths
from ollm_desktop.ui.conversation.conversation_model import MessageIdRole, PinnedRole
from ollm_desktop.ui.conversation.roles import KindRole
from ollm_desktop.ui.main_window import MainWindow
from tests.controller_harness import (
    Reply,
    is_turn,
    make_controller,
    run,
    scripted_model,
    settle,
    shutdown,
    until,
)
from tests.ollama_server import FakeModel

LONG = "Let us talk about the storage layer, its migrations and the search index. " * 3


def save_shot(folder: Path, widget: QWidget, name: str) -> None:
    assert widget.grab().save(str(folder / name))


class App:
    """A window, its controller and the data folder, as app.py wires them."""

    def __init__(self, qloop, qtbot, data: Path, server, **settings) -> None:
        self.loop = qloop
        self.controller = make_controller(data, server, **settings)
        self.window = MainWindow(self.controller, app_paths(data))
        qtbot.addWidget(self.window)
        self.window.resize(1280, 820)
        self.window.show()
        self.window.open_initial_chat()
        qloop.run_until_complete(self._probe())

    async def _probe(self) -> None:
        """The start's Ollama probe and what it spawns (the model's details) in one loop pass:
        a request left in flight when the loop stops breaks anyio's task detection."""
        await self.controller.refresh_ollama()
        await settle(self.controller)

    def find(self, cls, name: str):
        widget = self.window.findChild(cls, name)
        assert widget is not None, f"no {cls.__name__} named {name}"
        return widget

    async def type_and_send(self, text: str) -> None:
        self.window.message_input.setPlainText(text)
        self.find(QPushButton, "sendButton").click()
        task = self.controller._reply_task
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)
        await settle(self.controller)
        self.window.conversation_model.flush_stream()

    async def say(self, texts: Iterable[str]) -> None:
        """Type and send each of ``texts``, one turn after another."""
        for text in texts:
            await self.type_and_send(text)

    def rows(self) -> list[tuple[str, str | None]]:
        model = self.window.conversation_model
        return [(model.index(r).data(KindRole), model.index(r).data(MessageIdRole))
                for r in range(model.rowCount())]

    def close(self) -> None:
        self.window.close()
        shutdown(self.loop, self.controller)


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=120)
    return ollama_server


def test_contract_object_names_exist_with_accessible_names(app):
    for name in ("mainWindow", "chatList", "conversationView", "messageInput", "sendButton",
                 "stopButton", "modelSelector", "contextMeter", "reliabilityIndicator",
                 "compactionProgress", "goalPanel"):
        widget = app.window if name == "mainWindow" else app.window.findChild(QWidget, name)
        assert widget is not None, name
        assert widget.accessibleName(), name
    for action in ("actionNewChat", "actionExportMarkdown", "actionExportJson",
                   "actionCompactNow", "actionUndoCompaction", "actionSnapshots",
                   "actionCreateSnapshot", "actionPreferences", "actionTogglePin"):
        assert app.window.findChild(type(app.window.action_new_chat), action) is not None, action


def test_stop_right_after_send_gives_the_text_back(app, server):
    app.window.message_input.setPlainText("Never mind")
    app.find(QPushButton, "sendButton").click()
    app.find(QPushButton, "stopButton").click()  # before the turn's task has even started
    run(app.loop, settle(app.controller))
    assert not app.controller.busy
    assert app.find(QPushButton, "sendButton").isEnabled()
    assert app.window.message_input.toPlainText() == "Never mind"
    engine = app.controller.session.engine
    assert engine is None or not engine.display_messages()


def test_send_streams_into_the_view_and_stop_cancels(app, server, qtbot, screenshot_dir):
    server.script(Reply(text="First answer, streamed word by word.", delay_per_chunk=0.01))

    async def scenario():
        await app.type_and_send("Hello model")
        server.script(Reply(text=" ".join(f"w{i}" for i in range(300)), delay_per_chunk=0.01))
        app.window.message_input.setPlainText("Write a lot")
        streams_before = len(server.streams)
        app.find(QPushButton, "sendButton").click()
        assert app.find(QPushButton, "stopButton").isEnabled()
        assert not app.find(QPushButton, "sendButton").isEnabled()
        await until(lambda: len(server.streams) > streams_before
                    and server.streams[-1].sent > 5)
        app.find(QPushButton, "stopButton").click()
        await until(lambda: not app.controller.busy)
        await settle(app.controller)

    run(app.loop, scenario())
    assert server.streams[-1].finished.wait(5)
    app.window.conversation_model.flush_stream()
    model = app.window.conversation_model
    texts = [model.index(r).data(Qt.ItemDataRole.DisplayRole) for r in range(model.rowCount())]
    assert any("First answer, streamed word by word." in (t or "") for t in texts)
    assert server.streams[-1].outcome == "disconnected"
    last = app.controller.session.engine.display_messages()[-1]
    assert last.role == "assistant" and last.content.startswith("w0 w1")
    assert app.find(QPushButton, "sendButton").isEnabled()
    assert app.window.message_input.toPlainText() == ""
    save_shot(screenshot_dir, app.window, "t-main-window-chat.png")


def test_two_compactions_show_markers_tabs_and_the_dimmed_set(app, server, screenshot_dir):
    async def scenario():
        for i in range(34):
            await app.type_and_send(f"Step {i}: {LONG}")
            engine = app.controller.session.engine
            if len(engine.groups) >= 2 and engine.compaction_count >= 2:
                break

    run(app.loop, scenario())
    engine = app.controller.session.engine
    assert engine.compaction_count >= 2
    groups = engine.groups
    markers = [r for r in app.rows() if r[0] == "marker"]
    assert len(markers) == len(groups) >= 1
    # Every message ever written is a row, in order.
    message_ids = [mid for kind, mid in app.rows() if kind == "message"]
    assert message_ids == [m.id for m in engine.display_messages()]
    # Dimmed rows are exactly the ones the model no longer sees verbatim.
    visibility = engine.visibility()
    model = app.window.conversation_model
    from ollm_desktop.ui.conversation.roles import VisibilityRole
    for row in range(model.rowCount()):
        index = model.index(row)
        if index.data(KindRole) == "message":
            assert index.data(VisibilityRole) == visibility[index.data(MessageIdRole)]
    assert any(v == "summarized" for v in visibility.values())
    # Open the newest group from its marker: the tabs show its summary and its originals.
    newest = groups[-1]
    app.window.conversation_view.groupActivated.emit(newest.id)
    tabs = app.find(QTabWidget, "groupTabs")
    assert [tabs.tabText(i) for i in range(tabs.count())] == ["Summary", "History"]
    assert app.window.group_panel.isVisible()
    summary_text = tabs.widget(0).findChildren(QWidget)
    assert summary_text is not None
    panel_text = _all_text(tabs.widget(0))
    assert newest.summary.splitlines()[1].strip() in panel_text
    history_view = tabs.widget(1)
    assert isinstance(history_view, QListView)
    history_ids = [history_view.model().index(r).data(MessageIdRole)
                   for r in range(history_view.model().rowCount())]
    expected = newest.span_ids or newest.message_ids
    assert [h for h in history_ids if h] == expected
    marker_row = app.window.conversation_model.row_of_group(newest.id)
    app.window.conversation_view.scrollTo(app.window.conversation_model.index(marker_row))
    save_shot(screenshot_dir, app.window, "t-main-window.png")


def test_pin_and_unpin_change_the_next_request_and_the_meter(app, server):
    async def build():
        for i in range(16):
            await app.type_and_send(f"Point {i}: {LONG}")

    run(app.loop, build())
    engine = app.controller.session.engine
    summarized = [mid for mid, v in engine.visibility().items() if v == "summarized"]
    assert summarized
    target = engine.message(summarized[0])
    meter_before = app.find(QWidget, "contextMeter").findChild(QProgressBar).value()
    row = app.window.conversation_model.row_of_message(target.id)
    app.window.conversation_view.setCurrentIndex(app.window.conversation_model.index(row))
    app.window.action_toggle_pin.trigger()
    assert app.window.conversation_model.index(row).data(PinnedRole) is True
    assert engine.message(target.id).pinned
    assert any(target.content in m["content"] for m in engine.api_messages())
    meter_after = app.find(QWidget, "contextMeter").findChild(QProgressBar).value()
    assert meter_after >= meter_before

    run(app.loop, app.type_and_send("Next"))
    sent = [b for b in server.chat_requests() if is_turn(b)][-1]
    assert any(target.content in m["content"] for m in sent["messages"])
    app.window.conversation_view.pinToggled.emit(target.id)
    assert not engine.message(target.id).pinned
    run(app.loop, app.type_and_send("Again"))
    sent = [b for b in server.chat_requests() if is_turn(b)][-1]
    assert not any(target.content in m["content"] for m in sent["messages"])


def test_undo_compaction_from_the_menu_restores_the_previous_context(app, server):
    async def build():
        for i in range(16):
            await app.type_and_send(f"Idea {i}: {LONG}")

    run(app.loop, build())
    engine = app.controller.session.engine
    assert engine.compaction_count >= 1 and engine.can_undo
    before_groups = [g.id for g in engine.groups]
    app.window.content.update_actions()
    assert app.window.action_undo_compaction.isEnabled()
    app.window.action_undo_compaction.trigger()
    assert [g.id for g in engine.groups] != before_groups
    markers = [r for r in app.rows() if r[0] == "marker"]
    assert len(markers) == len(engine.groups)
    kinds = {s.reason for s in app.controller.list_snapshots()}
    assert "before-undo" in kinds


def test_snapshot_create_restore_and_undo_restore_from_the_browser(app, server,
                                                                   screenshot_dir):
    run(app.loop, app.type_and_send("Remember the number 42"))
    app.window.action_snapshots.trigger()
    browser = app.window.content.snapshot_browser
    assert browser is not None and browser.isVisible()
    assert browser.objectName() == "snapshotBrowser"
    browser.ask_label = lambda: "after 42"
    browser.confirm = lambda title, text: True
    assert browser.create_snapshot()
    manual = next(s for s in app.controller.list_snapshots() if s.reason == "manual")
    run(app.loop, app.type_and_send("Now forget it and think of 7"))
    assert len(app.controller.session.engine.display_messages()) == 4
    browser.refresh()
    assert browser.select(manual.id)
    browser.findChild(QPushButton, "restoreSnapshotButton").click()
    assert len(app.controller.session.engine.display_messages()) == 2
    assert app.window.conversation_model.rowCount() == 2
    save_shot(screenshot_dir, browser, "t-snapshot-browser-live.png")
    # The restore itself is undoable: the state before it was snapshotted.
    app.window.action_undo_restore.trigger()
    contents = [m.content for m in app.controller.session.engine.display_messages()]
    assert "Now forget it and think of 7" in contents and len(contents) == 4
    browser.close()


def test_ollama_down_then_back_shows_the_banner_and_retry_works(qloop, qtbot, tmp_path, server,
                                                                screenshot_dir):
    port, host = server.port, server.url
    server.stop()
    a = App(qloop, qtbot, tmp_path / "data", server, ollama_host=host)
    try:
        run(qloop, a.controller.refresh_ollama())
        banner = a.window.banner
        assert banner.isVisible()
        assert f"127.0.0.1:{port}" in _all_text(banner)
        save_shot(screenshot_dir, a.window, "t-main-window-ollama-down.png")
        a.window.message_input.setPlainText("Hello?")
        run(qloop, a.type_and_send("Hello?"))
        assert a.window.message_input.toPlainText() == "Hello?"
        assert a.window.input_error.isVisible()
        server.start(port=port)
        statuses = []
        a.controller.ollamaStatus.connect(statuses.append)
        banner.retryRequested.emit()
        run(qloop, settle(a.controller))
        assert statuses and statuses[-1].reachable, statuses
        assert not banner.isVisible()
        run(qloop, a.type_and_send(a.window.message_input.toPlainText()))
        assert a.controller.session.engine.display_messages()[-1].role == "assistant"
    finally:
        a.close()


def test_a_missing_model_offers_pull_with_progress(qloop, qtbot, tmp_path, server):
    server.pullable["qwen3:4b"] = FakeModel("qwen3:4b", "qwen3", "4.0B", 40960)
    a = App(qloop, qtbot, tmp_path / "data", server, default_model="qwen3:4b")
    try:
        run(qloop, a.controller.refresh_ollama())
        run(qloop, settle(a.controller))
        banner = a.window.banner
        assert banner.isVisible() and "qwen3:4b" in _all_text(banner)
        seen = []
        a.controller.pullProgress.connect(lambda p: seen.append(p.status))
        banner.pullRequested.emit("qwen3:4b")
        run(qloop, settle(a.controller))
        assert seen and seen[-1] == "success"
        assert "qwen3:4b" in [a.window.model_selector.itemText(i)
                              for i in range(a.window.model_selector.count())]
    finally:
        a.close()


def test_html_and_file_images_in_a_reply_are_shown_as_text(app, server):
    from ollm_desktop.ui.text.markdown import SafeTextDocument, make_document

    hostile = ('<b>bold?</b> <script>alert(1)</script> <img src="file:///etc/passwd"> '
               'and ![x](file:///etc/passwd)')
    server.script(hostile)
    run(app.loop, app.type_and_send("Show me HTML"))
    app.window.grab()  # paint: the delegate lays the message out
    assert app.controller.session.engine.display_messages()[-1].content == hostile
    shown = make_document(hostile).toPlainText()
    assert "<script>alert(1)</script>" in shown and "<b>bold?</b>" in shown
    assert '<img src="file:///etc/passwd">' in shown
    # Whatever Qt asks for is served a blank, never the file (None would let Qt load it).
    from PySide6.QtGui import QImage, QTextDocument

    blank = SafeTextDocument().loadResource(QTextDocument.ResourceType.ImageResource,
                                            "file:///etc/passwd")
    assert isinstance(blank, QImage) and blank.size().width() == 1


def test_restart_on_the_same_folder_shows_the_same_chat_and_sends_the_same_context(
        qloop, qtbot, tmp_path, server):
    first = App(qloop, qtbot, tmp_path / "data", server)

    async def build():
        for i in range(14):
            await first.type_and_send(f"Chapter {i}: {LONG}")

    run(qloop, build())
    rows = first.rows()
    expected = first.controller.session.engine.api_messages()
    chat_id = first.controller.chat.id
    first.window.save_window_state()
    first.close()

    second = App(qloop, qtbot, tmp_path / "data", server)
    try:
        assert second.controller.chat is not None and second.controller.chat.id == chat_id
        assert second.rows() == rows
        assert second.controller.session.engine.api_messages() == expected
        assert not second.controller.session.engine.needs_compaction()
        before = len(server.chat_requests())
        run(qloop, second.type_and_send("Continue"))
        sent = next(b for b in server.chat_requests()[before:] if is_turn(b))
        assert sent["messages"][:-1] == expected
    finally:
        second.close()


def _all_text(widget: QWidget) -> str:
    from PySide6.QtWidgets import QAbstractButton, QLabel, QPlainTextEdit, QTextEdit

    parts = []
    for child in [widget, *widget.findChildren(QWidget)]:
        if isinstance(child, QLabel):
            parts.append(child.text())
        elif isinstance(child, (QTextEdit, QPlainTextEdit)):
            parts.append(child.toPlainText())
        elif isinstance(child, QAbstractButton):
            parts.append(child.text())
    return "\n".join(parts)



def test_chat_list_new_rename_search_delete(app, server):
    from PySide6.QtWidgets import QListWidget

    chat_list = app.find(QListWidget, "chatList")
    run(app.loop, app.type_and_send("The first chat is about sqlite pragmas"))
    first = app.controller.chat.id
    app.window.action_new_chat.trigger()
    run(app.loop, app.type_and_send("The second chat is about qasync"))
    second = app.controller.chat.id
    assert first != second
    chats = [chat_list.item(i) for i in range(chat_list.count())
             if chat_list.item(i).data(Qt.ItemDataRole.UserRole + 1)]  # not the date headers
    titles = [item.text() for item in chats]
    assert titles[0].startswith("The second chat") and titles[1].startswith("The first chat")
    app.controller.rename_chat(first, "Pragmas")
    assert "Pragmas" in [chat_list.item(i).text() for i in range(chat_list.count())]
    app.window.chat_search.setText("PRAGMAS")
    hits = [chat_list.item(i).text() for i in range(chat_list.count())]
    assert hits[0] == "Pragmas" and len(hits) == 2 and "sqlite pragmas" in hits[1]
    # Opening a chat from the hits shows that chat's history.
    app.window.chat_panel.item_activated(chat_list.item(0))
    assert app.controller.chat.id == first
    assert app.window.conversation_model.rowCount() == 2
    app.window.chat_search.setText("")
    app.controller.delete_chat(second)
    ids = [chat_list.item(i).data(Qt.ItemDataRole.UserRole + 1) for i in range(chat_list.count())]
    assert [i for i in ids if i] == [first]


def test_an_empty_chat_explains_what_to_do(app):
    view = app.window.conversation_view
    assert app.window.conversation_model.rowCount() == 0
    with_hint = view.grab().toImage()
    text, view.empty_text = view.empty_text, ""
    without_hint = view.grab().toImage()
    view.empty_text = text
    assert "press Enter" in text  # the default send key (Settings.send_key)
    assert with_hint != without_hint  # the hint is actually drawn
