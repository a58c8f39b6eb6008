"""Stop 45's read-only review of its own rounds: four readings that went too far, each a
change that applied on 5c26af4 and stopped applying (or a value that replaced nothing and
began to), and one guard against a key with no unit."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_key_match import _count_of
from tests.fact_ledger import stated_status, user_ledger


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    # a check reported done, or promised after a change made, leaves the change made
    ("The booking is for Thursday.", "Booking moved to Friday, will confirm tomorrow.",
     "Thursday", "Friday"),
    # a passive "pushed for" is a change made, not another's push
    ("The launch is March 3.", "The launch got pushed for March 10.", "March 3", "March 10"),
    # a clause that opens with its verb is the speaker's own change, whatever is kept after
    ("The standup is at 9:30.", "Moved the standup to 10:00, but we are keeping Friday.",
     "9:30", "10:00"),
])
def test_a_change_made_still_applies(said: str, later: str, old: str, new: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, old) == "replaced"
    assert stated_status(ledger, new) == "current"


def test_a_count_for_a_while_is_no_count_of_what_there_is() -> None:
    ledger = user_ledger("We have 12 engineers.", "The budget got cut, so 3 for now.")
    assert stated_status(ledger, "12 engineers") == "current"


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("Rent is $1,600.", "Rent is $1,650, need to double-check.", "$1,600"),
    ("Rent is $1,600.", "Rent is $1,650, still have to confirm.", "$1,600"),
    ("Release is March 3.", "Marketing is pushing for March 10.", "March 3"),
])
def test_what_is_still_to_check_or_anothers_push_still_replaces_nothing(
        said: str, later: str, kept: str) -> None:
    assert stated_status(user_ledger(said, later), kept) == "current"


def test_a_count_key_beside_a_value_of_no_unit() -> None:
    assert _count_of("shard|count|number", "number", "x||", "") == ""
