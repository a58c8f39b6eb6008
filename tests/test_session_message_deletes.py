"""Deleting a message and undoing it in the Qt-free session, over the real store (issue 15).

Plain asyncio against the loopback fake Ollama, whose recorded request bodies say what the
model was really sent after a deletion and after its undo.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from ollm_desktop.engine import ContextEngine
from ollm_desktop.paths import app_paths
from ollm_desktop.session import ChatSession, ReplyChunk, SessionEvent
from ollm_desktop.session.message_deletes import (
    DELETED,
    NOTHING_TO_UNDO,
    SUMMARISED,
)
from ollm_desktop.storage import ChatStore
from tests.controller_harness import (
    Reply,
    chat_turns,
    make_settings,
    recorded_session,
    scripted_model,
)
from tests.engine_fakes import GoodSummarizer
from tests.test_session import send

LONG = "Please keep the schema notes handy, we will revisit the indexes later. " * 12


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=40)
    return ollama_server


@pytest.fixture
def session(tmp_path, server) -> Iterator[tuple[ChatSession, list[SessionEvent]]]:
    with recorded_session(tmp_path / "data", server) as recorded:
        yield recorded




def _sent_text(body: dict) -> str:
    return "\n".join(m["content"] for m in body["messages"])


def _stored(s: ChatSession):
    assert s.chat is not None
    state = s.store.load_engine_state(s.chat.id)
    assert state is not None
    return state


@pytest.mark.asyncio
async def test_a_deleted_message_is_gone_from_the_next_request_and_undo_brings_it_back(
        session, server) -> None:
    s, _ = session
    for text in ("The vault code is ORCHID-7731.", "Second question", "Third question"):
        await send(s, text)
    assert s.engine is not None and s.chat is not None
    s.set_pinned(s.display_messages()[0].id, True)
    target = s.display_messages()[0]
    messages_before = [m.model_dump() for m in s.display_messages()]
    count_before = s.store.get_chat(s.chat.id).message_count

    change = s.message_deletes.delete(target.id)
    assert not change.problems and change.history and change.context
    assert change.notices == (DELETED,)
    assert target.id not in [m.id for m in s.display_messages()]
    stored = _stored(s)  # saved at once: a reload has it gone too
    assert target.id not in [m.id for m in stored.messages]
    assert s.store.get_chat(s.chat.id).message_count == count_before - 1
    assert not s.store.search("ORCHID-7731")
    await send(s, "What was the vault code?")
    assert "ORCHID-7731" not in _sent_text(chat_turns(server)[-1])

    newest = s.display_messages()[-2:]  # the turn sent since stays where it is
    undo = s.message_deletes.undo_delete()
    assert not undo.problems and undo.history and undo.context
    assert [m.model_dump() for m in s.display_messages()][:len(messages_before)] == \
        messages_before  # same id, place, pin, counts and details
    assert [m.id for m in s.display_messages()][-2:] == [m.id for m in newest]
    stored = _stored(s)
    assert [m.model_dump() for m in stored.messages] == \
        [m.model_dump() for m in s.display_messages()]
    assert s.store.get_chat(s.chat.id).message_count == count_before + 2
    assert s.store.search("ORCHID-7731")
    await send(s, "And now?")
    assert "ORCHID-7731" in _sent_text(chat_turns(server)[-1])
    assert s.message_deletes.undo_delete().problems[0].text == NOTHING_TO_UNDO


@pytest.mark.asyncio
async def test_a_summarised_message_is_deleted_with_the_notice_and_its_checkpoint_stays(
        tmp_path, server) -> None:
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    s = ChatSession(store, make_settings(server, context_size=2048, preserve_recent_tokens=300))
    try:
        for i in range(12):
            await send(s, f"Point {i}: {LONG}")
            if s.compaction_task is not None:
                await s.compaction_task
            if s.engine is not None and s.engine.groups:
                break
        assert s.engine is not None and s.engine.groups
        group = s.engine.groups[0]
        reply = next(i for i in group.message_ids
                     if (m := s.engine.message(i)) is not None and m.role == "assistant")
        api_before = s.engine.api_messages()

        change = s.message_deletes.delete(reply)
        assert change.notices == (f"{DELETED} {SUMMARISED}",)
        stored = _stored(s)
        kept = next(g for g in stored.groups if g.id == group.id)
        assert kept.summary == group.summary and reply not in kept.message_ids + kept.span_ids
        reopened = ContextEngine.from_state(stored, s.engine.config, GoodSummarizer())
        assert reopened.api_messages() == s.engine.api_messages()
        path = tmp_path / "chat.json"  # an export imports again (fresh ids, no dangling one)
        s.snapshots.export_json(path)
        imported = s.snapshots.import_json(path)
        assert not hasattr(imported, "problems"), imported
        assert s.engine.groups and s.engine.groups[0].summary == group.summary

        back = s.open_chat(next(c.id for c in s.list_chats() if c.id != imported.id))
        assert not back.problems
        assert not s.message_deletes.undo_delete().problems
        assert s.engine.api_messages() == api_before
        assert [g.model_dump() for g in _stored(s).groups] == \
            [g.model_dump() for g in s.engine.groups]
    finally:
        await s.close()


@pytest.mark.asyncio
async def test_a_deletion_belongs_to_its_chat(session, server) -> None:
    s, _ = session
    await send(s, "In the first chat")
    assert s.chat is not None
    first = s.chat.id
    gone = s.display_messages()[-1]
    assert not s.message_deletes.delete(gone.id).problems
    s.new_chat()
    await send(s, "In the second chat")
    refused = s.message_deletes.undo_delete()
    assert refused.problems and refused.problems[0].text == NOTHING_TO_UNDO
    assert not s.message_deletes.can_undo()
    s.open_chat(first)
    assert s.message_deletes.can_undo()
    assert not s.message_deletes.undo_delete().problems
    assert s.display_messages()[-1].id == gone.id


@pytest.mark.asyncio
async def test_deleting_is_refused_while_a_reply_streams(session, server) -> None:
    s, events = session
    await send(s, "Hello")
    target = s.display_messages()[0].id
    assert not s.message_deletes.delete(s.display_messages()[-1].id).problems
    server.replies.append(Reply(text="slow reply " * 40, delay_per_chunk=0.02))
    _change, reason = s.start_turn("Stream slowly please")
    assert reason is None
    task = asyncio.ensure_future(s.turns.run("Stream slowly please"))
    try:
        while not any(isinstance(e, ReplyChunk) for e in events):
            await asyncio.sleep(0.01)
        assert s.message_deletes.delete(target).problems[0].kind == "busy"
        assert s.message_deletes.undo_delete().problems[0].kind == "busy"
        assert s.message(target) is not None
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        s.turns.ended()
    assert not s.message_deletes.delete(target).problems
