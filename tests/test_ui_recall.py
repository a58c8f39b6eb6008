"""Recall through the real window (issue 23), over the loopback fake Ollama: the reply's row
says what its request recalled and shows the text on demand, each item jumps to its message,
the row survives a restart; the chat settings' switch and a message's exclusion keep recalled
text out of the next request (read on the wire)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QColor, QPainter, QPixmap
from PySide6.QtWidgets import QCheckBox, QDialog, QLabel, QListWidget, QPlainTextEdit, QPushButton

from ollm_desktop.engine import ContextEngine, Message
from ollm_desktop.ui.conversation.row_menu import build_row_menu
from ollm_desktop.ui.dialogs.chat_settings_dialog import ChatSettingsDialog
from ollm_desktop.ui.preferences.dialog import PreferencesDialog
from tests.controller_harness import scripted_model
from tests.test_session_recall import FACT, TALK, seed, stand_in_recall_request
from tests.test_ui_branches import click_row_button
from tests.test_ui_main_window import App

QUESTION = "Which port does lb-17.internal use?"
SETTINGS = {"context_size": 2048, "preserve_recent_tokens": 0, "keep_recent_turns": 2,
            "preserve_user_messages": False}


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=20)
    return ollama_server


@pytest.fixture(autouse=True)
def engine_recall(monkeypatch):
    if not hasattr(ContextEngine, "recall_request"):  # until the engine's own lands
        monkeypatch.setattr(ContextEngine, "recall_request", stand_in_recall_request,
                            raising=False)


def seeded(app: App) -> list[Message]:
    """A chat whose first round (the ingress host) will have left the request, opened."""
    added = seed(app.controller.session, [(FACT, "Noted: lb-17.internal."), *TALK])
    assert app.controller.chat is not None
    app.controller.open_chat(app.controller.chat.id)
    return added


def newest_sent(server) -> str:
    return server.chat_requests()[-1]["messages"][-1]["content"]


def row_notes(app: App, message_id: str) -> list[str]:
    view, model = app.window.conversation_view, app.window.conversation_model
    row = model.row_of_message(message_id)
    assert row is not None and view.message_delegate.row_notes is not None
    return view.message_delegate.row_notes(model.rows[row])


def test_the_reply_row_shows_what_was_recalled_and_jumps_to_it(
        qloop, qtbot, tmp_path, server, screenshot_dir):
    app = App(qloop, qtbot, tmp_path / "data", server, **SETTINGS)
    try:
        added = seeded(app)
        qloop.run_until_complete(app.type_and_send(QUESTION))
        assert FACT in newest_sent(server)  # the request carried it, quoted after the question
        reply = app.controller.display_messages()[-1]
        assert row_notes(app, reply.id) == ["Recalled 2 earlier messages"]
        assert all(FACT not in m.content for m in app.controller.display_messages()[-2:])

        click_row_button(app, reply.id, "actionShowRecalled")  # the row's hover button
        panel = app.find(QDialog, "recallPanel")
        qtbot.waitUntil(panel.isVisible)
        assert not panel.isModal()
        assert FACT in app.find(QPlainTextEdit, "recalledText").toPlainText()
        items = app.find(QListWidget, "recalledItems")
        assert items.count() == 2 and "Turn 1" in items.item(0).text()
        panel.resize(560, 380)
        shot = app.window.grab()
        painter = QPainter(shot)
        painter.fillRect(shot.width() - 580, shot.height() - 420, 572, 392, QColor("#888888"))
        painter.drawPixmap(QPoint(shot.width() - 574, shot.height() - 414), panel.grab())
        painter.end()
        assert shot.save(str(screenshot_dir / "recall.png"))

        items.setCurrentRow(0)
        app.find(QPushButton, "recallJumpButton").click()  # to the recalled message
        assert app.window.conversation_view.current_message_id() == added[0].id
        assert app.controller.delete_message(added[1].id) is not None
        items.setCurrentRow(1)
        app.find(QPushButton, "recallJumpButton").click()
        assert "no longer" in app.find(QLabel, "recallNote").text()
        panel.close()
        chat_id = app.controller.chat.id if app.controller.chat else ""
    finally:
        app.close()
    again = App(qloop, qtbot, tmp_path / "data", server, **SETTINGS)  # a restart
    try:
        again.controller.open_chat(chat_id)
        assert row_notes(again, reply.id) == ["Recalled 2 earlier messages"]
        assert isinstance(QPixmap(str(screenshot_dir / "recall.png")), QPixmap)
    finally:
        again.close()


def test_the_switch_and_an_exclusion_keep_recalled_text_out(qloop, qtbot, tmp_path, server):
    app = App(qloop, qtbot, tmp_path / "data", server, **SETTINGS)
    try:
        added = seeded(app)
        view, model = app.window.conversation_view, app.window.conversation_model
        menu = build_row_menu(view, model.index(model.row_of_message(added[0].id)))
        assert menu is not None
        exclude = next(a for a in menu.actions() if a.objectName() == "actionExcludeFromRecall")
        assert isinstance(exclude, QAction) and not exclude.isChecked()
        exclude.trigger()  # checks it: the message (and its round) leaves recall
        assert row_notes(app, added[0].id) == ["kept out of recall"]
        qloop.run_until_complete(app.type_and_send(QUESTION))
        assert FACT not in newest_sent(server)
        menu = build_row_menu(view, model.index(model.row_of_message(added[0].id)))
        assert menu is not None
        exclude = next(a for a in menu.actions() if a.objectName() == "actionExcludeFromRecall")
        assert exclude.isChecked()
        exclude.trigger()  # back in
        assert row_notes(app, added[0].id) == []

        c = app.controller
        assert c.chat is not None
        dialog = ChatSettingsDialog(c.chat, c.settings, c.snapshot, c.apply_chat_settings,
                                    app.window, recall_status=c.recall_status())
        assert dialog.objectName() == "chatSettingsDialog"
        switch = dialog.findChild(QCheckBox, "recallCheckBox")
        assert switch is not None and switch.isChecked()  # on by default
        status = dialog.findChild(QLabel, "recallStatusLabel")
        assert status is not None and "words" in status.text()
        switch.setChecked(False)
        dialog.accept()
        assert c.chat.settings.recall is False
        qloop.run_until_complete(app.type_and_send(QUESTION + " Again."))
        assert FACT not in newest_sent(server)
        switch_back = ChatSettingsDialog(c.chat, c.settings, c.snapshot, c.apply_chat_settings,
                                         app.window, recall_status=c.recall_status())
        found = switch_back.findChild(QCheckBox, "recallCheckBox")
        assert found is not None and not found.isChecked()
        found.setChecked(True)
        switch_back.accept()
        qloop.run_until_complete(app.type_and_send(QUESTION + " Once more."))
        assert FACT in newest_sent(server)

        prefs = PreferencesDialog(c.settings, ["llama3.2:3b"], app.window)
        default = prefs.findChild(QCheckBox, "recallDefaultCheckBox")
        assert default is not None and default.isChecked()
        default.setChecked(False)
        assert prefs.validate() and prefs.result_settings().recall_new_chats is False
        prefs.deleteLater()
    finally:
        app.close()


def test_without_fts5_the_switch_is_off_and_says_why(qloop, qtbot, tmp_path, server):
    app = App(qloop, qtbot, tmp_path / "data", server)
    try:
        app.controller.session.store.recall_searchable = False
        app.controller.new_chat("x")
        c = app.controller
        assert c.chat is not None
        dialog = ChatSettingsDialog(c.chat, c.settings, c.snapshot, c.apply_chat_settings,
                                    app.window, recall_status=c.recall_status())
        switch = dialog.findChild(QCheckBox, "recallCheckBox")
        status = dialog.findChild(QLabel, "recallStatusLabel")
        assert switch is not None and not switch.isEnabled()
        assert status is not None and "FTS5" in status.text()
        dialog.deleteLater()
        assert Qt.ItemDataRole.UserRole  # (keeps the Qt import used on every path)
    finally:
        app.close()
