"""The user's changes to the facts ledger in the Qt-free session (issue 22): add, edit, forget,
pin, each written at once and undone exactly; refused while the chat is busy; the undo belongs
to the chat it was made in; a snapshot's restore brings the facts back as they were."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.paths import app_paths
from ollm_desktop.session import ChatSession, SessionEvent
from ollm_desktop.session.facts import (
    ADDED,
    EDITED,
    FORGOTTEN,
    NO_FACT,
    NOTHING_TO_UNDO,
    PINNED,
    UNDONE,
)
from ollm_desktop.storage import ChatStore
from tests.controller_harness import make_settings, scripted_model
from tests.test_storage_facts import facts_chat

pytestmark = pytest.mark.asyncio


@pytest.fixture
def session(tmp_path, ollama_server) -> Iterator[ChatSession]:
    """A chat whose ledger holds stated, replaced, typed, edited and forgotten facts."""
    ollama_server.reply_fn = scripted_model(reply_words=20)
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    s = ChatSession(store, make_settings(ollama_server, context_size=4096))
    events: list[SessionEvent] = []
    s.publish = events.append
    chat = store.create_chat("facts", context_size=4096)
    store.replace_chat_state(chat.id, facts_chat().state())
    yield s
    store.close()


async def _open(s: ChatSession) -> ChatSession:
    s.open_chat(s.store.list_chats()[0].id)
    await s.drain()
    return s


def _facts(s: ChatSession) -> list[Fact]:
    assert s.engine is not None
    return s.engine.facts


def _stored(s: ChatSession) -> list[Fact]:
    assert s.chat is not None
    state = s.store.load_engine_state(s.chat.id)
    assert state is not None
    return state.facts


def _stated(s: ChatSession, value: str) -> Fact:
    return next(f for f in _facts(s) if f.value == value)


async def test_each_change_is_saved_at_once_and_its_undo_puts_the_fact_back(
        session: ChatSession) -> None:
    s = await _open(session)
    before = _facts(s)
    port = _stated(s, "7443")  # replaced by the correction: the user may still edit it
    budget = _stated(s, "180 ms per request")
    steps = [(lambda: s.facts.add("The release branch is rel/2.4"), ADDED),
             (lambda: s.facts.edit(budget.id, "150 ms per request"), EDITED),
             (lambda: s.facts.forget(port.id), FORGOTTEN),
             (lambda: s.facts.set_pinned(budget.id, True), PINNED)]
    states = [before]
    for step, said in steps:
        change = step()
        assert not change.problems and change.context and change.notices == (said,)
        assert _stored(s) == _facts(s) != states[-1]  # written at once
        states.append(_facts(s))
    added = next(f for f in _facts(s) if f.value == "The release branch is rel/2.4")
    assert added.source == "manual" and added.message_id is None
    edited = _stated(s, "150 ms per request")
    assert edited.edited and edited.original == "180 ms per request" and edited.pinned
    assert _stated(s, "7443").status == "forgotten"
    for expected in reversed(states[:-1]):  # newest first, each exactly as it was
        change = s.facts.undo()
        assert change.notices == (UNDONE,) and not change.problems
        assert _facts(s) == expected == _stored(s)
    assert s.facts.undo().problems[0].text == NOTHING_TO_UNDO


async def test_an_empty_text_or_a_fact_that_is_gone_is_refused(session: ChatSession) -> None:
    s = await _open(session)
    assert s.facts.add("   ").problems[0].kind == "input"
    assert s.facts.edit(_facts(s)[0].id, "").problems[0].kind == "input"
    assert s.facts.forget("no-such-fact").problems[0].text == NO_FACT
    unchanged = s.facts.set_pinned(_facts(s)[0].id, _facts(s)[0].pinned)
    assert unchanged.empty and not s.facts.can_undo()  # nothing changed: nothing to undo


async def test_changes_wait_while_a_reply_streams_or_a_compaction_runs(
        session: ChatSession) -> None:
    s = await _open(session)
    before = _facts(s)
    s.streaming = True
    try:
        for change in (s.facts.add("x is 1"), s.facts.forget(before[0].id),
                       s.facts.set_pinned(before[0].id, True), s.facts.undo()):
            assert change.problems[0].kind == "busy"
    finally:
        s.streaming = False
    assert _facts(s) == before
    assert s.facts.forget(before[0].id).notices == (FORGOTTEN,)
    s.compaction_task = asyncio.get_running_loop().create_future()  # type: ignore[assignment]
    try:
        assert s.facts.undo().problems[0].kind == "busy"
    finally:
        s.compaction_task = None
    assert s.facts.can_undo() and not s.facts.undo().problems


async def test_the_undo_belongs_to_its_chat(session: ChatSession) -> None:
    s = await _open(session)
    assert s.chat is not None
    first = s.chat.id
    s.facts.add("The staging bucket is s3://stage-logs")
    s.new_chat("another")
    assert not s.facts.can_undo()
    assert s.facts.undo().problems[0].text == NOTHING_TO_UNDO
    s.open_chat(first)
    assert s.facts.can_undo() and not s.facts.undo().problems
    assert all(f.value != "The staging bucket is s3://stage-logs" for f in _facts(s))


async def test_a_snapshot_restore_brings_the_facts_back(session: ChatSession) -> None:
    s = await _open(session)
    info = s.snapshots.create("before forgetting")
    assert info is not None
    before = _facts(s)
    s.facts.forget(before[0].id)
    s.facts.add("The staging host is stage-3.lan")
    assert not s.snapshots.restore(info.id).problems
    assert _facts(s) == before == _stored(s)
    view = s.facts.view()
    assert view is not None and [f.id for f in view.facts] == [f.id for f in before]
