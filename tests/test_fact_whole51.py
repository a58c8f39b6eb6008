"""Values read whole and repairs inside one message (issue 28, stop 51): minutes and seconds
no clock reads ("48:30"), a street whose kind opens it ("14 Rue Oberkampf, 75011 Paris"), a
lower-case value after a label's colon ("north bed: basil."), a phone number of a trunk code
and one long group ("07700 900123"), a condition of relevance ("if the courier needs it"), a
bare hour after "at" ("opens at 7", "Wednesday — at 10"), an age ("she's turning 7"), and a
self-repair with a hesitation and "actually" ("Denver — er, Colorado Springs actually").
Each negative reads as on main."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.engine_fakes import absorbed
from tests.fact_ledger import replaced_by_map, stated_status


def _values(text: str) -> set[str]:
    return {f.value for f in message_facts(text) if f.kind != "question"}


def _chat(said: str, later: str) -> dict[str, str]:
    return replaced_by_map(absorbed(("user", said), ("assistant", "Noted."), ("user", later)))


@pytest.mark.parametrize(("text", "value"), [
    ("My 10k personal best is 48:30 from the spring race", "48:30"),
    ("the pomodoro timer is 25:00", "25:00"),
    ("ran the parkrun in 26:14.5 today", "26:14.5"),
    ("address is now 14 Rue Oberkampf, 75011 Paris", "14 Rue Oberkampf, 75011 Paris"),
    ("the office is at 12 Calle de Alcalá", "12 Calle de Alcalá"),
    ("send it to Lindenweg 4, 80331 München", "Lindenweg 4, 80331 München"),
    ("north bed: basil", "basil"),
    ("favourite colour: teal", "teal"),
    ("the log level: debug", "debug"),
    ("my mobile is 07700 900123", "07700 900123"),
    ("call me on +44 7700 900123", "+44 7700 900123"),
    ("my mobile is 07700 900123 if the courier needs it", "07700 900123"),
    ("the door code is 4471 in case the cleaner needs it", "4471"),
    ("the bakery opens at 7", "7"),
    ("we meet on Fridays at 4 in room B", "4"),
    ("team sync is on Wednesday — at 10 in the big room", "10"),
    ("practice starts at 5, so bring water", "5"),
    ("she's turning 8", "8"),
    ("my dad turned 70 in May", "70"),
])
def test_a_value_is_read_whole(text: str, value: str) -> None:
    assert value in _values(text)


@pytest.mark.parametrize(("text", "absent"), [
    ("edit: typo", "typo"),            # a part of the message, no thing's label
    ("Status: shipped", "shipped"),    # a participle: what happened to it
    ("I have 3 kids at 10 schools", "10"),
    ("on Monday at 3 of the sites we saw errors", "3"),
    ("the app crashes at 8", "8"),     # no verb of a timetable: a count may be meant
    ("we switch to Postgres if the team needs it", "Postgres"),  # a real condition
    ("we stay in if it pours", "in"),
])
def test_no_value_where_none_is_stated(text: str, absent: str) -> None:
    assert absent not in _values(text)


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("My 10k personal best is 48:30", "oh, not 48:30 but 47:52 now", "48:30", "47:52"),
    ("My mailing address: 8 Rue des Martyrs, 75009 Paris",
     "I moved!! address is now 14 Rue Oberkampf, 75011 Paris",
     "8 Rue des Martyrs, 75009 Paris", "14 Rue Oberkampf, 75011 Paris"),
    ("the bakery opens at 7, the café next door opens at 9", "café opens at 8 now", "9", "8"),
])
def test_a_value_read_whole_is_replaced_whole(said: str, later: str, old: str,
                                              new: str) -> None:
    assert _chat(said, later).get(old) == new


@pytest.mark.parametrize(("text", "old", "new"), [
    ("I'm flying into Denver — er, Colorado Springs actually, on the 22nd", "Denver",
     "Colorado Springs"),
    ("we land in Porto — um, Lisbon actually", "Porto", "Lisbon"),
    ("I'm staying at the Hilton, sorry, the Grand Central Hotel", "Hilton",
     "Grand Central Hotel"),
    ("she's turning 7, I mean 8, she had one last spring", "7", "8"),
    ("my dad turned 70, sorry, 71 in May", "70", "71"),
])
def test_a_self_repair_replaces_the_value_taken_back(text: str, old: str, new: str) -> None:
    ledger = absorbed(("user", text))
    assert replaced_by_map(ledger).get(old) == new
    assert stated_status(ledger, new) == "current"


@pytest.mark.parametrize(("text", "kept"), [
    ("we visited Denver, er, Boulder and Aspen", "Denver"),      # no "actually": a list
    ("the venue is Leeds, Manchester actually", "Leeds"),        # no hesitation
    ("she lives in Denver — uh, Colorado Springs is nice too", "Denver"),  # a clause of its own
])
def test_no_repair_without_its_marks(text: str, kept: str) -> None:
    assert stated_status(absorbed(("user", text)), kept) in ("current", None)
    assert kept not in replaced_by_map(absorbed(("user", text)))
