"""A compaction runs on a copy of the chat, on a thread of its own (issue 29): what the user
does meanwhile is kept, and a result that no longer fits the chat is never applied.

Each case holds the summary request at the loopback server (a gate the test opens), does one
thing to the chat while the compaction waits, then lets it finish. Each test fails when the
optimistic check of ``engine.compaction_draft`` is taken out (the copy's result applied as it
is): the pinned or deleted message would sit in the new checkpoint, and the newest turn or the
edited text would be missing from the next request.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from ollm_desktop.engine import ContextEngine, EngineConfig, Message
from ollm_desktop.engine.compaction_draft import InPlace
from ollm_desktop.paths import app_paths
from ollm_desktop.session import ChatSession
from ollm_desktop.session.server_cache import MAX_PAUSES
from ollm_desktop.storage import ChatStore
from tests.controller_harness import is_summary_request, make_settings, scripted_model, until
from tests.engine_fakes import GoodSummarizer, exchange
from tests.ollama_server import FakeOllama

ROUNDS = [(f"Round {i}: the report exporter again. " + "It keeps timing out on big files. " * 6,
           f"Reply {i}: try streaming the rows instead of building the list. " * 12)
          for i in range(14)]


class Gate:
    """Summary requests wait at the server until ``open`` is set (the server's own thread)."""

    def __init__(self, server: FakeOllama) -> None:
        self.called = threading.Event()
        self.open = threading.Event()
        answer = scripted_model(reply_words=12)

        def reply(body: dict[str, Any]) -> str:
            if is_summary_request(body):
                self.called.set()
                self.open.wait(30)
            return answer(body)

        server.reply_fn = reply


@pytest.fixture
def session(tmp_path: Any, ollama_server: FakeOllama) -> Iterator[ChatSession]:
    ollama_server.reply_fn = scripted_model(reply_words=12)
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    s = ChatSession(store, make_settings(ollama_server, context_size=2048,
                                         preserve_recent_tokens=0))
    yield s
    store.close()


def _seed(s: ChatSession, beyond: int = 0) -> None:
    """A chat over its compaction trigger (``beyond`` rounds past it), opened."""
    s.new_chat("off the loop")
    engine, chat = s.engine, s.chat
    assert chat is not None and engine is not None
    for user, reply in ROUNDS:
        if engine.needs_compaction():
            if beyond <= 0:
                break
            beyond -= 1
        for message in (Message(role="user", content=user),
                        Message(role="assistant", content=reply)):
            engine.add_message(message)
            s.store.append_message(chat.id, message)
    s.save_state()
    s.open_chat(chat.id)
    assert s.engine is not None and s.engine.needs_compaction()


async def _started(s: ChatSession, server: FakeOllama,
                   beyond: int = 0) -> tuple[Gate, asyncio.Task[Any]]:
    gate = Gate(server)
    _seed(s, beyond)
    s.compactions.schedule_background()
    task = s.compaction_task
    assert task is not None
    await until(gate.called.is_set)
    return gate, task


def _request_text(s: ChatSession) -> str:
    assert s.engine is not None
    return "\n".join(m["content"] for m in s.engine.api_messages())


def _summarised(s: ChatSession) -> set[str]:
    assert s.engine is not None
    return {mid for g in s.engine.groups for mid in g.message_ids}


def _stored(s: ChatSession) -> Any:
    assert s.chat is not None
    state = s.store.load_engine_state(s.chat.id)
    assert state is not None
    return state


async def _finish(s: ChatSession, gate: Gate, task: asyncio.Task[Any]) -> Any:
    gate.open.set()
    return await asyncio.wait_for(task, timeout=30)


@pytest.mark.asyncio
async def test_a_message_sent_while_compacting_is_in_the_next_request(session,
                                                                      ollama_server) -> None:
    s = session
    gate, task = await _started(s, ollama_server)
    s.compactions.cache.pauses = MAX_PAUSES  # the send lets the compaction run through
    _change, reason = s.start_turn("A late question about the exporter's memory use?")
    assert reason is None
    try:
        await asyncio.wait_for(s.turns.run("A late question about the exporter's memory use?"),
                               timeout=30)
    finally:
        s.turns.ended()
    late = s.display_messages()[-2:]
    assert [m.role for m in late] == ["user", "assistant"] and not task.done()
    report = await _finish(s, gate, task)
    assert report.status == "compacted"
    text = _request_text(s)
    assert all(m.content in text for m in late)  # the copy never held them: read in again
    assert [m.id for m in _stored(s).messages][-2:] == [m.id for m in late]
    await s.close()


@pytest.mark.asyncio
async def test_a_message_pinned_while_compacting_is_not_summarised(session,
                                                                   ollama_server) -> None:
    s = session
    gate, task = await _started(s, ollama_server)
    target = s.display_messages()[1]  # an old reply: the copy's run summarises it
    assert not s.set_pinned(target.id, True).problems
    report = await _finish(s, gate, task)
    assert report.status == "compacted"
    assert target.id not in _summarised(s)  # the stale result was run again, not applied
    assert s.engine is not None and s.engine.visibility()[target.id] == "preserved"
    assert s.engine is not None and s.engine.message(target.id).pinned
    assert next(m for m in _stored(s).messages if m.id == target.id).pinned
    await s.close()


@pytest.mark.asyncio
async def test_a_message_deleted_while_compacting_is_in_no_checkpoint(session,
                                                                      ollama_server) -> None:
    s = session
    gate, task = await _started(s, ollama_server, beyond=2)
    target = s.display_messages()[1]
    change = s.message_deletes.delete(target.id)  # no longer refused while compacting
    assert not change.problems, change.problems
    report = await _finish(s, gate, task)
    assert report.status == "compacted", report.reason
    assert target.id not in _summarised(s)
    assert target.id not in [m.id for m in s.display_messages()]
    assert target.id not in [m.id for m in _stored(s).messages]
    assert s.message_deletes.can_undo()
    await s.close()


@pytest.mark.asyncio
async def test_a_message_edited_while_compacting_is_sent_as_edited(session,
                                                                   ollama_server) -> None:
    """A stopped reply that a Continue extends in place is edited while the copy works."""
    s = session
    gate, task = await _started(s, ollama_server)
    assert s.engine is not None
    newest = s.engine.display_messages()[-1]
    newest.content += " And one more thing: the exporter needs a progress bar."
    report = await _finish(s, gate, task)
    assert report.status == "compacted"
    assert newest.content in _request_text(s)
    await s.close()


def test_an_edit_while_compacting_in_place_runs_again_from_the_edited_chat() -> None:
    """The engine alone, with a worker that runs on the same loop: the check, not a thread,
    keeps the edit (an edited reply in the span is summarised as edited, never as it was)."""

    async def scenario() -> None:
        summarizer = GoodSummarizer()
        engine = ContextEngine(EngineConfig(context_size=8192, min_messages=2), summarizer)
        for turn in range(16):
            exchange(engine, turn)
        old = engine.display_messages()[1]
        edited = False

        class EditingWorker(InPlace):
            async def run(self, job):  # type: ignore[no-untyped-def]
                nonlocal edited
                result = await job()
                if not edited:  # the user edits while the first run is out
                    old.content = "Edited: the migration needs a rollback script first."
                    edited = True
                return result

        report = await engine.compact(force=True, worker=EditingWorker())
        assert report.status == "compacted"
        prompts = "\n".join(str(p) for p in summarizer.prompts)
        assert "rollback script" in prompts  # the second run read the edited text

    asyncio.run(scenario())
