"""A damaged database at start, through the real window: the notice does not block the
window, and File ▸ Open set-aside database imports the chats the kept file still holds."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QLabel

from ollm_desktop.paths import app_paths
from ollm_desktop.storage import ChatStore
from ollm_desktop.ui import window_actions
from tests.test_storage_salvage import _build, _overwrite, _page_of
from tests.test_ui_main_window import App, save_shot
from tests.test_ui_widgets import _answer_modal


@pytest.fixture
def damaged(tmp_path):
    """A data folder whose database had the 4 KB page holding one message's row overwritten;
    returns (data folder, the chats as built, the notices of the first open)."""
    data = tmp_path / "data"
    paths = app_paths(data)
    made = _build(paths)
    _overwrite(paths.database, _page_of(paths.database, "MARK-5-15-END"))
    store, notices = ChatStore.open(paths)  # the start that finds the damage
    store.close()
    return data, made, notices


def _rows(dialog) -> list[tuple[str, bool]]:
    return [(dialog.list.item(r).text(), dialog.list.item(r).checkState().value == 2)
            for r in range(dialog.list.count())]


def test_salvage_notice_is_modeless_and_says_what_came_back(qloop, qtbot, damaged,
                                                            ollama_server, screenshot_dir):
    data, _made, notices = damaged
    app = App(qloop, qtbot, data, ollama_server)
    try:
        [box] = window_actions.show_notices(app.window, notices)
        qtbot.waitUntil(box.isVisible)
        assert not box.isModal() and QApplication.activeModalWidget() is None
        assert "of 360 messages" in box.text()
        assert "Recover chats from a damaged database" in box.text()
        app.window.message_input.setPlainText("the window still takes input")
        assert app.window.message_input.toPlainText() == "the window still takes input"
        save_shot(screenshot_dir, box, "salvage-notice.png")
        box.close()
    finally:
        app.close()


def test_open_set_aside_imports_a_chat_deleted_since(qloop, qtbot, damaged, ollama_server,
                                                     screenshot_dir):
    data, made, _notices = damaged
    paths = app_paths(data)
    app = App(qloop, qtbot, data, ollama_server)
    try:
        assert window_actions.has_set_aside(paths)
        chats = {c.title: c for c in app.controller.list_chats()}
        assert len(chats) == len(made)  # recovered at start
        app.controller.delete_chat(chats["chat 0"].id)
        seen: dict[str, object] = {}

        def act(dialog) -> None:
            seen["rows"] = _rows(dialog)
            seen["enabled"] = dialog.import_button.isEnabled()
            save_shot(screenshot_dir, dialog, "set-aside-dialog.png")
            dialog.import_button.click()

        _answer_modal(qtbot, act)
        imported = window_actions.open_set_aside(app.window, app.controller, paths)

        rows = seen["rows"]
        assert isinstance(rows, list) and len(rows) == len(made)
        assert [text.split(" · ")[0] for text, checked in rows if checked] == ["chat 0"]
        assert all("already in your chats" in text for text, checked in rows if not checked)
        assert seen["enabled"] is True
        assert [c.title for c in imported] == ["chat 0 (recovered)"]
        # It is a chat like any other: listed, opened, with its messages.
        listed = [app.window.chat_panel.list.item(r).text()
                  for r in range(app.window.chat_panel.list.count())]
        assert "chat 0 (recovered)" in listed
        assert app.controller.chat is not None
        assert app.controller.chat.title == "chat 0 (recovered)"
        original = next(iter(made.values()))
        assert [m.content for m in app.controller.display_messages()] == [
            m.content for m in original]
        assert "Imported 1 chat(s)" in app.window.statusBar().currentMessage()
    finally:
        app.close()


def test_nothing_readable_offers_the_folder_only(qloop, qtbot, tmp_path, ollama_server):
    data = tmp_path / "data"
    paths = app_paths(data)
    _build(paths)
    _overwrite(paths.database, 0)  # no SQLite header: nothing is guessed
    App(qloop, qtbot, data, ollama_server).close()
    app = App(qloop, qtbot, data, ollama_server)
    try:
        seen: dict[str, object] = {}

        def act(dialog) -> None:
            seen["intro"] = dialog.findChild(QLabel, "setAsideIntro").text()
            seen["list"] = dialog.list.isVisible()
            seen["enabled"] = dialog.import_button.isEnabled()
            seen["folder"] = dialog.folder_button.isEnabled()
            dialog.reject()

        _answer_modal(qtbot, act)
        assert window_actions.open_set_aside(app.window, app.controller, paths) == []
        assert seen["enabled"] is False and seen["folder"] is True
        assert seen["list"] is False  # nothing to tick
        assert "No chat in it can be read" in str(seen["intro"])
        assert app.controller.list_chats() == []
    finally:
        app.close()


def test_several_set_aside_files_are_chosen_from_a_list(qloop, qtbot, tmp_path, ollama_server):
    data = tmp_path / "data"
    paths = app_paths(data)
    for _ in range(2):
        _build(paths)
        _overwrite(paths.database, 0)
        ChatStore.open(paths)[0].close()
        for chat in ChatStore.open(paths)[0].list_chats():
            raise AssertionError(chat)
        paths.database.unlink()
    app = App(qloop, qtbot, data, ollama_server)
    try:
        files = window_actions.set_aside.files(paths)
        assert len(files) == 2
        seen: list[str] = []

        def pick(dialog) -> None:
            seen.append(type(dialog).__name__)
            _answer_modal(qtbot, lambda second: (seen.append(type(second).__name__),
                                                 second.reject()))
            dialog.setTextValue(dialog.comboBoxItems()[1])
            dialog.accept()

        _answer_modal(qtbot, pick)
        assert window_actions.open_set_aside(app.window, app.controller, paths) == []
        assert seen == ["QInputDialog", "SetAsideDialog"]
    finally:
        app.close()


def test_no_set_aside_file_says_so_in_the_status_bar(qloop, qtbot, tmp_path, ollama_server):
    data = tmp_path / "data"
    app = App(qloop, qtbot, data, ollama_server)
    try:
        assert not window_actions.has_set_aside(app_paths(data))
        assert window_actions.open_set_aside(app.window, app.controller, app_paths(data)) == []
        assert "No damaged database was kept" in app.window.statusBar().currentMessage()
    finally:
        app.close()
