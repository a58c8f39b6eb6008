"""Conversation model, view and delegate (offscreen pytest-qt)."""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication, QImage, QTextDocument
from PySide6.QtTest import QSignalSpy
from PySide6.QtWidgets import QApplication

from ollm_desktop.engine.models import CompressedGroup, Message
from ollm_desktop.ui.conversation.conversation_model import (
    ConversationModel,
    MessageIdRole,
    PinnedRole,
)
from ollm_desktop.ui.conversation.conversation_view import ConversationView
from ollm_desktop.ui.conversation.roles import (
    GroupIdRole,
    KindRole,
    PartialRole,
    RevisionRole,
    VisibilityRole,
)
from ollm_desktop.ui.text.markdown import VIEW_CHAR_LIMIT, SafeTextDocument

T0 = datetime(2025, 3, 4, 9, 15, tzinfo=UTC)


def msg(role: str, content: str, minute: int = 0, **extra) -> Message:
    return Message(role=role, content=content, created_at=T0 + timedelta(minutes=minute),
                   **extra)


def conversation(count: int = 10) -> list[Message]:
    return [msg("user" if i % 2 == 0 else "assistant", f"message number {i}", i)
            for i in range(count)]


def kinds(model: ConversationModel) -> list[str]:
    return [model.index(r).data(KindRole) for r in range(model.rowCount())]


@pytest.fixture
def view(qtbot):
    model = ConversationModel()
    widget = ConversationView()
    widget.setModel(model)
    widget.resize(700, 600)
    qtbot.addWidget(widget)
    return widget, model


def test_markers_follow_the_last_message_of_each_group_range():
    model = ConversationModel()
    messages = conversation(10)
    ids = [m.id for m in messages]
    first = CompressedGroup(summary="a", message_ids=ids[0:3], span_ids=ids[0:4],
                            original_tokens=3120, current_tokens=410, level=3)
    second = CompressedGroup(summary="b", message_ids=ids[5:7], span_ids=ids[4:7],
                             original_tokens=900, current_tokens=120, level=2)
    model.set_history(messages, [first, second], {})

    assert model.rowCount() == 12
    expected = ["message"] * 4 + ["marker"] + ["message"] * 3 + ["marker"] + ["message"] * 3
    assert kinds(model) == expected
    assert model.index(4).data(GroupIdRole) == first.id
    assert model.index(8).data(GroupIdRole) == second.id
    assert model.index(3).data(MessageIdRole) == ids[3]  # last of the first span
    assert model.index(7).data(MessageIdRole) == ids[6]
    text = model.index(4).data()
    assert "3 messages summarised" in text
    assert "3,120 → 410 tokens" in text
    assert text.endswith("· detailed") and "level" not in text  # plain words (issue 32)
    assert model.row_of_message(ids[9]) == 11


def test_roles_answer_id_and_pin():
    model = ConversationModel()
    messages = conversation(3)
    messages[1].pinned = True
    model.set_history(messages, [], {})
    assert [model.index(r).data(MessageIdRole) for r in range(3)] == [m.id for m in messages]
    assert [model.index(r).data(PinnedRole) for r in range(3)] == [False, True, False]
    assert model.index(1).data(Qt.ItemDataRole.DisplayRole) == "message number 1"
    pinned = messages[1].model_copy(update={"pinned": False})
    before = model.index(1).data(RevisionRole)
    model.update_message(pinned)
    assert model.index(1).data(PinnedRole) is False
    assert model.index(1).data(RevisionRole) != before


def test_append_is_a_single_insert_not_a_reset():
    model = ConversationModel()
    model.set_history(conversation(50), [], {})
    inserted = QSignalSpy(model.rowsInserted)
    reset = QSignalSpy(model.modelReset)
    extra = msg("user", "one more", 99)
    model.append_message(extra)
    assert inserted.count() == 1
    assert inserted.at(0)[1:] == [50, 50]
    assert reset.count() == 0
    assert model.index(50).data(MessageIdRole) == extra.id
    model.remove_message(model.index(10).data(MessageIdRole))
    assert model.rowCount() == 50
    assert model.row_of_message(extra.id) == 49


def test_streamed_chunks_are_batched(qtbot):
    model = ConversationModel()
    model.set_history(conversation(5), [], {})
    reply = msg("assistant", "", 10, partial=True)
    model.append_message(reply)
    changed = QSignalSpy(model.dataChanged)
    chunks = [f"tok{i} " for i in range(200)]
    for chunk in chunks:
        model.append_stream_text(reply.id, chunk)
    assert changed.count() == 0  # nothing applied synchronously
    qtbot.waitUntil(lambda: model.message(reply.id).content == "".join(chunks), timeout=2000)
    assert 1 <= changed.count() <= 3
    assert model.index(5).data(PartialRole) is True
    # The final message replaces the streamed text and drops anything still queued.
    model.append_stream_text(reply.id, "late chunk")
    final = reply.model_copy(update={"content": "final answer", "partial": False})
    model.update_message(final)
    model.flush_stream()
    assert model.message(reply.id).content == "final answer"


def test_streaming_keeps_the_view_at_the_bottom_only_if_it_was(qtbot, view):
    widget, model = view
    model.set_history([msg("user", "line\n" * 8, i) for i in range(40)], [], {})
    widget.show()
    widget.scrollToBottom()
    qtbot.waitExposed(widget)
    reply = msg("assistant", "", 50, partial=True)
    model.append_message(reply)
    widget.scrollToBottom()
    bar = widget.verticalScrollBar()
    for _ in range(30):
        model.append_stream_text(reply.id, "more streamed text that wraps " * 4 + "\n\n")
    old_max = bar.maximum()
    qtbot.waitUntil(lambda: bar.maximum() > old_max and bar.value() == bar.maximum(),
                    timeout=3000)
    bar.setValue(bar.maximum() // 2)  # the user scrolls up
    anchor = widget.indexAt(QPoint(10, 1))
    anchor_top = widget.visualRect(anchor).top()
    reply_rect = widget.visualRect(model.index(40))
    for _ in range(30):
        model.append_stream_text(reply.id, "even more text " * 8 + "\n\n")
    qtbot.waitUntil(lambda: widget.visualRect(model.index(40)).height() > reply_rect.height(),
                    timeout=3000)
    QApplication.processEvents()  # a follow-up relayout must keep the anchor too
    assert abs(widget.visualRect(anchor).top() - anchor_top) <= 2
    assert bar.value() < bar.maximum()
    assert not widget.is_at_bottom()


def test_visibility_data_and_dimmed_rendering(qtbot, view):
    widget, model = view
    a = msg("assistant", "Same words here " * 3, 0)
    b = msg("assistant", "Same words here " * 3, 1)
    c = msg("user", "Pinned words here", 2, pinned=True)
    model.set_history([a, b, c], [], {})
    spy = QSignalSpy(model.dataChanged)
    model.set_visibility({a.id: "verbatim", b.id: "summarized", c.id: "preserved"})
    assert spy.count() == 1
    assert [model.index(r).data(VisibilityRole) for r in range(3)] == [
        "verbatim", "summarized", "preserved"]
    widget.show()
    qtbot.waitExposed(widget)
    image = widget.viewport().grab().toImage()

    def darkest(row: int) -> int:
        rect = widget.visualRect(model.index(row))
        body = rect.adjusted(40, 40, -60, -10)
        values = [QImage.pixelColor(image, x, y).lightness()
                  for x in range(body.left(), body.right(), 2)
                  for y in range(body.top(), body.bottom(), 2)]
        return min(values)

    assert darkest(1) > darkest(0) + 40  # summarised text has visibly less contrast
    assert darkest(2) < darkest(1)  # preserved/pinned text is not dimmed


def test_pin_click_copy_and_context_menu(qtbot, view):
    widget, model = view
    messages = conversation(4)
    model.set_history(messages, [], {})
    widget.show()
    qtbot.waitExposed(widget)
    index = model.index(1)
    pin = widget.message_delegate.pin_rect(widget.visualRect(index)).center()
    with qtbot.waitSignal(widget.pinToggled) as blocker:
        qtbot.mouseClick(widget.viewport(), Qt.MouseButton.LeftButton, pos=pin)
    assert blocker.args == [messages[1].id]

    # Clicking the text (not the pin) selects without toggling.
    spy = QSignalSpy(widget.pinToggled)
    body = widget.visualRect(model.index(2)).center() - QPoint(100, 0)
    qtbot.mouseClick(widget.viewport(), Qt.MouseButton.LeftButton, pos=body)
    assert spy.count() == 0
    assert widget.currentIndex().row() == 2

    # Keyboard: move selection down, copy, pin.
    qtbot.keyClick(widget, Qt.Key.Key_Down)
    assert widget.currentIndex().row() == 3
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(widget, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == "message number 3"
    with qtbot.waitSignal(widget.pinToggled) as blocker:
        widget.toggle_pin_selected()
    assert blocker.args == [messages[3].id]

    menu = widget.build_context_menu(model.index(0))
    texts = [a.text() for a in menu.actions()]
    assert texts == ["Pin", "Copy message"]
    with qtbot.waitSignal(widget.pinToggled) as blocker:
        menu.findChild(type(menu.actions()[0]), "actionPinMessage").trigger()
    assert blocker.args == [messages[0].id]
    model.update_message(messages[0].model_copy(update={"pinned": True}))
    menu = widget.build_context_menu(model.index(0))
    assert menu.actions()[0].text() == "Unpin"


def test_marker_click_and_menu_activate_the_group(qtbot, view):
    widget, model = view
    messages = conversation(6)
    group = CompressedGroup(summary="s", message_ids=[m.id for m in messages[:3]],
                            original_tokens=100, current_tokens=20)
    model.set_history(messages, [group], {})
    widget.show()
    qtbot.waitExposed(widget)
    marker = model.index(3)
    assert marker.data(KindRole) == "marker"
    with qtbot.waitSignal(widget.groupActivated) as blocker:
        qtbot.mouseClick(widget.viewport(), Qt.MouseButton.LeftButton,
                         pos=widget.visualRect(marker).center())
    assert blocker.args == [group.id]
    menu = widget.build_context_menu(marker)
    assert [a.text() for a in menu.actions()] == ["Show summary / history"]
    with qtbot.waitSignal(widget.groupActivated):
        menu.actions()[0].trigger()
    widget.setCurrentIndex(marker)
    with qtbot.waitSignal(widget.groupActivated):
        qtbot.keyClick(widget, Qt.Key.Key_Return)


def test_untrusted_markup_renders_as_text_and_loads_nothing(qtbot, view):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.setblocking(False)
    port = server.getsockname()[1]
    widget, model = view
    raw = (f'<img src="file:///etc/passwd"> <img src="http://127.0.0.1:{port}/a.png"> '
           "<b>not bold</b> <script>alert(1)</script>")
    markdown_image = f"![remote](http://127.0.0.1:{port}/b.png) ![local](file:///etc/passwd)"
    messages = [msg("assistant", raw, 0), msg("assistant", markdown_image, 1)]
    model.set_history(messages, [], {})
    SafeTextDocument.load_attempts = 0
    widget.show()
    qtbot.waitExposed(widget)
    widget.viewport().grab()
    delegate = widget.message_delegate
    doc = delegate.document(model.rows[0])
    assert '<img src="file:///etc/passwd">' in doc.toPlainText()
    assert "<b>not bold</b>" in doc.toPlainText()
    assert "root:" not in doc.toPlainText()
    assert "<img" not in doc.toHtml().replace("&lt;img", "")  # no image element at all
    image_doc = delegate.document(model.rows[1])
    for url in (f"http://127.0.0.1:{port}/b.png", "file:///etc/passwd"):
        from PySide6.QtCore import QUrl

        served = image_doc.resource(QTextDocument.ResourceType.ImageResource, QUrl(url))
        assert served.size().width() == 1 and served.size().height() == 1  # the blank
    with pytest.raises(BlockingIOError):
        server.accept()  # nothing ever connected
    server.close()


def test_huge_single_line_does_not_freeze(qtbot, view):
    widget, model = view
    huge = "x" * 200_000
    model.set_history(conversation(3), [], {})
    widget.show()
    qtbot.waitExposed(widget)
    model.append_message(msg("assistant", huge, 5))
    widget.scrollToBottom()
    widget.viewport().grab()
    doc = widget.message_delegate.document(model.rows[3])
    assert doc.characterCount() < VIEW_CHAR_LIMIT + 200
    assert "truncated in view" in doc.toPlainText()
    assert widget.visualRect(model.index(3)).height() > 1000  # wrapped, not one long line
    widget.setCurrentIndex(model.index(3))
    assert widget.copy_selected()
    assert QGuiApplication.clipboard().text() == huge


def test_screenshots(qtbot, screenshot_dir):
    messages = [
        msg("user", "How do I read a file line by line in Python?", 0),
        msg("assistant", "Use a `with` block and iterate:\n\n```python\nwith open(path) as fh:\n"
            "    for line in fh:\n        print(line.rstrip())\n```\n\nThis streams the "
            "file, so memory stays flat.", 1),
        msg("user", "And if it is **huge**?", 2),
        msg("assistant", "Same code: iteration is lazy. For binary data read fixed-size "
            "blocks with `fh.read(65536)` in a loop.", 3),
        msg("user", "Keep this in mind: the target is Python 3.12 and every file is UTF-8.",
            4, pinned=True),
        msg("assistant", "Noted — I will assume **Python 3.12** and UTF-8 from now on.\n\n"
            "- `open(path, encoding=\"utf-8\")`\n- `pathlib.Path.read_text()` for small "
            "files", 5),
        msg("user", "Now show me how to count words in it.", 6),
        msg("assistant", "Split each line and add up the lengths:", 7, partial=True),
    ]
    ids = [m.id for m in messages]
    group = CompressedGroup(summary="s", message_ids=ids[:4], span_ids=ids[:5],
                            original_tokens=3120, current_tokens=410, level=3)
    visibility = {i: "summarized" for i in ids[:4]} | {ids[4]: "preserved"}
    model = ConversationModel()
    widget = ConversationView()
    widget.setModel(model)
    qtbot.addWidget(widget)
    model.set_history(messages, [group], visibility)
    widget.resize(760, 940)
    widget.show()
    widget.scrollToBottom()
    qtbot.waitExposed(widget)
    widget.setCurrentIndex(model.index(6))
    image = widget.grab()
    assert not image.isNull()
    assert image.save(str(screenshot_dir / "t-conversation.png"))
