"""The conversation as a current chat app shows it (issue 32): the user's messages are bubbles
on the right whose size hint and painted rectangle agree, replies wrap at a readable line
length in a centred column, the row's actions appear on hover and are reachable from the
keyboard and the row's menu too, and a compaction marker is a quiet row."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QColor, QContextMenuEvent, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu, QStyleOptionViewItem, QWidget

from ollm_desktop.ui.conversation.message_delegate import BUBBLE_SHARE, BUBBLE_V, OUTER_V, PAD_V
from ollm_desktop.ui.conversation.row_header import action_rects
from ollm_desktop.ui.theme.tokens import READABLE_LINE_CHARS
from tests.controller_harness import run, scripted_model
from tests.test_ui_main_window import App

SHOTS = Path(os.environ.get("OLLM_UI_SHOTS", "/tmp"))
SHORT = "Hi!"
LONG = ("How do I keep a long conversation with a small model useful, when the context is "
        "small and the model forgets what I told it at the start? ") * 3


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=120)
    return ollama_server


@pytest.fixture
def app(qloop, qtbot, tmp_path, server):
    a = App(qloop, qtbot, tmp_path / "data", server)
    a.window.content.first_run.dismiss()
    yield a
    a.close()


def rows_of(app: App, role: str) -> list[int]:
    model = app.window.conversation_model
    return [i for i, row in enumerate(model.rows)
            if row.message is not None and row.message.role == role]


def colour_at(image: QImage, point: QPoint) -> QColor:
    return image.pixelColor(point)


def test_a_bubble_is_painted_where_its_size_says(app, qloop) -> None:
    run(qloop, app.say([SHORT, LONG]))
    view, model = app.window.conversation_view, app.window.conversation_model
    delegate = view.message_delegate
    view.scrollToTop()
    QApplication.processEvents()
    image = view.viewport().grab().toImage()
    base = view.palette().color(view.viewport().backgroundRole())
    widths = []
    for position in rows_of(app, "user"):
        index = model.index(position)
        row = model.rows[position]
        rect = view.visualRect(index)
        hint = delegate.sizeHint(QStyleOptionViewItem(), index)
        assert hint.height() == rect.height()  # laid out with the painted (exact) size
        bubble = delegate.bubble_rect(row, rect)
        column = delegate.card_rect(rect)
        assert rect.contains(bubble)
        assert bubble.right() == column.right()  # on the right of the column
        # The bubble holds its text exactly: the size was computed for what is painted.
        text = delegate.document(row).size().height()
        assert bubble.height() == pytest.approx(text + 2 * BUBBLE_V, abs=1)
        assert bubble.bottom() + PAD_V + OUTER_V == rect.bottom()
        assert bubble.width() <= delegate.text_width(row) + 2 * 14
        widths.append(bubble.width())
        if rect.bottom() < view.viewport().height():  # on screen: its pixels say the same
            inside = QPoint(bubble.left() + 3, bubble.center().y())
            outside = QPoint(bubble.left() - 3, bubble.center().y())
            assert colour_at(image, inside) != base
            assert colour_at(image, outside) == base
    short, long = widths
    assert short < long  # a short message, a small bubble
    assert long <= BUBBLE_SHARE * delegate.card_rect(QRect(0, 0, delegate.width, 10)).width() \
        + 2 * 14


def test_replies_wrap_at_a_readable_length_in_a_centred_column(app, qloop) -> None:
    run(qloop, app.say([LONG]))
    app.window.resize(1920, 1080)
    QApplication.processEvents()
    view, model = app.window.conversation_view, app.window.conversation_model
    delegate = view.message_delegate
    [reply] = rows_of(app, "assistant")
    rect = view.visualRect(model.index(reply))
    column = delegate.card_rect(rect)
    assert rect.width() > column.width() + 300  # a wide window: the column does not follow
    assert column.left() - rect.left() == pytest.approx(rect.right() - column.right(), abs=2)
    layout = delegate.document(model.rows[reply]).firstBlock().layout()
    lines = [layout.lineAt(i).textLength() for i in range(layout.lineCount())]
    assert len(lines) > 3 and 60 <= max(lines) <= READABLE_LINE_CHARS + 5  # characters
    narrow = delegate.column_width - 100  # a view narrower than a readable column
    delegate.set_width(narrow)
    assert delegate.card_rect(QRect(0, 0, narrow, 100)).width() == narrow - 2 * 14


def test_actions_show_on_hover_and_are_in_the_rows_menu_from_the_keyboard(app, qloop,
                                                                         qtbot) -> None:
    run(qloop, app.say(["Hello there"]))
    view, model = app.window.conversation_view, app.window.conversation_model
    delegate = view.message_delegate
    [reply] = rows_of(app, "assistant")
    index = model.index(reply)
    rect = view.visualRect(index)
    pin = delegate.pin_rect(rect)
    QTest.mouseMove(view.viewport(), QPoint(2, view.viewport().height() - 2))
    view.clearSelection()
    view.setCurrentIndex(model.index(rows_of(app, "user")[0]))
    view.clearSelection()
    QApplication.processEvents()
    quiet = view.viewport().grab(pin.adjusted(-2, -2, 2, 2)).toImage()
    QTest.mouseMove(view.viewport(), rect.center())
    assert delegate.hover_key == model.rows[reply].key
    QApplication.processEvents()
    hovered = view.viewport().grab(pin.adjusted(-2, -2, 2, 2)).toImage()
    assert quiet != hovered  # the pin (an action) appears on hover only
    names = {n for n, _l, _r in action_rects(delegate, model.rows[reply], rect)}
    assert "actionRegenerate" in names
    # The keyboard (Menu key, Shift+F10): the current row's menu, with the same actions,
    # whatever point the platform gives the event.
    view.setFocus()
    view.setCurrentIndex(index)
    QApplication.sendEvent(view.viewport(), QContextMenuEvent(
        QContextMenuEvent.Reason.Keyboard, QPoint(1, 1), view.viewport().mapToGlobal(
            QPoint(1, 1))))
    menus = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMenu) and w.isVisible()]
    assert menus, "no menu opened from the keyboard"
    listed = {a.objectName() for a in menus[-1].actions()}
    assert names <= listed and "actionPinMessage" in listed
    menus[-1].close()
    shot = view.viewport().grab()
    assert shot.save(str(SHOTS / "conversation-hover.png"))


def test_the_composer_holds_its_buttons_as_icons_under_the_column(app, qloop) -> None:
    from PySide6.QtWidgets import QAbstractButton, QFrame

    composer = app.find(QFrame, "composer")
    for name in ("messageInput", "sendButton", "stopButton", "attachImageButton",
                 "attachDocumentButton", "toolPicker"):
        widget = app.window.findChild(QWidget, name)
        assert widget is not None and composer.isAncestorOf(widget), name
        if isinstance(widget, QAbstractButton):
            assert not widget.text() and not widget.icon().isNull(), name  # an icon
            assert widget.toolTip() and widget.accessibleName(), name  # still named
    view = app.window.conversation_view
    app.window.resize(1920, 1080)
    QApplication.processEvents()
    column = view.message_delegate.card_rect(view.viewport().rect())
    left = view.viewport().mapTo(app.window, column.topLeft()).x()
    box = composer.mapTo(app.window, QPoint(0, 0)).x()
    assert abs(box - left) <= 32 and composer.width() <= column.width() + 2 * 16 + 1
    # It grows with its text, up to eight lines, and shrinks back.
    field = app.window.message_input
    one = field.height()
    field.setPlainText("line\n" * 4)
    QApplication.processEvents()
    assert field.height() > 2 * one
    field.setPlainText("")
    QApplication.processEvents()
    assert field.height() == one


def test_send_becomes_stop_while_a_reply_streams(app, qloop, server) -> None:
    import asyncio

    from PySide6.QtWidgets import QPushButton

    from tests.controller_harness import settle, until
    from tests.ollama_server import Reply

    send, stop = app.find(QPushButton, "sendButton"), app.find(QPushButton, "stopButton")
    assert send.isVisible() and stop.isHidden()
    server.script(Reply(chunks=["word "] * 200, delay_per_chunk=0.01))
    app.window.message_input.setPlainText("Tell me a story.")
    send.click()

    async def streaming() -> None:
        await until(lambda: app.controller.busy)
        assert stop.isVisible() and stop.isEnabled() and send.isHidden()
        stop.click()  # in the same place Send was
        task = app.controller._reply_task
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)
        await settle(app.controller)

    run(qloop, streaming())
    assert send.isVisible() and stop.isHidden()
