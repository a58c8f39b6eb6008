"""The composer (issue 32): the input grows with its text inside one rounded box that holds
Attach, the context ring, Stop and Send; the model picker sits at the top of the chat."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QWidget

from tests.controller_harness import run, scripted_model


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=30)
    return ollama_server


def test_send_stop_and_attach_sit_inside_the_composer(app, qtbot):
    composer = app.window.findChild(QWidget, "composer")
    assert composer is not None
    for name in ("messageInput", "sendButton", "stopButton", "attachImageButton",
                 "contextRing"):
        widget = app.window.findChild(QWidget, name)
        assert widget is not None and composer.isAncestorOf(widget), name
    app.window.content.first_run.dismiss()
    selector, view = app.window.model_selector, app.window.conversation_view

    def top(widget: QWidget) -> int:
        return widget.mapTo(app.window, widget.rect().topLeft()).y()

    qtbot.waitUntil(lambda: view.isVisible() and top(view) > top(selector))  # picker on top
    assert top(composer) > top(view)


def test_the_input_grows_with_its_text_up_to_eight_lines(app, qtbot):
    box = app.window.message_input
    one = box.height()
    box.setPlainText("a\nb\nc")
    qtbot.waitUntil(lambda: box.height() > one)
    three = box.height()
    box.setPlainText("\n".join("line" for _ in range(30)))
    qtbot.waitUntil(lambda: box.height() > three)
    tall = box.height()
    assert tall < 12 * box.fontMetrics().lineSpacing()  # capped: it scrolls beyond 8 lines
    box.clear()
    qtbot.waitUntil(lambda: box.height() == one)


def test_the_ring_shows_the_meter_s_figure_and_details(app, server):
    run(app.loop, app.type_and_send("Hello there"))
    ring = app.window.findChild(QWidget, "contextRing")
    usage = app.controller.snapshot.usage
    assert ring.fraction == pytest.approx(usage.percent)
    assert ring.toolTip() == app.window.context_meter.toolTip() and ring.toolTip()
