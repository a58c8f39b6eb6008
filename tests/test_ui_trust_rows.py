"""What rows, panels and lists say must match what happened (issue 14, points 8, 9, 11, 12, 14).

The real window over the real controller, store and backend (loopback fake Ollama). Chats that
would take many turns to grow (a compaction numbered 5, a long history) are written into the
data folder first, as an earlier run of the app would have left them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QListWidget, QTabWidget

from ollm_desktop.engine import count_message_tokens
from ollm_desktop.engine.models import (
    CompressedGroup,
    EngineState,
    GoalCheckpoint,
    GoalState,
    Message,
)
from ollm_desktop.paths import app_paths
from ollm_desktop.storage import ChatStore
from ollm_desktop.storage.models import ChatRecord
from ollm_desktop.ui.conversation.conversation_model import format_count
from ollm_desktop.ui.conversation.roles import GroupIdRole, KindRole, VisibilityRole
from tests.controller_harness import run, scripted_model, settle
from tests.engine_fakes import words
from tests.test_ui_main_window import App


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=60)
    return ollama_server


def message(role: str, content: str) -> Message:
    return Message(role=role, content=content, tokens=count_message_tokens(content, 1.0, 8))


def seed(data: Path, chats: list[tuple[str, EngineState]]) -> list[ChatRecord]:
    """Chats as an earlier run left them (the last one is the newest, opened at start)."""
    paths = app_paths(data)
    paths.ensure()
    store, _notices = ChatStore.open(paths)
    made = []
    try:
        for title, state in chats:
            chat = store.create_chat(title, model="llama3.2:3b", context_size=4096)
            store.replace_chat_state(chat.id, state)
            made.append(chat)
    finally:
        store.close()
    return made


def compacted_chat() -> EngineState:
    """A chat whose one visible checkpoint came from its 5th compaction (older ones merged
    or undone), summarising long user and assistant messages."""
    messages = [message("user" if i % 2 == 0 else "assistant", f"M{i} " + words(220, i))
                for i in range(10)]
    replaced = messages[:6]
    group = CompressedGroup(
        summary="## Context\nThe first three exchanges.", level=3,
        message_ids=[m.id for m in replaced], span_ids=[m.id for m in replaced],
        original_tokens=sum(m.tokens for m in replaced), current_tokens=40, sequence=5)
    return EngineState(messages=messages, groups=[group], compaction_count=5)


# ---------------------------------------------------------------- point 8
def test_a_summarised_message_of_the_user_says_why_despite_keep_word_for_word(
        qloop, qtbot, tmp_path, server):
    data = tmp_path / "data"
    seed(data, [("Long pastes", compacted_chat())])
    a = App(qloop, qtbot, data, server)
    try:
        assert a.controller.settings.preserve_user_messages
        model = a.window.conversation_model
        share = a.controller.snapshot.usage.user_share
        assert share > 0
        first_user = model.index(0)
        assert first_user.data(VisibilityRole) == "summarized"
        said = first_user.data(Qt.ItemDataRole.AccessibleTextRole)
        assert said.startswith("You, summarised — your messages exceeded their share of the "
                               f"budget ({format_count(share)} tokens)")
        assert model.visibility_text(model.rows[0]).endswith(f"({format_count(share)} tokens)")
        # An assistant message of the same checkpoint is just "summarised".
        assert model.visibility_text(model.rows[1]) == "summarised"
    finally:
        a.close()


# ---------------------------------------------------------------- point 9
def open_the_group(qloop, qtbot, data: Path, server) -> App:
    seed(data, [("Compacted", compacted_chat())])
    a = App(qloop, qtbot, data, server)
    model = a.window.conversation_model
    markers = [model.index(r).data(GroupIdRole) for r in range(model.rowCount())
               if model.index(r).data(KindRole) == "marker"]
    assert len(markers) == 1
    assert a.controller.snapshot.groups[0].sequence == 5
    a.window.conversation_view.groupActivated.emit(markers[0])
    assert a.window.group_panel.isVisible()
    return a


def test_the_group_panel_numbers_groups_as_the_markers_show_them(qloop, qtbot, tmp_path,
                                                                  server):
    a = open_the_group(qloop, qtbot, tmp_path / "data", server)
    try:
        assert a.window.group_panel.title.text() == "Checkpoint 1 of 1"
    finally:
        a.close()


def test_the_history_tab_opens_at_the_first_message(qloop, qtbot, tmp_path, server):
    a = open_the_group(qloop, qtbot, tmp_path / "data", server)
    try:
        panel = a.window.group_panel
        a.find(QTabWidget, "groupTabs").setCurrentIndex(1)
        bar = panel.history_view.verticalScrollBar()
        qtbot.waitUntil(lambda: bar.maximum() > 0)
        panel.history_view.doItemsLayout()  # as the delayed relayouts do
        assert bar.value() == 0
        first = panel.history_model.index(0)
        assert panel.history_view.visualRect(first).top() <= 1
    finally:
        a.close()


# --------------------------------------------------------------- point 11
def search_app(qloop, qtbot, data: Path, server) -> tuple[App, list[Message], ChatRecord]:
    long_chat = [message("user" if i % 2 == 0 else "assistant",
                         f"Part {i}. " + words(120, i)) for i in range(40)]
    long_chat[6] = message("user", "How far is Zanzibar from the coast? " + words(60, 6))
    long_chat[9] = message("assistant", "Zanzibar lies about 35 km off the coast.")
    other = [message("user", "Spices from zanzibar"), message("assistant", "Cloves.")]
    travel, spices = seed(data, [("Travel notes", EngineState(messages=long_chat)),
                                 ("Spices", EngineState(messages=other))])
    a = App(qloop, qtbot, data, server)
    assert a.controller.chat.id == spices.id  # the newest chat is open
    a.window.chat_search.setText("zanzibar")
    return a, long_chat, travel


def hit_item(a: App, text: str):
    chat_list = a.find(QListWidget, "chatList")
    return next(chat_list.item(i) for i in range(chat_list.count())
                if text in chat_list.item(i).text())


def test_search_hits_name_each_chat_once(qloop, qtbot, tmp_path, server):
    a, _messages, _travel = search_app(qloop, qtbot, tmp_path / "data", server)
    try:
        chat_list = a.find(QListWidget, "chatList")
        texts = [chat_list.item(i).text() for i in range(chat_list.count())]
        assert sum("Travel notes" in t for t in texts) == 1  # not repeated per hit
        assert texts.count("Spices") == 1
        assert len(texts) == 5  # two chats, three hits
        assert texts.index("Travel notes") < texts.index(hit_item(a, "35 km").text())
    finally:
        a.close()


def test_a_search_hit_opens_its_chat_scrolled_to_the_message(qloop, qtbot, tmp_path, server):
    a, long_chat, travel = search_app(qloop, qtbot, tmp_path / "data", server)
    try:
        a.window.chat_panel.item_activated(hit_item(a, "35 km"))
        assert a.controller.chat.id == travel.id
        view, model = a.window.conversation_view, a.window.conversation_model
        row = model.row_of_message(long_chat[9].id)
        assert view.currentIndex().row() == row
        assert view.selectionModel().isSelected(model.index(row))
        qtbot.waitUntil(lambda: not view._relayout_timer.isActive())
        view.doItemsLayout()  # as the delayed relayouts do: the message stays in view
        assert view.viewport().rect().intersects(view.visualRect(model.index(row)))
        assert not view.is_at_bottom()
        # A hit in the chat already open scrolls there too.
        a.window.chat_panel.item_activated(hit_item(a, "coast?"))
        row = model.row_of_message(long_chat[6].id)
        assert view.currentIndex().row() == row
        view.doItemsLayout()
        assert view.viewport().rect().intersects(view.visualRect(model.index(row)))
    finally:
        a.close()


# --------------------------------------------------------------- point 12
def chat_rows(chat_list: QListWidget) -> int:
    """The chats listed (not their date headers)."""
    return sum(1 for i in range(chat_list.count())
               if chat_list.item(i).data(Qt.ItemDataRole.UserRole + 1))


def test_new_chat_on_an_empty_chat_reuses_it(app):
    chat_list = app.find(QListWidget, "chatList")
    app.window.action_new_chat.trigger()
    first = app.controller.chat
    assert first is not None
    app.window.action_new_chat.trigger()
    app.window.chat_panel.new_chat_button.click()
    assert app.controller.chat.id == first.id
    assert chat_rows(chat_list) == 1 and len(app.controller.list_chats()) == 1
    run(app.loop, app.type_and_send("Hello there"))
    app.window.action_new_chat.trigger()
    second = app.controller.chat
    assert second is not None and second.id != first.id
    app.window.action_new_chat.trigger()
    assert app.controller.chat.id == second.id
    assert chat_rows(chat_list) == 2
    assert app.controller.chat.title == "New chat"


# --------------------------------------------------------------- point 14
def test_automatic_snapshots_are_labelled_with_what_happened(app, server):
    for i in range(5):
        run(app.loop, app.type_and_send(f"Step {i}: tell me about storage {i}"))
    engine = app.controller.session.engine
    count = len(engine.display_messages())
    browser = app.window.content.open_snapshot_browser()
    browser.ask_label = lambda: "my label"
    browser.confirm = lambda title, text: True
    assert browser.create_snapshot()
    run(app.loop, _compact(app))
    assert engine.compaction_count == 1
    manual = next(s for s in app.controller.list_snapshots() if s.reason == "manual")
    browser.refresh()
    assert browser.select(manual.id)
    browser.restore_selected()
    labels = {s.reason: s.label for s in app.controller.list_snapshots()}
    assert labels["before-compaction"] == f"before compaction 1 ({count} messages)"
    assert labels["before-restore"] == f"before restore of “my label” ({count} messages)"
    autos = [s.label for s in app.controller.list_snapshots() if s.auto]
    assert all(autos) and len(set(autos)) == len(autos)
    browser.refresh()
    shown = [browser.list.topLevelItem(r).text(2) for r in range(browser.list.topLevelItemCount())]
    assert set(autos) <= set(shown)
    browser.close()


def test_the_snapshot_preview_needs_no_emoji_font(app, server):
    run(app.loop, app.type_and_send("Remember: the port is 8080.\nAnd the host is db1."))
    first = app.controller.session.engine.display_messages()[0]
    app.window.conversation_view.pinToggled.emit(first.id)
    app.controller.set_goal(GoalState(description="Ship it", checkpoints=[
        GoalCheckpoint(description="Write tests", status="completed"),
        GoalCheckpoint(description="Fix bugs", status="in-progress"),
        GoalCheckpoint(description="Release", status="pending")]))
    browser = app.window.content.open_snapshot_browser()
    browser.ask_label = lambda: "pinned"
    assert browser.create_snapshot()
    browser.refresh()
    text = browser.preview.toPlainText()
    assert "8080" in text
    metrics = QFontMetrics(browser.preview.font())
    missing = {c for c in text if not c.isspace() and not metrics.inFontUcs4(ord(c))}
    assert not missing, missing  # each would be drawn as a box
    assert "(pinned)" in text and "done: Write tests" in text and "to do: Release" in text
    browser.close()


async def _compact(app: App) -> None:
    task = app.controller.compact()
    assert task is not None
    await settle(app.controller)
