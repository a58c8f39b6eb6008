"""Snapshots (retention, immutability, restore) and search."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from ollm_desktop.engine import ContextEngine, EngineConfig, EngineState, Message
from ollm_desktop.paths import AppPaths, app_paths
from ollm_desktop.storage import ChatStore, schema
from tests.engine_fakes import GoodSummarizer, chat, compact, exchange


def _engine_chat(store: ChatStore, turns: int) -> tuple[str, ContextEngine]:
    record = store.create_chat("c", context_size=4096)
    engine, _ = chat(EngineConfig(context_size=4096, min_messages=2), turns=0)
    for turn in range(turns):
        exchange(engine, turn)
        for message in engine.display_messages()[-2:]:
            store.append_message(record.id, message)
        if engine.needs_compaction():
            compact(engine)
    store.save_engine_state(record.id, engine.state())
    return record.id, engine


# ------------------------------------------------------------------------------ snapshots
def test_snapshot_info_and_full_state(store: ChatStore) -> None:
    chat_id, engine = _engine_chat(store, 30)
    state = engine.state()
    info = store.create_snapshot(chat_id, state, reason="manual", label="before refactor",
                                 model="llama3", tier=2)
    assert not info.auto and info.label == "before refactor"
    assert info.message_count == len(state.messages) == 60
    assert info.checkpoint_count == len(state.groups) > 0
    assert info.tokens == sum(m.tokens for m in state.messages)
    assert (info.model, info.tier) == ("llama3", 2)
    snapshot = store.get_snapshot(info.id)
    assert snapshot.info == info
    assert snapshot.state == state


def test_listing_newest_first_and_retention_keeps_manual(store: ChatStore) -> None:
    record = store.create_chat("c")
    other = store.create_chat("other")
    manual = store.create_snapshot(record.id, EngineState(), reason="manual", keep_auto=3)
    autos = [
        store.create_snapshot(record.id, EngineState(system_prompt=str(i)),
                              reason="before-compaction", keep_auto=3)
        for i in range(6)
    ]
    foreign = store.create_snapshot(other.id, EngineState(), reason="auto-threshold",
                                    keep_auto=3)
    listed = store.list_snapshots(record.id)
    assert [s.id for s in listed] == [a.id for a in reversed(autos[-3:])] + [manual.id]
    with pytest.raises(KeyError):
        store.get_snapshot(autos[0].id)
    assert [s.id for s in store.list_snapshots(other.id)] == [foreign.id]


def test_snapshots_are_immutable(store: ChatStore) -> None:
    record = store.create_chat("c")
    state = EngineState(messages=[Message(role="user", content="original")])
    info = store.create_snapshot(record.id, state, reason="manual")
    state.messages[0].content = "changed after the snapshot"
    got = store.get_snapshot(info.id)
    got.state.messages[0].content = "changed on the copy"
    assert store.get_snapshot(info.id).state.messages[0].content == "original"
    with pytest.raises(sqlite3.Error):
        store._conn.execute("UPDATE snapshots SET label = 'x' WHERE id = ?", (info.id,))


def test_delete_snapshot(store: ChatStore) -> None:
    record = store.create_chat("c")
    info = store.create_snapshot(record.id, EngineState(), reason="manual")
    store.delete_snapshot(info.id)
    assert store.list_snapshots(record.id) == []
    with pytest.raises(KeyError):
        store.get_snapshot(info.id)


def test_unknown_reason_is_refused(store: ChatStore) -> None:
    record = store.create_chat("c")
    with pytest.raises(ValueError):
        store.create_snapshot(record.id, EngineState(), reason="whenever")


def test_restore_with_replace_chat_state(store: ChatStore, paths: AppPaths) -> None:
    chat_id, engine = _engine_chat(store, 12)
    early = store.create_snapshot(chat_id, engine.state(), reason="manual")
    for turn in range(12, 30):
        exchange(engine, turn)
        for message in engine.display_messages()[-2:]:
            store.append_message(chat_id, message)
        if engine.needs_compaction():
            compact(engine)
    store.save_engine_state(chat_id, engine.state())
    # What the controller does: snapshot the present, load the old state, replace.
    present = store.create_snapshot(chat_id, engine.state(), reason="before-restore")
    engine.load_state(store.get_snapshot(early.id).state)
    store.replace_chat_state(chat_id, engine.state())
    store.close()
    store, _ = ChatStore.open(paths)
    restored = store.load_engine_state(chat_id)
    assert restored is not None and len(restored.messages) == 24
    rebuilt = ContextEngine.from_state(restored, engine.config, GoodSummarizer())
    assert rebuilt.api_messages() == engine.api_messages()
    assert store.get_chat(chat_id).message_count == 24  # type: ignore[union-attr]
    # Nothing was lost: the newer messages are in the before-restore snapshot.
    assert store.get_snapshot(present.id).info.message_count == 60
    # And restoring that one brings them back.
    store.replace_chat_state(chat_id, store.get_snapshot(present.id).state)
    assert len(store.load_engine_state(chat_id).messages) == 60  # type: ignore[union-attr]
    store.close()


# --------------------------------------------------------------------------------- search
@pytest.fixture(params=["fts5-trigram", "like"])
def search_store(request, tmp_path: Path, monkeypatch) -> Iterator[ChatStore]:
    if request.param == "like":
        monkeypatch.setattr(schema, "fts_available", lambda: False)
    elif not schema.fts_available():
        pytest.skip("this SQLite has no FTS5 trigram tokenizer")
    opened, _ = ChatStore.open(app_paths(tmp_path / "data"))
    assert opened.search_kind == request.param
    yield opened
    opened.close()


def test_search_is_case_insensitive_across_chats(search_store: ChatStore) -> None:
    store = search_store
    cologne = store.create_chat("Trip")
    other = store.create_chat("Shop")
    hit = Message(role="user", content="Viele Grüße aus KÖLN, " + "filler " * 40 + "end")
    store.append_message(cologne.id, hit)
    sale = Message(role="assistant", content="50% off_sale today")
    store.append_message(other.id, sale)
    store.append_message(other.id, Message(role="user", content="5000 items, sale soon"))
    found = store.search("grüsse aus köln")  # casefold: ß == ss
    assert [h.message_id for h in found] == [hit.id]
    assert found[0].chat_title == "Trip" and found[0].role == "user"
    assert "KÖLN" in found[0].snippet and found[0].snippet.endswith("…")
    assert [h.message_id for h in store.search("50%")] == [sale.id]  # % is literal
    assert [h.message_id for h in store.search("_s")] == [sale.id]  # _ is literal
    assert store.search("   ") == []
    assert store.search("not there at all") == []


def test_search_follows_updates_and_deletes(search_store: ChatStore) -> None:
    store = search_store
    record = store.create_chat("c")
    reply = Message(role="assistant", content="draft words", partial=True)
    store.append_message(record.id, reply)
    reply.content = "final answer"
    store.update_message(record.id, reply)
    assert store.search("draft") == []
    assert [h.message_id for h in store.search("final answer")] == [reply.id]
    store.delete_message(reply.id)
    assert store.search("final") == []


def test_search_is_limited(search_store: ChatStore) -> None:
    store = search_store
    record = store.create_chat("c")
    for i in range(230):
        store.append_message(record.id, Message(role="user", content=f"needle {i}"))
    hits = store.search("needle")
    assert len(hits) == 200
    assert hits[0].snippet == "needle 229"  # newest first
