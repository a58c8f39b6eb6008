"""undo_last_compaction: restore the previous compaction state, keep newer messages."""

from __future__ import annotations

from ollm_desktop.engine import ContextEngine, EngineConfig
from tests.engine_fakes import GoodSummarizer, api_text, api_token_total, chat, compact, exchange


def test_undo_restores_previous_state_and_keeps_new_messages() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), turns=12)
    before_api = engine.api_messages()
    assert compact(engine, force=True).status == "compacted"
    summarised = engine.display_messages()[1]
    assert summarised.content not in api_text(engine)
    exchange(engine, 100)
    newest = engine.display_messages()[-1]
    events: list[str] = []
    engine.subscribe(lambda e: events.append(e.name))
    result = engine.undo_last_compaction()
    assert result.ok, result.reason
    assert not engine.groups and engine.compaction_count == 0
    assert summarised.content in api_text(engine)
    assert newest.content in api_text(engine)
    assert engine.api_messages()[: len(before_api)] == before_api
    assert "compaction-undone" in events and "budget-recalculated" in events
    assert not engine.can_undo
    again = engine.undo_last_compaction()
    assert not again.ok and "no compaction" in again.reason


def test_undo_goes_back_one_compaction_at_a_time() -> None:
    engine, _ = chat(EngineConfig(context_size=16384, min_messages=2), turns=10)
    assert compact(engine, force=True).status == "compacted"
    first = engine.groups
    for turn in range(10, 20):
        exchange(engine, turn)
    assert compact(engine, force=True).status == "compacted"
    assert len(engine.groups) == 2 and engine.groups[0].level == 3  # no aging: issue 21
    assert engine.undo_last_compaction().ok
    assert [g.model_dump() for g in engine.groups] == [g.model_dump() for g in first]
    assert engine.compaction_count == 1


def test_undo_that_would_not_fit_leaves_the_oldest_out_visibly() -> None:
    """Undo is never refused for size: the oldest messages are left out, said so, and the
    earlier state can be opened as a new chat (a branch) instead."""
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), turns=20)
    at_compaction = len(engine.display_messages())
    assert compact(engine, force=True).status == "compacted"
    turn = 20
    while engine.usage().system + sum(m.tokens for m in engine.display_messages()) <= engine.usable:
        exchange(engine, turn)
        turn += 1
    usage = engine.usage()
    assert usage.total <= usage.usable and usage.dropped_messages == 0
    branch = engine.state_before_last_compaction()
    assert branch is not None
    result = engine.undo_last_compaction()
    assert result.ok, result.reason
    after = engine.usage()
    assert result.left_out == after.dropped_messages > 0
    assert f"{result.left_out} older messages" in result.reason and "new chat" in result.reason
    assert not engine.groups and engine.compaction_count == 0 and not engine.can_undo
    assert after.total <= after.usable and api_token_total(engine) <= engine.usable
    # The oldest go first, and they are shown as left out, not silently missing.
    visible = engine.visibility()
    messages = engine.display_messages()
    dropped = [i for i, m in enumerate(messages) if visible[m.id] == "dropped"]
    assert dropped == list(range(len(dropped)))
    text = api_text(engine)
    assert f"[{after.dropped_messages} earlier messages are left out" in text
    assert all(messages[i].content not in text for i in dropped)
    assert messages[-1].content in text
    # The branch is the chat as it was when the compaction ran, before it.
    assert [m.id for m in branch.messages] == [m.id for m in messages[:at_compaction]]
    assert branch.groups == [] and branch.compaction_count == 0 and branch.undo_stack == []
    opened = ContextEngine.from_state(branch, None, GoodSummarizer())
    assert opened.usage().dropped_messages == 0
    assert all(m.content in api_text(opened) for m in branch.messages)


def test_undo_goes_three_compactions_deep() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2))
    states = []
    for round_ in range(3):
        for turn in range(10 * round_, 10 * round_ + 10):
            exchange(engine, turn)
        states.append([g.model_dump() for g in engine.groups])
        assert compact(engine, force=True).status == "compacted"
    for expected in reversed(states):
        result = engine.undo_last_compaction()
        assert result.ok, result.reason
        assert [g.model_dump() for g in engine.groups] == expected
    assert engine.compaction_count == 0 and not engine.can_undo


def test_a_branch_can_undo_its_newest_compaction_as_the_original_can() -> None:
    """Issue 25: in a branch, Undo was greyed out on its only (and newest) checkpoint."""
    from ollm_desktop.engine.branching import state_up_to

    engine, summarizer = chat(EngineConfig(context_size=8192, min_messages=2))
    for round_ in range(2):
        for turn in range(10 * round_, 10 * round_ + 10):
            exchange(engine, turn)
        assert compact(engine, force=True).status == "compacted"
    state = engine.state()
    last = state.messages[-1].id
    branch = ContextEngine.from_state(state_up_to(state, last, keep_message=True), None,
                                      summarizer)
    assert branch.can_undo and [g.id for g in branch.groups] == [g.id for g in engine.groups]
    assert branch.undo_last_compaction().ok
    assert branch.undo_last_compaction().ok and not branch.groups and not branch.can_undo
    # A cut inside the newest compaction's span: the copy starts from the earlier set and
    # keeps only what is older than it.
    newest = engine.groups[-1]
    cut = newest.span_ids[len(newest.span_ids) // 2]
    earlier = state_up_to(state, cut, keep_message=False)
    assert [g.id for g in earlier.groups] == [g.id for g in state.undo_stack[-1].groups]
    assert len(earlier.undo_stack) == len(state.undo_stack) - 1
    assert all(u.message_count is not None and u.message_count <= len(earlier.messages)
               for u in earlier.undo_stack)
