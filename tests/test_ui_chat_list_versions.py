"""Issue 25, point 7: the chat list and search, through the real window.

Branch rows read as versions of their message ("Reply 1 of 2", "Edit 2 of 2"), a fork's name
stays readable in the row, and a search hit's row shows the matched words. What is checked is
the text the row really shows (what its delegate paints in the row's width).
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QStyleOptionViewItem

from ollm_desktop.session.branches import fork_title
from ollm_desktop.ui.chat_list.chat_list_items import ROW_ROLE, row_of, shown_text
from ollm_desktop.ui.chat_list.chat_list_rows import ListRow
from tests.controller_harness import run, scripted_model
from tests.test_ui_branches import click_row_button, wait_reply
from tests.test_ui_main_window import App

LONG_TITLE = ("Plan the migration of the billing database to the new cluster before the "
              "end of the quarter")


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=30)
    return ollama_server


def chat_list(a: App) -> QListWidget:
    return a.find(QListWidget, "chatList")


def items(a: App) -> list[QListWidgetItem]:
    widget = chat_list(a)
    return [widget.item(i) for i in range(widget.count())
            if isinstance(widget.item(i).data(ROW_ROLE), ListRow)]


def visible(a: App, item: QListWidgetItem) -> str:
    """The text the row shows in its width (as the delegate paints it)."""
    widget = chat_list(a)
    option = QStyleOptionViewItem()
    option.rect = widget.visualItemRect(item)
    option.font = widget.font()
    index = widget.indexFromItem(item)
    width = widget.itemDelegate().text_width(option, index)
    return shown_text(row_of(index), item.text(), QFontMetrics(option.font), width)


def rows(a: App) -> list[tuple[str, int]]:
    return [(row.text, row.depth) for row in (i.data(ROW_ROLE) for i in items(a))
            if row.kind == "chat"]


def test_branch_rows_read_as_versions_of_their_message(qloop, qtbot, tmp_path, server):
    """Regenerated replies stay out of the list (issue 32: they are versions of one reply,
    chosen in the chat); an edit's branch is listed as the version of its message."""
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        run(qloop, a.type_and_send("Name a colour"))
        reply = a.controller.display_messages()[-1]
        click_row_button(a, reply.id, "actionRegenerate")  # the earlier reply: a branch
        run(qloop, wait_reply(a))
        assert rows(a) == [("Name a colour", 0)], rows(a)
        click_row_button(a, a.controller.display_messages()[-1].id, "actionRegenerate")
        run(qloop, wait_reply(a))
        assert rows(a) == [("Name a colour", 0)], rows(a)
        assert len(a.controller.session.chat_list.listed(regenerated=True)) == 3
        # Edit and resend the question: the branch holds its second version.
        question = a.controller.display_messages()[0]
        a.controller.begin_edit(question.id)
        a.window.message_input.setPlainText("Name a warm colour")
        a.window.content.send()
        run(qloop, wait_reply(a))
        assert ("Edit 2 of 2: Name a warm colour", 1) in rows(a), rows(a)
        assert not [text for text, depth in rows(a) if depth and text in (
            "Earlier reply", "Edited: Name a warm colour")]
    finally:
        a.close()


def test_a_forks_name_stays_readable_in_its_row(qloop, qtbot, tmp_path, server):
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        run(qloop, a.type_and_send(LONG_TITLE))
        fork = a.controller.fork_chat(a.controller.display_messages()[-1].id)
        assert fork is not None and fork.title.endswith(" (fork)")
        item = next(i for i in items(a) if i.data(ROW_ROLE).chat_id == fork.id)
        shown = visible(a, item)
        assert shown != item.text()  # the name does not fit the row...
        assert shown.startswith("Plan the") and shown.endswith("(fork)"), shown  # ...but reads
        again = a.controller.fork_chat(a.controller.display_messages()[-1].id)
        assert again is not None and again.title.endswith(" (fork 2)")
        assert "(fork) (fork)" not in again.title
    finally:
        a.close()
    assert fork_title("Notes (fork 2)") == "Notes (fork 3)"


def test_a_search_hit_row_shows_the_matched_words(qloop, qtbot, tmp_path, server):
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        text = ("We looked at the storage layer, the migrations, the indexes and the backup "
                "rotation before we found that the quarantine folder fills the disk at night.")
        run(qloop, a.type_and_send(text))
        a.window.chat_search.setText("quarantine")
        hit = next(i for i in items(a) if i.data(ROW_ROLE).kind == "hit")
        assert "quarantine" in hit.text()
        shown = visible(a, hit)
        assert shown.startswith("You: …"), shown
        assert "quarantine" in shown, shown  # the match is in sight, with words before it
        assert len(shown.split("quarantine")[0]) > len("You: …")
    finally:
        a.close()
