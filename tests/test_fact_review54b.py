"""A read-only review of stop 54's first round (/tmp/s54/narrow/review1.md, findings 3, 4, 6,
9-13): the readings that made ordinary chat worse, narrowed, and a quadratic scan made linear.

- "ignore the previous reply / the last answer" names what the assistant said: the value the
  user rejects after it replaces nothing (``fact_leads._taken_back``; "ignore my last
  message" still leads).
- "make the K one N" is the user's own only when nothing before "make" frames it as another's
  words ("My wife keeps saying: …", "Her text: …", "Designer's note: …";
  ``fact_assignments.made_to``).
- A past clause after the user's own leaves it a statement only where that clause names a
  value (a name or a number): "the venue is great, we were in Hall A last year" is praise
  and the past (``fact_mood_open``).
- A titled name's filter drops only the untitled names keyed by the titled person's own words
  ("gp at: Riverside Surgery"), never another person ("sister: Sarah Jones"): with two
  persons' keys, a titled name stays unmatched (``fact_keyless.persons_alike``).
- "the number plate" with no owner names only a vehicle's registration (or one with no owner),
  never "the conference registration" (``fact_key_synonyms.whole_named``).
- "his / her / their / your X has changed" is another's key: no lead of the user's X
  (``fact_changed_subjects``).
- "the car's Priya's from tomorrow": a possessive after "'s" is an owner, no value
  (``fact_time_tails.clause_timed``).
- ``fact_kept_clauses.kept_by`` counts the ledger's key words once per correction, so the
  kept test over every fact is linear, not quadratic.
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_kept_clauses import kept_by
from ollm_desktop.engine.fact_types import Fact, FactStatus
from tests.fact_ledger import chat as _chat
from tests.fact_ledger import current_set, replaced_by_map


def _possibly(ledger: list[Fact], value: str) -> str | None:
    by_id = {f.id: f for f in ledger}
    old = next(f for f in ledger if f.value == value)
    new = by_id.get(old.possibly_replaced_by or "")
    return new.value if new is not None else None


def _untouched(ledger: list[Fact], value: str) -> bool:
    """``value`` is current and neither replaced nor marked possibly replaced."""
    return value in current_set(ledger) and value not in replaced_by_map(ledger) and \
        _possibly(ledger, value) is None


# 3. the assistant's reply taken back is no lead of the user's

@pytest.mark.parametrize(("first", "reply", "later", "kept"), [
    ("We land at 14:00.", "A: The taxi should be booked for 15:00.",
     "Ignore the previous reply, 15:00 makes no sense.", "14:00"),
    ("Standup is at 9:15.", "A: So standup is 9:45 from now on?",
     "disregard the last answer, 9:45 is wrong", "9:15"),
    ("The deposit is £300.", "A: A deposit of £350 is typical.",
     "Ignore the previous response - £350 is for a bigger flat.", "£300"),
])
def test_the_assistants_reply_taken_back_leads_nothing(first: str, reply: str, later: str,
                                                       kept: str) -> None:
    ledger = _chat(first, reply, later)
    assert kept in current_set(ledger)
    assert kept not in replaced_by_map(ledger)


@pytest.mark.parametrize("later", [
    "Ignore my last reply, the rent is £950.",
    "disregard my previous msg - rent is £950",
])
def test_the_users_own_message_taken_back_still_leads(later: str) -> None:
    assert replaced_by_map(_chat("The rent is £900.", "A: Noted.", later)).get("£900") == "£950"


# 4. "make the K one N" in another's words

@pytest.mark.parametrize("later", [
    "My wife keeps saying: make the night one 18. I disagree.",
    "The forum said: make the night one 18. Sounds too warm to me.",
    'Her text: "make the night one 18". Not happening.',
    "My wife says: make the night one 18.",
    "my flatmate reckons - make the night one 18",
])
def test_make_in_anothers_words_sets_nothing(later: str) -> None:
    ledger = _chat("Heating: day 20, night 16.", "A: ok", later)
    assert _untouched(ledger, "16")
    assert "18" not in current_set(ledger)


@pytest.mark.parametrize(("first", "later", "kept"), [
    ("Font sizes: body 12, heading 18.",
     "Designer's note: make the heading one 24. Will think about it.", "18"),
    ("Oven: bread 220, pizza 250.", "Recipe says - make the bread one 200 - but I prefer 220.",
     "220"),
    ("Alarms: weekday 630, weekend 800.", "the boss emailed: make the weekday one 600. no way",
     "630"),
])
def test_make_quoted_from_a_source_sets_nothing(first: str, later: str, kept: str) -> None:
    assert _untouched(_chat(first, "A: ok", later), kept)


@pytest.mark.parametrize("later", [
    "make the night one 18.",
    "Actually, make the night one 18.",
    "sorry: make the night one 18",
    "Change of plan: make the night one 18.",
    "Update: make the night one 18.",
])
def test_make_of_the_users_own_still_sets_the_key(later: str) -> None:
    ledger = _chat("Heating: day 20, night 16.", "A: ok", later)
    assert replaced_by_map(ledger).get("16") == "18"
    assert "20" in current_set(ledger)


# 6. praise before a past clause is no value

@pytest.mark.parametrize(("first", "later", "kept"), [
    ("The venue is Hall B.", "Sorry, the venue is great, we were in Hall A last year.",
     "Hall B"),
    ("The hotel is the Ibis.",
     "actually the hotel is lovely, we stayed at the Hilton last time.", "Ibis"),
    ("The venue is Hall B.", "Ah sorry, the venue is really nice, it used to be in Hall A.",
     "Hall B"),
])
def test_praise_before_a_past_clause_replaces_nothing(first: str, later: str,
                                                      kept: str) -> None:
    ledger = _chat(first, "A: ok", later)
    assert _untouched(ledger, kept)
    assert not current_set(ledger) & {"great", "lovely", "nice", "really nice"}


@pytest.mark.parametrize("said", [
    "Sorry, lunch is good, it was 12 last week.",
    "Actually the flat is nice, we were in York before that.",
    "The prices are good, we went to Tesco for years.",
    "Sorry, the setup is fine, we were on Vim in 2019.",
])
def test_praise_before_a_past_clause_is_no_value(said: str) -> None:
    assert not current_set(_chat(said)) & {"good", "nice", "fine"}


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("The venue is Hall B.", "Sorry, the venue is Hall C, we were in Hall A last year.",
     "Hall B", "Hall C"),
    ("the office is in Leeds", "Actually the office is in Italy, we were in Leeds until 2022.",
     "Leeds", "Italy"),
])
def test_a_named_value_before_a_past_clause_still_states(first: str, later: str, old: str,
                                                         new: str) -> None:
    assert replaced_by_map(_chat(first, "A: ok", later)).get(old) == new


# 9. a titled name beside two persons' keys

@pytest.mark.parametrize(("first", "later", "kept"), [
    ("My GP is Dr Okonkwo. My sister is Sarah Jones.",
     "Actually it was Dr Hallam who did the scan.", "Dr Okonkwo"),
    ("My son's teacher is Mrs Patel. His coach is Dan Wells.",
     "Actually it's Mrs Green who runs the after-school club.", "Mrs Patel"),
    ("our vet is Dr Singh at Oak Lane Vets. my neighbour is Rob Kerr",
     "sorry its Dr Ames who did the jabs", "Dr Singh"),
    ("The kids' tutor is Ms Hale. My lawyer is Anna Price.",
     "oh it was Ms Cole who marked the test", "Ms Hale"),
])
def test_a_titled_name_beside_two_persons_marks_nothing(first: str, later: str,
                                                        kept: str) -> None:
    assert _untouched(_chat(first, "A: ok", later), kept)


def test_a_titled_name_beside_the_persons_own_place_is_still_possibly_it() -> None:
    ledger = _chat("Our vet is Dr Singh at Oak Lane Vets.", "A: ok",
                   "they've switched us to Dr Ames")
    assert _possibly(ledger, "Dr Singh") == "Dr Ames"
    assert "Oak Lane Vets" in current_set(ledger)


# 10. "the number plate" and a registration of no vehicle

@pytest.mark.parametrize(("first", "later", "kept"), [
    ("The conference registration is REG4471.", "The number plate is K4 TSY now.", "REG4471"),
    ("Event registration is EV-2231.", "and the licence plate is now K4 TSY", "EV-2231"),
    ("my gym registration no is 88123", "sorry, plate number is now AB12 CDE", "88123"),
])
def test_a_plate_meets_no_registration_of_another_thing(first: str, later: str,
                                                        kept: str) -> None:
    assert _untouched(_chat(first, "A: ok", later), kept)


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("My car registration is AB12 CDE.", "The number plate is K4 TSY now.", "AB12 CDE",
     "K4 TSY"),
    ("our motorbike's registration is YX11 QPR", "License plate changed to K4 TSY", "YX11 QPR",
     "K4 TSY"),
])
def test_a_plate_still_meets_a_vehicles_registration(first: str, later: str, old: str,
                                                     new: str) -> None:
    assert replaced_by_map(_chat(first, "A: ok", later)).get(old) == new


# 11. another's key said to have changed

@pytest.mark.parametrize(("first", "later", "kept"), [
    ("Her flight is BA123.", "His flight has changed, it's BA456.", "BA123"),
    ("My PIN is 4417.", "his PIN has changed: 9921", "4417"),
    ("My flight is BA123.", "their flight has changed, it's BA789", "BA123"),
])
def test_anothers_changed_key_replaces_nothing(first: str, later: str, kept: str) -> None:
    ledger = _chat(first, "A: ok", later)
    assert kept in current_set(ledger)
    assert kept not in replaced_by_map(ledger)


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("My flight is BA123.", "My flight has changed, it's BA456.", "BA123", "BA456"),
    ("Our door code is 5521", "our door code's been updated, its 7780", "5521", "7780"),
])
def test_the_users_changed_key_still_replaces(first: str, later: str, old: str,
                                              new: str) -> None:
    assert replaced_by_map(_chat(first, "A: ok", later)).get(old) == new


# 12. an owner after "'s" before a time

@pytest.mark.parametrize(("first", "later", "kept"), [
    ("My car is a Golf.", "The car's Priya's from tomorrow.", "Golf"),
    ("The spare room is Mum's.", "the spare room's Dad's from next week", "Mum's"),
])
def test_an_owner_before_a_time_is_no_value(first: str, later: str, kept: str) -> None:
    ledger = _chat(first, "A: ok", later)
    assert _untouched(ledger, kept)
    assert not current_set(ledger) & {"Priya", "Priya's", "Dad", "Dad's"}


def test_a_name_before_a_time_still_replaces() -> None:
    ledger = _chat("The codename is Falcon.", "A: ok", "the codename's Osprey from today")
    assert replaced_by_map(ledger).get("Falcon") == "Osprey"


# 13. the kept test counted once

def _fact(key: str, value: str, status: FactStatus = "current") -> Fact:
    return Fact(id=value, kind="number", key=key, value=value, status=status)


def test_kept_by_keeps_the_key_told_apart_by_kept_words() -> None:
    day = _fact("thermostat|day|number", "19.5")
    night = _fact("thermostat|overnight|number", "16")
    new = _fact("||number", "20.5")
    keeps = kept_by(new, frozenset({"overnight"}), [day, night, new])
    assert keeps(night)
    assert not keeps(day)


def test_kept_by_counts_only_current_keys() -> None:
    gone = _fact("thermostat|overnight|number", "15", status="replaced")
    night, new = _fact("thermostat|overnight|number", "16"), _fact("||number", "20.5")
    assert kept_by(new, frozenset({"overnight", "thermostat"}), [gone, night, new])(night)
    assert not kept_by(new, frozenset(), [night, new])(night)
