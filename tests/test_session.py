"""The Qt-free ChatSession, driven with plain asyncio (pytest-asyncio): no Qt, no qasync.

It talks to the loopback fake Ollama through the official client and stores into SQLite, as
the app does; the Qt adapter only turns what these operations return into signals.
"""

from __future__ import annotations

import asyncio
import dataclasses
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from ollm_desktop.engine import Message
from ollm_desktop.paths import app_paths
from ollm_desktop.session import (
    Change,
    ChatSession,
    CompactionEnded,
    CompactionStarted,
    ContextSnapshot,
    ReplyChunk,
    ReplyFinished,
    ReplyStarted,
    SendFailed,
    SessionEvent,
)
from ollm_desktop.session.events import BusyChanged
from ollm_desktop.storage import ChatStore
from tests.controller_harness import MODEL, make_settings, recorded_session, scripted_model
from tests.ollama_server import Reply

LONG = "Please keep the schema notes handy, we will revisit the indexes later. " * 12


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model()
    return ollama_server


@pytest.fixture
def session(tmp_path, server) -> Iterator[tuple[ChatSession, list[SessionEvent]]]:
    with recorded_session(tmp_path / "data", server) as recorded:
        yield recorded


async def send(s: ChatSession, text: str) -> None:
    _change, reason = s.start_turn(text)
    assert reason is None, reason
    try:
        await s.turns.run(text)
    finally:
        s.turns.ended()
    await s.drain()


def test_importing_the_session_loads_no_qt() -> None:
    code = ("import sys, ollm_desktop.session, ollm_desktop.session.chat_session; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', "
            "'qasync')]; print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.asyncio
async def test_a_turn_publishes_typed_events_and_stores_both_messages(session, server) -> None:
    s, events = session
    await send(s, "Where do the migrations live?")
    kinds = [type(e) for e in events if not isinstance(e, Change)]
    assert kinds[0] is BusyChanged and kinds[-1] is BusyChanged
    started = next(e for e in events if isinstance(e, ReplyStarted))
    chunks = "".join(e.text for e in events if isinstance(e, ReplyChunk)
                     and e.message_id == started.message.id)
    finished = next(e for e in events if isinstance(e, ReplyFinished))
    assert chunks == finished.message.content and chunks.startswith("Reply")
    assert finished.info.prompt_tokens and finished.info.prompt_tokens > 0
    added = [m for e in events if isinstance(e, Change) for m in e.added]
    assert [m.content for m in added] == ["Where do the migrations live?"]
    assert s.chat is not None
    stored = s.store.load_engine_state(s.chat.id)
    assert stored is not None
    assert [m.role for m in stored.messages if m.role != "system"] == ["user", "assistant"]
    assert s.chat.title == "Where do the migrations live?"
    assert not s.busy


@pytest.mark.asyncio
async def test_operations_return_change_sets_and_snapshots_are_copies(session, server) -> None:
    s, _events = session
    await send(s, "First question about the parser")
    user = next(m for m in s.display_messages() if m.role == "user")
    change = s.set_pinned(user.id, True)
    assert isinstance(change, Change) and change.context and not change.problems
    assert [m.pinned for m in change.updated] == [True]
    snap = s.context_snapshot()
    assert isinstance(snap, ContextSnapshot) and snap.usage is not None
    assert snap.usage.pinned > 0 and snap.visibility[user.id] == "verbatim"
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.can_undo = True  # type: ignore[misc]
    with pytest.raises(TypeError):
        snap.visibility[user.id] = "summarized"  # type: ignore[index]
    copy = s.display_messages()[0]
    copy.content = "changed by the UI"
    assert s.engine is not None and s.engine.display_messages()[0].content != copy.content
    assert s.toggle_pin(user.id).updated[0].pinned is False
    assert s.rename_chat(s.chat.id if s.chat else "", "  ").problems[0].kind == "input"


@pytest.mark.asyncio
async def test_the_busy_guard_refuses_what_would_race_a_streaming_reply(session, server) -> None:
    s, events = session
    server.replies.append(Reply(text="slow reply " * 40, delay_per_chunk=0.02))
    change, reason = s.start_turn("Stream slowly please")
    assert reason is None and change.opened is not None
    task = asyncio.ensure_future(s.turns.run("Stream slowly please"))
    while not any(isinstance(e, ReplyChunk) for e in events):
        await asyncio.sleep(0.01)
    assert s.busy
    assert s.delete_chat(change.opened.id).problems[0].kind == "busy"
    assert s.set_context_size(2048, apply_now=True).problems[0].kind == "busy"
    assert s.start_turn("another")[1] is not None  # still streaming
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    s.turns.ended()
    assert not s.busy
    assert s.delete_chat(change.opened.id).chats


@pytest.mark.asyncio
async def test_command_line_overrides_are_never_written_to_the_settings(tmp_path, server) -> None:
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    settings = make_settings(server, ollama_host="http://127.0.0.1:9")
    s = ChatSession(store, settings, host=server.url, model="other:1b")
    try:
        assert s.backend.host == server.url and s.model == "other:1b"
        assert settings.ollama_host == "http://127.0.0.1:9" and settings.default_model == MODEL
        s.apply_settings(settings.model_copy(update={"keep_alive": "5m"}))
        assert s.backend.host == server.url  # the override holds for the whole run
        status = await s.ollama.refresh()
        assert status.reachable
        assert settings.ollama_host == "http://127.0.0.1:9" and settings.default_model == MODEL
    finally:
        await s.close()


@pytest.mark.asyncio
async def test_a_refused_send_gives_the_text_back(session, server) -> None:
    s, events = session
    server.replies.append(Reply(http_status=500, error="model crashed"))
    await send(s, "This one fails")
    failed = [e for e in events if isinstance(e, SendFailed)]
    assert [f.text for f in failed] == ["This one fails"]
    assert "crashed" in failed[0].reason
    assert [m for m in s.display_messages() if m.role != "system"] == []


@pytest.mark.asyncio
async def test_compaction_runs_through_the_session_and_is_saved(tmp_path, server) -> None:
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    s = ChatSession(store, make_settings(server, context_size=2048, preserve_recent_tokens=300))
    events: list[Any] = []
    s.publish = events.append
    try:
        for i in range(12):
            await send(s, f"Point {i}: {LONG}")
            if s.compaction_task is not None:
                await s.compaction_task
        assert any(isinstance(e, CompactionStarted) for e in events)
        ended = [e.report for e in events if isinstance(e, CompactionEnded)]
        assert any(r.status == "compacted" for r in ended)
        assert s.chat is not None and s.engine is not None
        stored = store.load_engine_state(s.chat.id)
        assert stored is not None and len(stored.groups) == len(s.engine.groups) > 0
        undo = s.compactions.undo_last()
        assert undo.save and undo.context and not undo.problems
        assert all(isinstance(m, Message) for m in s.display_messages())
    finally:
        await s.close()
