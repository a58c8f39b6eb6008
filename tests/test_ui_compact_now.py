"""Issue 25, point 6: "Compact now…" never does nothing silently, through the real window.

A manual compaction that finds nothing old enough says why in the strip above the input, and
no "before compaction" snapshot is left behind for a compaction that did not happen.
"""

from __future__ import annotations

import pytest

from ollm_desktop.ui.dialogs import short_dialogs as dialogs
from tests.controller_harness import run, scripted_model, settle
from tests.test_ui_main_window import App


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=30)
    return ollama_server


def reasons(a: App) -> list[str]:
    return [s.reason for s in a.controller.list_snapshots()]


def test_a_skipped_manual_compaction_says_why_and_leaves_no_snapshot(
        qloop, qtbot, tmp_path, server, monkeypatch):
    a = App(qloop, qtbot, tmp_path / "data", server)
    monkeypatch.setattr(dialogs, "ask_compact_focus", lambda parent: "")
    try:
        async def scenario() -> None:
            for text in ("Hello", "How are you?", "Tell me about SQLite."):
                await a.type_and_send(text)
            a.window.content.action_compact.trigger()
            await settle(a.controller)

        run(qloop, scenario())
        strip = a.window.content.compaction_progress
        text = strip.label.text()
        assert strip.isVisible() and text.startswith("Nothing old enough to compact: ")
        assert "the last 6 messages are kept verbatim" in text, text
        assert a.controller.snapshot.compaction_count == 0
        assert "before-compaction" not in reasons(a)
    finally:
        a.close()


def test_a_manual_compaction_that_runs_keeps_its_restore_point(qloop, qtbot, tmp_path, server,
                                                               monkeypatch):
    a = App(qloop, qtbot, tmp_path / "data", server)
    monkeypatch.setattr(dialogs, "ask_compact_focus", lambda parent: "")
    try:
        async def scenario() -> None:
            for i in range(8):
                await a.type_and_send(f"Question {i} about the storage layer and its indexes?")
            a.window.content.action_compact.trigger()
            await settle(a.controller)

        run(qloop, scenario())
        assert a.controller.snapshot.compaction_count >= 1
        before = [s for s in a.controller.list_snapshots() if s.reason == "before-compaction"]
        assert len(before) == a.controller.snapshot.compaction_count
        # The snapshot is the state before: no checkpoint, every message so far.
        snapshot = a.controller.get_snapshot(before[0].id)
        assert snapshot.state.groups == [] and before[0].label.startswith("before compaction 1")
    finally:
        a.close()
