"""Issue 25, points 8 and 9, through the real window over the loopback fake Ollama.

The window title follows the open chat's title (the automatic one too); a warning about the
text goes when the text does; an unsent draft is kept per chat and survives a quit; the
Preferences say where the chat's context was set; Help lists every shortcut and explains
compaction.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QLabel

from ollm_desktop.ui.dialogs import help_pages
from ollm_desktop.ui.dialogs.chat_settings_dialog import open_chat_settings
from tests.controller_harness import run, scripted_model
from tests.test_ui_main_window import App, save_shot


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=30)
    return ollama_server


def test_the_window_title_follows_the_chats_title_including_the_automatic_one(app):
    app.window.content.action_new_chat.trigger()
    assert app.window.windowTitle() == "New chat — ollm-desktop"
    run(app.loop, app.type_and_send("Plan the migration of the billing database"))
    title = app.controller.chat.title
    assert title != "New chat" and "migration" in title
    assert app.window.windowTitle() == f"{title} — ollm-desktop"
    app.controller.rename_chat(app.controller.chat.id, "Billing DB")
    assert app.window.windowTitle() == "Billing DB — ollm-desktop"


def test_the_huge_paste_warning_goes_when_the_input_is_cleared(app):
    run(app.loop, app.type_and_send("Hello"))
    huge = "word " * 20000
    app.window.message_input.setPlainText(huge)
    app.window.content.send()
    error = app.window.input_error
    assert error.isVisible() and "leaves room for" in error.text()
    assert app.window.message_input.toPlainText() == huge  # kept, not sent
    app.window.message_input.setPlainText("  ")
    assert not error.isVisible()


def test_an_unsent_draft_is_kept_per_chat_and_survives_a_quit(qloop, qtbot, tmp_path, server):
    data = tmp_path / "data"
    a = App(qloop, qtbot, data, server)
    try:
        run(qloop, a.type_and_send("First chat"))
        first = a.controller.chat.id
        a.window.message_input.setPlainText("A thought for the first chat")
        a.window.content.action_new_chat.trigger()
        assert a.window.message_input.toPlainText() == ""
        run(qloop, a.type_and_send("Second chat"))
        second = a.controller.chat.id
        a.window.message_input.setPlainText("Unsent words in the second chat")
        a.controller.open_chat(first)
        assert a.window.message_input.toPlainText() == "A thought for the first chat"
        a.controller.open_chat(second)
        assert a.window.message_input.toPlainText() == "Unsent words in the second chat"
    finally:
        a.close()  # quit with the draft still in the box
    again = App(qloop, qtbot, data, server)
    try:
        assert again.controller.chat.id == second
        assert again.window.message_input.toPlainText() == "Unsent words in the second chat"
        run(qloop, again.type_and_send(again.window.message_input.toPlainText()))
        assert again.controller.draft(second) == ""  # sent: no longer a draft
    finally:
        again.close()


def _modal(then) -> None:
    dialog = QApplication.activeModalWidget()
    if dialog is None:
        QTimer.singleShot(10, lambda: _modal(then))
        return
    then(dialog)


def test_preferences_say_the_context_was_set_in_chat_settings(app):
    run(app.loop, app.type_and_send("Hello"))
    seen: dict[str, str] = {}

    def set_size(dialog) -> None:
        dialog.context_spin.setValue(2048)
        dialog.accept()

    QTimer.singleShot(0, lambda: _modal(set_size))
    open_chat_settings(app.window, app.controller)
    assert app.controller.chat.context_size == 2048

    def read(dialog) -> None:
        seen["labels"] = " | ".join(label.text() for label in dialog.findChildren(QLabel)
                                    if not label.isHidden())  # on any page (issue 32)
        dialog.reject()

    QTimer.singleShot(0, lambda: _modal(read))
    app.window.content.action_preferences.trigger()
    assert "set in this chat's settings" in seen["labels"], seen
    assert "applied from Preferences" not in seen["labels"]


def test_help_lists_every_shortcut_and_explains_compaction(app, screenshot_dir):
    action = app.window.findChild(QAction, "actionKeyboardShortcuts")
    assert action is not None and action in app.window.content.menus["help"].actions()
    action.trigger()
    page = app.window.content.help_pages.pages["keyboardShortcutsPage"]
    assert page.isVisible() and QApplication.activeModalWidget() is None
    text = page.browser.toPlainText()
    native = QKeySequence.SequenceFormat.NativeText
    for found in app.window.findChildren(QAction):
        for key in found.shortcuts():
            if not key.isEmpty() and found.text():
                assert key.toString(native) in text, found.objectName()
    for expected in ("Ctrl+Return", "Esc", "Shift+Enter", "Continue reply", "Compact now",
                     "Keyboard shortcuts", "Stop the reply"):
        assert expected in text, expected
    save_shot(screenshot_dir, page, "keyboard-shortcuts.png")
    compaction = app.window.findChild(QAction, "actionHowCompactionWorks")
    compaction.trigger()
    howto = app.window.content.help_pages.pages["compactionHelpPage"].browser.toPlainText()
    assert "Nothing is deleted" in howto and "checkpoint" in howto
    assert help_pages.SHORTCUTS_KEY == "Ctrl+/"
