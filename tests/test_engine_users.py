"""preserve_user_messages: user messages stay verbatim until they outgrow their share."""

from __future__ import annotations

from ollm_desktop.engine import ContextEngine, EngineConfig
from ollm_desktop.engine.context import SUMMARY_CLOSE, SUMMARY_OPEN
from tests.engine_fakes import GoodSummarizer, api_text, chat, compact, words

EARLIER_REQUEST = "Earlier request from the user (word for word, already answered):"


def summary_block(engine: ContextEngine) -> str:
    """The compressed-history block of the system message (where earlier requests are quoted)."""
    system = engine.api_messages()[0]
    assert system["role"] == "system"
    text = system["content"]
    return text[text.index(SUMMARY_OPEN):text.index(SUMMARY_CLOSE) + len(SUMMARY_CLOSE)]


def test_user_messages_stay_verbatim_and_are_shown_to_the_summarizer() -> None:
    engine, summarizer = chat(
        EngineConfig(context_size=8192, min_messages=2), turns=20, user_words=15
    )
    assert compact(engine, force=True).status == "compacted"
    group = engine.groups[0]
    text = api_text(engine)
    prompt = summarizer.prompts[0][-1]["content"]
    assert "The user's messages above stay in the context word for word" in prompt
    span_users = [
        m for m in engine.display_messages() if m.id in group.span_ids and m.role == "user"
    ]
    assert span_users
    block = summary_block(engine)
    turns = [m["content"] for m in engine.api_messages()[1:]]
    for message in span_users:
        # Word for word, quoted as an earlier request inside the block, not as a bare turn.
        assert f"{EARLIER_REQUEST}\n> {message.content}" in block
        assert not any(message.content in turn for turn in turns)
        # Shown to the summarizer as the turn it was, the request noting that it stays.
        assert any(m["content"] == message.content for m in summarizer.prompts[0][1:-1])
        assert message.id not in group.message_ids
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
    assert EARLIER_REQUEST not in api_text(engine)
    assert all(m.content not in api_text(engine) for m in users if m is not None)
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
    assert f"{report.folded_user_messages} user messages summarised too" in report.reason
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


def test_earlier_region_users_over_their_share_are_summarised_by_the_next_checkpoint() -> None:
    """A later compaction folds users kept by an earlier one: they are summarised, not lost.

    They join the new checkpoint's material (the summarizer reads them) and its
    ``message_ids``; before issue 11 they joined an old group and reached no summarizer.
    """
    config = EngineConfig(context_size=16384, min_messages=2, user_message_share=0.25)
    summarizer = GoodSummarizer()
    engine = ContextEngine(config, summarizer)
    for turn in range(12):
        engine.add("user", f"U{turn:02d} " + words(200, turn))
        engine.add("assistant", f"A{turn:02d} " + words(20, turn))
    assert compact(engine, force=True).status == "compacted"
    first_group = engine.groups[0]
    oldest_user = engine.display_messages()[0]
    assert oldest_user.id not in first_group.message_ids  # kept word for word at first
    assert f"{EARLIER_REQUEST}\n> {oldest_user.content}" in summary_block(engine)
    for turn in range(12, 30):
        engine.add("user", f"U{turn:02d} " + words(200, turn))
        engine.add("assistant", f"A{turn:02d} " + words(20, turn))
    calls = summarizer.calls
    report = compact(engine, force=True)
    assert report.status == "compacted" and report.folded_user_messages > 0
    assert oldest_user.content not in api_text(engine)
    assert engine.visibility()[oldest_user.id] == "summarized"
    owner = [g for g in engine.groups if oldest_user.id in g.message_ids]
    assert [g.id for g in owner] == [report.group_id]
    # The summarizer reads it: in the notes the request reuses, named in the request to be
    # folded in (or, standalone, inside its chat history).
    start = " ".join(oldest_user.content.split()[:10])
    assert any((oldest_user.content in p[0]["content"] and start in p[-1]["content"])
               or f"<user>{oldest_user.content}</user>" in p[-1]["content"]
               for p in summarizer.prompts[calls:])


def test_usage_reports_the_share_the_folding_keeps_to() -> None:
    """The window explains a summarised user message with this figure: it is the limit the
    compaction kept to (issue 14), and 0 when user messages are not kept word for word."""
    config = EngineConfig(context_size=8192, min_messages=2, user_message_share=0.25)
    engine = ContextEngine(config, GoodSummarizer())
    for turn in range(16):
        engine.add("user", f"U{turn:02d} " + words(230, turn))
        engine.add("assistant", f"A{turn:02d} " + words(40, turn))
    before = engine.usage()
    assert before.user_share == int(0.25 * (before.usable - before.system - before.goal
                                            - before.checkpoints))
    report = compact(engine, force=True)
    assert report.folded_user_messages > 0
    usage = engine.usage()
    visible = engine.visibility()
    kept = [m for m in engine.display_messages()
            if m.role == "user" and visible[m.id] == "preserved"]
    assert 0 < sum(m.tokens for m in kept) <= usage.user_share
    off = ContextEngine(EngineConfig(context_size=8192, preserve_user_messages=False),
                        GoodSummarizer())
    off.add("user", "Hello")
    assert off.usage().user_share == 0
