"""Values read whole (issue 28, stop 52 round 2): a lower-case noun phrase of several words
after a label's colon is the label's value ("loft insulation: mineral wool", "location: the
old tram depot"), read by the clause's shape, never its words; a word before a colon after a
correction's lead is the label, not the value ("scratch that, worktop: black granite"); and a
label with its number is written once on the ledger ("view distance 12", not "view
distance: distance 12"). Questions, others' words, replies, verbs, adverbs and participles
after a colon stay no value."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_render import render
from ollm_desktop.engine.provenance import message_facts
from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set, replaced_by_map


def _values(text: str, role: str = "user") -> dict[str, str]:
    """Each value the message states, with its key."""
    return {f.value: f.key for f in message_facts(text, role) if f.kind != "correction"}


@pytest.mark.parametrize(("text", "value", "key"), [
    ("loft insulation: mineral wool, 300mm", "mineral wool", "loft|insulation|name"),
    ("dessert: pavlova station", "pavlova station", "|dessert|name"),
    ("location: the old tram depot", "old tram depot", "|location|name"),
    ("bday party theme: dinosaur jungle, cake: chocolate fudge", "dinosaur jungle",
     "bday party|theme|name"),
    ("bday party theme: dinosaur jungle, cake: chocolate fudge", "chocolate fudge",
     "|cake|name"),
    ("garage floor: epoxy resin. walls: lime wash", "lime wash", "|wall|name"),
    ("hall paint colour: sage green", "sage green", "hall paint|colour|name"),
    ("the wedding cake flavour: lemon drizzle", "lemon drizzle", "wedding cake|flavour|name"),
    ("scratch that, worktop: black granite instead", "black granite", "|worktop|name"),
    ("scratch that, worktop: granite", "granite", "|worktop|name"),
])
def test_a_phrase_after_a_labels_colon_is_its_value(text: str, value: str, key: str) -> None:
    assert _values(text).get(value) == key, _values(text)


@pytest.mark.parametrize(("text", "junk"), [
    ("next step: call the plumber", "call"),
    ("tests: still failing", "still failing"),
    ("status: looking good", "looking good"),
    ("me: sounds good", "sounds good"),
    ("update: all done", "all done"),
    ("q: which colour", "which colour"),
    ("my sister wants the theme: fairy garden", "fairy garden"),
    ("idea: fairy garden", "fairy garden"),
    ("router: Netgear R7000, upstairs has no signal", "Netgear R7000"),  # (a name: read as one)
    ("enrolment form: child's surname Kowalczyk", "child's surname Kowalczyk"),
    ("scratch that, worktop: granite", "worktop"),  # the label, no value
    ("remember: fish pie", "fish pie"),  # a message's part ("remember:"), no thing's label
    ("feeling: kinda meh", "kinda meh"),  # a degree word: a state, no thing
])
def test_no_phrase_where_the_colon_starts_no_noun_phrase(text: str, junk: str) -> None:
    assert junk not in _values(text), _values(text)


def test_a_reply_states_no_phrase() -> None:
    assert "cable internet" not in _values("Suggested setup: cable internet", "assistant")


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("worktop: white quartz", "scratch that, worktop: black granite instead", "white quartz",
     "black granite"),
    ("hall paint colour: sage green", "changed my mind, hall paint colour is duck egg blue",
     "sage green", "duck egg blue"),
    ("starter: pea soup. main: lamb shoulder", "main is now beef cheek", "lamb shoulder",
     "beef cheek"),
    ("loft insulation: mineral wool, 300mm", "loft insulation: sheep wool now", "mineral wool",
     "sheep wool"),
])
def test_a_correction_replaces_the_phrase(said: str, later: str, old: str, new: str) -> None:
    ledger = absorbed(("user", said), ("assistant", "Noted."), ("user", later))
    assert replaced_by_map(ledger).get(old) == new, replaced_by_map(ledger)


@pytest.mark.parametrize(("said", "reply", "later", "kept"), [
    ("roof: slate tiles", "Have you considered clay tiles? cheaper", "hmm maybe, let me think",
     "slate tiles"),
    ("starter: pea soup", "How about a melon salad instead?", "would melon salad work?",
     "pea soup"),
])
def test_no_question_or_proposal_replaces_the_phrase(said: str, reply: str, later: str,
                                                      kept: str) -> None:
    ledger = absorbed(("user", said), ("assistant", reply), ("user", later))
    assert kept in current_set(ledger), current_set(ledger)


def _text(*said: str) -> str:
    ledger = absorbed(*(("user", s) for s in said))
    return render(ledger, compacted={f.message_id for f in ledger if f.message_id},
                  quoted=set(), budget=1000, count=lambda t: len(t.split())).text


@pytest.mark.parametrize(("said", "line"), [
    ("server difficulty hard, view distance 12", "view distance 12"),
    ("orders topic has 6 partitions, replication factor 3", "replication factor 3"),
    ("the amp is on input 6", "amp input 6"),
    ("my kid is in grade 5 now", "kid grade 5"),
])
def test_a_label_and_its_number_are_written_once(said: str, line: str) -> None:
    text = _text(said)
    assert f"- {line}" in text, text


def test_a_value_that_does_not_open_with_the_label_keeps_its_colon() -> None:
    text = _text("log level: debug", "render distance 16, simulation distance 10")
    assert "log level: debug" in text and "render distance: 16" in text, text


# A time from which, or how much of the time, a value holds ends its clause: "the 26th going
# forward", "year 8 this year mostly"; it is no part of the value and no noun it counts.
@pytest.mark.parametrize(("text", "value", "key"), [
    ("payroll date is the 26th going forward, the bank changed its cutoffs", "26th",
     "payroll|date|date"),
    ("rent is due the 1st going forward", "1st", "|rent|date"),
    ("bins go out on the 3rd moving forward", "the 3rd", "|bin|date"),
    ("invoices are due on the 15th henceforth", "the 15th", "|invoice|date"),
    ("standup is at 10 going forward", "10", "|standup|number"),
    ("im teaching year 8 this year mostly", "year 8", "teaching|year|name"),
    ("I'm in group 3 this term", "group 3", "|group|name"),
    ("we're on plan 2 going forward", "plan 2", "|plan|name"),
    ("the washer is on program 3 mostly", "program 3", "washer|program|name"),
    ("my locker is row 9 this year", "row 9", "locker|row|name"),
])
def test_a_time_after_a_value_ends_its_clause(text: str, value: str, key: str) -> None:
    assert _values(text).get(value) == key, _values(text)


@pytest.mark.parametrize(("text", "junk"), [
    ("standup is at 10 going forward", "10 going forward"),
    ("i teach year 8 mostly", "8 mostly"),
    ("im moving to Leeds", "Leeds"),  # a value, but of no key "im" (chat's "I'm")
])
def test_no_time_or_pronoun_is_a_values_word(text: str, junk: str) -> None:
    values = {f.value: f.key for f in message_facts(text, "user")}
    assert junk not in values or "im" not in values[junk].split("|"), values
    assert junk == "Leeds" or junk not in values, values


@pytest.mark.parametrize(("said", "reply", "later", "kept"), [
    ("im teaching year 8 this year mostly", "Mostly Year 8.",
     "the head asked if i wanted to swap to year 11 next year but i said no thanks",
     "year 8"),
    ("our team is in group 3 this term", "Group 3.",
     "we might move to group 5 next term, not sure", "group 3"),
    ("we are on plan 2 going forward", "Plan 2 is cheaper than plan 4.", "ok", "plan 2"),
])
def test_an_offer_or_a_maybe_keeps_the_value(said: str, reply: str, later: str,
                                             kept: str) -> None:
    ledger = absorbed(("user", said), ("assistant", reply), ("user", later))
    assert kept in current_set(ledger), current_set(ledger)


def test_a_change_with_a_time_after_it_replaces() -> None:
    ledger = absorbed(("user", "payroll runs on the 28th, BACS file goes 3 working days before"),
                      ("assistant", "Payroll on the 28th."),
                      ("user", "payroll date is the 26th going forward, the bank changed its "
                               "cutoffs"))
    assert replaced_by_map(ledger).get("the 28th") == "26th", replaced_by_map(ledger)


# A reason after a label and its number ends its clause, as after any value ("I keep week 1
# because of the school holidays"); the label's number is one value.
@pytest.mark.parametrize(("text", "value"), [
    ("I said no thanks, I keep week 1 because of the school holidays.", "week 1"),
    ("we stay on plan 2 since it is cheaper", "plan 2"),
    ("I keep week 1 and she takes week 3", "week 1"),
])
def test_a_reason_after_a_labels_number_ends_it(text: str, value: str) -> None:
    assert value in _values(text), _values(text)


def test_a_refused_offer_keeps_the_labels_number() -> None:
    ledger = absorbed(("user", "team lead offered to move me to on-call week 3. I said no "
                               "thanks, I keep week 1 because of the school holidays."),
                      ("assistant", "Fair. Week 1 on-call it is."))
    assert "week 1" in current_set(ledger) and "week 3" not in current_set(ledger), \
        current_set(ledger)


@pytest.mark.parametrize(("said", "line"), [
    ("inbound dock 4, outbound dock 7", "inbound dock 4"),
    ("the meeting room is 204", "meeting room 204"),
])
def test_a_places_number_is_written_after_its_noun(said: str, line: str) -> None:
    text = _text(said)
    assert f"- {line}" in text, text
