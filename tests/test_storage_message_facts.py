"""Each message's facts stored with it (issue 28, schema step 7): extracted once per version of
its text, read back when the chat is loaded (a restart extracts nothing again), extracted anew
after an edit."""

from __future__ import annotations

from ollm_desktop.engine import Message, facts, facts_extract
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.references import _MESSAGE_REFERENCES
from ollm_desktop.storage import LATEST_VERSION, ChatStore, schema

SAID = "Correction: the gateway moved to port 9443 (see src/gateway/main.py)."


def _forget_all() -> None:
    facts_extract._cache.clear()
    _MESSAGE_REFERENCES.clear()


def test_the_step_is_the_seventh_and_makes_its_table(store: ChatStore) -> None:
    assert schema.MIGRATIONS[6] is schema._message_facts_v7 and LATEST_VERSION >= 7
    tables = {r[0] for r in store._conn.execute("SELECT name FROM sqlite_master")}
    assert "message_facts" in tables


def test_a_loaded_chat_reads_its_stored_facts_and_an_edit_extracts_again(paths) -> None:
    store, _ = ChatStore.open(paths)
    chat = store.create_chat("facts", context_size=4096)
    message = Message(role="user", content=SAID)
    store.append_message(chat.id, message)
    store.append_message(chat.id, Message(role="assistant", content="Noted, port 9443."))
    store.close()

    _forget_all()  # a new process: nothing cached
    before = facts_extract.extraction_count()
    store, _ = ChatStore.open(paths)
    state = store.load_engine_state(chat.id)
    assert state is not None
    ledger: list[Fact] = []
    for turn, stored in enumerate(state.messages, start=1):
        facts.absorb(ledger, stored, turn)  # what a compaction does with them
    assert [f.value for f in ledger if f.status == "current"] == ["9443", "src/gateway/main.py"]
    assert facts_extract.extract("user", SAID)[0].value == "9443"
    assert facts_extract.extraction_count() == before  # read back, not extracted again

    edited = message.model_copy(update={"content": SAID.replace("9443", "9553")})
    store.update_message(chat.id, edited)
    assert facts_extract.extraction_count() == before + 1  # a new version: extracted once
    row = store._conn.execute("SELECT content_key FROM message_facts WHERE message_id = ?",
                              (message.id,)).fetchone()
    assert row[0] == facts_extract.content_key("user", edited.content)
    store.close()


def test_facts_stored_by_an_older_grammar_are_extracted_anew(paths, monkeypatch) -> None:
    """The grammar's version is part of the key: after an upgrade that reads sentences
    otherwise, a chat's stored facts are not taken as they were; each message is extracted
    once with the new grammar (and stored again)."""
    monkeypatch.setattr(facts_extract, "GRAMMAR_VERSION", facts_extract.GRAMMAR_VERSION - 1)
    store, _ = ChatStore.open(paths)
    chat = store.create_chat("facts", context_size=4096)
    store.append_message(chat.id, Message(role="user", content=SAID))
    store.close()
    monkeypatch.undo()

    _forget_all()
    store, _ = ChatStore.open(paths)
    state = store.load_engine_state(chat.id)
    assert state is not None
    before = facts_extract.extraction_count()
    facts.absorb([], state.messages[0], 1)
    assert facts_extract.extraction_count() == before + 1  # not read back: extracted anew
    store.close()


def test_a_reading_that_raises_costs_the_message_its_facts_not_the_message(
        paths, monkeypatch, caplog) -> None:
    """A rule that raises on some odd text (a bug, as "1.75²" was at stop 52) must not lose
    the message: storage records the facts in the transaction that inserts it. The message
    is kept with no facts, the failure is logged and counted, and later messages read as
    before."""
    def broken(content: str, role: str = "user") -> list[object]:
        raise ValueError("a rule's bug")

    _forget_all()
    store, _ = ChatStore.open(paths)
    chat = store.create_chat("facts", context_size=4096)
    failures = facts_extract.extraction_failures()
    monkeypatch.setattr(facts_extract, "message_facts", broken)
    odd = Message(role="user", content="BMI = 70 / (1.75²) ≈ 22.9, my port is 8443")
    store.append_message(chat.id, odd)
    monkeypatch.undo()
    store.append_message(chat.id, Message(role="user", content=SAID))
    store.close()

    assert facts_extract.extraction_failures() == failures + 1
    assert "could not be read" in caplog.text
    store, _ = ChatStore.open(paths)
    state = store.load_engine_state(chat.id)
    assert state is not None
    assert [m.content for m in state.messages] == [odd.content, SAID]  # nothing lost
    assert facts_extract.extract("user", odd.content) == ()
    assert facts_extract.extract("user", SAID)[0].value == "9443"
    store.close()
