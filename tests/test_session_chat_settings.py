"""A chat's own settings in the Qt-free session: what each request carries (issue 15).

Plain asyncio against the loopback fake Ollama: the fake records every request body, so the
tests read what was really sent.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ollm_desktop.paths import app_paths
from ollm_desktop.session import ChatSession, SessionEvent
from ollm_desktop.storage import ChatStore
from ollm_desktop.storage.models import ChatRecord, ChatSettings
from tests.controller_harness import chat_turns, is_summary_request, make_settings, scripted_model
from tests.ollama_server import FakeModel
from tests.test_session import send

LONG = "Please keep the schema notes handy, we will revisit the indexes later. " * 12
OWN = ChatSettings(system_prompt="You are a terse release manager.", temperature=0.2,
                   top_p=0.5, seed=7, num_predict=400, keep_alive="45m")


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=40)
    return ollama_server


def _open(tmp_path, server, **settings) -> tuple[ChatSession, list[SessionEvent]]:
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    s = ChatSession(store, make_settings(server, **settings))
    events: list[SessionEvent] = []
    s.publish = events.append
    return s, events


@pytest.fixture
def session(tmp_path, server) -> Iterator[tuple[ChatSession, list[SessionEvent]]]:
    s, events = _open(tmp_path, server, system_prompt="Be helpful.", keep_alive="10m")
    yield s, events
    s.store.close()




@pytest.mark.asyncio
async def test_the_next_request_carries_the_chats_own_settings(session, server) -> None:
    s, _ = session
    await send(s, "First question")
    first = chat_turns(server)[-1]
    assert first["options"] == {"num_ctx": 4096}  # unset: Ollama's defaults, nothing sent
    assert first["keep_alive"] == "10m"
    assert first["messages"][0] == {"role": "system", "content": "Be helpful."}

    change = s.chat_settings.apply(OWN, 8192)
    assert not change.problems and change.context
    assert s.engine is not None and s.engine.config.context_size == 8192
    assert s.engine.usage().context_size == 8192  # the budget follows at once
    await send(s, "Second question")
    sent = chat_turns(server)[-1]
    assert sent["options"] == {"num_ctx": 8192, "temperature": 0.2, "top_p": 0.5, "seed": 7,
                               "num_predict": 400}
    assert sent["keep_alive"] == "45m"
    assert sent["messages"][0]["role"] == "system"
    assert sent["messages"][0]["content"].startswith("You are a terse release manager.")
    assert "Be helpful." not in sent["messages"][0]["content"]


@pytest.mark.asyncio
async def test_the_system_prompt_is_counted_in_the_budget_at_once(session) -> None:
    s, _ = session
    s.new_chat()
    assert s.engine is not None
    before = s.engine.usage().system
    s.chat_settings.apply(ChatSettings(system_prompt=LONG), 4096)
    after = s.engine.usage()
    assert after.system > before + 100
    assert after.total > before + 100


@pytest.mark.asyncio
async def test_blank_follows_the_preferences_even_when_they_change(session, server) -> None:
    s, _ = session
    await send(s, "Hello")
    s.apply_settings(s.settings.model_copy(update={"system_prompt": "Speak like a pirate.",
                                                   "keep_alive": "2h"}))
    assert s.engine is not None and s.engine.system_prompt == "Speak like a pirate."
    await send(s, "Hello again")
    sent = chat_turns(server)[-1]
    assert sent["messages"][0]["content"].startswith("Speak like a pirate.")
    assert sent["keep_alive"] == "2h"  # the Preferences' value, without a restart
    # A chat with its own prompt keeps it when the default changes.
    s.chat_settings.apply(ChatSettings(system_prompt="Own prompt."), None)
    s.apply_settings(s.settings.model_copy(update={"system_prompt": "Another default."}))
    assert s.engine.system_prompt == "Own prompt."


@pytest.mark.asyncio
async def test_a_chat_opens_with_the_default_prompt_of_now(tmp_path, server) -> None:
    """A chat that follows the default is counted with today's Preferences prompt as soon as
    it opens (the meter is right before anything is sent), not the one it was saved with."""
    s, _ = _open(tmp_path, server, system_prompt="Old default.")
    await send(s, "Hello")
    chat_id = s.chat.id if s.chat else ""
    s.store.close()
    again, _ = _open(tmp_path, server, system_prompt=LONG)
    try:
        again.open_chat(chat_id)
        assert again.engine is not None and again.engine.system_prompt == LONG
        assert again.engine.usage().system > 100
    finally:
        again.store.close()


@pytest.mark.asyncio
async def test_summaries_use_the_chats_context_but_not_its_sampling(tmp_path, server) -> None:
    s, _ = _open(tmp_path, server, context_size=2048, preserve_recent_tokens=200)
    try:
        s.new_chat()
        s.chat_settings.apply(OWN.model_copy(update={"num_predict": 300}), 2048)
        for n in range(8):
            await send(s, f"Turn {n}: {LONG}")
            if any(is_summary_request(b) for b in server.chat_requests()):
                break
        summaries = [b for b in server.chat_requests() if is_summary_request(b)]
        assert summaries, "the chat never compacted"
        for body in summaries:
            options = body["options"]
            assert options["num_ctx"] == 2048
            assert "temperature" not in options and "seed" not in options
            assert "top_p" not in options
            assert options["num_predict"] != 300  # the summary's own cap
            assert body["keep_alive"] == "45m"
    finally:
        s.store.close()


TINY = FakeModel("tiny:1b", "llama", "1.0B", 2048)


@pytest.mark.asyncio
@pytest.mark.parametrize("allowed", [False, True])
async def test_a_chats_context_never_silently_exceeds_the_trained_length(tmp_path, server,
                                                                         allowed) -> None:
    server.models = [TINY]
    s, _ = _open(tmp_path, server, default_model=TINY.name, context_size=2048,
                 allow_beyond_trained=allowed)
    try:
        await s.ollama.refresh()
        await s.drain()
        s.new_chat()
        change = s.chat_settings.apply(ChatSettings(), 16384)
        assert s.chat is not None and s.engine is not None
        if allowed:
            assert s.chat.context_size == 16384
            assert any("beyond the 2,048" in text for text in change.notices)
        else:
            assert s.chat.context_size == 2048 == s.engine.config.context_size
            assert any("trained for 2,048" in text for text in change.notices)
        await send(s, "Hello")
        assert chat_turns(server)[-1]["options"]["num_ctx"] == (16384 if allowed else 2048)
    finally:
        s.store.close()


@pytest.mark.asyncio
async def test_default_context_size_and_refusals(session, server) -> None:
    s, _ = session
    assert s.chat_settings.apply(OWN, 8192).problems[0].kind == "input"  # no chat yet
    s.new_chat()
    s.chat_settings.apply(ChatSettings(), 8192)
    s.chat_settings.apply(ChatSettings(), None)  # "Default": the size a new chat gets
    assert s.chat is not None and s.chat.context_size == 4096
    s.streaming = True
    refused = s.chat_settings.apply(OWN, 4096)
    assert refused.problems and refused.problems[0].kind == "busy"
    s.streaming = False
    assert s.chat.settings == ChatSettings()  # nothing half-applied


@pytest.mark.asyncio
async def test_reply_stats_are_stored_with_the_reply_and_survive_a_restart(tmp_path,
                                                                          server) -> None:
    s, _ = _open(tmp_path, server)
    await send(s, "How fast are you?")
    chat_id = s.chat.id if s.chat else ""
    reply = s.display_messages()[-1]
    assert reply.role == "assistant" and reply.stats is not None
    stream = server.streams[-1]
    assert reply.stats.reply_tokens == stream.sent
    assert reply.stats.prompt_tokens == stream.prompt_eval_count
    assert reply.stats.tokens_per_second == pytest.approx(25.0)
    assert reply.stats.total_duration_ns and reply.stats.total_duration_ns > 0
    s.store.close()

    again, _ = _open(tmp_path, server)
    try:
        again.open_chat(chat_id)
        stored = again.display_messages()[-1]
        assert stored.stats == reply.stats and stored.model == reply.model
    finally:
        again.store.close()


@pytest.mark.asyncio
async def test_a_branch_before_compaction_and_a_restore_keep_the_chats_settings(
        tmp_path, server) -> None:
    s, _ = _open(tmp_path, server, context_size=2048, preserve_recent_tokens=200)
    try:
        s.new_chat()
        s.chat_settings.apply(OWN, 2048)
        info = s.take_snapshot("manual")
        for n in range(8):
            await send(s, f"Turn {n}: {LONG}")
            if s.engine is not None and s.engine.compaction_count:
                break
        branch = s.snapshots.branch_before_compaction()
        assert isinstance(branch, ChatRecord)
        assert branch.settings == OWN
        assert info is not None
        s.chat_settings.apply(ChatSettings(system_prompt="Changed after the snapshot."), 2048)
        s.snapshots.restore(info.id)
        assert s.engine is not None
        assert s.engine.system_prompt == "Changed after the snapshot."  # the chat's, now
    finally:
        s.store.close()
