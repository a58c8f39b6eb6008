"""Stop 44's read-only review (410 chat probes of its own): a plan in the present tense.

"Tomorrow we move the port to 9090" replaced 8080 at once on 3113c5b. The present of a change
verb after its speaker, with a later time in the same clause, is a plan as "we'll" and "going
to" are (``fact_mood_planned``); the change made now, or a later time in another clause, is
read as before.
"""

from __future__ import annotations

import pytest

from tests.fact_ledger import status_of, user_ledger


@pytest.mark.parametrize("said", [
    "Tomorrow we move the port to 9090",
    "Tomorrow, we move the port to 9090.",
    "We move the port to 9090 tomorrow.",
    "Next week we switch the port to 9090.",
    "Next week, I change the port to 9090.",
])
def test_a_change_in_the_present_with_a_later_time_is_a_plan(said: str) -> None:
    ledger = user_ledger("The API port is 8080.", said)
    assert status_of(ledger, "8080") == "current"
    assert all(f.kind == "question" for f in ledger if f.value == "9090")


@pytest.mark.parametrize("said", [
    "We move the port to 9090 now.",
    "We moved the port to 9090 yesterday.",
    "We set the port to 9090, deploy tomorrow.",
])
def test_a_change_made_now_or_a_later_time_elsewhere_still_applies(said: str) -> None:
    ledger = user_ledger("The API port is 8080.", said)
    assert status_of(ledger, "8080") == "replaced"
    assert status_of(ledger, "9090") == "current"
