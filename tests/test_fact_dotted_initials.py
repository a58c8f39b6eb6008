"""Issue 28: dotted initials ("3:15 p.m.", "U.S.") end no sentence when the sentence goes on
after them, so "moved from 9:30 a.m. to 10 a.m." pairs its old and new time; and
a change's old time pairs with the new time of its own kind, not with a day named before it
("the Tuesday class moves from 6 p.m. ET to 7 p.m. ET")."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_dotted_initials import sentences
from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize(("text", "count"), [
    ("The call moves from 9:30 a.m. to 10 a.m. tomorrow.", 1),
    ("Doors open at 7 p.m. EST and close at 11 p.m. EST.", 1),
    ("The call is at 9 a.m. The room is B12.", 2),  # a capital word opens a new one
    ("Lunch is at noon. the room is B12.", 2),  # no initials: the splitter's own rule
    ("Rents in most U.K. cities rose to £1,400 this spring.", 1),
    ("We shipped it to the U.S. Then the price went up.", 2),
])
def test_a_sentence_goes_on_after_dotted_initials(text: str, count: int) -> None:
    assert len(sentences(text)) == count


@pytest.mark.parametrize(("text", "old", "new"), [
    ("The pottery class will be moved from 9:30 a.m. to 10:15 a.m.", "9:30 a.m.", "10:15 a.m."),
    ("Our Tuesday yoga session moves from 6 p.m. ET to 7 p.m. ET next month.",
     "6 p.m. ET", "7 p.m. ET"),
    ("The Friday webinar was pushed from 2pm PST to 3pm PST.", "2pm PST", "3pm PST"),
])
def test_a_change_of_time_in_one_sentence_replaces_the_old_time(text: str, old: str,
                                                                new: str) -> None:
    ledger = absorbed(("user", text))
    assert fact_of(ledger, new).status == "current"
    assert fact_of(ledger, old).status == "replaced"
    assert value_of(ledger, fact_of(ledger, old).replaced_by) == new


def test_a_value_after_dotted_initials_keeps_its_sentence_s_key() -> None:
    ledger = absorbed(("user", "A day pass in most U.K. cities costs £13.50."),
                      ("user", "They are bumping the cost of a day pass in most U.K. cities "
                               "to £14.25."))
    assert fact_of(ledger, "£13.50").status == "replaced"
    assert value_of(ledger, fact_of(ledger, "£13.50").replaced_by) == "£14.25"


@pytest.mark.parametrize("text", ["Dr. R. Okafor is our vet.", "Ask Maria T. Lopez about it."])
def test_a_title_or_middle_initial_goes_on_into_the_name(text: str) -> None:
    assert sentences(text) == [text]


def test_a_lone_capital_after_a_lower_case_word_still_ends_a_sentence() -> None:
    assert len(sentences("We picked plan B. Then it rained.")) == 2
