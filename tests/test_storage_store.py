"""ChatStore: chats, messages, engine state round trips with the real engine, calibration."""

from __future__ import annotations

import sqlite3

import pytest

from ollm_desktop.engine import (
    CONTEXT_SIZE_MAX,
    CONTEXT_SIZE_MIN,
    ContextEngine,
    EngineConfig,
    EngineState,
    Message,
)
from ollm_desktop.engine.models import ImageRef
from ollm_desktop.paths import AppPaths
from ollm_desktop.storage import ChatStore, StorageError
from tests.engine_fakes import GoodSummarizer, chat, compact, exchange


def _reopen(store: ChatStore, paths: AppPaths) -> ChatStore:
    store.close()
    fresh, _ = ChatStore.open(paths)
    return fresh


def test_message_fields_are_all_stored() -> None:
    # A new Message field must get a column (or a key of messages.meta, like ``stats``): fail
    # loudly instead of silently dropping it.
    assert set(Message.model_fields) == {
        "id", "role", "content", "pinned", "tokens", "exact_tokens", "created_at", "partial",
        "model", "stats", "thinking", "origin", "images",
        "tool_calls", "tool_name", "tool_call_id", "tool_error",  # in messages.meta
    }


def test_tool_calls_and_results_survive_the_store(store: ChatStore, paths: AppPaths) -> None:
    from ollm_desktop.engine.tool_types import ToolCall

    chat = store.create_chat("c")
    call = ToolCall(id="call_0", name="read_file", arguments={"path": "a.py"})
    store.append_message(chat.id, Message(role="assistant", content="", tool_calls=[call]))
    store.append_message(chat.id, Message(role="tool", content="x = 1", tool_name="read_file",
                                          tool_call_id="call_0", tool_error=True))
    store = _reopen(store, paths)
    asked, answered = store.messages(chat.id)
    assert asked.tool_calls == [call]
    assert (answered.role, answered.tool_name, answered.tool_call_id, answered.tool_error) == (
        "tool", "read_file", "call_0", True)
    store.close()


def test_a_messages_origin_and_images_survive_the_store(store: ChatStore) -> None:
    chat = store.create_chat("c")
    image = ImageRef(id="ab" * 32, mime="image/png", name="plot.png", width=640, height=480,
                     tokens=258, description="A line plot")
    store.append_message(chat.id, Message(role="user", content="see", origin="m0",
                                          images=[image]))
    (back,) = store.messages(chat.id)
    assert back.origin == "m0" and back.images == [image]
    assert store.lineages([chat.id])[chat.id][0][1] == "m0"


# ---------------------------------------------------------------------------------- chats
def test_chats_are_listed_newest_activity_first_with_counts(store: ChatStore) -> None:
    first = store.create_chat("first", model="llama3", context_size=4096)
    second = store.create_chat("second")
    assert [c.id for c in store.list_chats()] == [second.id, first.id]
    store.append_message(first.id, Message(role="user", content="hello"))
    listed = store.list_chats()
    assert [c.id for c in listed] == [first.id, second.id]
    assert (listed[0].message_count, listed[1].message_count) == (1, 0)
    assert listed[0].model == "llama3" and listed[0].context_size == 4096


def test_rename_model_context_size(store: ChatStore) -> None:
    record = store.create_chat("old")
    store.rename_chat(record.id, "new")
    store.set_chat_model(record.id, "qwen3:8b")
    store.set_chat_context_size(record.id, 32768)
    got = store.get_chat(record.id)
    assert got is not None
    assert (got.title, got.model, got.context_size) == ("new", "qwen3:8b", 32768)
    assert store.get_chat("missing") is None


def test_context_size_limits_are_the_engines(store: ChatStore) -> None:
    # Written values are checked against EngineConfig's limits (one source of truth) ...
    for size in (CONTEXT_SIZE_MIN - 1, CONTEXT_SIZE_MAX + 1, 0):
        with pytest.raises(ValueError):
            store.create_chat("c", context_size=size)
    record = store.create_chat("c", context_size=CONTEXT_SIZE_MIN)
    with pytest.raises(ValueError):
        store.set_chat_context_size(record.id, CONTEXT_SIZE_MAX + 1)
    store.set_chat_context_size(record.id, CONTEXT_SIZE_MAX)
    assert [c.id for c in store.list_chats()] == [record.id]
    # ... and a row written before that (or by hand) still loads, at the nearest valid size.
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE chats SET context_size = 256 WHERE id = ?", (record.id,))
    listed = store.list_chats()
    assert [(c.id, c.context_size) for c in listed] == [(record.id, CONTEXT_SIZE_MIN)]
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE chats SET context_size = ? WHERE id = ?", (10**9, record.id))
    got = store.get_chat(record.id)
    assert got is not None and got.context_size == CONTEXT_SIZE_MAX
    assert EngineConfig(context_size=got.context_size).context_size == CONTEXT_SIZE_MAX


def test_delete_chat_cascades(store: ChatStore) -> None:
    keep = store.create_chat("keep")
    gone = store.create_chat("gone")
    kept_message = Message(role="user", content="shared words here")
    store.append_message(keep.id, kept_message)
    store.append_message(gone.id, Message(role="user", content="shared words here"))
    store.save_engine_state(gone.id, EngineState(system_prompt="x"))
    snap = store.create_snapshot(gone.id, EngineState(), reason="manual")
    store.delete_chat(gone.id)
    assert store.get_chat(gone.id) is None
    assert store.load_engine_state(gone.id) is None
    with pytest.raises(KeyError):
        store.get_snapshot(snap.id)
    assert [h.message_id for h in store.search("shared words")] == [kept_message.id]


def test_create_chat_with_system_prompt_saves_it(store: ChatStore, paths: AppPaths) -> None:
    record = store.create_chat("c", system_prompt="Be terse.")
    store.append_message(record.id, Message(role="user", content="hi"))
    store = _reopen(store, paths)
    state = store.load_engine_state(record.id)
    assert state is not None and state.system_prompt == "Be terse."
    store.close()


# ------------------------------------------------------------------------------- messages
def test_streamed_reply_append_update_finish(store: ChatStore, paths: AppPaths) -> None:
    record = store.create_chat("c")
    user = Message(role="user", content="tell me")
    store.append_message(record.id, user)
    reply = Message(role="assistant", content="Once", partial=True, model="m", tokens=1)
    store.append_message(record.id, reply)
    for more in (" upon", " a", " time"):
        reply.content += more
        store.update_message(record.id, reply)
    reply.partial, reply.tokens, reply.exact_tokens = False, 12, True
    store.update_message(record.id, reply)
    store = _reopen(store, paths)
    state = store.load_engine_state(record.id)
    assert state is not None
    assert [m.id for m in state.messages] == [user.id, reply.id]
    assert state.messages[1] == reply
    assert state.messages[0] == user
    assert store.get_chat(record.id).message_count == 2  # type: ignore[union-attr]
    store.close()


def test_delete_message_and_pin(store: ChatStore) -> None:
    record = store.create_chat("c")
    messages = [Message(role="user", content=f"m{i}") for i in range(3)]
    for message in messages:
        store.append_message(record.id, message)
    store.delete_message(messages[1].id)
    store.set_pinned(messages[2].id, True)
    state = store.load_engine_state(record.id)
    assert state is not None
    assert [m.id for m in state.messages] == [messages[0].id, messages[2].id]
    assert [m.pinned for m in state.messages] == [False, True]
    assert store.get_chat(record.id).message_count == 2  # type: ignore[union-attr]
    store.delete_message("no-such-id")  # harmless


def test_load_engine_state_none_for_empty_chat(store: ChatStore) -> None:
    assert store.load_engine_state(store.create_chat("empty").id) is None


def test_append_to_missing_chat_is_a_storage_error(store: ChatStore) -> None:
    with pytest.raises(StorageError):
        store.append_message("nope", Message(role="user", content="x"))


# --------------------------------------------------------------- engine state round trips
def _drive(store: ChatStore, chat_id: str, turns: int = 40) -> ContextEngine:
    """A chat as the controller runs it: every new message appended, state saved per turn."""
    engine, _ = chat(EngineConfig(context_size=4096, min_messages=2), system_prompt="Be terse.")
    stored: set[str] = set()

    def sync() -> None:
        for message in engine.display_messages():
            if message.id not in stored:
                store.append_message(chat_id, message)
                stored.add(message.id)

    for turn in range(turns):
        exchange(engine, turn)
        sync()
        if turn % 7 == 3:
            target = engine.display_messages()[turn]
            engine.set_pinned(target.id, True)
            store.set_pinned(target.id, True)
        if engine.needs_compaction():
            compact(engine)
        if turn == 20:
            engine.add("assistant", "[GOAL] Finish the port\n[DECISION] Rust - LOCKED")
            sync()
        store.save_engine_state(chat_id, engine.state())
    return engine


def _rebuilt(state: EngineState | None, config: EngineConfig | None = None) -> ContextEngine:
    assert state is not None
    return ContextEngine.from_state(state, config, GoodSummarizer())


def test_engine_round_trip_with_compaction_and_pins(store: ChatStore, paths: AppPaths) -> None:
    record = store.create_chat("c", context_size=4096)
    engine = _drive(store, record.id)
    assert engine.compaction_count >= 2 and any(m.pinned for m in engine.display_messages())
    config = engine.config.model_copy()
    same_process = _rebuilt(store.load_engine_state(record.id), config)
    assert same_process.api_messages() == engine.api_messages()
    store = _reopen(store, paths)
    rebuilt = _rebuilt(store.load_engine_state(record.id), config)
    assert rebuilt.api_messages() == engine.api_messages()
    assert rebuilt.usage() == engine.usage()
    assert rebuilt.goal == engine.goal and not rebuilt.goal.is_empty
    assert rebuilt.display_messages() == engine.display_messages()
    assert rebuilt.groups == engine.groups
    # The undo stack survived too: undoing gives the same context on both.
    assert rebuilt.undo_last_compaction().ok and engine.undo_last_compaction().ok
    assert rebuilt.api_messages() == engine.api_messages()
    store.close()


def test_rescaled_token_counts_and_state_only_pins_are_saved(
    store: ChatStore, paths: AppPaths
) -> None:
    record = store.create_chat("c")
    engine = _drive(store, record.id, turns=12)
    engine.set_estimate_scale(1.7)  # every estimated count changes
    victim = engine.display_messages()[1]
    engine.set_pinned(victim.id, True)  # only in the engine: save must find it
    store.save_engine_state(record.id, engine.state())
    store = _reopen(store, paths)
    rebuilt = _rebuilt(store.load_engine_state(record.id), None)
    assert [m.tokens for m in rebuilt.display_messages()] == [
        m.tokens for m in engine.display_messages()]
    assert rebuilt.message(victim.id).pinned  # type: ignore[union-attr]
    assert rebuilt.config.estimate_scale == pytest.approx(1.7)
    assert rebuilt.api_messages() == engine.api_messages()
    store.close()


def test_save_writes_only_what_changed(store: ChatStore) -> None:
    record = store.create_chat("c")
    engine = _drive(store, record.id, turns=30)
    conn = store._conn
    before = conn.total_changes
    store.save_engine_state(record.id, engine.state())
    assert conn.total_changes == before  # nothing changed: nothing written
    # A user message: pinning a reply adopts its values, which writes the facts part too.
    target = next(m for m in engine.display_messages()[4:] if m.role == "user")
    engine.set_pinned(target.id, not target.pinned)
    before = conn.total_changes
    store.save_engine_state(record.id, engine.state())
    assert 1 <= conn.total_changes - before <= 2  # that message row (+ the chat's timestamp)


def test_save_keeps_a_streaming_reply_the_state_does_not_have_yet(store: ChatStore) -> None:
    record = store.create_chat("c")
    engine, _ = chat(turns=1)
    for message in engine.display_messages():
        store.append_message(record.id, message)
    streaming = Message(role="assistant", content="partial te", partial=True)
    store.append_message(record.id, streaming)
    store.save_engine_state(record.id, engine.state())  # e.g. the goal changed meanwhile
    state = store.load_engine_state(record.id)
    assert state is not None and state.messages[-1].id == streaming.id


def test_save_appends_messages_never_appended(store: ChatStore) -> None:
    record = store.create_chat("c")
    engine, _ = chat(turns=3)
    store.save_engine_state(record.id, engine.state())
    assert _rebuilt(store.load_engine_state(record.id)).api_messages() == engine.api_messages()
    assert store.get_chat(record.id).message_count == 6  # type: ignore[union-attr]


# ------------------------------------------------------------------------------ calibration
def test_calibration(store: ChatStore, paths: AppPaths) -> None:
    assert store.get_calibration("llama3") is None
    store.set_calibration("llama3", 1.18, 3)
    store.set_calibration("llama3", 1.21, 4)
    store.set_calibration("qwen", 0.9, 1)
    store = _reopen(store, paths)
    assert store.get_calibration("llama3") == (pytest.approx(1.21), 4)
    assert store.get_calibration("qwen") == (pytest.approx(0.9), 1)
    store.close()


def test_save_persists_content_and_partial_changes(store: ChatStore, paths: AppPaths) -> None:
    record = store.create_chat("c")
    reply = Message(role="assistant", content="cut by a crash", partial=True)
    store.append_message(record.id, reply)
    state = store.load_engine_state(record.id)
    assert state is not None
    state.messages[0].content = "cut by a crash, then finished"
    state.messages[0].partial = False
    store.save_engine_state(record.id, state)
    store = _reopen(store, paths)
    saved = store.load_engine_state(record.id)
    assert saved is not None
    assert (saved.messages[0].content, saved.messages[0].partial) == (
        "cut by a crash, then finished", False)
    assert [h.message_id for h in store.search("then finished")] == [reply.id]
    store.close()
