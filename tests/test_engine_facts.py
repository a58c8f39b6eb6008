"""The facts ledger (issue 22): values with their subjects, supersession by subject, who said it,
and bytes that change only when a fact does."""

from __future__ import annotations

import pytest

from ollm_desktop.engine import ContextEngine, EngineConfig, facts
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.facts_render import render
from ollm_desktop.engine.models import Message
from ollm_desktop.engine.provenance import message_facts
from ollm_desktop.engine.tokens import count_tokens
from tests.engine_fakes import GoodSummarizer, absorbed, compact, words
from tests.fact_ledger import current_list


def test_a_setting_is_kept_with_its_value() -> None:
    found = message_facts("Set LOG_LEVEL=debug and MAX_WORKERS=8 before starting.")
    assert [(f.kind, f.value) for f in found] == [("setting", "LOG_LEVEL=debug"),
                                                  ("setting", "MAX_WORKERS=8")]
    ledger = absorbed(("user", "Set LOG_LEVEL=debug please."), ("user", "Now LOG_LEVEL=info."))
    assert current_list(ledger) == ["LOG_LEVEL=info"]  # a new assignment replaces the old one
    assert next(f for f in ledger if f.value == "LOG_LEVEL=debug").status == "replaced"


@pytest.mark.parametrize(("first", "correction", "old", "new"), [
    # none of these phrasings is the benchmark's ("Correction: ... moved to ...; ... no longer")
    ("The API listens on port 8080.", "Actually the API listens on port 8443, not port 8080.",
     "8080", "8443"),
    ("The cache TTL is 300 s.", "We switched the cache TTL from 300 s to 600 s.",
     "300 s", "600 s"),
    ("We deploy with Postgres 14.2 today.", "Not Postgres 14.2 but Postgres 16.1.",
     "Postgres 14.2", "Postgres 16.1"),
    ("The client library is v2.1.0.", "Instead of v2.1.0 we'll use v2.3.1.", "v2.1.0", "v2.3.1"),
    ("The nightly timeout is 45 s.", "Scratch that: the nightly timeout is 90 s.",
     "45 s", "90 s"),
    ("The build server is at port 9001.", "Typo, I meant the build server is at port 9011.",
     "9001", "9011"),
])
def test_a_correction_replaces_the_value_of_its_subject(first, correction, old, new) -> None:
    ledger = absorbed(("user", first), ("user", correction))
    by_value = {f.value: f for f in ledger}
    assert by_value[new].status == "current"
    assert by_value[old].status == "replaced"
    assert by_value[old].replaced_by == by_value[new].id
    notes = facts.value_notes(ledger)
    assert notes[old] == f"replaced by {new}"
    assert facts.annotate(first, notes).count(f"{old} (replaced by {new})") == 1


def test_a_correction_by_subject_alone_replaces_the_earlier_value() -> None:
    """The correction does not repeat the old value: the subject (the gateway's port) decides."""
    ledger = absorbed(("user", "The gateway listens on port 7443."),
                     ("user", "Correction: the gateway moved to port 9443."))
    assert current_list(ledger) == ["9443"]
    rendered = render(ledger, compacted={f.message_id or "" for f in ledger}, quoted=set(),
                            budget=500, count=count_tokens)
    assert "gateway port: 9443 (replaced 7443)" in rendered.text


def test_two_values_under_the_same_words_that_are_not_a_correction_are_two_entries() -> None:
    ledger = absorbed(("user", "For the old parser see v1.20.3 in the notes."),
                     ("user", "For the new parser see v2.11.1 in the notes."))
    assert sorted(current_list(ledger)) == ["v1.20.3", "v2.11.1"]
    ledger = absorbed(("user", "The timeout is 45 s."), ("user", "The timeout is 90 s."))
    assert sorted(current_list(ledger)) == ["45 s", "90 s"]  # no cue: no supersession


def test_a_later_correction_absorbed_first_still_replaces_the_older_statement() -> None:
    """Corrections are read at once, older messages at compaction: order is by turn."""
    ledger: list[Fact] = []
    facts.absorb(ledger, Message(role="user", content="Correction: port 7443 is no longer "
                                 "used; the gateway moved to port 9443."), 9)
    facts.absorb(ledger, Message(role="user", content="The gateway listens on port 7443."), 3)
    assert current_list(ledger) == ["9443"]


def test_an_assistant_only_identifier_is_never_sent_until_the_user_adopts_it() -> None:
    """Issue 28: the ledger is the user's. An assistant's value waits behind the panel's
    "Suggested by the assistant" until the user uses it, pins it or keeps it."""
    ledger = absorbed(
        ("assistant", "Try lib/helpers_3.py, docs at https://docs.acme-tools.dev/x and "
                      "call load_rows() with LOG_TTL=300."),
        ("user", "For the importer: the file we need is src/import/reader_12.py."),
        ("assistant", "Or use app/models_9.py on port 8081 with pandas 2.1.4."))
    compacted = {f.message_id or "" for f in ledger}
    full = render(ledger, compacted=compacted, quoted=set(), budget=1000,
                        count=count_tokens)
    assert "src/import/reader_12.py" in full.text
    for invented in ("lib/helpers_3.py", "load_rows()", "8081", "pandas 2.1.4"):
        assert invented not in full.text
    # ...an assistant's value the user used (adopted) is theirs, and sent
    ledger = absorbed(("assistant", "Use app/models_9.py for this."),
                     ("user", "OK, app/models_9.py it is."))
    adopted = next(f for f in ledger if f.value == "app/models_9.py")
    assert adopted.users
    text = render(ledger, compacted={f.message_id or "" for f in ledger}, quoted=set(),
                        budget=1000, count=count_tokens).text
    assert "app/models_9.py" in text
    # ...and so is one the user kept in the panel (pinned)
    ledger = absorbed(("assistant", "Use app/models_9.py for this."))
    ledger[0].pinned = True
    assert "app/models_9.py" in render(ledger, compacted=set(), quoted=set(),
                                             budget=1000, count=count_tokens).text


def test_a_user_fact_that_does_not_fit_is_left_out_and_reported() -> None:
    ledger = absorbed(
        ("user", "The release notes live at https://releases.example-company.internal/"
                 "platform/importer/2026/november/notes-for-the-long-awaited-v3.html."),
        ("assistant", "Maybe port 8081."))
    compacted = {f.message_id or "" for f in ledger}
    base = count_tokens(facts.HEADER) + count_tokens(facts.USER_SECTION) + 3
    small = render(ledger, compacted=compacted, quoted=set(), budget=base + 12,
                         count=count_tokens)
    assert "8081" not in small.text and len(small.left_out) == 1
    roomy = render(ledger, compacted=compacted, quoted=set(), budget=base + 200,
                         count=count_tokens)
    assert "8081" not in roomy.text and "notes-for-the-long-awaited-v3" in roomy.text


def test_the_ledgers_bytes_do_not_change_across_sends_while_no_fact_changes() -> None:
    engine = ContextEngine(EngineConfig(context_size=4096, min_messages=2,
                                        preserve_user_messages=False), GoodSummarizer())
    engine.add("user", "For the importer: the file we need is src/import/reader_12.py. "
                       "Set BATCH_SIZE=500. The quote came in at 4.818,96 EUR.")
    engine.add("assistant", words(150))
    for turn in range(8):
        engine.add("user", f"question {turn} " + words(20, turn))
        engine.add("assistant", words(150, turn))
    assert compact(engine, force=True).status == "compacted"

    def ledger_text() -> str:
        system = engine.api_messages()[0]["content"]
        return system[system.index(facts.HEADER):].split("\n\n", 1)[0]

    before = ledger_text()
    assert "src/import/reader_12.py" in before and "BATCH_SIZE=500" in before
    for turn in range(8, 12):  # sends that state no fact: the ledger stays byte for byte
        engine.add("user", f"question {turn} " + words(20, turn))
        assert ledger_text() == before
        engine.add("assistant", words(120, turn))
        assert ledger_text() == before
    engine.add("user", "Correction: the quote is now 5.120,00 EUR, the earlier figure of "
                       "4.818,96 EUR was wrong.")
    after = ledger_text()
    assert after != before and "4.818,96 EUR" in after and "5.120,00 EUR" in after


def test_the_users_changes_are_what_the_model_sees() -> None:
    engine = ContextEngine(EngineConfig(context_size=4096, min_messages=2), GoodSummarizer())
    engine.add("user", "The staging host is at port 6123. The build takes 41 s.")
    engine.add("assistant", words(150))
    for turn in range(8):
        engine.add("user", f"question {turn} " + words(20, turn))
        engine.add("assistant", words(150, turn))
    assert compact(engine, force=True).status == "compacted"
    port = next(f for f in engine.facts if f.value == "6123")
    build = next(f for f in engine.facts if f.value == "41 s")
    engine.edit_fact(port.id, "6124")
    engine.forget_fact(build.id)
    added = engine.add_fact("The release is due on Friday.", pinned=True)
    system = engine.api_messages()[0]["content"]
    assert "6124" in system and "The release is due on Friday." in system
    assert "41 s" not in system  # forgotten: never sent again, masked where it was quoted
    saved = next(f for f in engine.facts if f.id == port.id)
    engine.restore_fact(port, port.id)  # undo the edit
    assert "6124" not in engine.api_messages()[0]["content"]
    engine.restore_fact(saved, port.id)
    engine.restore_fact(None, added.id)  # undo the add
    assert "The release is due on Friday." not in engine.api_messages()[0]["content"]


@pytest.mark.parametrize("text", ["A co-author flagged a cherry-picked example in the survey.",
                                  "We hand-picked three examples for the appendix."])
def test_a_hyphenated_word_is_no_decision(text: str) -> None:
    """"cherry-picked" is no decision: such lines filled the ledger's room at 2K (noisy
    matrix) and pushed the user's real decisions out."""
    assert [f.kind for f in message_facts(text)] == []
    assert [f.kind for f in message_facts("We picked Redis for the queue.")] == ["decision"]


def test_a_value_possibly_replaced_by_one_of_the_same_key_is_named_on_its_line() -> None:
    """Issue 28, what the ledger sends: a restatement of one key with another value (no
    correction's shape) marks the older "possibly replaced"; the ledger names the older on the
    newer value's line, once, instead of a second line that repeats the key. Keys that are only
    possibly the same (the port, the API port) keep a line each."""
    ledger = absorbed(("user", "The timeout is 30 s."), ("user", "The timeout is 45 s."))
    rendered = render(ledger, compacted={f.message_id or "" for f in ledger},
                      quoted=set(), budget=1000, count=count_tokens)
    assert rendered.text.splitlines()[2:] == ["- timeout: 45 s (possibly replaced 30 s)"]
    # the two current values are on that line
    assert set(rendered.shown) == {f.id for f in ledger if f.status == "current"}
    # a key named with its owner, restated, is replaced for sure (no "possibly")
    ledger = absorbed(("user", "Let's name the pilot study halibut-orchard."),
                      ("user", "Let's call the pilot study tarpon-lantern from now on."),
                      ("user", "Let's name the pilot study avocet-anvil, it is shorter."))
    rendered = render(ledger, compacted={f.message_id or "" for f in ledger},
                      quoted=set(), budget=1000, count=count_tokens)
    assert rendered.text.splitlines()[2:] == [
        "- pilot study: avocet-anvil (replaced halibut-orchard, tarpon-lantern)"]
    ledger = absorbed(("user", "The port is 8080."), ("user", "The API port is 9443."))
    rendered = render(ledger, compacted={f.message_id or "" for f in ledger},
                            quoted=set(), budget=1000, count=count_tokens)
    assert rendered.text.splitlines()[2:] == ["- port: 8080", "- api port: 9443"]
