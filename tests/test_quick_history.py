"""The window's first picture of the stored chat: read without the engine, adopted whole.

P1b (bench/bench_startup.py) times it; these tests check it is the right chat, that it never
fails a start, and that the full window adopts the same input, so nothing typed early is lost.
"""

from __future__ import annotations

import subprocess
import sys

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from ollm_desktop.engine import ContextEngine, EngineConfig
from ollm_desktop.paths import app_paths
from ollm_desktop.quick_history import read_last_chat
from ollm_desktop.session import Settings, save_settings
from ollm_desktop.startup_prefs import read_startup_prefs
from ollm_desktop.storage import ChatStore
from tests.controller_harness import make_controller, run, scripted_model, settle, shutdown, until


def _two_chats(data):
    paths = app_paths(data)
    paths.ensure()
    store, _ = ChatStore.open(paths)
    ids = []
    try:
        for title in ("First", "Second"):
            chat = store.create_chat(title, model="llama3.2:3b")
            engine = ContextEngine(EngineConfig(), None, "")
            for i in range(3):
                for role in ("user", "assistant"):
                    message = engine.add(role, f"{title} {role} {i}")
                    if role == "assistant":  # what a reply row shows besides its text
                        message.model = "llama3.2:3b"
                        message.thinking = f"Reasoning {i}." if i == 1 else None
                    store.append_message(chat.id, message)
            ids.append(chat.id)
    finally:
        store.close()
    return paths, ids


def test_it_reads_the_chat_the_app_will_open_in_order(tmp_path):
    paths, (first, second) = _two_chats(tmp_path / "data")
    save_settings(paths.settings_file, Settings(last_chat_id=first))
    chat = read_last_chat(paths.database, read_startup_prefs(paths.settings_file).last_chat_id)
    assert chat is not None and (chat.id, chat.title) == (first, "First")
    store, _ = ChatStore.open(paths)
    try:
        stored = store.load_engine_state(first)
    finally:
        store.close()
    assert stored is not None
    assert [(m.id, m.role, m.content) for m in chat.messages] == \
        [(m.id, m.role, m.content) for m in stored.messages]
    save_settings(paths.settings_file, Settings(last_chat_id="gone"))
    newest = read_last_chat(paths.database, read_startup_prefs(paths.settings_file).last_chat_id)
    assert newest is not None and newest.id in (first, second)


def test_a_missing_or_damaged_file_means_no_early_picture(tmp_path):
    missing = tmp_path / "none.sqlite3"
    assert read_last_chat(missing, None) is None
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database" * 500)
    assert read_last_chat(garbage, None) is None


def test_the_full_window_adopts_the_picture_and_the_text_typed_early(qloop, qtbot, tmp_path,
                                                                     ollama_server):
    from ollm_desktop.ui.main_window import MainWindow

    data = tmp_path / "data"
    paths, (first, _second) = _two_chats(data)
    save_settings(paths.settings_file, Settings(last_chat_id=first))
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    chat = read_last_chat(paths.database, read_startup_prefs(paths.settings_file).last_chat_id)
    assert chat is not None
    window.show_preview(chat)
    early = window.preview
    assert early is not None and early.model.rowCount() == 6 and window.shown_chat_id == first
    window.grab()  # painted: every row's delegate has read its message

    def shown() -> list[object]:
        model = early.model
        return [model.index(r).data(Qt.ItemDataRole.AccessibleTextRole)
                for r in range(model.rowCount())]

    picture = shown()
    assert not early.view.message_delegate.code_colours  # no Pygments before the window is up
    assert any("llama3.2:3b" in str(text) for text in picture)
    early.input.setPlainText("typed before the engine loaded")
    controller = make_controller(data, ollama_server, last_chat_id=first)
    try:
        window.attach(controller, paths)
        window.open_initial_chat()
        assert window.message_input is early.input and window.conversation_view is early.view
        assert window.message_input.toPlainText() == "typed before the engine loaded"
        assert controller.chat is not None and controller.chat.id == first
        assert window.conversation_model.rowCount() == 6
        assert shown() == picture  # the first picture showed the rows as the window does
        assert window.conversation_view.message_delegate.code_colours
        qtbot.waitUntil(lambda: window.message_input.isVisible()
                        and window.conversation_view.isVisible(), timeout=3000)
        run(qloop, controller.refresh_ollama())
    finally:
        window.close()
        shutdown(qloop, controller)


def test_the_first_picture_imports_neither_the_engine_nor_pydantic():
    code = ("import sys; import PySide6.QtWidgets; import ollm_desktop.quick_history, "
            "ollm_desktop.ui.main_window, ollm_desktop.ui.conversation_pane; "
            "print(sorted(m for m in sys.modules if m.startswith(('pydantic', "
            "'ollm_desktop.engine', 'ollm_desktop.storage', 'ollm_desktop.session', "
            "'ollm_desktop.controller'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"QT_QPA_PLATFORM": "offscreen", "PATH": ""})
    assert out.stdout.strip() == "[]", out.stdout


def test_enter_in_the_first_picture_sends_once_the_chat_has_opened(qloop, qtbot, tmp_path,
                                                                   ollama_server):
    from ollm_desktop.ui.main_window import MainWindow

    ollama_server.reply_fn = scripted_model(reply_words=10)
    data = tmp_path / "data"
    paths, (first, _second) = _two_chats(data)
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    chat = read_last_chat(paths.database, first)
    assert chat is not None
    window.show_preview(chat)
    early = window.preview
    assert early is not None
    early.input.setPlainText("sent before the engine loaded")
    QTest.keyClick(early.input, Qt.Key.Key_Return)
    assert early.input.toPlainText() == "sent before the engine loaded"  # kept, not lost
    assert window.early_send
    controller = make_controller(data, ollama_server, last_chat_id=first)
    try:
        window.attach(controller, paths)
        window.open_initial_chat()

        async def sent_and_answered() -> None:
            # One pass of the loop: leaving it while the reply streams breaks anyio's detection
            await until(lambda: any(
                m["content"] == "sent before the engine loaded"
                for body in ollama_server.chat_requests() for m in body["messages"]))
            await settle(controller)

        run(qloop, sent_and_answered())
        error = window.content.input_error.text() if window.content is not None else ""
        assert window.message_input.toPlainText() == "", f"the send failed: {error!r}"
        assert controller.display_messages()[-2].content == "sent before the engine loaded"
    finally:
        window.close()
        shutdown(qloop, controller)


def test_a_chat_in_the_trash_is_not_the_first_picture(tmp_path):
    paths, (first, second) = _two_chats(tmp_path / "data")
    store, _ = ChatStore.open(paths)
    store.trash_chat(first)
    store.close()
    shown = read_last_chat(paths.database, first)
    assert shown is not None and shown.id == second
