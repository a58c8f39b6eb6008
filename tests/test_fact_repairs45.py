"""Stop 45: bare self-repairs, a message that gives only the value meant, after a hesitation
or a lead ("err, 40 s", "nvm, 4 am", "ahh no it's Tuesday the 16th", "*50 MB", "sorry,
12 cans in a pack"), and counts whose noun spells a list's unit class ("7 tickets").

Each pair left the first value current on 5c26af4 (the review's chat probes, selfcorr and
everyday). A hesitation that repairs ("err", "erm", "nvm") is a correction's lead; a drawn
out interjection ("ahh", "hmmm") is the filler it draws out; a star glued to a message's first
word is chat's mark of a correction; after a lead, a clause that is only a number and its noun,
or "it's N", is the value meant (``fact_repair_counts``); "I always mix those up" admits an
error as "I got that wrong" does; "6 tickets" is a count, not a list of ticket
identifiers; a bare item of a list unit after a lead means the one such value, where that
was stated as the value of a key naming its owner and attribute ("Our invoice number is").
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import starred
from tests.fact_ledger import status_of, user_ledger

REPAIRS = [
    ("The timeout is 30 s.", "err, 40 s", "30 s", "40 s"),
    ("The timeout is 30 s.", "errr... 40 s", "30 s", "40 s"),
    ("The timeout is 30 s.", "erm, 40 s", "30 s", "40 s"),
    ("The check-in for the flight opens at 5 am.", "nvm, 4 am, it's an international flight",
     "5 am", "4 am"),
    ("The dentist is on Tuesday the 9th.", "ahh no it's Tuesday the 16th",
     "Tuesday the 9th", "Tuesday the 16th"),
    ("The max upload size is 25 MB.", "*50 MB", "25 MB", "50 MB"),
    ("I need 6 tickets.", "Scratch that, I need 7 tickets.", "6 tickets", "7 tickets"),
    ("We have 3 classes on Monday.", "sorry, 4 classes", "3 classes", "4 classes"),
    ("Soup needs 2 litres of stock.", "hmm, more like 1.5 litres actually",
     "2 litres", "1.5 litres"),
    ("The pack has 24 cans.", "sorry, 12 cans in a pack", "24 cans", "12 cans"),
    ("Our invoice number is INV-2231.", "sorry, INV-2213", "INV-2231", "INV-2213"),
    ("The API base path is /api/v1.", "it's /api/v2 now btw", "/api/v1", "/api/v2"),
    ("The flat is 62 square metres.", "actually 68 square metres, I checked the lease",
     "62 square metres", "68 square metres"),
    ("Grafana runs at port 3000 here.", "ah no, we moved it, it's 3300", "3000", "3300"),
    ("Grafana runs at port 3000 here.", "sorry, it's 3300.", "3000", "3300"),
    ("The wedding is on Saturday, August 22.", "ugh, August 29, I always mix those up",
     "Saturday, August 22", "August 29"),
    ("The wedding is on Saturday, August 22.", "August 29, I mixed up the dates",
     "Saturday, August 22", "August 29"),
    # a value before "I got ... wrong" is no header of a lead alone (it was read as one)
    ("The cleaner is coming on Wednesday.", "the cleaner's coming Friday, I got the days wrong.",
     "Wednesday", "coming Friday"),
    ("The cleaner is coming on Wednesday.",
     "no wait... the cleaner's coming Friday, I mixed up the days.", "Wednesday", "coming Friday"),
]


@pytest.mark.parametrize(("said", "repair", "old", "new"), REPAIRS,
                         ids=[repair for _, repair, _, _ in REPAIRS])
def test_a_bare_self_repair_replaces_the_value_just_said(said: str, repair: str, old: str,
                                                         new: str) -> None:
    ledger = user_ledger(said, repair)
    assert status_of(ledger, old) == "replaced"
    assert status_of(ledger, new) == "current"


@pytest.mark.parametrize("later", [
    "12 cans in a pack is the other brand.",  # no lead: a fragment is no repair
    "um, the other brand has 12 cans",  # a hesitation that repairs nothing
])
def test_without_a_lead_a_count_fragment_replaces_nothing(later: str) -> None:
    ledger = user_ledger("The pack has 24 cans.", later)
    assert status_of(ledger, "24 cans") == "current"


@pytest.mark.parametrize("later", [
    "It's 3300.",  # no lead: "it" names nothing the number is a value of
    "ugh, the metrics port is 3300, we mix the two up all the time",  # another key, named
])
def test_it_is_a_number_without_a_lead_or_of_another_key(later: str) -> None:
    ledger = user_ledger("Grafana runs at port 3000 here.", later)
    assert status_of(ledger, "3000") == "current"


def test_a_bare_item_of_a_list_unit_never_takes_one_of_several() -> None:
    ledger = user_ledger("The open invoices are INV-2231 and INV-2232.", "sorry, INV-2213")
    assert status_of(ledger, "INV-2231") == "current"
    assert status_of(ledger, "INV-2232") == "current"


def test_a_path_of_no_key_is_a_list_item_a_later_one_leaves() -> None:
    ledger = user_ledger("Turn 1: please look at src/module_1.py now.",
                         "Turn 2: please look at src/module_2.py now.")
    assert status_of(ledger, "src/module_1.py") == "current"


def test_an_emergency_room_is_no_hesitation() -> None:
    ledger = user_ledger("The wait is 30 minutes.", "ER wait is 3 hours on Fridays.")
    assert status_of(ledger, "30 minutes") == "current"


@pytest.mark.parametrize(("content", "starred_"), [
    ("*50 MB", True),
    ("*Thursday, not Tuesday", True),
    ("  *bluefinch7", True),
    ("* 50 MB", False),  # a list item
    ("*Note*: the port is 8080", False),  # emphasis
    ("**50 MB**", False),
    ("50 MB*", False),
    ("*", False),
])
def test_a_star_glued_to_the_first_word_marks_a_correction(content: str,
                                                           starred_: bool) -> None:
    assert starred(content) is starred_
