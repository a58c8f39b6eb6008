"""Thinking models through the real window (issue 15): the reasoning Ollama streams as
``message.thinking`` is shown collapsed on the reply, expands on a click, survives a restart,
and never reaches a request or a summary.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from tests.controller_harness import (
    MODEL,
    is_summary_request,
    is_turn,
    run,
    scripted_model,
    settle,
    until,
)
from tests.ollama_server import Reply
from tests.test_ui_main_window import LONG, App

THOUGHT = ("The user asks how to count lines without loading the file; a generator over the "
           "file object keeps memory flat (plan B7).")
FIRST_ANSWER = ("Iterate over the open file and count as you go: `sum(1 for _ in handle)` reads "
                "one line at a time, so a 2 GiB log needs no more memory than a small one.")
MARK = "plan B7"  # only in the reasoning: any request that carries it leaked it


@pytest.fixture
def server(ollama_server):
    for model in ollama_server.models:
        if model.name == MODEL:
            model.capabilities = ("completion", "thinking")
    words = scripted_model(reply_words=60)

    def answer(body: dict[str, Any]) -> str | Reply:
        text = words(body)
        if is_summary_request(body):
            return text
        first = sum(m.get("role") == "user" for m in body["messages"]) == 1
        return Reply(text=FIRST_ANSWER if first else text, thinking=THOUGHT)

    ollama_server.reply_fn = answer
    return ollama_server


def _last_reply(app: App) -> tuple[Any, Any, Any]:
    view, model = app.window.conversation_view, app.window.conversation_model
    view.scrollToBottom()
    app.window.grab()  # painted: rows laid out exactly
    position = model.rowCount() - 1
    row = model.rows[position]
    assert row.message is not None and row.message.role == "assistant"
    return view, row, model.index(position)


def _toggle_point(app: App) -> tuple[Any, Any, QPoint]:
    view, row, index = _last_reply(app)
    rect = view.message_delegate.thinking.toggle_rect(row, view.visualRect(index))
    assert rect is not None, "a reply with thinking has its toggle line"
    return row, index, rect.center()


def test_thinking_is_shown_collapsed_expands_survives_a_restart_and_is_never_sent(
        qloop, qtbot, tmp_path, server, screenshot_dir):
    first = App(qloop, qtbot, tmp_path / "data", server)
    try:
        run(qloop, first.type_and_send("How do I count the lines of a huge log file in Python?"))
        sent = [b for b in server.chat_requests() if is_turn(b)]
        assert sent[-1].get("think") is True  # the model lists "thinking" in /api/show
        view, row, index = _last_reply(first)
        assert row.message.thinking == THOUGHT
        assert MARK not in row.message.content
        delegate = view.message_delegate
        row, index, point = _toggle_point(first)
        assert not delegate.thinking.expanded(row.key)
        collapsed = view.visualRect(index).height()
        assert delegate.thinking.label(row.message) == f"Thought ({len(THOUGHT.split())} words)"
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
        assert delegate.thinking.expanded(row.key)
        qtbot.waitUntil(lambda: view.visualRect(index).height() > collapsed + 10)
        first.window.grab().save(str(screenshot_dir / "thinking.png"))
        row, index, point = _toggle_point(first)
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
        assert not delegate.thinking.expanded(row.key)
        qtbot.waitUntil(lambda: view.visualRect(index).height() == collapsed)

        async def more() -> None:
            for i in range(12):
                await first.type_and_send(f"Question {i}: {LONG}")

        run(qloop, more())
        before = len(server.chat_requests())

        async def compact() -> None:
            task = first.controller.compact()
            assert task is not None
            await task
            await settle(first.controller)

        run(qloop, compact())
        summaries = [b for b in server.chat_requests()[before:] if is_summary_request(b)]
        assert summaries, "the forced compaction asked for a summary"
        assert all(b.get("think") is False for b in summaries)  # no reasoning in a summary
        for body in server.chat_requests():
            assert MARK not in str(body.get("messages")), "thinking text was sent"
        first.window.save_window_state()
    finally:
        first.close()

    second = App(qloop, qtbot, tmp_path / "data", server)
    try:
        row, index, point = _toggle_point(second)
        assert row.message.thinking == THOUGHT
        view = second.window.conversation_view
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
        assert view.message_delegate.thinking.expanded(row.key)
        before = len(server.chat_requests())
        run(qloop, second.type_and_send("And after the restart?"))
        for body in server.chat_requests()[before:]:
            assert MARK not in str(body.get("messages"))
    finally:
        second.close()


def test_the_reasoning_shows_live_while_it_streams(qloop, qtbot, tmp_path, server):
    thought = " ".join(f"step{i}" for i in range(60))
    server.reply_fn = lambda body: Reply(text="Done thinking.", thinking=thought,
                                         delay_per_chunk=0.02)
    app = App(qloop, qtbot, tmp_path / "data", server)
    try:
        app.window.message_input.setPlainText("Think it over")
        app.window.send_button.click()
        model = app.window.conversation_model
        delegate = app.window.conversation_view.message_delegate

        def thinking_row():
            row = model.rows[-1] if model.rows else None
            return row if row is not None and row.message is not None and \
                row.message.role == "assistant" else None

        seen: list[str] = []

        async def streams_then_ends() -> None:
            # One pass of the loop: leaving it while the reply streams breaks anyio's detection.
            # While only reasoning has arrived, the reply's row shows it growing.
            await until(lambda: thinking_row() is not None
                        and len((thinking_row().message.thinking or "").split()) >= 5)
            row = thinking_row()
            seen.extend([row.message.content, str(app.controller.busy),
                         delegate.thinking.label(row.message, row.streaming)])
            await until(lambda: not app.controller.busy)
            await settle(app.controller)

        run(qloop, streams_then_ends())
        assert seen[:2] == ["", "True"]
        assert seen[2].startswith("Thinking…")
        model.flush_stream()
        final = model.rows[-1].message
        assert final.content == "Done thinking." and final.thinking == thought
        assert delegate.thinking.label(final).startswith("Thought (60 words)")
    finally:
        app.close()


def test_the_finished_reasoning_is_shown_once(qloop, qtbot, tmp_path, server):
    thought = " ".join(f"idea{i}" for i in range(30))
    server.reply_fn = lambda body: Reply(text="Answer.", thinking=thought)  # no pauses at all
    app = App(qloop, qtbot, tmp_path / "data", server)
    try:
        run(qloop, app.type_and_send("Quick one"))
        app.window.content.live_thinking.flush()  # what is still queued comes in now
        message = app.window.conversation_model.rows[-1].message
        assert message.thinking == thought
    finally:
        app.close()
