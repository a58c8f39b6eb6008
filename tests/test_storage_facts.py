"""The facts ledger in storage (issue 22): its own part of a chat's state (``chat_state.facts``,
schema step 5), written only when a fact changed; an older database upgraded with its
reference ledger converted; facts through a salvage, an export and import, and a snapshot."""

from __future__ import annotations

import json
import sqlite3

from ollm_desktop.engine import ContextEngine, EngineConfig, EngineState, Message
from ollm_desktop.engine.conversation import LEGACY_MESSAGE
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.models import CompressedGroup, LedgerEntry, UndoEntry
from ollm_desktop.paths import AppPaths
from ollm_desktop.storage import LATEST_VERSION, ChatStore, schema
from ollm_desktop.storage.export import export_json, import_json
from tests.engine_fakes import GoodSummarizer, chat, compact, words
from tests.test_storage_salvage import PAGE, _overwrite, _reopen

SAID = ["The gateway listens on port 7443.", "Set LOG_LEVEL=debug for the worker.",
        "Correction: the gateway moved to port 9443.", "The budget is 180 ms per request."]


def facts_chat(turns: int = 24) -> ContextEngine:
    """A compacted chat whose ledger holds the user's facts, a replaced port and the
    assistant's identifiers; the user added one fact, edited one and forgot one."""
    engine, _ = chat(EngineConfig(context_size=4096, min_messages=2))
    for turn in range(turns):
        user = SAID[turn] if turn < len(SAID) else "What next?"
        engine.add("user", f"{user} {words(40, turn)}")
        engine.add("assistant", f"Noted. I will call `load_config()` from "
                                f"src/app/config_{turn}.py. {words(120, turn)} "
                                f"That is all for now, wombat{turn}wombat.")
        if engine.needs_compaction():
            compact(engine)
    engine.add_fact("The staging host is stage-2.lan", pinned=True)
    by_value = {f.value: f for f in engine.facts}
    engine.edit_fact(by_value["9443"].id, "9444")
    engine.forget_fact(by_value["load_config()"].id)
    return engine


def _row(store: ChatStore, chat_id: str) -> tuple[str, str]:
    return store._conn.execute("SELECT meta, facts FROM chat_state WHERE chat_id = ?",
                               (chat_id,)).fetchone()


def _rebuilt(state: EngineState | None) -> ContextEngine:
    assert state is not None
    return ContextEngine.from_state(state, None, GoodSummarizer())


def _store_chat(store: ChatStore, engine: ContextEngine) -> str:
    record = store.create_chat("facts", context_size=4096)
    store.replace_chat_state(record.id, engine.state())
    return record.id


def test_the_facts_are_a_part_of_their_own_and_survive_a_reopen(store: ChatStore,
                                                                 paths: AppPaths) -> None:
    engine = facts_chat()
    statuses = {f.status for f in engine.facts}
    assert {"current", "replaced", "forgotten"} <= statuses and engine.groups
    chat_id = _store_chat(store, engine)
    meta, facts = _row(store, chat_id)
    assert "facts" not in json.loads(meta)  # not twice: the meta part stays small
    assert [f["id"] for f in json.loads(facts)] == [f.id for f in engine.facts]
    store.close()
    store, _ = ChatStore.open(paths)
    rebuilt = _rebuilt(store.load_engine_state(chat_id))
    assert rebuilt.facts == engine.facts
    assert rebuilt.facts_view() == engine.facts_view()
    assert rebuilt.api_messages() == engine.api_messages()
    assert "stage-2.lan" in rebuilt.api_messages()[0]["content"]
    store.close()


def test_a_fact_change_writes_the_facts_part_only(store: ChatStore) -> None:
    engine = facts_chat()
    chat_id = _store_chat(store, engine)
    store.save_engine_state(chat_id, engine.state())
    written: list[str] = []
    store._conn.set_trace_callback(written.append)
    store.save_engine_state(chat_id, engine.state())
    assert not [s for s in written if "chat_state" in s]  # nothing changed: nothing written
    engine.set_fact_pinned(engine.facts[0].id, True)
    store.save_engine_state(chat_id, engine.state())
    updates = [s for s in written if "UPDATE chat_state" in s]
    assert len(updates) == 1 and "facts = " in updates[0]
    assert not any(f"{column} = " in updates[0] for column in ("meta", "groups", "undo"))
    store._conn.set_trace_callback(None)
    assert json.loads(_row(store, chat_id)[1])[0]["pinned"] is True


# ----------------------------------------------------------------------------- migrations
LEDGER = [LedgerEntry(text="7443", kind="port", label="Gateway port", source="user"),
          LedgerEntry(text="src/app/config.py", kind="path", label="", source="summary")]


def _old_database(paths: AppPaths, version: int) -> list[Message]:
    """A chat saved by a build at ``version``: its reference ledger in ``meta``."""
    paths.data_dir.mkdir(parents=True)
    conn = sqlite3.connect(paths.database, isolation_level=None)
    assert schema.migrate(conn, target=version) == version
    stamp = "2025-01-01T00:00:00.000000+00:00"
    conn.execute("INSERT INTO chats (id, title, model, context_size, created_at, updated_at, "
                 "message_count) VALUES ('c1', 'Old chat', NULL, 4096, ?, ?, 2)",
                 (stamp, stamp))
    messages = [Message(role="user", content="The gateway listens on port 7443."),
                Message(role="assistant", content="See src/app/config.py.")]
    for seq, message in enumerate(messages):
        conn.execute("INSERT INTO messages (id, chat_id, seq, role, content, created_at) "
                     "VALUES (?, 'c1', ?, ?, ?, ?)",
                     (message.id, seq, message.role, message.content, stamp))
    group = CompressedGroup(summary="The gateway's port was chosen.", original_tokens=40,
                            current_tokens=8, message_ids=[m.id for m in messages],
                            span_ids=[m.id for m in messages])
    meta = EngineState(system_prompt="Be terse.", ledger=LEDGER).model_dump_json(
        exclude={"messages", "groups", "dropped_ids", "undo_stack", "facts"})
    conn.execute("INSERT INTO chat_state (chat_id, meta, groups, undo, updated_at) "
                 "VALUES ('c1', ?, ?, '[]', ?)",
                 (meta, json.dumps({"groups": [group.model_dump(mode="json")],
                                    "dropped_ids": []}), stamp))
    conn.close()
    return messages


def _upgraded_and_converted(paths: AppPaths) -> None:
    store, notices = ChatStore.open(paths)
    assert notices == []
    assert store._conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
    state = store.load_engine_state("c1")
    assert state is not None and state.facts == [] and state.ledger == LEDGER
    engine = _rebuilt(state)
    facts = engine.facts
    assert [(f.value, f.source, f.message_id) for f in facts] == [
        ("7443", "user", LEGACY_MESSAGE), ("src/app/config.py", "assistant", LEGACY_MESSAGE)]
    assert facts[0].subject == "gateway port" and facts[0].kind == "identifier"
    store.save_engine_state("c1", engine.state())  # the first save after the conversion
    store.close()
    store, _ = ChatStore.open(paths)
    meta, stored = _row(store, "c1")
    assert "ledger" not in json.loads(meta) or json.loads(meta)["ledger"] == []
    assert [f["value"] for f in json.loads(stored)] == ["7443", "src/app/config.py"]
    again = _rebuilt(store.load_engine_state("c1"))
    assert again.facts == facts  # the same ids: converted once, then stored
    store.close()


def test_a_version_4_database_is_upgraded_with_its_ledger_as_facts(paths: AppPaths) -> None:
    _old_database(paths, 4)
    _upgraded_and_converted(paths)


def test_a_version_5_state_with_the_ledger_in_meta_is_converted(paths: AppPaths) -> None:
    _old_database(paths, 5)
    _upgraded_and_converted(paths)


def test_facts_written_inside_meta_by_an_interim_build_are_read(store: ChatStore) -> None:
    record = store.create_chat("interim")
    fact = Fact(kind="note", value="The staging host is stage-2.lan", source="manual")
    meta = EngineState(facts=[fact]).model_dump_json(
        exclude={"messages", "groups", "dropped_ids", "undo_stack"})
    store._conn.execute("UPDATE chat_state SET meta = ? WHERE chat_id = ?", (meta, record.id))
    store._conn.execute("INSERT OR IGNORE INTO chat_state (chat_id, meta, groups, undo, "
                        "updated_at) VALUES (?, ?, '{\"groups\": [], \"dropped_ids\": []}', "
                        "'[]', '2025-01-01')", (record.id, meta))
    state = store.load_engine_state(record.id)
    assert state is not None and state.facts == [fact]


# ------------------------------------------------------------- salvage, export, snapshot
def test_a_salvage_keeps_the_facts_even_when_the_checkpoints_go(paths: AppPaths) -> None:
    store, _ = ChatStore.open(paths)
    engine = facts_chat()
    chat_id = _store_chat(store, engine)
    summarised = next(i for i in engine.groups[0].message_ids  # the second reply
                      if "wombat1wombat" in engine.message(i).content)  # type: ignore[union-attr]
    store.close()
    data = paths.database.read_bytes()  # every page with its text: its row, the indexes
    for at in (i for i in range(0, len(data), PAGE) if b"wombat1wombat" in data[i:i + PAGE]):
        _overwrite(paths.database, at)
    store, notice = _reopen(paths)
    state = store.load_engine_state(chat_id)
    assert state is not None and notice.salvage is not None
    assert summarised not in {m.id for m in state.messages}  # the damage took it
    assert state.groups == [] and notice.salvage.states_reset == 1
    assert state.facts == engine.facts
    store.close()


def test_export_and_import_carry_the_facts_with_their_messages(store: ChatStore) -> None:
    engine = facts_chat()
    state = engine.state()
    assert any(u.facts for u in state.undo_stack)
    chat_id = _store_chat(store, engine)
    record = store.get_chat(chat_id)
    assert record is not None
    imported = import_json(export_json(record, state, engine.api_messages())).state
    new_ids = {old.id: new.id for old, new in zip(state.messages, imported.messages,
                                                  strict=True)}
    assert all(old != new for old, new in new_ids.items())

    def moved(before: list[Fact], after: list[Fact]) -> None:
        assert [f.id for f in after] == [f.id for f in before]
        for old, new in zip(before, after, strict=True):
            assert new.message_id == new_ids.get(old.message_id or "", old.message_id)
            assert new.replaced_by == old.replaced_by  # fact ids stay: the chains hold
            assert new.model_dump(exclude={"message_id"}) == old.model_dump(
                exclude={"message_id"})

    moved(state.facts, imported.facts)
    for before, after in zip(state.undo_stack, imported.undo_stack, strict=True):
        moved(before.facts, after.facts)
    rebuilt = _rebuilt(imported)
    view, original = rebuilt.facts_view(), engine.facts_view()
    assert (view.shown, view.left_out, view.recent) == (
        original.shown, original.left_out, original.recent)
    assert rebuilt.api_messages() == engine.api_messages()
    copy = store.create_chat("imported", context_size=4096)
    store.replace_chat_state(copy.id, imported)  # next to the original: ids do not clash
    assert _rebuilt(store.load_engine_state(copy.id)).facts == imported.facts


def test_a_snapshot_keeps_the_facts(store: ChatStore) -> None:
    engine = facts_chat()
    chat_id = _store_chat(store, engine)
    info = store.create_snapshot(chat_id, engine.state(), reason="manual")
    forgotten = engine.forget_fact(engine.facts[0].id)
    store.save_engine_state(chat_id, engine.state())
    snapshot = store.get_snapshot(info.id).state
    assert snapshot.facts != engine.facts and forgotten.status == "forgotten"
    store.replace_chat_state(chat_id, snapshot)
    restored = _rebuilt(store.load_engine_state(chat_id))
    assert restored.facts == snapshot.facts and restored.facts[0].status != "forgotten"
    assert isinstance(snapshot.undo_stack[0], UndoEntry)
