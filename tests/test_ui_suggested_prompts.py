"""Suggested first prompts in an empty chat (issue 32, point 5), over the real window and
controller with the loopback Ollama: shown while the chat is empty, a click fills the input
without sending, gone once the chat has a message, back in the next new chat."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QPushButton, QWidget

from ollm_desktop.ui.text.suggested_prompts import SUGGESTED_PROMPTS
from tests.controller_harness import run, scripted_model


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=20)
    return ollama_server


def prompts_of(app) -> QWidget:
    widget = app.window.findChild(QWidget, "suggestedPrompts")
    assert widget is not None
    return widget


def test_an_empty_chat_suggests_prompts_that_fill_the_input_and_go_with_the_first_message(
        app, server):
    run(app.loop, app.type_and_send("A first chat, so the first-run screen is gone."))
    prompts = prompts_of(app)
    assert not prompts.isVisible()  # the chat has messages
    app.window.action_new_chat.trigger()
    assert app.window.conversation_model.rowCount() == 0
    assert prompts.isVisible()
    buttons = prompts.findChildren(QPushButton, "suggestedPrompt")
    assert [b.text() for b in buttons] == list(SUGGESTED_PROMPTS)
    viewport = app.window.conversation_view.viewport()
    assert viewport.rect().contains(prompts.geometry())  # inside the conversation, not cut
    buttons[2].click()
    assert app.window.message_input.toPlainText() == SUGGESTED_PROMPTS[2]
    assert app.window.conversation_model.rowCount() == 0  # filled in, not sent
    run(app.loop, app.type_and_send(app.window.message_input.toPlainText()))
    assert app.window.conversation_model.rowCount() > 0 and not prompts.isVisible()
    app.window.action_new_chat.trigger()
    assert prompts.isVisible()
