"""Stop 50's readings of the key a value is of, read from its clause's subject: a fronted
adverbial is no subject ("in the morning it has 5 frames"), a verb after the subject is no
key ("today the scale said 83.6 kg": the scale's), "the X one" names the earlier key with
X, a figure set for a command-line flag is that option's value, and a statement that says
when it holds, beside the one earlier value of its unit, possibly restates it
(``fact_unit_alone``)."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.fact_ledger import status_of, user_ledger


def _key(text: str, value: str) -> str:
    return next(f.key for f in message_facts(text) if f.value == value)


@pytest.mark.parametrize(("text", "value", "key"), [
    # a fronted adverbial of time or place, then a pronoun: the pronoun's (no key)
    ("in the morning it has 5 frames", "5 frames", "||frame"),
    ("after the split it has 5 frames now", "5 frames", "||frame"),
    ("at the vet he weighed 12 kg", "12 kg", "||kg"),
    ("during the heatwave it used 30 kWh a day", "30 kWh a day", "||kwh"),
    # a fronted time, then a noun phrase opened by its determiner: that noun's
    ("today the scale said 83.6 kg", "83.6 kg", "|scale|kg"),
    ("this morning the scale showed 83.6 kg", "83.6 kg", "|scale|kg"),
    ("during the sale the shop opens at 8:00", "8:00", "|shop|time"),
    ("after the update the api listens on 8443", "8443", "|api|port"),
    ("in the morning she walked 5 km", "5 km", "||km"),
    # a change verb alone as a label names no key ("Moved:"): the value refers back
    ("Moved: Tuesday 10:15.", "Tuesday 10:15", "||time"),
    ("Changed: 8081", "8081", "||number"),
    ("Updated: v2.3 is out", "v2.3", "||version"),
    # "of next month" after a date says which month, it names no owner
    ("I renewed it, due back on the 4th of next month.", "4th", "|due|date"),
    ("the invoice is due on the 15th of this month", "15th", "|invoice|date"),
    # a count with its magnitude glued on is a count of its noun
    ("After dedup it's 980k rows.", "980k rows", "||row"),
    ("The dataset has 1.2M rows.", "1.2M rows", "|dataset|row"),
    ("the job processed 2.5bn requests", "2.5bn requests", "|job|request"),
    # an interjection that opens the clause is no subject
    ("lol yes 12 Aug 2027", "12 Aug 2027", "||date"),
    ("yes 4 people", "4 people", "||people"),
    ("haha yeah the port is 8080", "8080", "|port|port"),
])
def test_the_key_is_the_subjects_not_the_adverbials_or_the_verbs(
        text: str, value: str, key: str) -> None:
    assert _key(text, value) == key


@pytest.mark.parametrize(("text", "value", "key"), [
    # a noun that is also a change verb, after its determiner, is a noun
    ("the switch has 24 ports", "24 ports", "|switch|port"),
    ("the move costs 300 EUR", "300 EUR", "|move|money"),
    ("the switch: 24 ports", "24 ports", "|switch|port"),
    ("60 s for the api", "60 s", "|api|duration"),
    ("Parking at the venue is 10 EUR", "10 EUR", "|venue|money"),
    ("we need 5m of rope", "5m", "|rope|m"),
    # unchanged: a fronted "for" is a purpose; an object after a pronoun's verb is the key
    ("Moving forward we schedule candidate interviews through GoodTime.", "GoodTime",
     "schedule|candidate|name"),
    ("we moved the meeting to 3pm", "3pm", "|meeting|time"),
    ("set the timeout to 30 s", "30 s", "|timeout|duration"),
])
def test_keys_read_before_stay(text: str, value: str, key: str) -> None:
    assert _key(text, value) == key


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("grafana admin port 3001, loki api port 3100", "oh the admin one is 3002, 3001 was taken",
     "3001", "3002"),
    ("staging port is 8080, prod port is 443", "the staging one is 8081 now", "8080", "8081"),
    ("the api listens on 8080, the admin ui on 9090", "the admin one moved to 9091", "9090",
     "9091"),
])
def test_the_x_one_names_the_earlier_key_with_x(said: str, later: str, old: str,
                                                 new: str) -> None:
    ledger = user_ledger(said, later)
    assert status_of(ledger, old) == "replaced"
    assert status_of(ledger, new) == "current"


def test_a_change_verb_label_takes_the_one_value_back() -> None:
    ledger = user_ledger("The appointment is 10:15 on Monday.", "Moved: Tuesday 10:15.")
    assert status_of(ledger, "Monday") == "replaced"
    assert status_of(ledger, "10:15") == "replaced"
    assert status_of(ledger, "Tuesday 10:15") == "current"


def test_the_x_one_of_two_keys_with_x_stays_its_own() -> None:
    ledger = user_ledger("the blue mug costs 12 EUR and the blue cup costs 9 EUR",
                         "the blue one is 10 EUR")
    assert status_of(ledger, "12 EUR") == "current"
    assert status_of(ledger, "9 EUR") == "current"


@pytest.mark.parametrize(("said", "later", "old"), [
    ("JVM flags: -Xms2g -Xmx4g", "we raised -Xmx to 6g", "-Xmx4g"),
    ("make flags: -j4", "bumped -j to 8", "-j4"),
    ("node options: -Xss512k -Xmx2g", "we set -Xss to 1m", "-Xss512k"),
])
def test_a_figure_set_for_a_flag_replaces_the_flags_value(said: str, later: str,
                                                          old: str) -> None:
    assert status_of(user_ledger(said, later), old) == "replaced"


def test_a_figure_set_for_one_flag_leaves_the_other() -> None:
    ledger = user_ledger("node options: -Xss512k -Xmx2g", "we set -Xss to 1m")
    assert status_of(ledger, "-Xmx2g") == "current"


@pytest.mark.parametrize(("said", "later", "old"), [
    ("the van has 143,000 km on it", "odometer says 146,200 km as of today", "143,000 km"),
    ("weighed in at 84.2 kg this morning", "good. today the scale said 83.6 kg", "84.2 kg"),
    ("I water the fiddle leaf fig every 7 days",
     "in winter the ficus only gets a drink every 12 days", "every 7 days"),
    ("the boiler runs at 1.5 bar", "after the service the gauge reads 1.2 bar", "1.5 bar"),
])
def test_the_one_earlier_value_of_its_unit_is_possibly_restated(said: str, later: str,
                                                                 old: str) -> None:
    ledger = user_ledger(said, later)
    fact = next(f for f in ledger if f.value == old)
    assert fact.status == "current" and fact.possibly_replaced_by is not None


@pytest.mark.parametrize(("said", "later", "old"), [
    ("the beehive has 8 frames of brood", "after the split it has 5 frames", "8 frames"),
    ("the battery holds 5000 mAh", "after a year it holds 4200 mAh", "5000 mAh"),
    ("the tank holds 40 liters", "since the leak it holds 35 liters", "40 liters"),
    ("The dataset has 1.2M rows.", "After dedup it's 980k rows.", "1.2M rows"),
])
def test_a_pronouns_value_of_the_one_earlier_unit_replaces_it(said: str, later: str,
                                                               old: str) -> None:
    assert status_of(user_ledger(said, later), old) == "replaced"


@pytest.mark.parametrize(("said", "later", "old"), [
    # no word of when it holds: another thing's
    ("my bike weighs 9 kg", "the dog weighs 30 kg", "9 kg"),
    ("the fridge is 180 cm tall", "the doorway is 175 cm wide", "180 cm"),
    # what a person does: an activity of its own
    ("I sleep 7 hours", "these days I work 9 hours", "7 hours"),
    ("my commute is 40 minutes", "today I walked 30 minutes", "40 minutes"),
    # a question, a hypothetical
    ("the dog weighs 11 kg", "if he weighed 12 kg now would that be bad?", "11 kg"),
    ("the tank holds 40 liters", "would it be better if it had 60 liters now?", "40 liters"),
    # two earlier values of the unit: which one is unknown
    ("the van has 143,000 km and the car 80,000 km", "odometer says 146,200 km today",
     "143,000 km"),
    # two owners
    ("the API port is 8080", "the admin port is 9090 now", "8080"),
])
def test_no_restatement_is_read_where_nothing_says_so(said: str, later: str, old: str) -> None:
    ledger = user_ledger(said, later)
    fact = next(f for f in ledger if f.value == old)
    assert fact.status == "current" and fact.possibly_replaced_by is None
