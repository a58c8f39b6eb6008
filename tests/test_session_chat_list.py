"""The chat list's session service (issue 15): delete with undo (trash, restore, purge, the
start-up purge) and family pins, with plain asyncio against the loopback fake Ollama."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ollm_desktop.engine import Message
from ollm_desktop.paths import app_paths
from ollm_desktop.session import ChatSession, SessionEvent
from ollm_desktop.storage import ChatStore
from tests.controller_harness import make_settings, scripted_model


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model()
    return ollama_server


@pytest.fixture
def session(tmp_path, server) -> Iterator[ChatSession]:
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    s = ChatSession(store, make_settings(server))
    events: list[SessionEvent] = []
    s.publish = events.append
    yield s
    store.close()


def _chat(s: ChatSession, title: str, text: str) -> str:
    chat = s.store.create_chat(title)
    s.store.append_message(chat.id, Message(role="user", content=text))
    return chat.id


@pytest.mark.asyncio
async def test_deleting_the_open_chat_opens_the_next_and_undo_brings_it_back(session) -> None:
    s = session
    first, second, third = (_chat(s, f"c{i}", f"text {i}") for i in range(3))
    assert s.open_chat(second).opened is not None
    change = s.delete_chat(second)
    assert change.chats and change.opened is not None and change.opened.id == third  # newest
    assert second not in [c.id for c in s.list_chats()]
    assert s.chat is not None and s.chat.id == third
    # A chosen neighbour wins over the newest.
    s.chat_list.trash(third, next_id=first)
    assert s.chat is not None and s.chat.id == first
    assert s.chat_list.restore(second).chats
    assert s.chat_list.restore(third).chats
    assert {c.id for c in s.list_chats()} == {first, second, third}
    assert [m.content for m in s.store.messages(second)] == ["text 1"]
    s.chat_list.purge(second)  # the offer ran out after the undo: nothing happens
    assert s.store.get_chat(second) is not None
    await s.drain()


@pytest.mark.asyncio
async def test_the_last_chat_deleted_leaves_no_chat_open(session) -> None:
    s = session
    only = _chat(s, "only", "hello")
    s.open_chat(only)
    change = s.delete_chat(only)
    assert change.history and s.chat is None and s.engine is None
    assert s.settings.last_chat_id is None
    s.chat_list.purge(only)
    assert s.store.get_chat(only) is None and s.store.messages(only) == []
    await s.drain()


@pytest.mark.asyncio
async def test_chats_left_in_the_trash_are_purged_when_a_session_starts(tmp_path: Path,
                                                                  server) -> None:
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    try:
        s = ChatSession(store, make_settings(server))
        kept, gone = _chat(s, "kept", "a"), _chat(s, "gone", "b")
        s.delete_chat(gone)
        assert store.get_chat(gone) is not None  # in the trash while Undo is offered
        ChatSession(store, make_settings(server))  # the next start
        assert store.get_chat(gone) is None and store.get_chat(kept) is not None
    finally:
        store.close()


@pytest.mark.asyncio
async def test_pinning_a_branch_family_and_unpinning_it_whole(session) -> None:
    s = session
    root = _chat(s, "root", "a")
    branch = _chat(s, "root", "b")
    s.store.set_family(branch, parent_id=root, root_id=root, kind="branch", label="Edited: b")
    assert s.chat_list.pin(branch, True).chats
    assert s.chat_list.pin(root, True).chats
    s.chat_list.pin(branch, False)
    assert not any(c.pinned for c in s.list_chats())
    assert s.chat_list.relabel(branch, "  ").problems
    assert s.chat_list.relabel(branch, "Second try").chats
    assert s.store.get_chat(branch).branch_label == "Second try"  # type: ignore[union-attr]
