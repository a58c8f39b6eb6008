"""Trust in daily use, through the real window (issue 14: the lead's points).

The real window, controller, store and backend over the loopback fake Ollama: what a user sees
must agree with what is sent, and nothing the app opens by itself may stall a reply.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

from tests.controller_harness import run, scripted_model
from tests.ollama_server import FakeModel
from tests.test_ui_main_window import App, save_shot
from tests.test_ui_reliability_signal import lossy

TINY = FakeModel("tiny:1b", "llama", "1.0B", 2048)


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=60)
    return ollama_server


def _wire_num_ctx(server) -> list[int]:
    return [b["options"]["num_ctx"] for b in server.chat_requests()]


@pytest.mark.parametrize("details", ["known at start", "still loading at the send"])
def test_a_fresh_chat_never_sends_more_than_the_model_was_trained_for(qloop, qtbot, tmp_path,
                                                                      server, details):
    server.models = [TINY]
    if details != "known at start":
        server.fail("/api/show", 500, "loading")  # the start's probe learns nothing
    a = App(qloop, qtbot, tmp_path / "data", server, default_model=TINY.name,
            context_size=8192)
    if details != "known at start":  # the start's probe has met the failure, not the send's
        qtbot.waitUntil(lambda: not server.path_failures.get("/api/show"), timeout=10_000)
    server.path_delays["/api/show"] = 0.4  # the details arrive after the send has started
    notices: list[str] = []
    a.controller.notice.connect(notices.append)
    try:
        run(qloop, a.type_and_send("Hello! What does a context window hold?"))
        assert _wire_num_ctx(server) == [2048]
        assert a.controller.chat is not None and a.controller.chat.context_size == 2048
        usage = a.controller.snapshot.usage
        assert usage is not None and usage.context_size == 2048
        meter = " ".join(label.text() for label in a.window.context_meter.findChildren(QLabel))
        assert "2K" in meter or "2,048" in meter, meter
        if details != "known at start":
            assert any("trained for 2,048" in text for text in notices), notices
    finally:
        a.close()


def test_beyond_the_trained_context_only_when_allowed_and_its_cost_is_said(qloop, qtbot,
                                                                          tmp_path, server):
    server.models = [TINY]
    a = App(qloop, qtbot, tmp_path / "data", server, default_model=TINY.name,
            context_size=8192, allow_beyond_trained=True)
    notices: list[str] = []
    a.controller.notice.connect(notices.append)
    try:
        a.controller.new_chat()
        a.controller.set_context_size(8192, apply_now=True)
        run(qloop, a.type_and_send("Hello again."))
        assert _wire_num_ctx(server) == [8192]
        assert any("beyond the 2,048" in text and "memory" in text for text in notices)
    finally:
        a.close()


LONG = "Let us talk about the storage layer, its migrations and the search index. " * 3


def _percent(text: str) -> int:
    import re

    match = re.search(r"(\d+)%", text)
    assert match is not None, text
    return int(match.group(1))


async def _until_compacted(a: App, times: int = 1, text=lambda i: f"Step {i}: {LONG}") -> None:
    for i in range(40):
        await a.type_and_send(text(i))
        if a.controller.snapshot.compaction_count >= times:
            return
    raise AssertionError("no compaction")


def test_the_compression_warning_is_a_bar_that_blocks_nothing_and_is_shown_once(
        qloop, qtbot, tmp_path, server, screenshot_dir):
    from PySide6.QtWidgets import QApplication, QMessageBox

    data = tmp_path / "data"
    # 268M, 2K, and messages full of identifiers the ledger cannot all keep: compactions
    # that lose the user's facts, the warning's reason (issue 25).
    small = {"default_model": "gemma3:270m", "context_size": 2048,
             "preserve_user_messages": False}
    a = App(qloop, qtbot, data, server, **small)
    try:
        bar = a.window.content.warning_bar
        indicator = a.window.content.reliability_indicator
        run(qloop, _until_compacted(a, 3, lossy))
        assert bar.isVisible()
        # Nothing modal: no box anywhere, and the window takes input.
        assert QApplication.activeModalWidget() is None
        assert not [w for w in QApplication.topLevelWidgets()
                    if isinstance(w, QMessageBox) and w.isVisible()]
        # The bar's figure is the status bar's, now and after the next compressions.
        assert _percent(bar.text.text()) == _percent(indicator.label.text())
        sent = len(server.chat_requests())
        run(qloop, _until_compacted(a, a.controller.snapshot.compaction_count + 1, lossy))
        assert len(server.chat_requests()) > sent  # sends went out while the bar was up
        assert bar.isVisible()
        assert _percent(bar.text.text()) == _percent(indicator.label.text())
        # Ctrl+N works while it is up (and the bar belongs to the chat it was shown for).
        chat_id = a.controller.chat.id
        a.window.content.action_new_chat.trigger()
        assert a.controller.chat.id != chat_id and not bar.isVisible()
        a.controller.open_chat(chat_id)
        assert not bar.isVisible()  # shown once per chat
    finally:
        a.close()
    again = App(qloop, qtbot, data, server, **small)
    try:
        again.controller.open_chat(chat_id)
        run(qloop, again.type_and_send(f"After the restart: {LONG}"))
        assert not again.window.content.warning_bar.isVisible()  # remembered across restarts
    finally:
        again.close()


def test_a_stream_completes_while_every_automatic_notice_is_shown(qloop, qtbot, tmp_path,
                                                                  server):
    from PySide6.QtWidgets import QApplication

    from ollm_desktop.storage.models import StartupNotice

    a = App(qloop, qtbot, tmp_path / "data", server, default_model="gemma3:270m",
            context_size=2048, preserve_user_messages=False)
    try:
        run(qloop, _until_compacted(a, 3, lossy))
        a.window.show_notices([StartupNotice(text="Your settings file could not be read.",
                                             backup_path="/tmp/settings.json.bak"),
                               StartupNotice(level="info", text="Ignored unknown settings.")])
        assert a.window.content.warning_bar.isVisible()
        assert QApplication.activeModalWidget() is None
        replies = len(server.chat_requests())
        run(qloop, a.type_and_send("Does the stream still complete?"))
        assert len(server.chat_requests()) > replies
        last = a.controller.display_messages()[-1]
        assert last.role == "assistant" and not last.partial and last.content
    finally:
        a.close()


def test_a_fresh_chat_is_not_critical_and_compression_turns_the_score_on(qloop, qtbot,
                                                                        tmp_path, server):
    from ollm_desktop.ui.theme import status_color

    a = App(qloop, qtbot, tmp_path / "data", server, default_model="gemma3:270m")
    try:
        indicator = a.window.content.reliability_indicator
        run(qloop, a.type_and_send("Hello, a first message."))
        assert "Critical" not in indicator.label.text()
        assert indicator.dot.color.name() == status_color("idle").name()
        assert "0.30" not in indicator.label.text()  # issue 25: no jargon in the status bar
        assert "Small models" in indicator.model_label.text()
        run(qloop, _until_compacted(a))
        # A compaction that kept every fact the user stated costs this chat nothing.
        assert indicator.label.text().startswith("Reliability: High")
        assert indicator.dot.color.name() == status_color("high").name()
    finally:
        a.close()


def test_a_compaction_result_is_said_once_with_the_markers_figures(qloop, qtbot, tmp_path,
                                                                  server):
    a = App(qloop, qtbot, tmp_path / "data", server)
    status: list[str] = []
    a.window.statusBar().messageChanged.connect(status.append)
    try:
        run(qloop, _until_compacted(a, 2))
        group = a.controller.snapshot.groups[-1]
        strip = a.window.content.compaction_progress
        text = strip.label.text()
        assert f"{len(group.message_ids):,} messages summarised" in text, text
        assert f"{group.original_tokens:,} → {group.current_tokens:,} tokens" in text, text
        marker = a.window.conversation_model.marker_text(group)
        assert f"{len(group.message_ids):,} messages summarised" in marker
        assert not [m for m in status if "summarised" in m]  # not again in the status bar
    finally:
        a.close()


def test_preferences_show_the_open_chats_own_values_and_where_they_come_from(
        qloop, qtbot, tmp_path, server, screenshot_dir):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QComboBox, QLabel

    server.models = [TINY]
    a = App(qloop, qtbot, tmp_path / "data", server, default_model=None, context_size=8192)
    seen: dict[str, str] = {}

    def inspect() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            QTimer.singleShot(10, inspect)
            return
        seen["labels"] = " | ".join(label.text() for label in dialog.findChildren(QLabel)
                                    if not label.isHidden())  # on any page (issue 32)
        combo = dialog.findChild(QComboBox, "pref_default_model")
        seen["model placeholder"] = combo.lineEdit().placeholderText()
        save_shot(screenshot_dir, dialog, "preferences-open-chat.png")
        dialog.reject()

    try:
        run(qloop, a.type_and_send("Hello there."))
        assert a.controller.chat.context_size == 2048
        QTimer.singleShot(0, inspect)
        a.window.content.action_preferences.trigger()
        assert "This chat: 2K — 2,048 tokens" in seen["labels"], seen
        assert "lowered to what tiny:1b was trained for" in seen["labels"], seen
        assert "In use in this chat: tiny:1b" in seen["labels"], seen
        assert "tiny:1b" in seen["model placeholder"]
    finally:
        a.close()
