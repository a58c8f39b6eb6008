"""Issue 25, point 5: a reply cut at the length limit does not look finished.

Through the real window over the loopback fake Ollama: ``done_reason: "length"`` (or a reply
that reaches the chat's ``num_predict``) marks the reply "cut off at the length limit" on its
row, in its tooltip and accessible text, and offers Continue as a stopped reply does; the
chat settings show the real limit instead of "no limit".
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from ollm_desktop.storage.models import ChatSettings
from ollm_desktop.ui.conversation.roles import ReplyStateRole
from ollm_desktop.ui.dialogs.chat_settings_dialog import ChatSettingsDialog
from tests.controller_harness import Reply, chat_turns, run, scripted_model, settle, until
from tests.test_ui_main_window import App, save_shot

ANSWER = ("The migration runs in three steps: first the schema, then the data copy, and "
          "finally the switch of the read path to the new tables")


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=40)
    return ollama_server


def last(app: App) -> tuple[int, object]:
    model = app.window.conversation_model
    model.flush_stream()
    return model.rowCount() - 1, model


@pytest.mark.parametrize("how", ["done_reason", "num_predict"])
def test_a_reply_cut_at_the_length_limit_is_marked_and_can_be_continued(
        qloop, qtbot, tmp_path, server, screenshot_dir, how):
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        server.script(Reply(text="Hello! Which part of the billing migration shall we plan?"))
        run(qloop, a.type_and_send("Hello, let us plan the billing migration."))
        if how == "done_reason":
            server.script(Reply(text=ANSWER, done_reason="length"))
        else:  # the server caps at num_predict (the fake trims the pieces and says "length")
            a.controller.apply_chat_settings(ChatSettings(num_predict=12))
            server.script(Reply(text=ANSWER, done_reason="stop"))
        run(qloop, a.type_and_send("How does the migration run?"))
        row, model = last(a)
        index = model.index(row)
        reply = a.controller.display_messages()[-1]
        assert reply.role == "assistant" and not reply.partial and reply.cut_off
        assert index.data(ReplyStateRole) == "cut off"
        assert "cut off at the length limit" in index.data(Qt.ItemDataRole.AccessibleTextRole)
        assert "Cut off at the length limit" in index.data(Qt.ItemDataRole.ToolTipRole)
        assert model.rows[row].actions  # Continue / Regenerate under the row
        view = a.window.conversation_view
        view.scrollToBottom()
        names = [x.objectName() for x in view.build_context_menu(index).actions()]
        assert "actionContinue" in names
        if how == "done_reason":
            save_shot(screenshot_dir, a.window, "cut-off-reply.png")
        # Continue sends the cut reply last and completes that same reply.
        if how == "num_predict":
            a.controller.apply_chat_settings(ChatSettings())
        server.script(Reply(text=" to the new tables.", done_reason="stop"))
        requests = len(chat_turns(server))

        async def go() -> None:
            a.window.content.action_continue.trigger()
            task = a.controller._reply_task
            assert task is not None
            await until(task.done)
            await settle(a.controller)

        run(qloop, go())
        sent = chat_turns(server)[requests:]
        assert sent[0]["messages"][-1] == {"role": "assistant", "content": reply.content}
        done = a.controller.display_messages()[-1]
        assert done.id == reply.id and not done.cut_off
        row, model = last(a)
        assert model.index(row).data(ReplyStateRole) == "" and not model.rows[row].actions
    finally:
        a.close()


def test_a_cut_off_reply_stays_marked_after_a_restart(qloop, qtbot, tmp_path, server):
    data = tmp_path / "data"
    first = App(qloop, qtbot, data, server)
    try:
        server.script(Reply(text=ANSWER, done_reason="length"))
        run(qloop, first.type_and_send("How does the migration run?"))
    finally:
        first.close()
    # The first picture (read without the store) marks it too.
    from ollm_desktop.paths import app_paths
    from ollm_desktop.quick_history import read_last_chat

    quick = read_last_chat(app_paths(data).database, None)
    assert quick is not None and quick.messages[-1].cut_off
    second = App(qloop, qtbot, data, server)
    try:
        row, model = last(second)
        assert model.index(row).data(ReplyStateRole) == "cut off" and model.rows[row].actions
    finally:
        second.close()


def test_chat_settings_show_the_real_reply_limit(qloop, qtbot, tmp_path, server):
    a = App(qloop, qtbot, tmp_path / "data", server, context_size=4096)
    try:
        run(qloop, a.type_and_send("Hello"))
        snap = a.controller.snapshot
        dialog = ChatSettingsDialog(a.controller.chat, a.controller.settings, snap,
                                    lambda settings, size: True)
        qtbot.addWidget(dialog)
        text = dialog.num_predict_spin.specialValueText()
        assert "no limit" not in text
        room = snap.usage.context_size - snap.usage.total
        assert text == f"Default: until the context is full (about {room:,} tokens now)"
    finally:
        a.close()


def test_a_server_that_does_not_say_length_is_caught_by_the_count() -> None:
    from ollm_desktop.backend import ChatDone
    from ollm_desktop.session.reply_limits import reply_stats

    assert reply_stats(ChatDone("x", eval_count=12, done_reason="stop"), 12).cut_off
    assert reply_stats(ChatDone("x", eval_count=5, done_reason="length"), None).cut_off
    assert not reply_stats(ChatDone("x", eval_count=11, done_reason="stop"), 12).cut_off
    assert not reply_stats(ChatDone("x", eval_count=900, done_reason="stop"), None).cut_off
