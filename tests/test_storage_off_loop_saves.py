"""Saves worked out off the event loop (issue 29): a prepared save is written only if nothing
was written since; a reply still streaming is indexed when it ends."""

from __future__ import annotations

from pathlib import Path

from ollm_desktop.engine import ContextEngine, EngineConfig, Message
from ollm_desktop.paths import app_paths
from ollm_desktop.storage import ChatStore
from tests.engine_fakes import GoodSummarizer, exchange


def _store(tmp_path: Path) -> tuple[ChatStore, str, ContextEngine]:
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    chat = store.create_chat("saves", model="m", context_size=8192)
    engine = ContextEngine(EngineConfig(context_size=8192), GoodSummarizer())
    for turn in range(4):
        exchange(engine, turn)
    store.save_engine_state(chat.id, engine.state())
    return store, chat.id, engine


def test_a_prepared_save_is_written_when_nothing_came_between(tmp_path: Path) -> None:
    store, chat_id, engine = _store(tmp_path)
    engine.set_pinned(engine.display_messages()[0].id, True)
    prepared = store.prepare_engine_state(chat_id, engine.state())
    assert prepared is not None and store.commit_engine_state(prepared)
    assert store.load_engine_state(chat_id).messages[0].pinned
    store.close()


def test_a_prepared_save_is_refused_after_another_write(tmp_path: Path) -> None:
    store, chat_id, engine = _store(tmp_path)
    first = engine.display_messages()[0]
    engine.set_pinned(first.id, True)
    stale = store.prepare_engine_state(chat_id, engine.state())
    engine.set_pinned(first.id, False)
    store.set_pinned(first.id, False)  # the loop wrote meanwhile
    assert stale is not None and not store.commit_engine_state(stale)
    assert not store.load_engine_state(chat_id).messages[0].pinned  # the newer value stays
    store.close()


def test_a_streaming_reply_is_found_by_search_once_it_ends(tmp_path: Path) -> None:
    store, chat_id, _engine = _store(tmp_path)
    reply = Message(role="assistant", content="Working on it")
    store.append_message(chat_id, reply)
    reply.content += " ... the zebracorn parser is ready"
    store.update_message(chat_id, reply, index=False)  # a save while it streams
    assert not [h for h in store.search("zebracorn")]
    store.update_message(chat_id, reply)  # its final save
    assert [h for h in store.search("zebracorn")]
    store.close()
