"""Stop 54, keys: one key written two ways (issue 28).

- "K's X" is "K is X" before when the value holds from ("the codename's Osprey from today",
  "the venue's Hall B from Monday"), as it was before "now"; a name's possessive is not.
- A contact relative clause after a key's noun phrase ("the collection code the courier
  texted is 5513", "the pin the bank gave me is 4471", "the room we booked is Hall B"): the
  key is the head's, not the clause's subject or verb.
- "reg" and "registration" are one word; "the number plate" names a vehicle's registration
  (only possibly where several are held).
- A leading clause that says its key changed ("the gate code has been changed: 4471",
  "wifi password got changed, it's Tulip99 now") names the key of the value after it and
  leads it as a correction; after "one" ("I got a private one: K4 TSY") the value is the new
  thing's and keeps no key (it refers back), as "the fob got replaced, the new one is X".
- A titled person's name ("Dr Hallam") that a change gives with no key possibly replaces the
  one titled name held ("Dr Okonkwo"), never a place named like a person ("Riverside
  Surgery"); "reassign" is a change verb.
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.provenance import message_facts
from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set, replaced_by_map


def _chat(*said: str) -> list[Fact]:
    turns = []
    for text in said:
        turns.append(("assistant", text[3:]) if text.startswith("A: ") else ("user", text))
    return absorbed(*turns)


def _possibly(ledger: list[Fact], value: str) -> str | None:
    by_id = {f.id: f for f in ledger}
    old = next(f for f in ledger if f.value == value)
    new = by_id.get(old.possibly_replaced_by or "")
    return new.value if new is not None else None


def _keys(text: str) -> dict[str, str]:
    return {f.value: f.key for f in message_facts(text, "user") if f.kind != "correction"}


# "K's X from today": "K is X"

@pytest.mark.parametrize(("text", "value", "key"), [
    ("legal made us change it, codename's Osprey from today", "Osprey", "|codename|name"),
    ("our team name's Red Kites from next week", "Red Kites", "team|name|name"),
    ("ok, the port's 8443 from tomorrow", "8443", "|port|port"),
    ("the venue's Hall B from Monday", "Hall B", "|venue|name"),
])
def test_a_nouns_s_before_a_value_and_when_it_holds_is_is(text: str, value: str,
                                                           key: str) -> None:
    assert _keys(text).get(value) == key


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("Our project codename is Heron", "legal made us change it, codename's Osprey from today",
     "Heron", "Osprey"),
    ("book club venue is the Crown", "venue's The Swan from next month, the Crown shut",
     "Crown", "The Swan"),
])
def test_k_s_x_from_today_replaces(first: str, later: str, old: str, new: str) -> None:
    ledger = _chat(first, "A: Noted.", later)
    assert replaced_by_map(ledger).get(old) == new


@pytest.mark.parametrize("later", [
    "would the team name's Hawks from today be better?",
    "if the team name's Hawks from today, tell me",
])
def test_k_s_x_asked_or_supposed_replaces_nothing(later: str) -> None:
    ledger = _chat("our team name is Red Kites", "A: ok", later)
    assert "Red Kites" in current_set(ledger)
    assert "Red Kites" not in replaced_by_map(ledger)


def test_a_possessive_before_a_phrase_stays_one() -> None:
    assert not any(f.value == "Google Doc" and f.key.endswith("|name") and
                   f.key.split("|")[1] == "band"
                   for f in message_facts("kept in the band's Google Doc from today", "user"))


# contact relative clauses

@pytest.mark.parametrize(("text", "value", "key"), [
    ("the collection code the courier texted is actually 5513", "5513",
     "collection|code|number"),
    ("the parcel locker code the courier texted is 5513", "5513", "parcel locker|code|number"),
    ("the code they sent me is 5513", "5513", "|code|number"),
    ("the pin the bank gave me is 4471", "4471", "|pin|number"),
    ("the price the agent quoted is £1,200", "£1,200", "|price|money"),
    ("the time we agreed is 3pm", "3pm", "|time|time"),
    ("so the hotel we booked is the Ritz", "Ritz", "|hotel|name"),
    ("the man the police arrested was Tom Reed", "Tom Reed", "|man|name"),
])
def test_a_contact_relative_clause_leaves_the_head_as_key(text: str, value: str,
                                                          key: str) -> None:
    assert _keys(text).get(value) == key


@pytest.mark.parametrize(("text", "value", "key"), [
    ("the code the courier app is 5513", "5513", "courier|app|number"),  # no past: one phrase
    ("I think the one you sent is 4471", "4471", "|sent|number"),  # not opening its clause
])
def test_no_contact_clause_keeps_the_phrase(text: str, value: str, key: str) -> None:
    assert _keys(text).get(value) == key


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("the gate code is 4471", "the code the landlord sent me is 4417, I misread it",
     "4471", "4417"),
    ("Our hotel is the Grand", "the hotel we booked is actually the Ritz", "Grand", "Ritz"),
])
def test_a_contact_clauses_key_meets_the_old(first: str, later: str, old: str,
                                             new: str) -> None:
    assert replaced_by_map(_chat(first, "A: Noted.", later)).get(old) == new


def test_a_question_with_a_contact_clause_replaces_nothing() -> None:
    ledger = _chat("rent is £900", "A: ok", "is the price the agent quoted £950?")
    assert "£900" in current_set(ledger)
    assert not replaced_by_map(ledger)


# registration and number plate

@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("My car reg is LB68 XKE", "the number plate is K4 TSY now", "LB68 XKE", "K4 TSY"),
    ("My car registration is LB68 XKE", "the car reg is K4 TSY now", "LB68 XKE", "K4 TSY"),
    ("the van's reg is LB68 XKE", "licence plate is now K4 TSY", "LB68 XKE", "K4 TSY"),
])
def test_reg_and_number_plate_are_one_key(first: str, later: str, old: str, new: str) -> None:
    assert replaced_by_map(_chat(first, "A: Noted.", later)).get(old) == new


def test_a_plate_beside_two_regs_is_only_possibly_either() -> None:
    ledger = _chat("My car reg is LB68 XKE, the van reg is WX19 ABC", "A: ok",
                   "the number plate is K4 TSY now")
    assert _possibly(ledger, "LB68 XKE") == "K4 TSY"
    assert "LB68 XKE" in current_set(ledger)


def test_a_plate_asked_about_replaces_nothing() -> None:
    ledger = _chat("My car reg is LB68 XKE", "A: ok", "should the number plate be K4 TSY?")
    assert "LB68 XKE" in current_set(ledger)
    assert not replaced_by_map(ledger)


def test_another_owners_wifi_network_is_not_the_ssid() -> None:
    ledger = _chat("home wifi ssid is Fernhill", "A: ok", "guest wifi network is now Oakdene")
    assert "Fernhill" in current_set(ledger)
    assert _possibly(ledger, "Fernhill") is None


# a titled person's name

@pytest.mark.parametrize("later", [
    "I've been reassigned to Dr Hallam, same surgery",
    "they moved me to Dr Hallam",
])
def test_a_titled_name_possibly_replaces_the_titled_one(later: str) -> None:
    ledger = _chat("My GP is Dr Okonkwo at Riverside Surgery", "A: Noted.", later)
    assert _possibly(ledger, "Dr Okonkwo") == "Dr Hallam"
    assert _possibly(ledger, "Riverside Surgery") is None
    assert {"Dr Okonkwo", "Riverside Surgery"} <= current_set(ledger)


@pytest.mark.parametrize("later", [
    "should I ask to be moved to Dr Lee?",
    "my sister got moved to Dr Lee",
])
def test_a_titled_name_asked_or_anothers_replaces_nothing(later: str) -> None:
    ledger = _chat("my dentist is Dr Shah at Bright Smile", "A: ok", later)
    assert _possibly(ledger, "Dr Shah") is None
    assert "Dr Shah" in current_set(ledger)


# a leading clause that says its key changed

@pytest.mark.parametrize(("text", "value", "key"), [
    ("the number plate's changed, I got a private one: K4 TSY", "K4 TSY", "||name"),  # (the
    ("the gate code's changed, new one is 4471", "4471", "||number"),  # new thing's: no key)
    ("the gate code has been changed: 4471", "4471", "gate|code|number"),
    ("wifi password got changed, it's Tulip99 now", "Tulip99", "wifi|password|name"),
])
def test_a_changed_keys_value_after_it_is_its_new_value(text: str, value: str,
                                                        key: str) -> None:
    found = {f.value: f for f in message_facts(text, "user")}
    assert found[value].key == key
    assert found[value].correction


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("wifi password is Daisy42", "wifi password got changed, it's Tulip99 now", "Daisy42",
     "Tulip99"),
    ("My car reg is LB68 XKE", "the number plate's changed, I got a private one: K4 TSY",
     "LB68 XKE", "K4 TSY"),
])
def test_a_changed_keys_value_replaces_the_old(first: str, later: str, old: str,
                                              new: str) -> None:
    assert replaced_by_map(_chat(first, "A: Noted.", later)).get(old) == new


def test_a_thing_replaced_gives_its_value_to_the_old_things_key() -> None:
    ledger = _chat("my VPN token serial is 0041-2288", "A: RSA token serial: 0041-2288.",
                   "the fob got replaced, the new one is 0041-3391")
    assert replaced_by_map(ledger) == {"0041-2288": "0041-3391"}


def test_a_changed_key_replaces_only_its_own() -> None:
    ledger = _chat("gate code 1234, alarm code 9876", "A: ok",
                   "the alarm code has been changed: 4471")
    assert replaced_by_map(ledger) == {"9876": "4471"}
    assert "1234" in current_set(ledger)


@pytest.mark.parametrize("later", [
    "if the gate code has changed, it's 4471",
    "the gate code might have changed, maybe it's 4471",
    "the gate code has changed, Tom says it's 4471",
])
def test_a_changed_key_supposed_or_reported_replaces_nothing_new(later: str) -> None:
    ledger = _chat("the gate code is 1234", "A: ok", later)
    assert "1234" in current_set(ledger)
    assert not replaced_by_map(ledger)


def test_a_change_with_its_own_subject_after_it_names_no_key() -> None:
    found = {f.value: f for f in message_facts("the plan changed, we're meeting at 6pm", "user")}
    assert found["6pm"].key == "||time"
    assert not found["6pm"].correction


def test_a_pronouns_s_before_a_value_and_when_is_no_key() -> None:
    assert not any(f.key.split("|")[1:2] == ["she"] or f.value == "70" for f in message_facts(
        "She's 70 tomorrow.", "user"))
