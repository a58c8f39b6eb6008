"""The chat list through the real window (issue 15): date groups, a pinned section, branches
nested under their chat, rename in place, delete with undo (and the purge when the undo is
over or at the next start), and search hits that open the chat at the message, highlighted.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit, QListWidget, QListWidgetItem, QMenu, QPushButton

from ollm_desktop.engine import count_message_tokens
from ollm_desktop.engine.models import EngineState, Message
from ollm_desktop.paths import app_paths
from ollm_desktop.storage import ChatStore
from ollm_desktop.ui.chat_list.chat_list_items import HEADER_ROLE, ROW_ROLE
from ollm_desktop.ui.chat_list.chat_list_rows import ListRow
from ollm_desktop.ui.conversation.search_highlight import HIT_PROPERTY
from ollm_desktop.ui.status.undo_bar import UndoBar
from tests.controller_harness import scripted_model
from tests.engine_fakes import words
from tests.test_ui_main_window import App, save_shot


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=40)
    return ollama_server


@dataclass
class Seed:
    title: str
    days_ago: float = 0
    texts: list[str] = field(default_factory=lambda: ["hello", "hi there"])
    pinned: bool = False
    root: str | None = None  # the title of the family's chat: this one is its branch
    kind: str = ""
    label: str = ""


def message(role: str, content: str) -> Message:
    return Message(role=role, content=content, tokens=count_message_tokens(content, 1.0, 8))


def seed(data: Path, chats: list[Seed]) -> dict[str, str]:
    """Chats as an earlier run left them (updated ``days_ago``); title -> id."""
    paths = app_paths(data)
    paths.ensure()
    store, _notices = ChatStore.open(paths)
    ids: dict[str, str] = {}
    try:
        for spec in chats:
            chat = store.create_chat(spec.title, model="llama3.2:3b", context_size=4096)
            msgs = [message("user" if i % 2 == 0 else "assistant", text)
                    for i, text in enumerate(spec.texts)]
            store.replace_chat_state(chat.id, EngineState(messages=msgs))
            key = spec.label or spec.title
            ids[key] = chat.id
            if spec.kind:
                root = ids.get(spec.root or "", spec.root)
                store.set_family(chat.id, parent_id=root, root_id=None if spec.kind == "fork"
                                 else root, kind=spec.kind, label=spec.label)
            store.set_chat_pinned(chat.id, spec.pinned)
    finally:
        store.close()
    conn = sqlite3.connect(paths.database)
    base = datetime.now(UTC) - timedelta(seconds=len(chats))
    with conn:
        for position, spec in enumerate(chats):  # ties: the later seed is the newer
            stamp = base - timedelta(days=spec.days_ago) + timedelta(seconds=position)
            conn.execute("UPDATE chats SET updated_at = ? WHERE id = ?",
                         (stamp.isoformat(timespec="microseconds"), ids[spec.label or spec.title]))
    conn.close()
    return ids


def listed(a: App) -> list[tuple[str, str, int]]:
    """(kind, text, depth) of each row of the chat list."""
    chat_list = a.find(QListWidget, "chatList")
    rows = [chat_list.item(i).data(ROW_ROLE) for i in range(chat_list.count())]
    return [(r.kind, r.text, r.depth) for r in rows if isinstance(r, ListRow)]


def item_of(a: App, text: str) -> QListWidgetItem:
    chat_list = a.find(QListWidget, "chatList")
    return next(chat_list.item(i) for i in range(chat_list.count())
                if chat_list.item(i).text() == text)


def double_click(chat_list: QListWidget, item: QListWidgetItem) -> None:
    """As the platform sends one: press, release, double-click, release."""
    centre, left = chat_list.visualItemRect(item).center(), Qt.MouseButton.LeftButton
    QTest.mouseClick(chat_list.viewport(), left, pos=centre)
    QTest.mouseDClick(chat_list.viewport(), left, pos=centre)
    QTest.mouseRelease(chat_list.viewport(), left, pos=centre)


def act(a: App, name: str, text: str) -> None:
    """The list's context-menu action ``name`` on the row ``text`` (as the menu does it)."""
    chat_list = a.find(QListWidget, "chatList")
    chat_list.setCurrentItem(item_of(a, text))
    a.find(QAction, name).trigger()


def db_count(data: Path, sql: str, *args: object) -> int:
    conn = sqlite3.connect(app_paths(data).database)
    try:
        return conn.execute(sql, args).fetchone()[0]
    finally:
        conn.close()


# --------------------------------------------------------------------- groups
def test_chats_are_grouped_by_date_with_the_pinned_section_first(qloop, qtbot, tmp_path,
                                                                  server):
    today = datetime.now().astimezone().date()
    long_ago = (today - timedelta(days=400)).year
    seed(tmp_path / "data", [
        Seed("Ancient", days_ago=400), Seed("Pinned old", days_ago=60, pinned=True),
        Seed("Three weeks", days_ago=20), Seed("Four days", days_ago=4),
        Seed("Yesterday's", days_ago=1), Seed("Fresh", days_ago=0)])
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        rows = listed(a)
        headers = [text for kind, text, _ in rows if kind == "header"]
        assert headers == ["Pinned", "Today", "Yesterday", "Previous 7 days",
                           "Previous 30 days", str(long_ago)]
        assert [text for kind, text, _ in rows if kind == "chat"] == [
            "Pinned old", "Fresh", "Yesterday's", "Four days", "Three weeks", "Ancient"]
        header = item_of(a, "Today")
        assert header.data(HEADER_ROLE)
        assert not header.flags() & Qt.ItemFlag.ItemIsSelectable
        # The open chat (the newest) is the selected row.
        chat_list = a.find(QListWidget, "chatList")
        assert a.controller.chat.title == "Fresh"
        assert chat_list.currentItem() is item_of(a, "Fresh")
        assert item_of(a, "Fresh").isSelected()
        # Clicking a header opens nothing.
        rect = chat_list.visualItemRect(header)
        QTest.mouseClick(chat_list.viewport(), Qt.MouseButton.LeftButton,
                         pos=rect.center())
        assert a.controller.chat.title == "Fresh" and item_of(a, "Fresh").isSelected()
    finally:
        a.close()


def test_a_pinned_chat_stays_at_the_top_after_a_restart(qloop, qtbot, tmp_path, server):
    data = tmp_path / "data"
    seed(data, [Seed("Older", days_ago=3), Seed("Newer", days_ago=0)])
    a = App(qloop, qtbot, data, server)
    try:
        act(a, "chatListPinAction", "Older")
        assert listed(a)[:2] == [("header", "Pinned", 0), ("chat", "Older", 0)]
    finally:
        a.close()
    a = App(qloop, qtbot, data, server)
    try:
        assert listed(a)[:2] == [("header", "Pinned", 0), ("chat", "Older", 0)]
        act(a, "chatListPinAction", "Older")  # now it unpins
        assert [t for k, t, _ in listed(a) if k == "header"] == ["Today", "Previous 7 days"]
    finally:
        a.close()


def test_the_row_menu_opens_without_blocking_and_acts_on_its_row(qloop, qtbot, tmp_path,
                                                                  server):
    data = tmp_path / "data"
    seed(data, [Seed("Older", days_ago=3), Seed("Newer", days_ago=0)])
    a = App(qloop, qtbot, data, server)
    try:
        panel, chat_list = a.window.chat_panel, a.find(QListWidget, "chatList")
        target = chat_list.visualItemRect(item_of(a, "Older")).center()
        panel._menu(target)  # returns at once: a popup, no nested event loop
        menu = next(m for m in panel.findChildren(QMenu) if m.isVisible())
        next(x for x in menu.actions() if x.objectName() == "chatListPinAction").trigger()
        menu.close()
        assert listed(a)[:2] == [("header", "Pinned", 0), ("chat", "Older", 0)]
        qtbot.waitUntil(lambda: panel._target is None)  # forgotten once the menu is gone
    finally:
        a.close()


# --------------------------------------------------------------------- rename
def _editor(a: App) -> QLineEdit:
    """The title editor open on the list (closed ones may linger until deleted)."""
    chat_list = a.find(QListWidget, "chatList")
    (editor,) = [e for e in chat_list.findChildren(QLineEdit, "chatTitleEditor")
                 if e.isVisible()]
    return editor


def test_a_chat_is_renamed_in_place(qloop, qtbot, tmp_path, server):
    seed(tmp_path / "data", [Seed("Other", days_ago=1), Seed("Draft title", days_ago=0)])
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        chat_list = a.find(QListWidget, "chatList")
        act(a, "chatListRenameAction", "Draft title")
        editor = _editor(a)
        assert editor.text() == "Draft title"
        editor.setText("Final title")
        QTest.keyClick(editor, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: a.controller.chat.title == "Final title")
        qtbot.waitUntil(lambda: ("chat", "Final title", 0) in listed(a))
        # F2 on the selected row; Escape cancels.
        chat_list.setFocus()
        chat_list.setCurrentItem(item_of(a, "Other"))
        QTest.keyClick(chat_list, Qt.Key.Key_F2)
        editor = _editor(a)
        editor.setText("Not this")
        QTest.keyClick(editor, Qt.Key.Key_Escape)
        assert {c.title for c in a.controller.list_chats()} == {"Other", "Final title"}
        # Double-click; a blank name is refused.
        double_click(chat_list, item_of(a, "Other"))
        assert a.controller.chat.title == "Other"  # its first click opened it
        editor = _editor(a)
        editor.setText("   ")
        QTest.keyClick(editor, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: ("chat", "Other", 0) in listed(a))
        assert {c.title for c in a.controller.list_chats()} == {"Other", "Final title"}
    finally:
        a.close()


# --------------------------------------------------------------------- delete
def test_delete_then_undo_then_delete_for_good(qloop, qtbot, tmp_path, server):
    data = tmp_path / "data"
    ids = seed(data, [Seed("Keeper", days_ago=2, texts=["about ferns", "green"]),
                      Seed("Doomed", days_ago=0, texts=["about zanzibar", "spices"])])
    a = App(qloop, qtbot, data, server)
    try:
        doomed = ids["Doomed"]
        assert a.controller.chat.id == doomed  # the open chat is the one deleted
        act(a, "chatListDeleteAction", "Doomed")
        assert "Doomed" not in [t for _, t, _ in listed(a)]
        assert a.controller.chat.id == ids["Keeper"]  # the next chat is shown
        assert item_of(a, "Keeper").isSelected()
        bar = a.find(UndoBar, "undoBar")
        assert bar.isVisible() and "Doomed" in bar.text.text()
        a.window.chat_search.setText("zanzibar")
        assert listed(a) == []  # not found while deleted
        a.window.chat_search.setText("")
        bar.findChild(QPushButton, "undoButton").click()
        assert not bar.isVisible()
        assert a.controller.chat.id == doomed  # Undo reopens it, with its messages
        assert [m.content for m in a.controller.display_messages()] == [
            "about zanzibar", "spices"]
        assert item_of(a, "Doomed").isSelected()
        a.window.chat_search.setText("zanzibar")
        assert [t for k, t, _ in listed(a) if k == "chat"] == ["Doomed"]
        a.window.chat_search.setText("")
        # Deleted again, and the offer runs out: gone from the database.
        act(a, "chatListDeleteAction", "Doomed")
        assert db_count(data, "SELECT count(*) FROM chats WHERE id = ?", doomed) == 1
        bar.finish()  # what its timer does
        for sql in ("SELECT count(*) FROM chats WHERE id = ?",
                    "SELECT count(*) FROM messages WHERE chat_id = ?"):
            assert db_count(data, sql, doomed) == 0
        assert [c.id for c in a.controller.list_chats()] == [ids["Keeper"]]
    finally:
        a.close()


def test_a_chat_deleted_just_before_quitting_is_purged_at_the_next_start(qloop, qtbot,
                                                                        tmp_path, server):
    data = tmp_path / "data"
    ids = seed(data, [Seed("Stays", days_ago=1), Seed("Goes", days_ago=2)])
    a = App(qloop, qtbot, data, server)
    try:
        chat_list = a.find(QListWidget, "chatList")
        chat_list.setFocus()
        chat_list.setCurrentItem(item_of(a, "Goes"))
        QTest.keyClick(chat_list, Qt.Key.Key_Delete)  # the Delete key does it too
        assert a.find(UndoBar, "undoBar").isVisible()
        assert a.controller.chat.id == ids["Stays"]  # another chat was open: it stays
    finally:
        a.close()  # quit while Undo is offered
    assert db_count(data, "SELECT count(*) FROM chats WHERE trashed_at IS NOT NULL") == 1
    a = App(qloop, qtbot, data, server)
    try:
        assert db_count(data, "SELECT count(*) FROM chats WHERE id = ?", ids["Goes"]) == 0
        assert db_count(data, "SELECT count(*) FROM messages WHERE chat_id = ?",
                        ids["Goes"]) == 0
        assert [t for k, t, _ in listed(a) if k == "chat"] == ["Stays"]
    finally:
        a.close()


# ------------------------------------------------------------------- branches
FAMILY = [
    Seed("Trip plan", days_ago=3),
    Seed("Trip plan", days_ago=3, root="Trip plan", kind="branch", label="Edited: by train"),
    Seed("Trip plan", days_ago=0, root="Trip plan", kind="branch", label="Earlier reply"),
    Seed("Trip plan (fork)", days_ago=1, root="Trip plan", kind="fork",
         label="Forked from “Trip plan”"),
    Seed("Lost root", days_ago=5, root="no-such-chat", kind="branch", label="Orphan branch"),
    Seed("Unrelated", days_ago=1),
]


def test_branches_are_nested_under_their_chat(qloop, qtbot, tmp_path, server):
    ids = seed(tmp_path / "data", FAMILY)
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        assert [(k, t, d) for k, t, d in listed(a)] == [
            ("header", "Yesterday", 0),
            ("chat", "Unrelated", 0),
            ("chat", "Trip plan (fork)", 0),  # a fork stands on its own...
            ("header", "Previous 7 days", 0),
            ("chat", "Trip plan", 0),  # the family is as new as its newest listed chat
            # Versions of the message where they part from it (issue 25): these seeds share
            # no history with their chat, so they are versions of its first message. The
            # regenerated reply ("Reply 3 of 3") stays out of the list (issue 32): it is
            # chosen in the chat, and still counts in the numbering.
            ("chat", "Edit 2 of 3: by train", 1),
            ("chat", "Lost root — Orphan branch", 0),  # ...and a branch without its chat
        ]
        assert "Forked from “Trip plan”" in item_of(a, "Trip plan (fork)").toolTip()
        # A branch opens like any chat and is then the selected row.
        chat_list = a.find(QListWidget, "chatList")
        branch = item_of(a, "Edit 2 of 3: by train")
        QTest.mouseClick(chat_list.viewport(), Qt.MouseButton.LeftButton,
                         pos=chat_list.visualItemRect(branch).center())
        assert a.controller.chat.id == ids["Edited: by train"]
        assert item_of(a, "Edit 2 of 3: by train").isSelected()
        # Renaming a branch renames its label.
        act(a, "chatListRenameAction", "Edit 2 of 3: by train")
        editor = _editor(a)
        editor.setText("By train")
        QTest.keyClick(editor, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: ("chat", "By train", 1) in listed(a))
        # Its family's chat deleted: the branches stand on their own until Undo.
        act(a, "chatListDeleteAction", "Trip plan")
        assert ("chat", "Trip plan — By train", 0) in listed(a)
        a.find(UndoBar, "undoBar").undo()
        assert ("chat", "By train", 1) in listed(a)
    finally:
        a.close()


# --------------------------------------------------------------------- search
def _highlighted(doc: QTextDocument) -> list[str]:
    """The texts of the document carrying the search-hit format."""
    found, block = [], doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().property(HIT_PROPERTY):
                found.append(fragment.text())
            it += 1
        block = block.next()
    return found


def test_a_search_hit_opens_the_chat_at_the_message_highlighted(qloop, qtbot, tmp_path,
                                                                 server, screenshot_dir):
    long_chat = [words(60, i) for i in range(14)]
    long_chat[3] = "Zanzibar lies about 35 km off the coast; zanzibar spices are famous."
    ids = seed(tmp_path / "data", [Seed("Travel notes", days_ago=1, texts=long_chat),
                                   Seed("Spices", days_ago=0, texts=["Cloves", "Yes."])])
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        view, model = a.window.conversation_view, a.window.conversation_model
        delegate = view.message_delegate
        a.window.chat_search.setText("zanzibar")
        hit = next(t for k, t, _ in listed(a) if k == "hit")
        a.window.chat_panel.item_activated(item_of(a, hit))
        assert a.controller.chat.id == ids["Travel notes"]
        position = model.row_of_message(a.controller.display_messages()[3].id)
        assert view.currentIndex().row() == position
        row = model.rows[position]
        assert [t.casefold() for t in _highlighted(delegate.document(row))] == [
            "zanzibar", "zanzibar"]
        assert _highlighted(delegate.document(model.rows[position + 1])) == []
        qtbot.waitUntil(lambda: not view._relayout_timer.isActive())
        view.doItemsLayout()  # the highlight's relayout keeps the message in view
        assert view.viewport().rect().intersects(view.visualRect(model.index(position)))
        save_shot(screenshot_dir, a.window, "search-hit.png")
        # Searching again (or clearing the search) takes the highlight away.
        a.window.chat_search.setText("")
        assert _highlighted(delegate.document(model.rows[position])) == []
        # Opening another chat does too.
        a.window.chat_search.setText("zanzibar")
        hit = next(t for k, t, _ in listed(a) if k == "hit")
        a.window.chat_panel.item_activated(item_of(a, hit))
        assert _highlighted(delegate.document(model.rows[position]))
        a.controller.open_chat(ids["Spices"])
        a.controller.open_chat(ids["Travel notes"])
        assert all(_highlighted(delegate.document(r)) == [] for r in model.rows
                   if r.message is not None)
    finally:
        a.close()


# ------------------------------------------------------------------ screenshot
def test_chat_list_screenshot(qloop, qtbot, tmp_path, server, screenshot_dir):
    seed(tmp_path / "data", [
        Seed("Garden watering schedule", days_ago=200),
        Seed("Reading list for 2025", days_ago=45, pinned=True),
        Seed("Tax questions", days_ago=12),
        Seed("SQLite migrations", days_ago=5),
        *FAMILY[:4],
        Seed("Sourdough starter", days_ago=1),
        Seed("Weekly groceries", days_ago=0,
             texts=["What do I need for a risotto for four?",
                    "Arborio rice (320 g), 1.2 l of stock, an onion, white wine, parmesan "
                    "and butter."]),
    ])
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        a.window.resize(1100, 640)
        chat_list = a.find(QListWidget, "chatList")
        chat_list.setCurrentItem(item_of(a, "Edit 2 of 3: by train"))
        a.window.chat_panel.item_activated(item_of(a, "Edit 2 of 3: by train"))
        save_shot(screenshot_dir, a.window, "chat-list.png")
    finally:
        a.close()
