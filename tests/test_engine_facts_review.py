"""The facts ledger's review findings: each reproduced here as it was reported, then fixed."""

from __future__ import annotations

from ollm_desktop.engine import ContextEngine, facts
from ollm_desktop.engine.branching import facts_within, state_up_to
from ollm_desktop.engine.conversation import LEGACY_MESSAGE
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.facts_render import render
from ollm_desktop.engine.models import Message
from ollm_desktop.engine.tokens import count_tokens
from tests.engine_fakes import compact, words
from tests.engine_fakes import fact_engine as _engine
from tests.engine_fakes import filler_turns as _filler
from tests.engine_fakes import system_text as _system
from tests.fact_ledger import current_list

GATEWAY = "The gateway listens on port 7443."
MOVED = "Correction: the gateway moved to port 9443."


def _absorb(*said: tuple[str, str]) -> tuple[list[Fact], list[Message]]:
    ledger: list[Fact] = []
    messages: list[Message] = []
    for turn, (role, text) in enumerate(said, start=1):
        message = Message(role=role, content=text)  # type: ignore[arg-type]
        messages.append(message)
        facts.absorb(ledger, message, turn)
    return ledger, messages


def _render(ledger: list[Fact], messages: list[Message]) -> str:
    return render(ledger, compacted={m.id for m in messages}, quoted=set(), budget=800,
                        count=count_tokens).text


# ---------------------------------------------------------------- 1. back to an earlier value
def test_a_correction_back_to_an_earlier_value_makes_it_current_again() -> None:
    ledger, messages = _absorb(("user", GATEWAY), ("user", MOVED),
                               ("user", "Correction: the gateway moved back to port 7443."))
    assert current_list(ledger) == ["7443"]
    text = _render(ledger, messages)
    assert "7443 (replaced 9443)" in text and "9443 (replaced 7443)" not in text
    notes = facts.value_notes(ledger)
    assert "7443" not in notes and notes["9443"] == "replaced by 7443"
    assert facts.annotate(messages[2].content, notes) == messages[2].content


def test_actually_the_old_value_again_leaves_one_current_value() -> None:
    ledger, messages = _absorb(
        ("user", "The API listens on port 8080."),
        ("user", "Actually the API listens on port 8443, not port 8080."),
        ("user", "Actually the API listens on port 8080 again, not port 8443."))
    assert current_list(ledger) == ["8080"]
    assert "8080 (replaced 8443)" in _render(ledger, messages)


def test_reading_a_message_again_changes_nothing_after_a_return_to_an_old_value() -> None:
    """Corrections are read at once and again when compacted: the second read is a no-op."""
    said = [("user", "The API listens on port 8080."),
            ("user", "Actually the API listens on port 8443, not port 8080."),
            ("user", "Actually the API listens on port 8080 again, not port 8443.")]
    ledger, messages = _absorb(*said)
    before = [f.model_copy() for f in ledger]
    for turn, message in enumerate(messages, start=1):
        facts.absorb(ledger, message, turn)
    assert ledger == before


def test_an_unmarked_quote_of_a_replaced_value_does_not_bring_it_back() -> None:
    ledger, _ = _absorb(("user", GATEWAY), ("user", MOVED),
                        ("assistant", "The gateway listens on port 7443."))
    assert current_list(ledger) == ["9443"]


# ---------------------------------------------------------------- 2. a correction before facts
def test_a_correction_is_read_while_the_ledger_is_still_empty() -> None:
    engine = _engine(preserve_user_messages=False)
    engine.add("user", GATEWAY)
    engine.add("assistant", words(150))
    _filler(engine, 8)
    correction = engine.add("user", MOVED)
    engine.add("assistant", words(40))
    assert any(f.value == "9443" for f in engine.facts)  # read at once
    assert compact(engine, force=True).status == "compacted"
    assert engine.message(correction.id) is not None
    assert correction.id not in engine._region_now().compacted  # still a recent turn
    by_value = {f.value: f for f in engine.facts}
    assert by_value["7443"].status == "replaced"
    assert "gateway port: 9443 (replaced 7443)" in _system(engine)


# ---------------------------------------------------------------- 3. remove_last
def test_taking_back_the_newest_message_takes_its_facts_with_it() -> None:
    engine = _engine()
    engine.add_fact("The release is due on Friday.")  # a ledger that is not empty
    engine.add("user", "Set LOG_LEVEL=debug for the run.")
    engine.add("assistant", "Done.")
    correction = engine.add("user", "Actually set LOG_LEVEL=info instead.")
    assert any(f.value == "LOG_LEVEL=info" for f in engine.facts)
    assert engine.remove_last(correction.id)
    assert not any(f.message_id == correction.id for f in engine.facts)
    assert all(f.status == "current" for f in engine.facts)


# ---------------------------------------------------------------- 4. the assistant and the user
def test_an_assistant_only_value_does_not_replace_the_users() -> None:
    ledger, messages = _absorb(("user", GATEWAY), ("assistant", MOVED))
    assert sorted(current_list(ledger)) == ["7443", "9443"]
    text = _render(ledger, messages)
    # the user's value stays current, with the reply's claim beside it (never bare); the
    # reply's own value is not sent (issue 28: the ledger is the user's)
    assert "- gateway port: 7443 (a reply said replaced by 9443; unconfirmed)" in text
    assert "- gateway port: 9443" not in text
    # the old value named by the assistant, and an assistant's correction read first
    ledger, _ = _absorb(("user", GATEWAY), ("assistant", "Port 7443 is no longer used; the "
                                                         "gateway moved to port 9443."))
    assert sorted(current_list(ledger)) == ["7443", "9443"]
    for said in (MOVED, "Port 7443 is no longer used; the gateway moved to port 9443."):
        ledger = []  # the assistant's correction read at once, the user's statement later
        facts.absorb(ledger, Message(role="assistant", content=said), 5)
        facts.absorb(ledger, Message(role="user", content=GATEWAY), 2)
        assert sorted(current_list(ledger)) == ["7443", "9443"]
        assert facts.value_notes(ledger)["7443"].startswith("a reply said replaced by 9443")


def test_a_replys_correction_of_the_users_value_is_marked_wherever_it_is_quoted() -> None:
    """A quote of the user's message (a pin, an earlier request) never shows the value the
    reply corrected as current; a later reply's correction is named as the value now."""
    ledger, _ = _absorb(("user", GATEWAY), ("assistant", MOVED),
                               ("assistant", "Correction: the gateway moved to port 9553."))
    note = facts.value_notes(ledger)["7443"]
    assert note == "a reply said replaced by 9443, now 9553; unconfirmed"
    notes = facts.value_notes(ledger)
    marked = facts.annotate(GATEWAY, notes)
    assert marked == f"The gateway listens on port 7443 ({note})."
    assert facts.annotate(marked, notes) == marked  # 9443 inside the note stays as it is


def test_the_user_using_the_replys_value_makes_the_correction_theirs() -> None:
    ledger, messages = _absorb(("user", GATEWAY), ("assistant", MOVED),
                               ("user", "Good, I will point the health check at 9443."))
    assert current_list(ledger) == ["9443"]
    assert "9443 (replaced 7443)" in _render(ledger, messages)


def test_the_user_stating_the_value_again_takes_the_claim_away() -> None:
    ledger, messages = _absorb(("user", GATEWAY), ("assistant", MOVED),
                               ("user", "No, the gateway listens on port 7443, as I said."))
    assert sorted(current_list(ledger)) == ["7443", "9443"]
    assert "7443" not in facts.value_notes(ledger)
    assert "a reply said" not in _render(ledger, messages)
    # reading the first message again (idempotent absorb) does not take it away
    ledger, messages = _absorb(("user", GATEWAY), ("assistant", MOVED))
    facts.absorb(ledger, messages[0], 1)
    assert "a reply said" in _render(ledger, messages)


def test_a_claim_whose_reply_is_deleted_or_forgotten_is_no_longer_shown() -> None:
    from ollm_desktop.engine.deletion import without_facts_of

    ledger, messages = _absorb(("user", GATEWAY), ("assistant", MOVED))
    kept = without_facts_of(ledger, messages[1].id)
    assert "a reply said" not in _render(kept, messages) and facts.value_notes(kept) == {}
    next(f for f in ledger if f.value == "9443").status = "forgotten"
    assert "a reply said" not in _render(ledger, messages)


def test_a_state_where_the_assistant_replaced_the_user_sends_neither_as_current() -> None:
    """A state saved before the rule above: the assistant's value had replaced the user's.
    The assistant's value is not the user's, so it is not sent (issue 28)."""
    user = Fact(kind="identifier", value="7443", subject="gateway port", ref_kind="port",
                source="user", message_id="m1", turn=1, sequence=1)
    assistant = Fact(kind="identifier", value="9443", subject="gateway port", ref_kind="port",
                     source="assistant", message_id="m2", turn=2, sequence=2,
                     from_correction=True)
    user.status, user.replaced_by = "replaced", assistant.id
    text = render([user, assistant], compacted={"m1", "m2"}, quoted=set(), budget=800,
                        count=count_tokens).text
    assert "9443" not in text and "7443" not in text


# ---------------------------------------------------------------- 5. pinned messages
def test_a_pinned_messages_old_value_is_marked_after_a_correction() -> None:
    engine = _engine(preserve_user_messages=False)
    engine.add_fact("The release is due on Friday.")
    pinned = engine.add("user", GATEWAY)
    engine.set_pinned(pinned.id, True)
    engine.add("assistant", words(150))
    _filler(engine, 3)
    engine.add("user", MOVED)
    engine.add("assistant", words(150, 7))
    _filler(engine, 6, seed=10)
    assert compact(engine, force=True).status == "compacted"
    system = _system(engine)
    assert "Pinned by the user" in system and "port 7443 (replaced by 9443)" in system
    assert "gateway port: 9443 (replaced 7443)" in system
    kept = engine.message(pinned.id)
    assert kept is not None and kept.pinned  # still quoted word for word


# ---------------------------------------------------------------- 6. undo of a compaction
def _compacted_once() -> tuple[ContextEngine, Fact]:
    engine = _engine()
    engine.add("user", "The staging host is at port 6123.")
    engine.add("assistant", words(150))
    _filler(engine, 8)
    assert compact(engine, force=True).status == "compacted"
    _filler(engine, 8, seed=20)
    port = next(f for f in engine.facts if f.value == "6123")
    return engine, port


def test_undo_keeps_a_second_edit_of_an_edited_fact() -> None:
    engine, port = _compacted_once()
    engine.edit_fact(port.id, "6124")
    assert compact(engine, force=True).status == "compacted"
    engine.edit_fact(port.id, "6125")
    assert engine.undo_last_compaction().ok
    assert next(f for f in engine.facts if f.id == port.id).value == "6125"


def test_undo_keeps_a_correction_made_after_the_compaction() -> None:
    engine, port = _compacted_once()
    assert compact(engine, force=True).status == "compacted"
    correction = engine.add("user", "Correction: the staging host moved to port 6200.")
    new = next(f for f in engine.facts if f.value == "6200")
    assert next(f for f in engine.facts if f.id == port.id).status == "replaced"
    earlier = engine.state_before_last_compaction()  # its messages end before the correction
    assert earlier is not None and not any(f.id == new.id for f in earlier.facts)
    assert next(f for f in earlier.facts if f.id == port.id).status == "current"
    assert engine.undo_last_compaction().ok
    by_id = {f.id: f for f in engine.facts}
    assert by_id[new.id].status == "current" and by_id[new.id].message_id == correction.id
    assert by_id[port.id].status == "replaced" and by_id[port.id].replaced_by == new.id


# ---------------------------------------------------------------- 7. the stored maximum
def test_the_stored_maximum_evicts_by_rank_never_pinned_or_typed() -> None:
    keep = [Fact(kind="note", value="typed by hand", source="manual", sequence=1),
            Fact(kind="identifier", value="src/pinned.py", source="assistant", message_id="a",
                 turn=1, sequence=2, pinned=True),
            Fact(kind="identifier", value="src/users.py", source="user", message_id="b",
                 turn=1, sequence=3)]
    replaced = Fact(kind="identifier", value="src/old.py", source="user", message_id="b",
                    turn=1, sequence=4, status="replaced", replaced_by=keep[2].id)
    ledger = [*keep, replaced]
    for turn in range(facts.MAX_FACTS):
        facts.absorb(ledger, Message(role="assistant", content=f"See lib/mod_{turn}.py."),
                     turn + 2)
    assert len(ledger) == facts.MAX_FACTS
    values = {f.value for f in ledger}
    assert {f.value for f in keep} <= values
    # the assistant's unconfirmed values go first, oldest first; the user's replaced value
    # stays (the ledger names it beside its replacement)
    assert "src/old.py" in values
    assert "lib/mod_0.py" not in values and f"lib/mod_{facts.MAX_FACTS - 1}.py" in values
    ledger.append(Fact(kind="identifier", value="src/older.py", source="user", message_id="c",
                       turn=1, sequence=5, status="replaced", replaced_by=keep[2].id))
    facts.evict(ledger)
    assert "src/old.py" in {f.value for f in ledger} and "lib/mod_1.py" not in \
        {f.value for f in ledger}


# ---------------------------------------------------------------- 10. converted legacy facts
def _legacy() -> Fact:
    return Fact(kind="identifier", value="src/legacy.py", source="user",
                message_id=LEGACY_MESSAGE, sequence=1)


def test_converted_legacy_facts_stay_in_a_fork_a_branch_and_the_earlier_state() -> None:
    assert [f.value for f in facts_within([_legacy()], {"m1"})] == ["src/legacy.py"]
    engine, _ = _compacted_once()
    engine._data.facts.insert(0, _legacy())
    state = engine.state()
    last = state.messages[-1].id
    for copy in (state_up_to(state, last, keep_message=True),
                 state_up_to(state, last, keep_message=False)):
        assert any(f.message_id == LEGACY_MESSAGE for f in copy.facts)
    assert compact(engine, force=True).status == "compacted"
    earlier = engine.state_before_last_compaction()
    assert earlier is not None and any(f.message_id == LEGACY_MESSAGE for f in earlier.facts)
    assert engine.undo_last_compaction().ok
    assert any(f.message_id == LEGACY_MESSAGE for f in engine.facts)


# ---------------------------------------------------------------- found on the way: deletion
def test_an_undo_of_a_compaction_does_not_bring_back_the_facts_of_a_deleted_message() -> None:
    engine, port = _compacted_once()
    assert compact(engine, force=True).status == "compacted"
    assert port.message_id is not None
    engine.delete_message(port.message_id)
    assert engine.undo_last_compaction().ok
    assert not any(f.message_id == port.message_id for f in engine.facts)


def test_a_replys_restatement_of_a_replaced_value_is_no_line_of_its_own() -> None:
    """A reply's "the gateway now listens on 7443" is a value of the gateway's port (issue
    28: keys, not cue words), which the user's correction replaces; it never reads as
    current (live 2K run, stale 3)."""
    ledger, messages = _absorb(("user", GATEWAY),
                               ("assistant", "Good news: the gateway now listens on 7443, the "
                                             "custom port for the lamp server."),
                               ("user", "Correction: the gateway moved to port 9443; port 7443 "
                                        "is no longer used."))
    text = _render(ledger, messages)
    assert "- gateway port: 9443 (replaced 7443)" in text
    assert current_list(ledger) == ["9443"]


def test_a_replaced_value_whose_message_is_still_recent_is_listed_beside_the_new_one() -> None:
    """The head line names every value it replaced, wherever that value's message is."""
    ledger, messages = _absorb(("user", GATEWAY), ("assistant", MOVED),
                               ("user", "Correction: the gateway moved to port 9553; port 7443 "
                                        "is no longer used."))
    compacted = {messages[0].id}  # the reply that said 9443 is still a recent turn
    text = render(ledger, compacted=compacted, quoted=set(), budget=800,
                        count=count_tokens).text
    assert "9553 (replaced 7443, 9443)" in text


def test_a_repeated_sentence_cut_at_a_clause_does_not_flip_the_ledger() -> None:
    """A small model repeats itself, once with the sentence cut at a comma: the same
    statement, not a correction back and forth (each repeat re-read the whole prompt). Its
    "actually" inside the sentence is no correction's shape (issue 28): no entry at all."""
    whole = "I've actually written a response that takes time to write, but here it is."
    cut = "I've actually written a response that takes time to write,\nbut here it is."
    ledger, _ = _absorb(("assistant", whole), ("assistant", cut), ("assistant", whole),
                               ("assistant", cut))
    assert [f.status for f in ledger if f.kind == "correction"] == []
    # an extension that is no clause is a new statement: "Redis" -> "Redis Streams"
    ledger, _ = _absorb(("user", "Correction: we decided the queue backend is Redis."),
                        ("user", "Correction: we decided the queue backend is Redis Streams."))
    assert current_list(ledger) == ["Redis Streams"]


def test_a_replys_correction_of_a_compacted_user_value_reaches_the_next_request() -> None:
    """Read at once, as a user's correction is: the next request already has the claim beside
    the user's value (a dispute replaces nothing, yet the request must be laid out anew)."""
    engine = _engine()
    engine.add("user", GATEWAY)
    engine.add("assistant", words(150))
    _filler(engine, 8)
    assert compact(engine, force=True).status == "compacted"
    assert "port 7443" in _system(engine) and "a reply said" not in _system(engine)
    engine.add("user", "Which port should the health check use?")
    engine.add("assistant", MOVED)
    assert "7443 (a reply said replaced by 9443; unconfirmed)" in _system(engine)
