"""A stopped reply looks stopped, and can be continued or regenerated (issue 14, point 3).

Through the real window, controller, store and backend over the loopback fake Ollama: the row
of a reply says "writing…" only while its stream runs; after Stop (and after a restart on the
same data folder) it says "stopped" and offers Continue and Regenerate, whose requests are
checked on the wire.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton

from ollm_desktop.ui.conversation.roles import MessageIdRole, ReplyStateRole
from tests.controller_harness import (
    Reply,
    chat_turns,
    run,
    scripted_model,
    settle,
    until,
)
from tests.test_ui_main_window import App

LONG_REPLY = " ".join(f"w{i}" for i in range(400))


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=60)
    return ollama_server




def action(app: App, name: str) -> QAction:
    found = app.window.findChild(QAction, name)
    assert found is not None, name
    return found


def last_row(app: App) -> tuple[int, str | None]:
    model = app.window.conversation_model
    model.flush_stream()
    row = model.rowCount() - 1
    return row, model.index(row).data(ReplyStateRole)


async def send_and_stop(app: App, server, text: str = "Write a lot") -> None:
    """Send, let a few words stream in (the row says "writing…"), then press Stop."""
    server.script(Reply(text=LONG_REPLY, delay_per_chunk=0.01))
    before = len(server.streams)
    app.window.message_input.setPlainText(text)
    app.find(QPushButton, "sendButton").click()
    await until(lambda: len(server.streams) > before and server.streams[-1].sent > 5)
    await until(lambda: last_row(app)[1] == "writing" and
                app.window.conversation_model.index(last_row(app)[0]).data() != "")
    app.find(QPushButton, "stopButton").click()
    await until(lambda: not app.controller.busy)
    await settle(app.controller)


def test_stop_shows_the_reply_stopped_with_continue_and_regenerate_also_after_a_restart(
        qloop, qtbot, tmp_path, server, screenshot_dir):
    data = tmp_path / "data"
    first = App(qloop, qtbot, data, server)
    try:
        run(qloop, send_and_stop(first, server))
        row, state = last_row(first)
        assert state == "stopped"
        model, view = first.window.conversation_model, first.window.conversation_view
        assert model.index(row).data(Qt.ItemDataRole.AccessibleTextRole).startswith(
            "Assistant, stopped")
        # The buttons are on the row, inside the viewport, and the row's menu has both actions.
        view.scrollToBottom()
        rect = view.visualRect(model.index(row))
        buttons = dict(view.message_delegate.reply_button_rects(rect))
        assert set(buttons) == {"continue", "regenerate"}
        assert all(rect.contains(b) and view.viewport().rect().contains(b)
                   for b in buttons.values())
        menu = view.build_context_menu(model.index(row))
        names = [a.objectName() for a in menu.actions()]
        assert "actionContinue" in names and "actionRegenerate" in names
        first.window.grab().save(str(screenshot_dir / "t-stopped-reply.png"))
        stopped = first.controller.session.engine.display_messages()[-1]
        assert stopped.partial
    finally:
        first.close()

    second = App(qloop, qtbot, data, server)
    try:
        row, state = last_row(second)
        assert second.window.conversation_model.index(row).data(MessageIdRole) == stopped.id
        assert state == "stopped"  # stored partial, no stream running: not "writing…"
        assert second.window.conversation_model.rows[row].actions
        assert not second.window.conversation_model.rows[row].streaming
    finally:
        second.close()


def test_continue_sends_the_partial_reply_last_and_completes_that_same_reply(app, server):
    run(app.loop, send_and_stop(app, server))
    engine = app.controller.session.engine
    stopped = engine.display_messages()[-1]
    count = len(engine.display_messages())
    server.script(Reply(text=" and that is the end.", delay_per_chunk=0.005))
    view, model = app.window.conversation_view, app.window.conversation_model
    view.scrollToBottom()
    row = model.row_of_message(stopped.id)
    button = dict(view.message_delegate.reply_button_rects(view.visualRect(model.index(row))))
    requests = len(chat_turns(server))

    async def scenario():
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, button["continue"].center())
        assert app.controller.busy  # a task like a send: Stop works on it
        task = app.controller._reply_task
        assert task is not None
        await until(task.done)
        await settle(app.controller)

    run(app.loop, scenario())
    sent = chat_turns(server)[requests:]
    assert len(sent) == 1
    assert sent[0]["messages"][-1] == {"role": "assistant", "content": stopped.content}
    messages = engine.display_messages()
    assert len(messages) == count
    done = messages[-1]
    assert done.id == stopped.id and not done.partial
    assert done.content == stopped.content + " and that is the end."
    row, state = last_row(app)
    assert state == "" and model.index(row).data() == done.content
    assert not model.rows[row].actions
    stored = app.controller.session.store.load_engine_state(app.controller.chat.id)
    assert [(m.id, m.content, m.partial) for m in stored.messages][-1] == (
        done.id, done.content, False)


def test_regenerate_sends_the_same_request_without_the_old_reply(app, server):
    server.script("The first answer.")
    run(app.loop, app.type_and_send("Name a colour"))
    engine = app.controller.session.engine
    old = engine.display_messages()[-1]
    assert old.content == "The first answer."
    requests = chat_turns(server)
    server.script("The second answer.")

    async def scenario():
        action(app, "actionRegenerate").trigger()
        task = app.controller._reply_task
        assert task is not None
        await until(task.done)
        await settle(app.controller)

    run(app.loop, scenario())
    sent = chat_turns(server)
    assert len(sent) == len(requests) + 1
    assert sent[-1]["messages"] == requests[-1]["messages"]
    assert all(old.content not in m["content"] for m in sent[-1]["messages"])
    contents = [m.content for m in engine.display_messages()]
    assert contents == ["Name a colour", "The second answer."]
    stored = app.controller.session.store.load_engine_state(app.controller.chat.id)
    assert [m.content for m in stored.messages] == contents
    assert [app.window.conversation_model.index(r).data()
            for r in range(app.window.conversation_model.rowCount())] == contents
    assert app.controller.session.reply_edits.replaced[-1].content == "The first answer."


def test_regenerate_of_a_stopped_reply_and_a_stop_keeps_no_half_state(app, server):
    run(app.loop, send_and_stop(app, server))
    engine = app.controller.session.engine
    requests = chat_turns(server)
    server.script(Reply(text="Short and complete."))
    run(app.loop, _trigger_and_wait(app, "actionRegenerate"))
    sent = chat_turns(server)
    assert sent[-1]["messages"] == requests[-1]["messages"]
    last = engine.display_messages()[-1]
    assert last.content == "Short and complete." and not last.partial
    assert last_row(app)[1] == ""


def test_both_refuse_politely_while_a_reply_streams(app, server):
    """While a reply streams, Regenerate and Continue are off and say why (issue 32: an action
    with nothing to act on is disabled, with its reason, never answered with an error)."""
    errors: list[tuple[str, str]] = []
    app.controller.error.connect(lambda kind, text: errors.append((kind, text)))
    server.script("Done.")
    run(app.loop, app.type_and_send("Hello"))
    server.script(Reply(text=LONG_REPLY, delay_per_chunk=0.01))

    async def scenario():
        before = len(server.streams)
        app.window.message_input.setPlainText("Again")
        app.find(QPushButton, "sendButton").click()
        await until(lambda: len(server.streams) > before and server.streams[-1].sent > 2)
        task = app.controller._reply_task
        for name in ("actionRegenerate", "actionContinue"):
            assert not action(app, name).isEnabled()
            assert "still streaming" in action(app, name).toolTip()
            action(app, name).trigger()
            assert app.controller._reply_task is task  # nothing else started
        app.find(QPushButton, "stopButton").click()
        await until(lambda: not app.controller.busy)
        await settle(app.controller)

    run(app.loop, scenario())
    assert errors == []
    last = app.controller.display_messages()[-1]  # stopped, unless it ended first
    assert action(app, "actionContinue").isEnabled() == bool(last.partial or last.cut_off)
    # A complete reply cannot be continued: said in the tooltip, not silently offered.
    server.script("Complete.")
    run(app.loop, app.type_and_send("One more"))
    cont = action(app, "actionContinue")
    assert not cont.isEnabled() and "stopped or cut-off reply" in cont.toolTip()


def test_both_refuse_while_a_compaction_runs(app, server):
    errors: list[tuple[str, str]] = []
    app.controller.error.connect(lambda kind, text: errors.append((kind, text)))
    for i in range(3):
        run(app.loop, app.type_and_send(f"Topic {i}: " + "words " * 40))

    async def scenario():
        server.script(Reply(text="## Context\nslow summary", delay_before=0.5))
        task = app.controller.compact()
        assert task is not None and app.controller.compacting
        await until(lambda: not action(app, "actionRegenerate").isEnabled())
        assert "compacted" in action(app, "actionRegenerate").toolTip()  # off, and says why
        action(app, "actionRegenerate").trigger()
        assert app.controller._reply_task is None
        await settle(app.controller)

    run(app.loop, scenario())
    assert errors == []
    assert action(app, "actionRegenerate").isEnabled()  # back once the compaction ended


async def _trigger_and_wait(app: App, name: str) -> None:
    action(app, name).trigger()
    task = app.controller._reply_task
    assert task is not None
    await until(task.done)
    await settle(app.controller)


def test_shortcuts_do_not_clash(app):
    seen: dict[str, str] = {}
    for found in app.window.findChildren(QAction):
        for key in found.shortcuts():
            text = key.toString()
            assert text not in seen, (text, seen.get(text), found.objectName())
            seen[text] = found.objectName()
    assert seen["Ctrl+Shift+R"] == "actionRegenerate"
    assert seen["Ctrl+Shift+C"] == "actionContinue"
