"""Regenerate keeps versions, edit and resend branches, fork from here (issue 15), through the
real window over the loopback fake Ollama: the row's hover buttons and menu trigger the
actions, ``branchSelector`` pages through a message's versions, and what each request carries
is read on the wire."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QToolButton

from ollm_desktop.ui.conversation.row_header import action_rects
from tests.controller_harness import (
    chat_turns,
    run,
    scripted_model,
    settle,
    until,
)
from tests.test_ui_main_window import App


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=30)
    return ollama_server





def sent_text(body: dict) -> str:
    return "\n".join(m["content"] for m in body["messages"])


def click_row_button(app: App, message_id: str, name: str) -> None:
    """Hover the message's row and click its hover button for action ``name``."""
    view, model = app.window.conversation_view, app.window.conversation_model
    row = model.row_of_message(message_id)
    index = model.index(row)
    view.scrollTo(index)
    rect = view.visualRect(index)
    QTest.mouseMove(view.viewport(), QPoint(2, 2))
    QTest.mouseMove(view.viewport(), rect.center())
    buttons = {n: r for n, _label, r in action_rects(view.message_delegate, model.rows[row],
                                                      rect)}
    assert name in buttons, f"{name} not among the row's buttons {sorted(buttons)}"
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=buttons[name].center())


async def wait_reply(app: App) -> None:
    await until(lambda: app.controller._reply_task is not None or not app.controller.busy)
    task = app.controller._reply_task
    if task is not None:
        await asyncio.gather(task, return_exceptions=True)
    await settle(app.controller)
    app.window.conversation_model.flush_stream()


def selector(app: App) -> QFrame:
    return app.find(QFrame, "branchSelector")


def test_regenerate_keeps_the_earlier_reply_and_the_selector_pages_back(
        qloop, qtbot, app, server, screenshot_dir):
    run(qloop, app.type_and_send("Name a colour"))
    first = app.controller.display_messages()[-1]
    root = app.controller.chat.id
    click_row_button(app, first.id, "actionRegenerate")
    run(qloop, wait_reply(app))
    newest = app.controller.display_messages()[-1]
    assert newest.id != first.id
    bodies = chat_turns(server)
    assert bodies[-1]["messages"] == bodies[-2]["messages"]  # the same context, minus the reply
    qtbot.waitUntil(lambda: selector(app).isVisible())
    label = selector(app).findChild(QLabel, "branchLabel")
    assert label.text() == "2/2"
    assert not selector(app).findChild(QToolButton, "branchNext").isEnabled()
    app.window.grab().save(str(screenshot_dir / "regenerate-versions.png"))
    selector(app).findChild(QToolButton, "branchPrevious").click()
    qtbot.waitUntil(lambda: app.controller.chat.id != root)
    assert app.controller.chat.is_branch and app.controller.chat.root_id == root
    assert app.controller.display_messages()[-1].content == first.content
    model = app.window.conversation_model
    assert model.rows[-1].message.content == first.content  # the view shows that version
    qtbot.waitUntil(lambda: label.text() == "1/2")
    selector(app).findChild(QToolButton, "branchNext").click()
    qtbot.waitUntil(lambda: app.controller.chat.id == root)
    assert app.controller.display_messages()[-1].id == newest.id


def test_edit_and_resend_from_the_row_menu_branches_and_sends_the_edited_text(
        qloop, qtbot, app, server, screenshot_dir):
    run(qloop, app.type_and_send("Which index suits lookups by email?"))
    run(qloop, app.type_and_send("And for ORIGINAL range scans?"))
    root = app.controller.chat.id
    target = app.controller.display_messages()[2]
    view, model = app.window.conversation_view, app.window.conversation_model
    app.window.message_input.setPlainText("a half-written draft")
    menu = view.build_context_menu(model.index(model.row_of_message(target.id)))
    edit = next(a for a in menu.actions() if a.objectName() == "actionEditMessage")
    edit.trigger()
    box = app.window.message_input
    assert box.toPlainText() == target.content
    bar = app.find(QFrame, "editBar")
    assert bar.isVisible()
    box.setPlainText("And for EDITED range scans over dates?")
    app.window.grab().save(str(screenshot_dir / "edit-and-resend.png"))
    app.find(QPushButton, "sendButton").click()
    run(qloop, wait_reply(app))
    text = sent_text(chat_turns(server)[-1])
    assert "EDITED" in text and "ORIGINAL" not in text
    assert "Which index suits lookups by email?" in text
    assert app.controller.chat.id != root and app.controller.chat.is_branch
    assert not bar.isVisible() and app.controller.editing is None
    assert box.toPlainText() == "a half-written draft"  # the draft came back after the edit
    edited = app.controller.display_messages()[2]
    assert edited.content.startswith("And for EDITED")
    assert app.window.conversation_view.message_delegate.alternatives[edited.id] == "2/2"
    # The original chat kept its text.
    kept = app.controller.session.store.load_engine_state(root)
    assert kept.messages[2].content == "And for ORIGINAL range scans?"


def test_cancelling_an_edit_gives_the_draft_back_and_sends_nothing(qloop, qtbot, app, server):
    run(qloop, app.type_and_send("A question"))
    box = app.window.message_input
    box.setPlainText("my draft")
    app.window.findChild(QAction, "actionEditMessage").trigger()
    assert box.toPlainText() == "A question"
    app.find(QPushButton, "editCancel").click()
    assert box.toPlainText() == "my draft" and app.controller.editing is None
    assert not app.find(QFrame, "editBar").isVisible()


def test_fork_from_here_opens_a_new_chat_with_the_checkpoints_and_pins(
        qloop, qtbot, tmp_path, server, screenshot_dir):
    app = App(qloop, qtbot, tmp_path / "data", server, context_size=2048,
              preserve_recent_tokens=200)
    try:
        async def build():
            for i in range(8):
                await app.type_and_send(f"Step {i}: " + "detail " * 50)
            task = app.controller.compact()
            if task is not None:
                await asyncio.gather(task, return_exceptions=True)
            await settle(app.controller)

        run(qloop, build())
        groups = app.controller.snapshot.groups
        assert groups
        messages = app.controller.display_messages()
        pinned = messages[-2]
        app.controller.toggle_pin(pinned.id)
        parent = app.controller.chat
        view, model = app.window.conversation_view, app.window.conversation_model
        view.setCurrentIndex(model.index(model.row_of_message(messages[-1].id)))
        QTest.keyClick(view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier
                       | Qt.KeyboardModifier.ShiftModifier)
        qtbot.waitUntil(lambda: app.controller.chat.id != parent.id)
        assert app.controller.chat.title == f"{parent.title} (fork)"
        # The parent's compaction result does not linger over the fork.
        assert not app.window.compaction_progress.isVisible()
        assert app.window.windowTitle().startswith(f"{parent.title} (fork)")
        run(qloop, app.type_and_send("Carry on in the fork"))
        text = sent_text(chat_turns(server)[-1])
        assert groups[-1].summary.split("\n")[1] in text
        assert pinned.content in text
        app.window.grab().save(str(screenshot_dir / "fork.png"))
    finally:
        app.close()


def test_the_rows_hover_buttons_are_painted_and_name_their_actions(qloop, qtbot, app, server):
    run(qloop, app.type_and_send("Hello there"))
    view, model = app.window.conversation_view, app.window.conversation_model
    user = model.rows[0]
    names = [n for n, _l, _r in action_rects(view.message_delegate, user, QRect(0, 0, 900, 200))]
    assert names[:2] == ["actionEditMessage", "actionForkChat"]
    reply = model.rows[-1]
    reply_names = [n for n, _l, _r in action_rects(view.message_delegate, reply,
                                                    QRect(0, 0, 900, 200))]
    assert "actionRegenerate" in reply_names and "actionEditMessage" not in reply_names
    rect = view.visualRect(model.index(model.rowCount() - 1))
    (_n, _l, button), = [b for b in action_rects(view.message_delegate, reply, rect)
                         if b[0] == "actionRegenerate"]
    view.setCurrentIndex(model.index(0))
    QTest.mouseMove(view.viewport(), QPoint(2, 2))  # a move is only sent when it moves
    QTest.mouseMove(view.viewport(), QPoint(rect.left() + 5, rect.bottom() + 40))
    assert view.message_delegate.hover_key is None
    before = view.viewport().grab(button).toImage()
    QTest.mouseMove(view.viewport(), rect.center())
    assert view.message_delegate.hover_key == reply.key
    after = view.viewport().grab(button).toImage()
    assert before != after  # the buttons appear on the hovered row


def test_editing_a_message_with_a_picture_shows_it_waiting_and_cancel_restores_the_draft(
        qloop, qtbot, app, server):
    from PySide6.QtGui import QColor, QImage

    from tests.test_ui_images import tiles

    picture = QImage(24, 24, QImage.Format.Format_RGB32)
    picture.fill(QColor("red"))
    app.controller.attach_image(picture, "chart.png")
    run(qloop, app.type_and_send("What does this show?"))
    assert tiles(app) == []
    other = QImage(24, 24, QImage.Format.Format_RGB32)
    other.fill(QColor("blue"))
    app.controller.attach_image(other, "draft.png")  # for the next message
    app.window.findChild(QAction, "actionEditMessage").trigger()
    def shown() -> list[str]:
        return [label.text().split(" · ")[0] for tile in tiles(app)
                for label in tile.findChildren(QLabel) if "·" in label.text()]

    assert [i.name for i in app.controller.pending_images()] == ["chart.png"]
    assert shown() == ["chart.png"]  # the strip shows the edited message's picture
    app.find(QPushButton, "editCancel").click()
    assert [i.name for i in app.controller.pending_images()] == ["draft.png"]
    assert shown() == ["draft.png"]
