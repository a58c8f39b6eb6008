"""The documentation's window screenshots, from a realistic conversation.

The real window over the loopback fake Ollama, fed the memory benchmark's seeded coding
conversation (tests/realistic_chat.py): no filler words. Refresh the images in docs/screenshots:

    OLLM_SCREENSHOT_DIR=docs/screenshots QT_QPA_PLATFORM=offscreen \
        python -m pytest tests/test_ui_docs_screenshots.py tests/test_ui_widgets_screenshots.py \
        tests/test_ui_reliability_signal.py tests/test_ui_checkpoint_panel.py \
        tests/test_ui_cut_off_replies.py tests/test_ui_everyday.py

Each test also checks what the picture must show, so a screenshot cannot silently show a
wrong state (a fresh chat marked "Critical", filler text, a missing marker).
"""

from __future__ import annotations

import pytest

from tests.controller_harness import run
from tests.realistic_chat import conversation, realistic_model
from tests.test_ui_main_window import App, save_shot

FILLER = ("lorem", "Reply 1:", "Summary 1 of the chat")


@pytest.fixture
def chat():
    return conversation(60)


@pytest.fixture
def server(ollama_server, chat):
    ollama_server.reply_fn = realistic_model(chat)
    return ollama_server


def _texts(a: App) -> str:
    return " ".join(m.content for m in a.controller.display_messages())


def test_screenshot_a_fresh_chat(qloop, qtbot, tmp_path, server, chat, screenshot_dir):
    a = App(qloop, qtbot, tmp_path / "data", server, context_size=8192)
    try:
        run(qloop, a.say(turn.user for turn in chat.turns[:3]))
        indicator = a.window.content.reliability_indicator
        assert "Critical" not in indicator.label.text()
        assert not any(word in _texts(a) for word in FILLER)
        save_shot(screenshot_dir, a.window, "main-window-chat.png")
    finally:
        a.close()


def test_screenshot_a_long_chat_with_checkpoints(qloop, qtbot, tmp_path, server, chat,
                                                 screenshot_dir):
    a = App(qloop, qtbot, tmp_path / "data", server, context_size=4096)
    try:
        async def talk() -> None:
            for turn in chat.turns:
                await a.type_and_send(turn.user)
                if a.controller.snapshot.compaction_count >= 2:
                    return

        run(qloop, talk())
        snap = a.controller.snapshot
        assert snap.compaction_count >= 2 and snap.groups
        assert not any(word in _texts(a) for word in FILLER)
        content = a.window.content
        # Issue 25: compactions that kept every fact the user stated are no alarm.
        assert not content.warning_bar.isVisible()
        assert content.reliability_indicator.label.text().startswith("Reliability: High")
        save_shot(screenshot_dir, a.window, "reliability-display.png")
        newest = snap.groups[-1]
        assert "## Key Information" in newest.summary
        model = a.window.conversation_model
        view = a.window.conversation_view
        view.scrollTo(model.index(model.row_of_group(newest.id)))
        save_shot(screenshot_dir, view, "conversation.png")
        view.groupActivated.emit(newest.id)
        assert a.window.group_panel.isVisible()
        save_shot(screenshot_dir, a.window.group_panel, "group-panel.png")
        save_shot(screenshot_dir, a.window, "main-window.png")
    finally:
        a.close()


def test_screenshot_a_stopped_reply(qloop, qtbot, tmp_path, server, chat, screenshot_dir):
    from tests.controller_harness import settle, until
    from tests.ollama_server import Reply
    from tests.test_ui_stopped_replies import last_row

    a = App(qloop, qtbot, tmp_path / "data", server, context_size=8192)
    try:
        async def talk() -> None:
            await a.say(turn.user for turn in chat.turns[:2])
            long_answer = " ".join(t.assistant for t in chat.turns[2:8])
            server.script(Reply(text=long_answer, delay_per_chunk=0.01))
            a.window.message_input.setPlainText(chat.turns[2].user)
            a.window.send_button.click()
            await until(lambda: len(server.streams) >= 3 and server.streams[-1].sent > 25)
            a.window.stop_button.click()
            await until(lambda: not a.controller.busy)
            await settle(a.controller)

        run(qloop, talk())
        assert last_row(a)[1] == "stopped"
        a.window.conversation_view.scrollToBottom()
        save_shot(screenshot_dir, a.window, "stopped-reply.png")
    finally:
        a.close()


def test_screenshot_ollama_down(qloop, qtbot, tmp_path, server, chat, screenshot_dir):
    a = App(qloop, qtbot, tmp_path / "data", server, context_size=8192)
    try:
        run(qloop, a.type_and_send(chat.turns[0].user))
        port = server.url.rsplit(":", 1)[1]
        server.stop()
        run(qloop, a.controller.refresh_ollama())
        assert a.window.banner.isVisible()
        assert port in " ".join(w.text() for w in a.window.banner.findChildren(type(
            a.window.input_error)))
        save_shot(screenshot_dir, a.window, "main-window-ollama-down.png")
    finally:
        a.close()


def test_screenshot_the_snapshot_browser(qloop, qtbot, tmp_path, server, chat, screenshot_dir):
    a = App(qloop, qtbot, tmp_path / "data", server, context_size=4096)
    try:
        async def talk() -> None:
            await a.say(turn.user for turn in chat.turns[:6])
            a.controller.create_snapshot("before trying the rewrite")
            for turn in chat.turns[6:30]:
                await a.type_and_send(turn.user)
                if a.controller.snapshot.compaction_count >= 1:
                    return

        run(qloop, talk())
        browser = a.window.open_snapshot_browser()
        assert browser.isVisible()
        labels = [s.label for s in a.controller.list_snapshots()]
        assert "before trying the rewrite" in labels
        browser.resize(980, 620)
        save_shot(screenshot_dir, browser, "snapshot-browser-live.png")
    finally:
        a.close()
