"""Snapshot browser against a small fake controller returning real pydantic records."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from PySide6.QtCore import Qt

from ollm_desktop.engine.models import (
    CompressedGroup,
    EngineState,
    GoalCheckpoint,
    GoalState,
    Message,
)
from ollm_desktop.storage.models import Snapshot, SnapshotInfo
from ollm_desktop.ui.side_panel.snapshot_browser import SnapshotBrowser

BASE = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class FakeController:
    def __init__(self, snapshots: list[Snapshot]) -> None:
        self.snapshots = {s.info.id: s for s in snapshots}
        self.get_calls: list[str] = []

    def list_snapshots(self) -> list[SnapshotInfo]:
        return [s.info for s in self.snapshots.values()]

    def get_snapshot(self, snapshot_id: str) -> Snapshot:
        self.get_calls.append(snapshot_id)
        return self.snapshots[snapshot_id]


def make_snapshot(n: int, *, reason="manual", label="", messages=4, broken=False) -> Snapshot:
    msgs = [Message(role="user" if i % 2 == 0 else "assistant",
                    content=f"message {n}.{i}\nsecond line\nthird line\nfourth line")
            for i in range(messages)]
    state = EngineState(
        system_prompt="Be brief.",
        messages=msgs,
        groups=[CompressedGroup(summary=f"Summary of snapshot {n}", message_ids=["a", "b"],
                                original_tokens=1200, current_tokens=300)],
        goal=GoalState(description=f"Goal {n}",
                       checkpoints=[GoalCheckpoint(description="Step one",
                                                   status="completed")]),
        compaction_count=1,
    )
    info = SnapshotInfo(id=f"snap{n}", chat_id="chat1", created_at=BASE + timedelta(hours=n),
                        reason=reason, label=label, auto=reason != "manual",
                        message_count=len(msgs), tokens=1000 * n + 7, checkpoint_count=1,
                        model="llama3.2:3b", tier=2)
    return Snapshot(info=info, state=state)


@pytest.fixture
def browser(qtbot):
    controller = FakeController([
        make_snapshot(1, reason="before-compaction"),
        make_snapshot(3, reason="manual", label="before refactor"),
        make_snapshot(2, reason="auto-threshold"),
    ])
    widget = SnapshotBrowser(controller, None)
    qtbot.addWidget(widget)
    widget.refresh()
    return widget


def column_texts(widget: SnapshotBrowser, column: int) -> list[str]:
    return [widget.list.topLevelItem(row).text(column)
            for row in range(widget.list.topLevelItemCount())]


def test_names(browser):
    assert browser.objectName() == "snapshotBrowser" and browser.accessibleName()
    assert browser.list.objectName() == "snapshotList" and browser.list.accessibleName()
    assert browser.restore_button.objectName() == "restoreSnapshotButton"
    assert browser.restore_button.accessibleName()


def test_lists_snapshots_newest_first_with_columns(browser):
    assert browser.list.topLevelItemCount() == 3
    ids = [browser.list.topLevelItem(r).data(0, 256) for r in range(3)]
    assert ids == ["snap3", "snap2", "snap1"]
    assert column_texts(browser, 1) == ["Manual", "Automatic (context filling up)",
                                        "Before compaction"]
    assert column_texts(browser, 2)[0] == "before refactor"
    assert column_texts(browser, 3) == ["4", "4", "4"]
    assert column_texts(browser, 4) == ["3,007", "2,007", "1,007"]
    assert column_texts(browser, 5) == ["1", "1", "1"]
    assert "llama3.2:3b" in column_texts(browser, 6)[0]
    local = (BASE + timedelta(hours=3)).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    assert column_texts(browser, 0)[0] == local
    assert browser.empty_label.isHidden()


def test_numeric_sort_is_by_value_not_text(qtbot):
    controller = FakeController([make_snapshot(2), make_snapshot(10), make_snapshot(9)])
    widget = SnapshotBrowser(controller, None)
    qtbot.addWidget(widget)
    widget.refresh()
    widget.list.sortByColumn(4, Qt.SortOrder.AscendingOrder)
    assert column_texts(widget, 4) == ["2,007", "9,007", "10,007"]


def test_preview_shows_messages_checkpoints_and_goal(browser):
    assert browser.selected_id() == "snap3"
    text = browser.preview.toPlainText()
    assert "Goal 3" in text and "Step one" in text
    assert "Summary of snapshot 3" in text
    assert "user" in text and "assistant" in text
    assert "message 3.0" in text and "message 3.3" in text
    assert "fourth line" not in text  # only the first lines of each message
    browser.select("snap1")
    assert "Goal 1" in browser.preview.toPlainText()


def test_restore_emits_only_when_confirmed(browser, qtbot):
    asked = []
    browser.confirm = lambda title, text: asked.append(text) or False
    with qtbot.assertNotEmitted(browser.restoreRequested):
        assert browser.restore_selected() is False
    assert "Undo restore brings" in asked[0]
    browser.confirm = lambda title, text: True
    browser.select("snap2")
    with qtbot.waitSignal(browser.restoreRequested, timeout=1000) as blocker:
        browser.restore_button.click()
    assert blocker.args == ["snap2"]


def test_delete_emits_only_when_confirmed(browser, qtbot):
    browser.confirm = lambda title, text: False
    with qtbot.assertNotEmitted(browser.deleteRequested):
        browser.delete_button.click()
    browser.confirm = lambda title, text: True
    with qtbot.waitSignal(browser.deleteRequested, timeout=1000) as blocker:
        browser.delete_button.click()
    assert blocker.args == ["snap3"]


def test_create_emits_label_unless_cancelled(browser, qtbot):
    browser.ask_label = lambda: None
    with qtbot.assertNotEmitted(browser.createRequested):
        browser.create_button.click()
    browser.ask_label = lambda: "milestone"
    with qtbot.waitSignal(browser.createRequested, timeout=1000) as blocker:
        browser.create_button.click()
    assert blocker.args == ["milestone"]


def test_refresh_keeps_selection_and_follows_deletions(browser):
    controller = browser.controller
    browser.select("snap2")
    controller.snapshots["snap4"] = make_snapshot(4)
    browser.refresh()
    assert browser.list.topLevelItemCount() == 4
    assert browser.selected_id() == "snap2"
    del controller.snapshots["snap2"]
    browser.refresh()
    assert browser.selected_id() == "snap4"  # falls back to the newest


def test_empty_state_disables_actions(qtbot):
    widget = SnapshotBrowser(FakeController([]), None)
    qtbot.addWidget(widget)
    widget.refresh()
    assert widget.list.topLevelItemCount() == 0
    assert not widget.empty_label.isHidden()
    assert not widget.restore_button.isEnabled()
    assert not widget.delete_button.isEnabled()
    assert widget.create_button.isEnabled()
    widget.confirm = lambda *_: True
    assert widget.restore_selected() is False


def test_unreadable_snapshot_shows_error_not_crash(qtbot):
    class Broken(FakeController):
        def get_snapshot(self, snapshot_id: str) -> Snapshot:
            raise KeyError(snapshot_id)

    widget = SnapshotBrowser(Broken([make_snapshot(1)]), None)
    qtbot.addWidget(widget)
    widget.refresh()
    assert "Could not read this snapshot" in widget.preview.toPlainText()


def test_long_history_preview_is_capped(qtbot):
    controller = FakeController([make_snapshot(1, messages=260)])
    widget = SnapshotBrowser(controller, None)
    qtbot.addWidget(widget)
    widget.refresh()
    text = widget.preview.toPlainText()
    assert "60 older messages" in text
    assert "message 1.259" in text and "message 1.59\n" not in text


def test_with_real_store_snapshots(qtbot, tmp_path, request):
    """The browser shows what the real ChatStore returns (timestamps, reasons, KeyError)."""
    store_module = pytest.importorskip("ollm_desktop.storage")
    from ollm_desktop.paths import app_paths

    paths = app_paths(tmp_path / "data")
    paths.ensure()
    store, _ = store_module.ChatStore.open(paths)
    request.addfinalizer(store.close)
    chat = store.create_chat("t", model="llama3.2:3b")
    state = make_snapshot(1, messages=6).state
    first = store.create_snapshot(chat.id, state, reason="before-compaction", model="m", tier=2)
    second = store.create_snapshot(chat.id, state, reason="manual", label="keep", model="m")

    class StoreController:
        def list_snapshots(self):
            return store.list_snapshots(chat.id)

        def get_snapshot(self, snapshot_id):
            return store.get_snapshot(snapshot_id)

    widget = SnapshotBrowser(StoreController(), None)
    qtbot.addWidget(widget)
    widget.refresh()
    assert widget.selected_id() == second.id
    assert column_texts(widget, 2) == ["keep", ""]
    assert "message 1.5" in widget.preview.toPlainText()
    store.delete_snapshot(first.id)
    widget.select(first.id)  # still listed until refresh: the preview reports it gone
    assert "Could not read this snapshot" in widget.preview.toPlainText()
    widget.refresh()
    assert widget.list.topLevelItemCount() == 1


def test_a_checkpoint_reads_rendered_with_the_live_checkpoint_s_figures(browser):
    """Issue 32: no '## Key Information' source, no tier ('T2') in the list; a checkpoint
    still in the chat shows its marker's figures (one source), an older one its own."""
    snapshot = make_snapshot(4)
    group = snapshot.state.groups[0]
    group.summary = "## Key Information\n- The API runs on **port 8080**\n## Decisions"
    html_text = browser.preview_html(snapshot)
    from PySide6.QtGui import QTextDocument
    doc = QTextDocument()
    doc.setHtml(html_text)
    text = doc.toPlainText()
    assert "Key Information / The API runs on port 8080 / Decisions" in text
    assert "##" not in text and "**" not in text
    assert "1,200 → 300 tokens" in text
    live = group.model_copy(update={"current_tokens": 310})
    browser.controller.snapshot = type("Snap", (), {"groups": [live]})()
    doc.setHtml(browser.preview_html(snapshot))
    assert "1,200 → 310 tokens" in doc.toPlainText()
    changed = live.model_copy(update={"summary": "rewritten since", "current_tokens": 99})
    browser.controller.snapshot = type("Snap", (), {"groups": [changed]})()
    doc.setHtml(browser.preview_html(snapshot))
    assert "1,200 → 300 tokens" in doc.toPlainText()  # another text: the snapshot's own
    assert not any("T2" in t for t in column_texts(browser, 6))
