"""Attached documents in the store: content stored and indexed once, removal with Undo, a file
that vanishes or changes after attaching, export and import, the word index."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from ollm_desktop.engine.models import EngineState
from ollm_desktop.paths import app_paths
from ollm_desktop.storage import LATEST_VERSION, ChatStore, schema
from ollm_desktop.storage.documents.library import disk_state
from ollm_desktop.storage.documents.passage_index import PassageIndex
from ollm_desktop.storage.documents.preparing import prepare
from ollm_desktop.storage.export import export_json, import_json

GUIDE = """# Client guide

## Retries

A failed request is retried at most 5 times, with exponential backoff starting at 200 ms.

## Timeouts

The connect timeout is 3 seconds and the read timeout is 30 seconds.
"""


def _attach(store: ChatStore, chat_id: str, path: Path) -> str:
    data = path.read_bytes()
    prepared = prepare(data, path.name)
    if not store.has_document(prepared.document_id):
        store.put_document(prepared)
    stat = path.stat()
    return store.attach_document(chat_id, prepared.document_id, path.name, path=str(path),
                                 mtime=stat.st_mtime).document_id


def _count(store: ChatStore, table: str) -> int:
    return int(store._conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def test_the_same_file_twice_or_in_two_chats_is_stored_and_indexed_once(
        store: ChatStore, tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text(GUIDE)
    first, second = store.create_chat("a"), store.create_chat("b")
    key = _attach(store, first.id, path)
    passages = _count(store, "document_passages")
    assert passages == 2  # one per section with text
    copy = tmp_path / "copy of guide.md"
    copy.write_text(GUIDE)
    assert _attach(store, first.id, path) == key
    assert _attach(store, second.id, copy) == key
    assert _count(store, "document_files") == 1
    assert _count(store, "document_passages") == passages
    assert _count(store, "document_text") == passages
    assert [d.name for d in store.chat_documents(first.id)] == ["guide.md"]
    assert [d.name for d in store.chat_documents(second.id)] == ["copy of guide.md"]
    (attached,) = store.chat_documents(first.id)
    assert (attached.format, attached.passages, attached.size) == ("markdown", 2, len(GUIDE))


def test_search_finds_the_passage_and_only_in_the_chats_documents(
        store: ChatStore, tmp_path: Path) -> None:
    guide, other = tmp_path / "guide.md", tmp_path / "other.txt"
    guide.write_text(GUIDE)
    other.write_text("Retries in the other document: never retried at all.\n")
    first, second = store.create_chat("a"), store.create_chat("b")
    _attach(store, first.id, guide)
    _attach(store, second.id, other)
    found = store.passage_index(first.id).search("How many retries are made?")
    assert found and found[0].passage.section == "Client guide › Retries"
    assert "at most 5 times" in found[0].passage.text
    assert all("never retried" not in f.passage.text for f in found)
    index = store.passage_index(first.id)
    neighbour = index.neighbour(found[0].document_id, found[0].passage.ordinal + 1)
    assert neighbour is not None and "connect timeout" in neighbour.passage.text


def test_a_file_that_vanishes_after_attaching_still_serves(store: ChatStore,
                                                            tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text(GUIDE)
    chat = store.create_chat("a")
    key = _attach(store, chat.id, path)
    (attached,) = store.chat_documents(chat.id)
    assert disk_state(attached) == "same"
    path.unlink()
    assert disk_state(attached) == "missing"
    assert store.document_bytes(key) == GUIDE.encode()
    text = store.document_text(key)
    assert text is not None and any("200 ms" in b.text for b in text.blocks)
    assert store.passage_index(chat.id).search("read timeout")


def test_a_file_changed_on_disk_is_noticed(store: ChatStore, tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text(GUIDE)
    chat = store.create_chat("a")
    _attach(store, chat.id, path)
    (attached,) = store.chat_documents(chat.id)
    path.write_text(GUIDE.replace("5 times", "7 times"))
    os.utime(path, (1, 1))
    assert disk_state(attached) == "changed"
    path.write_text(GUIDE)  # back to the same bytes, another time stamp
    assert disk_state(attached) == "same"


def test_remove_with_undo_and_purge_after_it(store: ChatStore, tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text(GUIDE)
    chat = store.create_chat("a")
    key = _attach(store, chat.id, path)
    store.set_document_removed(chat.id, key, True)
    assert store.chat_documents(chat.id) == []
    assert not store.passage_index(chat.id).search("retries")
    assert [d.removed for d in store.chat_documents(chat.id, removed=True)] == [True]
    store.set_document_removed(chat.id, key, False)  # Undo
    assert [d.document_id for d in store.chat_documents(chat.id)] == [key]
    assert store.passage_index(chat.id).search("retries")
    store.set_document_removed(chat.id, key, True)
    assert store.purge_unused_documents() == 1
    assert _count(store, "document_files") == _count(store, "document_passages") == 0
    assert _count(store, "document_text") == 0


def test_purge_keeps_content_another_chat_still_has(store: ChatStore, tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text(GUIDE)
    first, second = store.create_chat("a"), store.create_chat("b")
    key = _attach(store, first.id, path)
    _attach(store, second.id, path)
    store.set_document_removed(first.id, key, True)
    assert store.purge_unused_documents() == 0
    store.delete_chat(second.id)
    assert store.purge_unused_documents() == 1


def test_export_and_import_carry_references_and_text(store: ChatStore, tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text(GUIDE)
    chat = store.create_chat("a")
    key = _attach(store, chat.id, path)
    record = store.get_chat(chat.id)
    assert record is not None
    exported = export_json(record, EngineState(), [],
                           documents=store.exported_documents(chat.id))
    found = import_json(exported)
    assert [(d.document_id, d.name) for d in found.documents] == [(key, "guide.md")]
    # Into another database: text only, searchable, cut the same way.
    other = sqlite3.connect(":memory:")
    assert not PassageIndex(other, [key]).search("retries")
    fresh_dir = tmp_path / "elsewhere"
    elsewhere, _ = ChatStore.open(app_paths(fresh_dir))
    try:
        copy = elsewhere.create_chat("imported")
        elsewhere.import_documents(copy.id, list(found.documents))
        (attached,) = elsewhere.chat_documents(copy.id)
        assert (attached.document_id, attached.has_file) == (key, False)
        assert elsewhere.document_passages(key) == store.document_passages(key)
        assert elsewhere.passage_index(copy.id).search("backoff")
    finally:
        elsewhere.close()


def test_an_export_without_documents_imports(store: ChatStore) -> None:
    chat = store.create_chat("a")
    record = store.get_chat(chat.id)
    assert record is not None
    text = export_json(record, EngineState(), []).replace(', "documents": []', "")
    assert import_json(text).documents == ()


def test_the_schema_step_makes_the_tables(store: ChatStore) -> None:
    names = {r[0] for r in store._conn.execute("SELECT name FROM sqlite_master")}
    assert {"document_files", "chat_documents", "document_passages", "document_text"} <= names
    assert store._conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
    assert schema.MIGRATIONS[-1].__name__ == "_documents_v8"
