"""Issue 28, stop 41: a time or date named as the old value is replaced by the *nearest* new
value of its kind in the sentence (``facts.absorb``), not by the sentence's first one: "At
2:00 there is swim, so pickup is 3:45, not 3:15" replaces 3:15 by 3:45, not by 2:00. What a
value was replaced by is shown beside it in the panel and the request, so it must be right.
Questions and proposals still replace nothing."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_types import Fact
from tests.fact_ledger import user_ledger


def _replaced_by(kept: list[Fact], value: str) -> str | None:
    by_id = {f.id: f for f in kept}
    old = next(f for f in kept if f.value == value)
    assert old.status == "replaced", f"{value} is still {old.status}"
    return by_id[old.replaced_by].value if old.replaced_by in by_id else None


@pytest.mark.parametrize(("history", "message", "old", "new"), [
    ("Pickup is at 3:15 on Fridays.", "At 2:00 there is swim, so pickup is 3:45, not 3:15.",
     "3:15", "3:45"),
    ("Lunch is at 12:00. Dinner is at 7pm.",
     "Lunch at 1pm is fine and 8pm rather than 7pm for dinner.", "7pm", "8pm"),
])
def test_an_old_time_is_replaced_by_the_nearest_new_time(history: str, message: str, old: str,
                                                         new: str) -> None:
    kept = user_ledger(history, message)
    assert _replaced_by(kept, old) == new


@pytest.mark.parametrize("message", [
    "Should pickup be 3:45 instead of 3:15?",
    "What if pickup were at 3:45 rather than 3:15?",
])
def test_a_question_about_an_old_time_replaces_nothing(message: str) -> None:
    kept = user_ledger("Pickup is at 3:15 on Fridays.", message)
    assert next(f for f in kept if f.value == "3:15").status == "current"


def test_two_things_moved_to_new_values_each_replace_their_own() -> None:
    """"The API moved to 8100 and the admin UI moved to 8101": 8100 is the first change's
    target, not the subject that the second change moves (``moved_subject``), so 8000 is
    replaced by 8100 and 8001 by 8101."""
    kept = user_ledger("The API port is 8000. The admin UI port is 8001.",
                       "The API moved to 8100 and the admin UI moved to 8101.")
    assert _replaced_by(kept, "8000") == "8100"
    assert _replaced_by(kept, "8001") == "8101"
    assert next(f for f in kept if f.value == "8100").status == "current"


def test_a_value_moved_to_a_new_one_is_still_old() -> None:
    """The subject of "Y moved to X" stays old: only a value right after "to" is kept new."""
    kept = user_ledger("The review is at 3pm.", "The 3pm review moved to 4pm.")
    assert _replaced_by(kept, "3pm") == "4pm"
