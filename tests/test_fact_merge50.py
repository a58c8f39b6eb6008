"""Stop 50's merge: a weekday with its time (read as one value by the values round) that
replaces a time said without its day ("10:15 on Monday", two values) replaces that day too,
in either order of reading (``fact_day_times.taken_day`` / ``day_taken_later``)."""

import pytest

from tests.engine_fakes import absorbed
from tests.fact_ledger import status_of, user_ledger


@pytest.mark.parametrize(("said", "later", "time", "day", "new"), [
    ("The appointment is 10:15 on Monday.", "Moved: Tuesday 10:15.", "10:15", "Monday",
     "Tuesday 10:15"),
    ("Dentist at 9:30 on Thursday.", "It's Friday 9:30 now.", "9:30", "Thursday",
     "Friday 9:30"),
    ("The call is 4pm on Wednesday.", "Actually it's Thursday 4pm.", "4pm", "Wednesday",
     "Thursday 4pm"),
])
def test_a_day_and_time_replace_the_day_said_beside_the_time(said: str, later: str, time: str,
                                                             day: str, new: str) -> None:
    ledger = user_ledger(said, later)
    assert status_of(ledger, time) == "replaced"
    assert status_of(ledger, day) == "replaced"
    assert status_of(ledger, new) == "current"


def test_another_keys_weekday_in_that_message_holds() -> None:
    ledger = user_ledger("Standup is 10:15 on Monday, the gym is on Friday.",
                         "Moved: Tuesday 10:15.")
    assert status_of(ledger, "Friday") == "current"


def test_two_weekdays_beside_the_time_leave_the_day_alone() -> None:
    ledger = user_ledger("The gym is on Friday, standup is 10:15 on Monday.",
                         "Moved: Tuesday 10:15.")
    assert status_of(ledger, "Friday") == "current"


@pytest.mark.parametrize("reply", [
    "For the appendix: the server runs Python 11.5 at the moment.",
    "For the appendix: the server runs Python 11.5 currently.",
    "For the appendix: at present the server runs Python 11.5.",
])
def test_a_state_at_the_moment_corrects_no_other_key(reply: str) -> None:
    """The matrix's false supersessions of stop 50: "at the moment" read as "now" made a
    reply's state a correction of the one earlier value of its unit under the same heading."""
    ledger = absorbed(("user", "For the appendix: the class responsible for this is "
                               "CurlewGateClient2."), ("assistant", reply))
    old = next(f for f in ledger if f.value == "CurlewGateClient2")
    assert old.status == "current"
    assert old.disputed_by is None
