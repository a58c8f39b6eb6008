"""The store's chat-list side: the trash (hidden from lists and search, purged for good),
family pins and branch labels (issue 15)."""

from __future__ import annotations

import sqlite3

from ollm_desktop.engine import Message
from ollm_desktop.storage import ChatStore


def _chat_with(store: ChatStore, title: str, text: str) -> str:
    chat = store.create_chat(title)
    store.append_message(chat.id, Message(role="user", content=text))
    store.create_snapshot(chat.id, store.load_engine_state(chat.id), reason="manual")  # type: ignore[arg-type]
    return chat.id


def _rows(store: ChatStore, table: str, chat_id: str) -> int:
    column = "id" if table == "chats" else "chat_id"
    conn = sqlite3.connect(store.path)
    try:
        return conn.execute(f"SELECT count(*) FROM {table} WHERE {column} = ?",
                            (chat_id,)).fetchone()[0]
    finally:
        conn.close()


def test_a_trashed_chat_is_not_found_by_search_until_restored(store: ChatStore) -> None:
    kept = _chat_with(store, "kept", "the zanzibar spice trade")
    gone = _chat_with(store, "gone", "zanzibar again")
    store.trash_chat(gone)
    assert [h.chat_id for h in store.search("zanzibar")] == [kept]
    assert [h.chat_id for h in store.search("za")] == [kept]  # the short-needle scan too
    store.restore_chat(gone)
    assert {h.chat_id for h in store.search("zanzibar")} == {kept, gone}


def test_purge_deletes_only_chats_still_in_the_trash(store: ChatStore) -> None:
    kept = _chat_with(store, "kept", "one")
    restored = _chat_with(store, "restored", "two")
    gone = _chat_with(store, "gone", "three")
    store.trash_chat(restored)
    store.restore_chat(restored)
    assert store.purge_trashed(restored) == []  # undone: never purged
    store.trash_chat(gone)
    assert store.is_trashed(gone) and not store.is_trashed(kept)
    assert store.purge_trashed(gone) == [gone]
    for table in ("chats", "messages", "snapshots"):
        assert _rows(store, table, gone) == 0
        assert _rows(store, table, kept) == 1
    assert store.get_chat(restored) is not None


def test_purge_everything_in_the_trash_at_once(store: ChatStore) -> None:
    ids = [_chat_with(store, f"c{i}", f"text {i}") for i in range(3)]
    store.trash_chat(ids[0])
    store.trash_chat(ids[2])
    assert sorted(store.purge_trashed()) == sorted([ids[0], ids[2]])
    assert [c.id for c in store.list_chats()] == [ids[1]]
    assert store.trashed_ids() == []


def test_a_family_is_unpinned_whole_and_a_branch_relabelled(store: ChatStore) -> None:
    root = store.create_chat("root")
    branch = store.create_chat("root")
    store.set_family(branch.id, parent_id=root.id, root_id=root.id, kind="branch",
                     label="Edited: hi")
    store.set_chat_pinned(root.id, True)
    store.set_chat_pinned(branch.id, True)
    store.set_branch_label(branch.id, "My idea")
    store.unpin_family(root.id)
    chats = {c.id: c for c in store.list_chats()}
    assert not chats[root.id].pinned and not chats[branch.id].pinned
    assert chats[branch.id].branch_label == "My idea"
