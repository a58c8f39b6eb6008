"""preserve_user_messages: user messages stay verbatim until they outgrow their share."""

from __future__ import annotations

from ollm_desktop.engine import ContextEngine, EngineConfig
from ollm_desktop.engine.context import EARLIER_OPEN
from tests.engine_fakes import GoodSummarizer, api_text, chat, compact, words


def test_user_messages_stay_verbatim_and_are_shown_to_the_summarizer() -> None:
    engine, summarizer = chat(
        EngineConfig(context_size=8192, min_messages=2), turns=20, user_words=15
    )
    assert compact(engine, force=True).status == "compacted"
    group = engine.groups[0]
    text = api_text(engine)
    prompt = summarizer.prompts[0][-1]["content"]
    span_users = [
        m for m in engine.display_messages() if m.id in group.span_ids and m.role == "user"
    ]
    assert span_users
    for message in span_users:
        assert message.content in text
        assert f'<user kept="verbatim">{message.content}</user>' in prompt
        assert message.id not in group.message_ids
    assert EARLIER_OPEN in text
    for mid in group.message_ids:
        message = engine.message(mid)
        assert message is not None and message.role == "assistant"
        assert message.content not in text


def test_without_preservation_user_messages_are_summarised() -> None:
    config = EngineConfig(context_size=8192, min_messages=2, preserve_user_messages=False)
    engine, summarizer = chat(config, turns=20, user_words=15)
    assert compact(engine, force=True).status == "compacted"
    group = engine.groups[0]
    users = [engine.message(mid) for mid in group.message_ids]
    assert any(m is not None and m.role == "user" for m in users)
    assert EARLIER_OPEN not in api_text(engine)
    assert 'kept="verbatim"' not in summarizer.prompts[0][-1]["content"]


def test_user_messages_over_their_share_are_folded_oldest_first() -> None:
    config = EngineConfig(context_size=8192, min_messages=2, user_message_share=0.25)
    engine = ContextEngine(config, GoodSummarizer())
    for turn in range(16):
        engine.add("user", f"U{turn:02d} " + words(230, turn))
        engine.add("assistant", f"A{turn:02d} " + words(40, turn))
    report = compact(engine, force=True)
    assert report.status == "compacted"
    assert report.folded_user_messages > 0
    assert "folded" in report.reason
    usage = engine.usage()
    limit = 0.25 * (usage.usable - usage.system - usage.goal - usage.checkpoints)
    visible = engine.visibility()
    preserved_users = [
        m for m in engine.display_messages() if m.role == "user" and visible[m.id] == "preserved"
    ]
    folded = [
        m for m in engine.display_messages() if m.role == "user" and visible[m.id] == "summarized"
    ]
    assert len(folded) == report.folded_user_messages
    assert sum(m.tokens for m in preserved_users) <= limit
    # Oldest first: every folded message is older than every preserved one.
    assert max(m.created_at for m in folded) <= min(m.created_at for m in preserved_users)
    order = [m.id for m in engine.display_messages()]
    assert max(order.index(m.id) for m in folded) < min(order.index(m.id) for m in preserved_users)
    text = api_text(engine)
    assert all(m.content not in text for m in folded)


def test_earlier_folded_region_users_join_their_own_checkpoint() -> None:
    """A later compaction folds users preserved by an earlier one, into that earlier group."""
    config = EngineConfig(context_size=16384, min_messages=2, user_message_share=0.25)
    engine = ContextEngine(config, GoodSummarizer())
    for turn in range(12):
        engine.add("user", f"U{turn:02d} " + words(200, turn))
        engine.add("assistant", f"A{turn:02d} " + words(20, turn))
    assert compact(engine, force=True).status == "compacted"
    first_group = engine.groups[0]
    for turn in range(12, 30):
        engine.add("user", f"U{turn:02d} " + words(200, turn))
        engine.add("assistant", f"A{turn:02d} " + words(20, turn))
    report = compact(engine, force=True)
    assert report.status == "compacted" and report.folded_user_messages > 0
    oldest_user = engine.display_messages()[0]
    assert oldest_user.content not in api_text(engine)
    owner = [g for g in engine.groups if oldest_user.id in g.message_ids]
    assert owner and (owner[0].id == first_group.id or first_group.id in owner[0].merged_from)
