"""Delete a message, with Undo, through the real window (issue 15).

The real window, controller, store and backend over the loopback fake Ollama: a message
deleted with ``actionDeleteMessage`` is not in the next request (read on the wire), the undo
bar's Undo puts it back in the view, the store and the next request, and deleting a
summarised message says, in the bar, that its checkpoint keeps what it said.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QWidget

from ollm_desktop.ui.conversation.roles import MessageIdRole
from tests.controller_harness import (
    Reply,
    chat_turns,
    run,
    scripted_model,
    settle,
    until,
)
from tests.realistic_chat import conversation, realistic_model
from tests.test_ui_main_window import App

LONG = "Let us talk about the storage layer, its migrations and the search index. " * 3
SECRET = "The staging password is ORCHID-7731; never paste it in a ticket."


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=60)
    return ollama_server




def sent_text(body: dict) -> str:
    return "\n".join(m["content"] for m in body["messages"])


def delete_action(app: App) -> QAction:
    found = app.window.findChild(QAction, "actionDeleteMessage")
    assert found is not None
    return found


def select(app: App, message_id: str) -> int:
    model, view = app.window.conversation_model, app.window.conversation_view
    row = model.row_of_message(message_id)
    assert row is not None
    view.setCurrentIndex(model.index(row))
    return row


def message_ids(app: App) -> list[str]:
    model = app.window.conversation_model
    return [i for r in range(model.rowCount())
            if (i := model.index(r).data(MessageIdRole)) is not None]


def bar_text(app: App) -> str:
    return app.find(QLabel, "undoText").text()


def test_delete_leaves_the_next_request_and_undo_puts_it_back(app, server):
    run(app.loop, app.type_and_send(SECRET))
    run(app.loop, app.type_and_send("What did we decide about the importer?"))
    engine = app.controller.session.engine
    secret = engine.display_messages()[0]
    assert secret.content == SECRET
    before = message_ids(app)
    assert delete_action(app) in app.window.content.menus["conversation"].actions()

    row = select(app, secret.id)
    delete_action(app).trigger()
    assert secret.id not in message_ids(app)
    bar = app.find(QWidget, "undoBar")
    assert bar.isVisible() and bar_text(app) == "Message deleted."
    assert app.window.conversation_view.currentIndex().row() == row  # the next one
    stored = app.controller.session.store.load_engine_state(app.controller.chat.id)
    assert secret.id not in [m.id for m in stored.messages]
    run(app.loop, app.type_and_send("Remind me of the password, please."))
    assert "ORCHID-7731" not in sent_text(chat_turns(server)[-1])
    assert bar.isVisible()  # the offer stays while the user goes on

    app.find(QPushButton, "undoButton").click()
    assert not bar.isVisible()
    assert message_ids(app)[: len(before)] == before
    assert app.window.conversation_view.current_message_id() == secret.id
    stored = app.controller.session.store.load_engine_state(app.controller.chat.id)
    assert [m.id for m in stored.messages] == [m.id for m in engine.display_messages()]
    assert stored.messages[0].content == SECRET
    run(app.loop, app.type_and_send("And now?"))
    assert "ORCHID-7731" in sent_text(chat_turns(server)[-1])


def test_the_delete_key_works_in_the_conversation_not_in_the_input(app, server):
    run(app.loop, app.type_and_send("First"))
    run(app.loop, app.type_and_send("Second"))
    view, text_input = app.window.conversation_view, app.window.message_input
    app.window.activateWindow()
    first = app.controller.session.engine.display_messages()[0]
    select(app, first.id)
    text_input.setFocus()
    text_input.setPlainText("abc")
    cursor = text_input.textCursor()
    cursor.setPosition(0)
    text_input.setTextCursor(cursor)
    QTest.keyClick(text_input, Qt.Key.Key_Delete)
    assert text_input.toPlainText() == "bc"  # typing Delete edits the text
    assert first.id in message_ids(app)
    view.setFocus()
    assert QApplication.focusWidget() is view
    QTest.keyClick(view, Qt.Key.Key_Delete)
    assert first.id not in message_ids(app)
    assert app.find(QWidget, "undoBar").isVisible()


def test_the_row_menu_offers_delete_and_another_chat_ends_the_offer(app, server):
    run(app.loop, app.type_and_send("Keep this one"))
    model, view = app.window.conversation_model, app.window.conversation_view
    reply = app.controller.session.engine.display_messages()[-1]
    menu = view.build_context_menu(model.index(model.row_of_message(reply.id)))
    assert delete_action(app) in menu.actions()
    assert view.current_message_id() == reply.id  # the menu made its row the current one
    delete_action(app).trigger()
    assert reply.id not in message_ids(app)
    first_chat = app.controller.chat.id
    app.window.action_new_chat.trigger()
    run(app.loop, app.type_and_send("Another chat"))
    assert app.controller.chat.id != first_chat
    assert not app.find(QWidget, "undoBar").isVisible()  # the undo was that chat's
    app.controller.open_chat(first_chat)
    assert reply.id not in message_ids(app)


def test_deleting_a_summarised_message_says_its_checkpoint_keeps_it(app, server):
    server.reply_fn = scripted_model(reply_words=120)

    async def build():
        for i in range(16):
            await app.type_and_send(f"Point {i}: {LONG}")

    run(app.loop, build())
    engine = app.controller.session.engine
    assert engine.groups
    group = engine.groups[0]
    reply = next(i for i in group.message_ids if engine.message(i).role == "assistant")
    view = app.window.conversation_view
    assert view.scroll_to_message(reply)  # far from the end: the view keeps its place
    view.verticalScrollBar().setValue(view.verticalScrollBar().value() - 60)
    place = view.verticalScrollBar().value()
    delete_action(app).trigger()
    assert reply not in message_ids(app)
    assert not view.is_at_bottom()
    assert view.verticalScrollBar().value() == place
    assert view.viewport().rect().intersects(view.visualRect(view.currentIndex()))
    assert "This message was summarised: what it said stays in its checkpoint's summary" \
        in bar_text(app)
    assert engine.groups[0].summary == group.summary
    app.find(QPushButton, "undoButton").click()
    assert reply in message_ids(app)
    assert reply in engine.groups[0].message_ids


def test_screenshot_of_the_undo_bar_after_a_delete(qloop, qtbot, tmp_path, ollama_server,
                                                    screenshot_dir):
    chat = conversation(10)
    ollama_server.reply_fn = realistic_model(chat)
    a = App(qloop, qtbot, tmp_path / "data", ollama_server, context_size=8192,
            system_prompt="You are a senior engineer helping with a Python project.")
    try:
        run(qloop, a.say(turn.user for turn in chat.turns[:3]))
        messages = a.controller.session.engine.display_messages()
        select(a, messages[-1].id)  # the newest reply: the chat ends with its request
        delete_action(a).trigger()
        assert a.find(QWidget, "undoBar").isVisible()
        a.window.conversation_view.scrollToBottom()
        QApplication.processEvents()
        assert a.window.grab().save(str(screenshot_dir / "delete-message.png"))
    finally:
        a.close()


def test_delete_and_undo_wait_while_a_reply_streams(app, server):
    errors: list[tuple[str, str]] = []
    app.controller.error.connect(lambda kind, text: errors.append((kind, text)))
    run(app.loop, app.type_and_send("Hello"))
    first = app.controller.session.engine.display_messages()[0]
    select(app, first.id)
    delete_action(app).trigger()
    bar, undo = app.find(QWidget, "undoBar"), app.find(QPushButton, "undoButton")
    server.script(Reply(text=" ".join(f"w{i}" for i in range(300)), delay_per_chunk=0.01))

    async def scenario():
        before = len(server.streams)
        app.window.message_input.setPlainText("Write a lot")
        app.find(QPushButton, "sendButton").click()
        await until(lambda: len(server.streams) > before and server.streams[-1].sent > 2)
        reply_task = app.controller._reply_task
        undo.click()  # refused for now: the offer stays
        assert errors[-1][0] == "busy" and bar.isVisible()
        assert first.id not in message_ids(app)
        second = app.controller.session.engine.display_messages()[0]
        select(app, second.id)
        delete_action(app).trigger()
        assert errors[-1][0] == "busy" and second.id in message_ids(app)
        app.controller.stop()
        await until(reply_task.done)
        await settle(app.controller)

    run(app.loop, scenario())
    undo.click()
    assert message_ids(app)[0] == first.id


def test_the_menus_row_actions_are_off_without_a_row_and_hover_buttons_still_work(app, server):
    """With no current row the Conversation menu's message actions are disabled (they used to
    be offered and do nothing); a row's hover button makes its row current and acts."""
    from tests.test_ui_branches import click_row_button

    run(app.loop, app.type_and_send("First"))
    run(app.loop, app.type_and_send("Second"))
    view, model = app.window.conversation_view, app.window.conversation_model
    view.setCurrentIndex(model.index(-1))
    names = ("actionDeleteMessage", "actionTogglePin")
    actions = {n: app.window.findChild(QAction, n) for n in names}
    assert all(a is not None for a in actions.values())
    assert [n for n, a in actions.items() if a.isEnabled()] == []
    assert all("Click a message" in a.toolTip() for a in actions.values())  # says why
    for newest in ("actionRegenerate", "actionEditMessage", "actionForkChat"):
        found = app.window.findChild(QAction, newest)  # these act on the newest message
        assert found is not None and found.isEnabled(), newest

    reply = app.controller.session.engine.display_messages()[-1]
    select(app, reply.id)
    assert [n for n, a in actions.items() if not a.isEnabled()] == []
    assert "Undo brings it back" in actions["actionDeleteMessage"].toolTip()

    view.setCurrentIndex(model.index(-1))
    from ollm_desktop.ui.conversation import row_hotspots
    tip = row_hotspots.tooltip(model.index(model.row_of_message(reply.id)),
                               row_hotspots.ACTION_PREFIX + "actionDeleteMessage", view)
    assert tip is not None and "Undo brings it back" in tip  # the button's own row: no "first"
    click_row_button(app, reply.id, "actionDeleteMessage")
    assert reply.id not in message_ids(app)
