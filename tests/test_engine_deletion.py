"""Deleting a message and undoing it, kept consistent with the compaction state (issue 15).

A deleted message leaves the history, the request and every id list of the compaction state
at once; a summarised one stays in its checkpoint's summary (the summary is not rewritten).
Undo puts it back where it was, with everything it had, and the request is as before.
"""

from __future__ import annotations

import asyncio

import pytest

from ollm_desktop.engine import ContextEngine, EngineConfig, Message
from ollm_desktop.engine.models import ImageRef, ReplyStats
from ollm_desktop.storage.export import _check_references, with_fresh_ids
from tests.engine_fakes import GoodSummarizer, SlowSummarizer, api_text, chat, compact, exchange

MARK = "Decision: keep the nightly export job"


def _summarised(engine: ContextEngine) -> ContextEngine:
    """A chat with one checkpoint whose summary says ``MARK``."""
    assert compact(engine, force=True).status == "compacted"
    assert engine.groups and MARK in engine.groups[0].summary
    return engine


def _ids(engine: ContextEngine) -> list[str]:
    return [m.id for m in engine.display_messages()]


def _dump(engine: ContextEngine) -> dict:
    return engine.state().model_dump()


def _all_group_ids(engine: ContextEngine) -> set[str]:
    state = engine.state()
    groups = [*state.groups, *(g for u in state.undo_stack for g in u.groups)]
    return {i for g in groups for i in (*g.message_ids, *g.span_ids)} | set(state.dropped_ids)


def test_a_recent_message_leaves_the_request_and_undo_puts_it_back_exactly() -> None:
    engine, _ = chat(EngineConfig(context_size=8192), turns=3)
    special = engine.add_message(Message(
        role="assistant", content="The sandbox key is zebra-42, keep it.", pinned=True,
        model="llama3.2:3b", thinking="they asked for it", origin="o1",
        stats=ReplyStats(prompt_tokens=10, reply_tokens=5, reply_duration_ns=10**9),
        images=[ImageRef(id="ab" * 32, name="shot.png", tokens=12)]))
    exchange(engine, 9)
    before_api, before_state = engine.api_messages(), _dump(engine)
    position = _ids(engine).index(special.id)

    deleted = engine.delete_message(special.id)
    assert not deleted.summarised and not deleted.removed_groups
    assert special.id not in _ids(engine) and engine.message(special.id) is None
    assert "zebra-42" not in api_text(engine)
    assert special.id not in engine.visibility()

    engine.restore_message(deleted)
    assert _ids(engine).index(special.id) == position
    assert engine.api_messages() == before_api
    assert _dump(engine) == before_state  # same id, place, pin, tokens, meta
    with pytest.raises(ValueError):
        engine.restore_message(deleted)  # it is back already


def test_a_summarised_message_stays_in_its_summary_and_is_never_sent_word_for_word() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2),
                     GoodSummarizer(extra=MARK), turns=12)
    _summarised(engine)
    group = engine.groups[0]
    reply = next(m for m in engine.display_messages() if m.id in group.message_ids
                 and m.role == "assistant")
    request = next(m for m in engine.display_messages() if m.id in group.preserved_ids
                   and m.role == "user")
    assert request.content in api_text(engine)  # kept word for word in the compacted block
    before_api, before_state = engine.api_messages(), _dump(engine)

    first = engine.delete_message(reply.id)
    assert first.summarised and not first.removed_groups
    second = engine.delete_message(request.id)
    assert not second.summarised  # its words were quoted, never summarised: they go with it
    after = engine.groups[0]
    assert after.id == group.id and after.summary == group.summary
    assert reply.id not in after.message_ids + after.span_ids
    assert request.id not in after.span_ids
    text = api_text(engine)
    assert MARK in text  # the checkpoint still says what it said
    assert reply.content not in text and request.content not in text
    assert {reply.id, request.id}.isdisjoint(_all_group_ids(engine))

    engine.restore_message(second)
    engine.restore_message(first)
    assert engine.api_messages() == before_api
    assert _dump(engine) == before_state


def test_deletions_survive_a_state_round_trip_and_an_export_with_fresh_ids() -> None:
    engine, _ = chat(EngineConfig(context_size=16384, min_messages=2),
                     GoodSummarizer(extra=MARK), turns=10)
    _summarised(engine)
    for turn in range(10, 20):
        exchange(engine, turn)
    assert compact(engine, force=True).status == "compacted"
    assert engine.state().undo_stack  # the older checkpoint set names the message too
    old = engine.state().undo_stack[-1].groups[0]
    target = next(i for i in old.message_ids if i in _ids(engine))
    engine.delete_message(target)
    assert target not in _all_group_ids(engine)

    state = engine.state()
    reopened = ContextEngine.from_state(state, None, GoodSummarizer())
    assert reopened.api_messages() == engine.api_messages()
    fresh = with_fresh_ids(state)  # every checkpoint refers to messages that exist
    _check_references(fresh)
    assert len(fresh.messages) == len(state.messages)
    assert ContextEngine.from_state(fresh, None, GoodSummarizer()).api_messages() == \
        engine.api_messages()


def test_the_last_summarised_message_of_a_checkpoint_takes_the_checkpoint_with_it() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2),
                     GoodSummarizer(extra=MARK), turns=8)
    _summarised(engine)
    group = engine.groups[0]
    before_api, before_state = engine.api_messages(), _dump(engine)
    done = [engine.delete_message(mid) for mid in list(group.message_ids)]
    assert [d.summarised for d in done[:-1]] == [True] * (len(done) - 1)
    assert done[-1].removed_groups == (group.id,) and not done[-1].summarised
    assert not engine.groups  # nothing it stood for is left: it goes, not sent any more
    assert MARK not in api_text(engine)
    gone = {d.message.id for d in done}
    assert not any(f.message_id in gone for f in engine.facts)  # their facts went with them
    for request in group.preserved_ids:  # the user's own requests stay, word for word
        found = engine.message(request)
        assert found is not None and found.content in api_text(engine)
    _check_references(with_fresh_ids(engine.state()))
    for deleted in reversed(done):
        engine.restore_message(deleted)
    assert engine.api_messages() == before_api
    assert _dump(engine) == before_state


def test_a_branch_from_before_the_compaction_still_ends_where_it_ran() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), turns=10)
    at_compaction = _ids(engine)
    _ = compact(engine, force=True)
    exchange(engine, 10)
    gone = at_compaction[3]
    engine.delete_message(gone)
    branch = engine.state_before_last_compaction()
    assert branch is not None
    assert [m.id for m in branch.messages] == [i for i in at_compaction if i != gone]


def test_undo_after_a_compaction_puts_the_message_back_word_for_word() -> None:
    """The compaction state changed since: the message returns to its place, and the
    context sends it word for word until the next compaction folds it (nothing is lost)."""
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), turns=10)
    target = engine.display_messages()[5]
    position = 5
    deleted = engine.delete_message(target.id)
    for turn in range(10, 14):
        exchange(engine, turn)
    assert compact(engine, force=True).status == "compacted"
    engine.restore_message(deleted)
    assert _ids(engine)[position] == target.id
    assert engine.visibility()[target.id] == "preserved"
    assert target.content in api_text(engine)
    _check_references(with_fresh_ids(engine.state()))
    assert compact(engine, force=True).status == "compacted"
    assert engine.visibility()[target.id] == "summarized"


def test_deleting_is_refused_while_a_compaction_runs() -> None:
    async def scenario() -> None:
        engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), SlowSummarizer(),
                         turns=10)
        target = engine.display_messages()[-1].id
        task = asyncio.ensure_future(engine.compact(force=True))
        while not engine.compacting:
            await asyncio.sleep(0)
        with pytest.raises(RuntimeError):
            engine.delete_message(target)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        assert engine.message(target) is not None

    asyncio.run(scenario())


def test_an_unknown_message_cannot_be_deleted() -> None:
    engine, _ = chat(turns=1)
    with pytest.raises(KeyError):
        engine.delete_message("nope")


def test_a_message_put_back_after_a_calibration_change_is_counted_as_the_others() -> None:
    engine, _ = chat(turns=3)
    target = engine.display_messages()[2]
    deleted = engine.delete_message(target.id)
    engine.set_calibration(scale=1.5, per_message=12)
    engine.restore_message(deleted)
    twin = ContextEngine.from_state(engine.state(), None, GoodSummarizer())
    twin.set_calibration(scale=1.0, per_message=8)
    twin.set_calibration(scale=1.5, per_message=12)  # every count redone by the usual rule
    restored = engine.message(target.id)
    assert restored is not None and restored.tokens != target.tokens
    assert restored.tokens == twin.message(target.id).tokens
