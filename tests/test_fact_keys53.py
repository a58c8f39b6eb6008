"""Stop 53, keys: one key in two phrasings (area B of the stop's brief).

- A unit class of area: "68 square meters", "72 m²", "1,650 square feet" are one quantity,
  as "300 MB" and "2 GB" are one size; a grouped number is read whole ("1,800" is not
  "1,650").
- A correction that says the user's own word was wrong ("I had it wrong", "typo", "my
  mistake") and gives a measured value whose key meets none possibly corrects the user's one
  value of that unit so far, though the two statements share no word; a change with no error
  ("the freezer is at -18°C now") may be another thing's and marks nothing.
- A plain statement that says when it holds is a reading of the one earlier value of its unit
  unless a person is the subject of its value's clause ("odometer says 146,200 km as of today,
  I did a long trip": the person is another clause's).
- A plain statement of a key written otherwise ("db"/"database", "dad"/"father",
  "arrive"/"arrival") meets the earlier value of the same key: replaced where it names owner
  and attribute, else possibly; a key only possibly the same ("my doctor" beside "my mum's
  doctor") is left alone.
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_keys import unit_class
from ollm_desktop.engine.fact_named_only import same_value
from ollm_desktop.engine.fact_types import Fact
from tests.engine_fakes import absorbed


def _chat(said: str, later: str, reply: str = "Ok.") -> list[Fact]:
    return absorbed(("user", said), ("assistant", reply), ("user", later))


def _fact(ledger: list[Fact], value: str) -> Fact:
    return next(f for f in ledger if f.value == value and f.source == "user")


def _marked(ledger: list[Fact], old: str, new: str) -> bool:
    fact = _fact(ledger, old)
    return fact.status == "current" and fact.possibly_replaced_by == _fact(ledger, new).id


def _untouched(ledger: list[Fact], old: str) -> bool:
    fact = _fact(ledger, old)
    return fact.status == "current" and fact.possibly_replaced_by is None


@pytest.mark.parametrize("value", ["68 square meters", "72 m²", "85 sqm", "92 m2",
                                   "1,650 square feet", "1,800 sq ft", "2 acres"])
def test_units_of_area_are_one_class(value: str) -> None:
    assert unit_class(value, "number", "") == "area"


@pytest.mark.parametrize(("a", "b", "same"), [
    ("1,800 sq ft", "1,650 square feet", False),
    ("1,800 people", "1,500 people", False),
    ("1,800 people", "1800 people", True),
    ("68 square meters", "68 m²", True),
])
def test_a_grouped_number_is_read_whole(a: str, b: str, same: bool) -> None:
    assert same_value(a, b) is same


@pytest.mark.parametrize(("said", "reply", "later", "old", "new"), [
    ("The flat has 68 square meters and 3 rooms, I sign the contract Friday.",
     "68 m² with 3 rooms is a good size!",
     "The living area is 72 m², I had it wrong from the advertisement.",
     "68 square meters", "72 m²"),
    ("house is 1,800 sq ft", "ok",
     "my mistake - the living space is 1,650 square feet, the garage doesnt count",
     "1,800 sq ft", "1,650 square feet"),
    ("the pond holds 3000 litres", "ok", "typo earlier, water volume is 300 litres not a lot",
     "3000 litres", "300 litres"),
])
def test_an_admitted_error_possibly_corrects_the_one_value_of_its_unit(
        said: str, reply: str, later: str, old: str, new: str) -> None:
    assert _marked(_chat(said, later, reply), old, new)


@pytest.mark.parametrize(("said", "later", "old"), [
    ("the fridge is at 4°C", "oh and the freezer is at -18°C now", "4°C"),
    ("my desk is 140 cm wide", "the shelf next to it is 80 cm now, I cut it down", "140 cm"),
    ("we have 50 GB of storage on the plan", "actually the backup drive is 2 TB", "50 GB"),
    ("I sleep 7 hours", "these days, I work 9 hours", "7 hours"),
    ("I sleep 7 hours", "my mistake, I work 9 hours", "7 hours"),
])
def test_a_change_with_no_error_or_a_persons_activity_marks_nothing(said: str, later: str,
                                                                     old: str) -> None:
    assert _untouched(_chat(said, later), old)


@pytest.mark.parametrize(("said", "reply", "later", "old", "new"), [
    ("the van has 143,000 km on it", "143,000 km — timing belt due soon!",
     "odometer says 146,200 km as of today, I did a long trip", "143,000 km", "146,200 km"),
    ("the boat has 1,200 litres of diesel", "ok",
     "the gauge says 900 litres as of this morning, we went out to the islands",
     "1,200 litres", "900 litres"),
])
def test_a_person_in_another_clause_is_not_the_readings_subject(
        said: str, reply: str, later: str, old: str, new: str) -> None:
    assert _marked(_chat(said, later, reply), old, new)


@pytest.mark.parametrize(("said", "later", "old"), [
    ("I sleep 7 hours", "these days I work 9 hours, it's a lot", "7 hours"),
    ("my bike weighs 9 kg", "the dog weighs 30 kg, I think", "9 kg"),
])
def test_a_persons_own_clause_still_marks_nothing(said: str, later: str, old: str) -> None:
    assert _untouched(_chat(said, later), old)


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("the db port is 5432", "the database port is 5433", "5432", "5433"),
    ("Dad's phone is 555-3000.", "Father's phone is 555-3001, new SIM.", "555-3000",
     "555-3001"),
    ("Maximum occupancy is 40.", "Max occupancy is 45 after the renovation.", "40", "45"),
    ("the db password is hunter2", "the database password is swordfish now", "hunter2",
     "swordfish"),
])
def test_one_key_written_two_ways_is_replaced(said: str, later: str, old: str,
                                              new: str) -> None:
    ledger = _chat(said, later)
    assert _fact(ledger, old).replaced_by == _fact(ledger, new).id


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("My mom is Ann.", "My mother is called Anne, with an e.", "Ann", "Anne"),
    ("Vet: Dr. Ray.", "Veterinarian: Dr. Ray Jr.", "Dr. Ray", "Dr. Ray Jr"),
])
def test_one_key_written_two_ways_with_no_owner_is_possibly_replaced(
        said: str, later: str, old: str, new: str) -> None:
    assert _marked(_chat(said, later), old, new)


@pytest.mark.parametrize(("said", "later", "old"), [
    ("My mum's doctor is Dr. Ali.", "My doctor is Dr. Cole.", "Dr. Ali"),
    ("My sister's vet is Dr. Lu.", "Our vet is Dr. Kim.", "Dr. Lu"),
    ("My DOB is 1985-04-12.", "My husband's birthday is 1983-09-30.", "1985-04-12"),
    ("the API port is 8443", "what if the port is 9443?", "8443"),
    ("mum's flight lands at 15:20", "dad's flight lands at 18:00", "15:20"),
])
def test_a_key_only_possibly_the_same_is_left_alone(said: str, later: str,
                                                    old: str) -> None:
    assert _untouched(_chat(said, later), old)


@pytest.mark.parametrize(("said", "later", "old", "new", "sibling"), [
    ("Basel: arrive 14:06, depart 14:21.", "the arrival is 14:11.", "14:06", "14:11", "14:21"),
    ("ferry: depart 9:40, arrive 11:15", "departure is 10:05", "9:40", "10:05", "11:15"),
])
def test_a_verb_and_its_event_noun_are_one_key(said: str, later: str, old: str, new: str,
                                               sibling: str) -> None:
    """"arrive" and "arrival": one time of one event, possibly replaced (no owner named);
    the sibling ("depart" beside "arrival") is another key."""
    ledger = _chat(said, later)
    assert _marked(ledger, old, new)
    assert _untouched(ledger, sibling)


def test_a_bare_number_meets_its_key_named_with_fewer_owner_words() -> None:
    """"fridge space is actually 70" (its unit left out) after "kitchen fridge space 68 cm":
    the owner's last word kept, the one key of its attribute (``fact_owner_dropped``)."""
    ledger = _chat("kitchen fridge space 68 cm wide, looking for a new fridge-freezer",
                   "fridge space is actually 70, I measured from the wrong tile.",
                   "With 68 cm of space you'll want a model no wider than about 60 cm.")
    assert _fact(ledger, "68 cm").replaced_by == _fact(ledger, "70").id


@pytest.mark.parametrize(("said", "later", "old"), [
    ("the kitchen fridge space is 68 cm", "the garage fridge space is actually 70", "68 cm"),
    ("the kitchen shelf is 90 cm wide", "the bathroom shelf is actually 60", "90 cm"),
])
def test_a_bare_number_of_another_owner_meets_nothing(said: str, later: str,
                                                      old: str) -> None:
    assert _untouched(_chat(said, later), old)


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("my blood pressure was 140/90 at the clinic", "BP is 128/84 now with the new meds",
     "140/90", "128/84"),
    ("the recommended retail price is £189", "the RRP is £210 now", "£189", "£210"),
    ("My scope's focal length is 1200 mm", "the scope's FL is 1250 mm, checked the tube label",
     "1200 mm", "1250 mm"),
    ("my personal best is 52:30", "new PB is 49:50", "52:30", "49:50"),
])
def test_initials_are_the_words_they_stand_for(said: str, later: str, old: str,
                                               new: str) -> None:
    ledger = _chat(said, later)
    assert _fact(ledger, old).replaced_by == _fact(ledger, new).id


@pytest.mark.parametrize(("said", "later", "old"), [
    ("My scope's focal length is 1200 mm", "the Dob's FL is 1250 mm", "1200 mm"),
    ("the afternoon meeting is at 14:00", "the AM standup is at 9:00", "14:00"),
    ("the tank volume is 200 l", "the TV is 55 inch", "200 l"),
])
def test_initials_of_another_owner_or_a_word_meet_nothing(said: str, later: str,
                                                          old: str) -> None:
    assert _untouched(_chat(said, later), old)
