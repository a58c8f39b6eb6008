"""Per-chat settings and reply statistics in the database (schema step 3, issue 15).

A chat's settings live in ``chats.settings`` (JSON of ``ChatSettings``, validated on read), a
reply's figures in ``messages.meta``; both survive a restart, the salvage of a damaged file
(v3, and a v2 file made before the columns existed), snapshots, branches and export/import.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from ollm_desktop.engine import EngineState, Message
from ollm_desktop.engine.models import ReplyStats
from ollm_desktop.paths import AppPaths
from ollm_desktop.storage import LATEST_VERSION, ChatStore, schema
from ollm_desktop.storage.export import export_json, export_markdown, import_json
from ollm_desktop.storage.models import ChatSettings

STATS = ReplyStats(prompt_tokens=812, reply_tokens=64, prompt_duration_ns=3_248_000_000,
                   reply_duration_ns=2_560_000_000, total_duration_ns=5_830_000_000,
                   load_duration_ns=20_000_000)
OWN = ChatSettings(system_prompt="Answer in French.", temperature=0.2, top_p=0.9, seed=42,
                   num_predict=256, keep_alive="30m")
STAMP = "2025-01-01T00:00:00.000000+00:00"


def _reply(content: str = "Bonjour.") -> Message:
    return Message(role="assistant", content=content, model="llama3.2:3b", stats=STATS)


def _overwrite(path: Path, offset: int, size: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset:offset + size] = random.Random(offset).randbytes(size)
    path.write_bytes(bytes(data))


def test_settings_and_reply_stats_survive_a_restart(paths: AppPaths) -> None:
    store, _ = ChatStore.open(paths)
    chat = store.create_chat("c", settings=OWN)
    assert chat.settings == OWN
    store.append_message(chat.id, Message(role="user", content="Hi"))
    reply = _reply()
    store.append_message(chat.id, reply.model_copy(update={"stats": None, "partial": True}))
    store.update_message(chat.id, reply)  # the stream's last save brings the figures
    plain = store.create_chat("plain")
    store.set_chat_settings(plain.id, ChatSettings(temperature=1.1))
    store.close()

    store, notices = ChatStore.open(paths)
    assert notices == []
    assert store.get_chat(chat.id).settings == OWN
    assert store.get_chat(plain.id).settings == ChatSettings(temperature=1.1)
    state = store.load_engine_state(chat.id)
    assert state is not None
    assert [m.stats for m in state.messages] == [None, STATS]
    assert state.messages[1].stats.tokens_per_second == pytest.approx(25.0)
    store.close()


def test_unset_settings_are_stored_as_nothing_and_blank_means_default(paths: AppPaths) -> None:
    assert ChatSettings(system_prompt="  \n", keep_alive="") == ChatSettings()
    store, _ = ChatStore.open(paths)
    chat = store.create_chat("c")
    store.close()
    conn = sqlite3.connect(paths.database)
    assert conn.execute("SELECT settings FROM chats WHERE id = ?",
                        (chat.id,)).fetchone()[0] == "{}"
    conn.close()


def test_damaged_settings_or_stats_fall_back_to_defaults_and_keep_the_chat(
        paths: AppPaths) -> None:
    store, _ = ChatStore.open(paths)
    chat = store.create_chat("c", settings=OWN)
    store.append_message(chat.id, _reply())
    store.close()
    conn = sqlite3.connect(paths.database)
    conn.execute("UPDATE chats SET settings = '{\"temperature\": 99}'")
    conn.execute("UPDATE messages SET meta = 'not json'")
    conn.commit()
    conn.close()
    store, notices = ChatStore.open(paths)
    assert notices == []
    record = store.get_chat(chat.id)
    assert record is not None and record.settings == ChatSettings()
    state = store.load_engine_state(chat.id)
    assert state is not None and state.messages[0].content == "Bonjour."
    assert state.messages[0].stats is None
    store.close()


def test_a_v2_database_upgrades_and_its_chats_keep_sending_their_prompt(
        paths: AppPaths) -> None:
    """Before step 3 a chat kept the Preferences' prompt it was created with (in its engine
    state): it becomes the chat's own, so the upgrade changes nothing it sends."""
    paths.data_dir.mkdir(parents=True)
    conn = sqlite3.connect(paths.database, isolation_level=None)
    assert schema.migrate(conn, target=2) == 2
    for chat_id, prompt in (("c1", "Be terse."), ("c2", ""), ("c3", None)):
        conn.execute("INSERT INTO chats (id, title, model, context_size, created_at, "
                     "updated_at, message_count) VALUES (?, ?, NULL, 8192, ?, ?, 1)",
                     (chat_id, chat_id, STAMP, STAMP))
        conn.execute("INSERT INTO messages (id, chat_id, seq, role, content, created_at) "
                     "VALUES (?, ?, 0, 'user', 'old words', ?)", (f"m-{chat_id}", chat_id,
                                                                  STAMP))
        if prompt is not None:
            meta = EngineState(system_prompt=prompt).model_dump_json(
                exclude={"messages", "groups", "dropped_ids", "undo_stack"})
            conn.execute("INSERT INTO chat_state (chat_id, meta, groups, undo, updated_at) "
                         "VALUES (?, ?, ?, '[]', ?)", (chat_id, meta,
                                                       json.dumps({"groups": [],
                                                                   "dropped_ids": []}), STAMP))
    conn.close()

    store, notices = ChatStore.open(paths)
    assert notices == []
    assert LATEST_VERSION >= 3
    assert store.get_chat("c1").settings == ChatSettings(system_prompt="Be terse.")
    assert store.get_chat("c2").settings == ChatSettings()  # no prompt: follows the default
    assert store.get_chat("c3").settings == ChatSettings()
    state = store.load_engine_state("c1")
    assert state is not None and state.messages[0].stats is None
    assert state.system_prompt == "Be terse."
    assert [m.content for m in store.load_engine_state("c3").messages] == ["old words"]
    store.close()


def _build(paths: AppPaths, chats: int = 6) -> dict[str, str]:
    """Chats with own settings and replies with figures; chat id -> title."""
    store, _ = ChatStore.open(paths)
    made = {}
    for n in range(chats):
        chat = store.create_chat(f"chat {n}", settings=OWN.model_copy(update={"seed": n}))
        state = EngineState(system_prompt=f"prompt {n}", messages=[
            Message(role="user", content=f"question {n} " + "lorem " * 60),
            _reply(f"answer {n} " + "ipsum " * 60)])
        store.replace_chat_state(chat.id, state)
        made[chat.id] = chat.title
    store.close()
    return made


def test_salvage_keeps_settings_and_stats_when_the_schema_page_is_lost(
        paths: AppPaths) -> None:
    made = _build(paths)
    _overwrite(paths.database, 100, 4096 - 100)  # sqlite_master: tables found at known pages
    store, notices = ChatStore.open(paths)
    assert len(notices) == 1 and notices[0].salvage is not None
    recovered = {c.id: c for c in store.list_chats()}
    assert set(recovered) == set(made)
    for chat_id, title in made.items():
        assert recovered[chat_id].settings == OWN.model_copy(
            update={"seed": int(title.split()[-1])})
        state = store.load_engine_state(chat_id)
        assert state is not None and [m.stats for m in state.messages] == [None, STATS]
    store.close()


def test_salvage_of_a_damaged_v2_file_reads_it_without_the_new_columns(
        paths: AppPaths) -> None:
    """A file from before step 3 has no settings or meta columns: the salvage must still copy
    its rows (reading those columns as their defaults), not lose every chat."""
    paths.data_dir.mkdir(parents=True)
    conn = sqlite3.connect(paths.database, isolation_level=None)
    schema.migrate(conn, target=2)
    conn.execute("PRAGMA journal_mode = DELETE")
    for n in range(10):
        conn.execute("INSERT INTO chats (id, title, model, context_size, created_at, "
                     "updated_at, message_count) VALUES (?, ?, NULL, 4096, ?, ?, 30)",
                     (f"c{n}", f"old chat {n}", STAMP, STAMP))
        for i in range(30):
            conn.execute("INSERT INTO messages (id, chat_id, seq, role, content, created_at) "
                         "VALUES (?, ?, ?, 'user', ?, ?)",
                         (f"m{n}-{i}", f"c{n}", i, f"MARK-{n}-{i}-END " + "lorem " * 40,
                          STAMP))
    conn.close()
    data = paths.database.read_bytes()
    _overwrite(paths.database, data.find(b"MARK-5-15-END") // 4096 * 4096, 4096)

    store, notices = ChatStore.open(paths)
    assert len(notices) == 1 and notices[0].salvage is not None
    report = notices[0].salvage
    assert report.chats == 10 and 0 < report.messages < 300
    chats = store.list_chats()
    assert all(c.settings == ChatSettings() for c in chats)
    state = store.load_engine_state("c0")
    assert state is not None and state.messages and state.messages[0].stats is None
    store.close()


def test_salvage_of_a_v2_file_without_its_schema_page(paths: AppPaths) -> None:
    """The stand-in schema page has the new columns; a v2 file's shorter rows read them as
    their defaults."""
    paths.data_dir.mkdir(parents=True)
    conn = sqlite3.connect(paths.database, isolation_level=None)
    schema.migrate(conn, target=2)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("INSERT INTO chats (id, title, model, context_size, created_at, updated_at, "
                 "message_count) VALUES ('c1', 'kept', NULL, 4096, ?, ?, 1)", (STAMP, STAMP))
    conn.execute("INSERT INTO messages (id, chat_id, seq, role, content, created_at) "
                 "VALUES ('m1', 'c1', 0, 'user', 'still here', ?)", (STAMP,))
    conn.close()
    _overwrite(paths.database, 100, 4096 - 100)
    store, notices = ChatStore.open(paths)
    assert notices and notices[0].salvage is not None
    [chat] = store.list_chats()
    assert chat.title == "kept" and chat.settings == ChatSettings()
    state = store.load_engine_state("c1")
    assert state is not None and [m.content for m in state.messages] == ["still here"]
    store.close()


def test_export_import_keeps_the_chats_settings_and_reply_stats(paths: AppPaths) -> None:
    store, _ = ChatStore.open(paths)
    chat = store.create_chat("Trip", model="llama3.2:3b", context_size=4096, settings=OWN)
    state = EngineState(messages=[Message(role="user", content="Hi"), _reply()])
    document = export_json(chat, state, [])
    found = import_json(document)
    assert found.settings == OWN and found.context_size == 4096
    assert found.state.messages[1].stats == STATS
    imported = store.create_chat(found.title, model=found.model,
                                 context_size=found.context_size, settings=found.settings)
    store.replace_chat_state(imported.id, found.state)
    assert store.get_chat(imported.id).settings == OWN
    loaded = store.load_engine_state(imported.id)
    assert loaded is not None and loaded.messages[1].stats == STATS
    # An export made before per-chat settings imports with the defaults.
    data = json.loads(document)
    del data["chat"]["settings"]
    assert import_json(json.dumps(data)).settings == ChatSettings()
    data["chat"]["settings"] = {"temperature": "hot"}
    with pytest.raises(ValueError, match="settings"):
        import_json(json.dumps(data))
    assert "temperature 0.2" in export_markdown(chat, state, [])
    store.close()
