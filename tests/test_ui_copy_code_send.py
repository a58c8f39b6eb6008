"""Everyday chat features (issue 15): copy a message, code blocks (colours, Copy), send keys.

Through the real window, controller, store and backend over the loopback fake Ollama. What a
click copies is read back from the clipboard; what a key sends is read from the wire.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import (
    QAction,
    QGuiApplication,
    QImage,
    QInputMethodEvent,
    QKeySequence,
    QTextCursor,
)
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from ollm_desktop.ui import theme
from ollm_desktop.ui.preferences.dialog import PreferencesDialog
from ollm_desktop.ui.text.markdown import SafeTextDocument
from tests.controller_harness import (
    chat_turns,
    run,
    scripted_model,
    settle,
    until,
)
from tests.test_ui_main_window import App

CODE = ('import sys\n\n\ndef lines(path: str) -> int:\n    """Count the lines."""\n'
        "    with open(path, encoding='utf-8') as fh:  # streams\n"
        "        return sum(1 for _ in fh)\n\nprint(lines(sys.argv[1]))")
REPLY = ("Use a **with** block and `sum`:\n\n```python\n" + CODE + "\n```\n\n"
         "It streams the file, so memory stays flat.")


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=40)
    return ollama_server


@pytest.fixture
def restore_theme(qapp):
    style, palette = qapp.style().name(), qapp.palette()
    yield
    theme.apply_theme(qapp, "system")
    qapp.setStyle(style)
    qapp.setPalette(palette)




def reply_row(app: App, text: str = "Show me") -> tuple[int, QModelIndex]:
    """Send ``text`` (the server answers what was scripted); the reply's row, shown."""
    run(app.loop, app.type_and_send(text))
    view, model = app.window.conversation_view, app.window.conversation_model
    view.scrollToBottom()
    app.window.grab()  # painted: rows laid out exactly
    row = model.rowCount() - 1
    return row, model.index(row)


def clipboard_after(action) -> str:
    QGuiApplication.clipboard().setText("(nothing copied)")
    action()
    return QGuiApplication.clipboard().text()


def region(view, rect) -> QImage:
    return view.viewport().grab(rect).toImage()


def click(view, point: QPoint) -> None:
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)


# ------------------------------------------------------------------ copy a message
def test_copy_message_from_the_row_glyph_the_menu_and_ctrl_c_gives_the_markdown_source(app,
                                                                                       server):
    server.script(REPLY)
    row, index = reply_row(app)
    view, model = app.window.conversation_view, app.window.conversation_model
    copy = app.window.findChild(QAction, "actionCopyMessage")
    assert copy is view.copy_action  # the contract: one action, on the conversation's rows
    assert copy.shortcut() == QKeySequence(QKeySequence.StandardKey.Copy)
    view.clearSelection()
    view.setCurrentIndex(QModelIndex())
    rect = view.visualRect(index)
    glyph = view.message_delegate.copy_rect(rect)
    assert rect.contains(glyph) and view.viewport().rect().contains(glyph)
    before = region(view, glyph)
    QTest.mouseMove(view.viewport(), rect.center())
    assert region(view, glyph) != before  # the glyph appears on the hovered row

    # The row's glyph copies the message as written (Markdown), not the rendered text.
    assert clipboard_after(lambda: click(view, glyph.center())) == REPLY
    assert view.currentIndex().row() == row

    # The row's context menu offers the same action, for the row it was opened on.
    user_index = model.index(row - 1)
    menu = view.build_context_menu(user_index)
    assert copy in menu.actions()
    assert clipboard_after(copy.trigger) == "Show me"

    # Ctrl+C in the list copies the selected message.
    view.setFocus()
    view.setCurrentIndex(index)
    assert clipboard_after(lambda: QTest.keyClick(view, Qt.Key.Key_C,
                                                  Qt.KeyboardModifier.ControlModifier)) == REPLY
    # Nothing selected: the message under the mouse.
    view.setCurrentIndex(QModelIndex())
    QTest.mouseMove(view.viewport(), view.visualRect(user_index).center())
    assert clipboard_after(copy.trigger) == "Show me"


# ------------------------------------------------------------------ code blocks
def keyword_colour(view, row: int) -> str:
    doc = view.message_delegate.document(view.conversation_model.rows[row])
    found = doc.find("def")
    assert not found.isNull()
    cursor = QTextCursor(doc)
    cursor.setPosition(found.selectionStart() + 1)
    return cursor.charFormat().foreground().color().name()


def style_colour(style_name: str) -> str:
    from pygments.styles import get_style_by_name
    from pygments.token import Keyword

    return "#" + get_style_by_name(style_name).style_for_token(Keyword)["color"].lower()


def test_code_blocks_are_coloured_in_both_themes_and_copy_gives_exactly_the_code(
        app, server, qapp, qtbot, restore_theme, screenshot_dir):
    from ollm_desktop.ui.text.code_blocks import DARK_STYLE, LIGHT_STYLE

    theme.apply_theme(qapp, "light")
    server.script(REPLY)
    row, index = reply_row(app, "How do I count lines?")
    view = app.window.conversation_view
    doc = view.message_delegate.document(app.window.conversation_model.rows[row])
    assert [(b.language, b.code) for b in doc.code_blocks] == [("python", CODE)]
    assert keyword_colour(view, row) == style_colour(LIGHT_STYLE)

    buttons = view.message_delegate.code_copy_rects(app.window.conversation_model.rows[row],
                                                    view.visualRect(index))
    assert len(buttons) == 1 and view.viewport().rect().contains(buttons[0])
    QTest.mouseMove(view.viewport(), buttons[0].center())
    assert view.viewport().cursor().shape() == Qt.CursorShape.PointingHandCursor
    app.window.grab().save(str(screenshot_dir / "code-block-light.png"))

    theme.apply_theme(qapp, "dark")  # the view follows the palette: darker-background colours
    qtbot.waitUntil(lambda: theme.is_dark(view.palette()))
    assert keyword_colour(view, row) == style_colour(DARK_STYLE) != style_colour(LIGHT_STYLE)
    QTest.mouseMove(view.viewport(), buttons[0].center() + QPoint(0, 30))
    app.window.grab().save(str(screenshot_dir / "code-block-dark.png"))
    image = region(view, buttons[0])
    assert clipboard_after(lambda: click(view, buttons[0].center())) == CODE
    assert region(view, buttons[0]) != image  # the button says it copied


def test_markup_inside_and_outside_code_blocks_stays_text_and_loads_nothing(app, server):
    hostile = ("<img src=file:///etc/passwd>", "<script>alert(1)</script>")
    code = "\n".join(hostile)
    server.script(f"{hostile[0]} {hostile[1]}\n\n```html\n{code}\n```\n\n"
                  f"and `{hostile[0]}` inline.")
    SafeTextDocument.load_attempts = 0
    row, index = reply_row(app)
    view = app.window.conversation_view
    doc = view.message_delegate.document(app.window.conversation_model.rows[row])
    shown = doc.toPlainText()
    for text in hostile:
        assert shown.count(text) >= 2, text  # as text, inside the code block and outside
    html = doc.toHtml()
    assert "<img" not in html.replace("&lt;img", "")  # no image element at all
    assert "<script" not in html.replace("&lt;script", "")
    assert "root:" not in shown
    assert doc.code_blocks[0].code == code
    assert SafeTextDocument.load_attempts == 0
    button = view.message_delegate.code_copy_rects(app.window.conversation_model.rows[row],
                                                   view.visualRect(index))[0]
    assert clipboard_after(lambda: click(view, button.center())) == code


# ------------------------------------------------------------------ send keys
def press(widget, key, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(widget, key, modifiers)


def compose(widget, preedit: str, commit: str = "") -> None:
    event = QInputMethodEvent(preedit, [])
    if commit:
        event.setCommitString(commit)
    QApplication.sendEvent(widget, event)


async def until_sent(app: App, server, count: int) -> None:
    await until(lambda: len(chat_turns(server)) >= count)
    task = app.controller._reply_task
    if task is not None:
        await until(task.done)
    await settle(app.controller)


def test_enter_sends_shift_enter_is_a_new_line_and_composing_never_sends(app, server):
    box = app.window.message_input
    assert box.send_key == "enter" and "Enter to send" in box.placeholderText()
    assert "Shift+Enter" in box.placeholderText()
    assert "press Enter" in app.window.conversation_view.empty_text
    box.setFocus()
    QTest.keyClicks(box, "first line")
    press(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    QTest.keyClicks(box, "second")
    assert box.toPlainText() == "first line\nsecond" and not chat_turns(server)
    compose(box, "にほ")  # an input method composing: Enter is its, never a send
    press(box, Qt.Key.Key_Return)
    compose(box, "", commit="にほん")
    assert box.toPlainText() == "first line\nsecondにほん" and not chat_turns(server)
    press(box, Qt.Key.Key_Return)
    run(app.loop, until_sent(app, server, 1))
    assert chat_turns(server)[-1]["messages"][-1]["content"] == "first line\nsecondにほん"
    assert box.toPlainText() == ""
    QTest.keyClicks(box, "by ctrl")  # Ctrl+Enter sends too
    press(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    run(app.loop, until_sent(app, server, 2))
    assert chat_turns(server)[-1]["messages"][-1]["content"] == "by ctrl"
    QTest.keyClicks(box, "keypad")  # the keypad's Enter is Enter
    press(box, Qt.Key.Key_Enter, Qt.KeyboardModifier.KeypadModifier)
    run(app.loop, until_sent(app, server, 3))
    assert chat_turns(server)[-1]["messages"][-1]["content"] == "keypad"
    assert len(chat_turns(server)) == 3  # one request per key press


def test_ctrl_enter_preference_from_the_dialog_makes_enter_a_new_line(app, server, monkeypatch):
    def choose_ctrl_enter(dialog: PreferencesDialog) -> int:
        combo = dialog.send_combo
        assert combo.objectName() == "pref_send_key" and combo.currentData() == "enter"
        combo.setCurrentIndex(combo.findData("ctrl-enter"))
        dialog.accept()
        return 1

    monkeypatch.setattr(PreferencesDialog, "exec", choose_ctrl_enter)
    app.window.findChild(QAction, "actionPreferences").trigger()
    assert app.controller.settings.send_key == "ctrl-enter"  # saved with the settings
    box = app.window.message_input
    assert box.send_key == "ctrl-enter" and "Ctrl+Enter to send" in box.placeholderText()
    assert "press Ctrl+Enter" in app.window.conversation_view.empty_text
    box.setFocus()
    QTest.keyClicks(box, "one")
    press(box, Qt.Key.Key_Return)
    QTest.keyClicks(box, "two")
    assert box.toPlainText() == "one\ntwo" and not chat_turns(server)
    press(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    run(app.loop, until_sent(app, server, 1))
    assert chat_turns(server)[-1]["messages"][-1]["content"] == "one\ntwo"
    assert len(chat_turns(server)) == 1


def test_the_send_key_is_read_at_start(qloop, qtbot, tmp_path, server):
    a = App(qloop, qtbot, tmp_path / "data", server, send_key="ctrl-enter")
    try:
        assert a.window.message_input.send_key == "ctrl-enter"
        assert "Ctrl+Enter to send" in a.window.message_input.placeholderText()
    finally:
        a.close()
