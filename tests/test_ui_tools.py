"""Tools in the real window: the per-chat ``toolPicker``, a call's ``toolCallRow`` waiting with
``toolAllowOnce`` / ``toolAllowAlways`` / ``toolDeny`` (no dialog while the reply streams), the
row's status after the call; screenshots of both."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMenu, QPushButton, QSpinBox, QToolButton

from ollm_desktop.backend.mcp_config import McpServer
from tests.ollama_server import FakeModel, FakeOllama, Reply
from tests.test_ui_main_window import App

ROOT = Path(__file__).resolve().parents[1]
TOOLS = McpServer(name="tests", command=sys.executable, args=["-m", "tests.mcp_server", "stdio"],
                  cwd=str(ROOT), env={"PYTHONPATH": str(ROOT)})


@pytest.fixture
def server():
    with FakeOllama([FakeModel("llama3.2:3b", capabilities=("completion", "tools"))]).running() \
            as fake:
        yield fake


async def until(predicate, timeout: float = 40.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.02)


def test_a_call_waits_in_its_row_and_runs_when_allowed(qloop, qtbot, tmp_path, server,
                                                       screenshot_dir) -> None:
    app = App(qloop, qtbot, tmp_path / "data", server, mcp_servers=[TOOLS])
    try:
        strip = app.window.findChild(object, "toolCalls") or app.window.content.tool_calls
        calls = app.window.content.tool_calls.in_conversation  # the rows, inside the conversation's
        picker = app.find(QToolButton, "toolPicker")
        assert "no tools" in strip.summary.text()  # a new chat uses none
        strip.fill_menu()
        assert [a.text() for a in strip.menu.actions() if a.text()] == [
            "tests", "The model's own context tools"]
        strip.menu.actions()[0].setChecked(True)  # the chat now uses the server's tools
        strip.menu.popup(picker.mapToGlobal(picker.rect().topLeft()))
        qtbot.waitUntil(strip.menu.isVisible)
        strip.menu.grab().save(str(screenshot_dir / "tool-picker.png"))
        strip.menu.hide()
        assert app.controller.tool_choice().servers == ["tests"]
        server.script(Reply(text="Let me check.", tool_calls=[
            {"name": "echo", "arguments": {"text": "hello tools"}}]),
            Reply(text="The tool answered: echo: hello tools."))

        async def scenario() -> None:
            app.window.message_input.setPlainText("Use the echo tool.")
            app.find(QPushButton, "sendButton").click()
            await until(lambda: bool(calls.rows))
            row = next(iter(calls.rows.values()))
            assert row.objectName() == "toolCallRow" and row.buttons.isVisible()
            view = app.window.conversation_view
            assert view.viewport().isAncestorOf(row)  # in the conversation, not a strip
            reply = view.conversation_model.row_of_message(row.parentWidget().key)
            rect = view.visualRect(view.conversation_model.index(reply, 0))
            assert rect.contains(row.parentWidget().geometry())  # inside its reply's row
            assert '"hello tools"' in row.arguments.text()  # the arguments in full
            app.window.grab().save(str(screenshot_dir / "tool-call-asked.png"))
            app.controller.historyReset.emit()  # the list reloaded while the call waits
            await until(lambda: bool(calls.rows) and next(iter(calls.rows.values())) is not row)
            row = next(iter(calls.rows.values()))
            assert row.buttons.isVisibleTo(app.window)  # it still waits, with its buttons
            row.findChild(QPushButton, "toolAllowOnce").click()
            task = app.controller._reply_task
            if task is not None:
                await asyncio.gather(task, return_exceptions=True)
            await until(lambda: "done" in row.status.text())
            assert not row.buttons.isVisible()
            folded = row.parentWidget().height()
            row.toggle.click()  # Details: the arguments and the result, cut for display
            assert row.result.isVisible() and row.result.text() == "echo: hello tools"
            await until(lambda: row.parentWidget().height() > folded)

            def inside_its_row() -> bool:  # the reply's row grew with it: nothing overlaps
                model = view.conversation_model
                below = model.row_of_message(row.parentWidget().key) + 1
                while view.isRowHidden(below):  # the result's own row: hidden (below)
                    below += 1
                return view.visualRect(model.index(below, 0)).top() > \
                    row.parentWidget().geometry().bottom()

            await until(inside_its_row)
            # The result is shown once, in its call's row: its own "Tool" row is hidden.
            model = view.conversation_model
            result = next(r for r in range(model.rowCount())
                          if model.rows[r].message.role == "tool")
            assert view.isRowHidden(result) and not view.isRowHidden(result - 1)
            app.window.grab().save(str(screenshot_dir / "tool-call-done.png"))
            # The server runs now: the picker lists its tools; one left out, the limit set.
            strip.fill_menu()
            sub = strip.menu.findChild(QMenu, "toolPickerTools:tests")
            names = [a.text() for a in sub.actions()]
            assert "echo" in names and "read_file  (read-only)" in names
            assert all(a.isChecked() for a in sub.actions())  # all, until one is left out
            next(a for a in sub.actions() if a.text() == "hang").setChecked(False)
            chosen = app.controller.tool_choice().tools
            assert "tests/hang" not in chosen and "tests/echo" in chosen
            strip.menu.findChild(QSpinBox, "toolPickerMaxCalls").setValue(5)
            assert app.controller.tool_choice().max_calls == 5
            # three more results: the first one is pruned now, and its row says so
            server.script(Reply(text="", tool_calls=[
                {"name": "echo", "arguments": {"text": f"more {n}"}} for n in range(3)]),
                Reply(text="All three echoed."))
            app.window.message_input.setPlainText("Echo three more.")
            app.find(QPushButton, "sendButton").click()
            await until(lambda: len(calls.rows) == 2)
            newest = list(calls.rows.values())[-1]
            newest.findChild(QPushButton, "toolAllowAlways").click()
            task = app.controller._reply_task
            if task is not None:
                await asyncio.gather(task, return_exceptions=True)
            await until(lambda: len(calls.rows) == 4)
            app.window.conversation_model.flush_stream()
            app.window.conversation_view.scrollToTop()  # the first call: pruned by now
            await until(lambda: next(iter(calls.rows.values())).isVisible())
            app.window.grab().save(str(screenshot_dir / "tool-call-pruned.png"))

        qloop.run_until_complete(scenario())
        stored = app.controller.session.store.messages(app.controller.chat.id)
        assert [m.role for m in stored][:4] == ["user", "assistant", "tool", "assistant"]
        assert [m.role for m in stored].count("tool") == 4
        assert app.controller.tool_choice().always == ["tests/echo"]  # this chat only
        seen = app.controller.session.engine.visibility()
        assert seen[stored[2].id] == "pruned"  # the first result, now behind three newer
        first = next(iter(calls.rows.values()))
        assert first.pruned and "pruned" in first.status.text()  # its row says so
        assert picker.isVisible()
        # Opened again from the store: each reply's calls are back in its row, with outcomes.
        chat_id = app.controller.chat.id
        app.controller.new_chat()
        assert not calls.rows
        app.controller.open_chat(chat_id)
        qtbot.waitUntil(lambda: len(calls.rows) == 4)
        assert all("done" in r.status.text() for r in calls.rows.values())
        first = next(iter(calls.rows.values()))
        assert first.pruned and first.result_id == stored[2].id
        assert not any(r.buttons.isVisible() for r in calls.rows.values())
        hidden = app.window.content.tool_calls.result_rows.hidden_results()
        assert hidden == [m.id for m in stored if m.role == "tool"]  # reopened: hidden too
    finally:
        app.close()
    assert (screenshot_dir / "tool-call-asked.png").stat().st_size > 0


def test_closing_the_window_with_two_stdio_servers_leaves_no_child_and_no_task(
        qloop, qtbot, tmp_path, server) -> None:
    """Two servers started by a chat, one of them in the middle of a call that never ends:
    closing the window (as the app quits) stops both, children and owner tasks."""
    from ollm_desktop.session.tool_loop import ChatTools
    from tests.test_mcp_connection import children

    other = TOOLS.model_copy(update={"name": "other"})
    before = children()
    app = App(qloop, qtbot, tmp_path / "data", server, mcp_servers=[TOOLS, other])
    closed = False
    try:
        app.controller.set_tool_choice(ChatTools(
            servers=["tests", "other"], always=["tests/echo", "tests/hang", "other/echo",
                                                "other/hang"]))
        server.script(Reply(text="", tool_calls=[
            {"name": "echo", "arguments": {"text": "one"}},
            {"name": "hang", "arguments": {}}]))

        async def scenario() -> None:
            app.window.message_input.setPlainText("Start both.")
            app.find(QPushButton, "sendButton").click()
            connections = app.controller.session.tools.servers._connections
            await until(lambda: any(c._running for c in connections.values()))
            await app.controller.session.tools.servers.connect("other")  # the second one
            assert len(children() - before) >= 2

        qloop.run_until_complete(scenario())
        app.close()
        closed = True

        async def gone() -> None:
            await until(lambda: not (children() - before))

        qloop.run_until_complete(gone())
        assert not [t.get_name() for t in asyncio.all_tasks(qloop)
                    if t.get_name().startswith("mcp-") and not t.done()]
    finally:
        if not closed:
            app.close()


def test_a_long_stored_tool_chat_builds_its_call_rows_near_the_viewport(
        qloop, qtbot, tmp_path, server) -> None:
    """60 replies with a call each, opened from the store: only the rows near what is shown
    are built (not hundreds of widgets at once); scrolling to the top builds those."""
    from ollm_desktop.engine.models import Message
    from ollm_desktop.engine.tool_types import ToolCall

    app = App(qloop, qtbot, tmp_path / "data", server)
    try:
        s = app.controller.session
        s.new_chat("long tool chat")
        for n in range(60):
            call = ToolCall(id=f"c{n}", name="read_file", arguments={"path": f"f{n}.py"})
            for message in (Message(role="user", content=f"Read f{n}.py"),
                            Message(role="assistant", content="", tool_calls=[call]),
                            Message(role="tool", content=f"line of f{n}", tool_name="read_file",
                                    tool_call_id=call.id),
                            Message(role="assistant", content=f"f{n} is fine.")):
                s.engine.add_message(message)
                s.store.append_message(s.chat.id, message)
        s.save_state()
        chat_id = s.chat.id
        app.controller.new_chat()
        app.controller.open_chat(chat_id)
        calls = app.window.content.tool_calls.in_conversation
        qtbot.waitUntil(lambda: bool(calls.rows))
        assert 0 < len(calls.rows) < 30  # the newest ones, near the bottom
        assert "c59" in calls.rows and "c0" not in calls.rows
        app.window.conversation_view.scrollToTop()
        qtbot.waitUntil(lambda: "c0" in calls.rows)
        view = app.window.conversation_view
        qtbot.waitUntil(lambda: calls.rows["c0"].isVisibleTo(view))  # placed in its row
        assert "done" in calls.rows["c0"].status.text()
    finally:
        app.close()
