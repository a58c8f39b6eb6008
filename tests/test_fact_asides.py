"""A relative clause set off between the opening subject and its verb (``fact_asides``,
issue 28): the subject meets its verb, so "X, which ..., is now Y" changes X. New words; the
changes failed on 192c7d1.
"""

from __future__ import annotations

import pytest

from tests.fact_ledger import current_after_exchanges


@pytest.mark.parametrize(("before", "message", "new", "old"), [
    ("The API port is 8080.", "The API port, which the proxy forwards to, is now 9090.",
     "9090", "8080"),
    ("The chess club meets on Monday.",
     "The chess club, which was founded in 1987 and has forty members, now meets on "
     "Wednesday.", "Wednesday", "Monday"),
    ("", "Northgate Primary, which opened in 1994, is now Riverside Academy.",
     "Riverside Academy", ""),
])
def test_the_subject_meets_its_verb(before: str, message: str, new: str, old: str) -> None:
    now = current_after_exchanges(*[m for m in (before, message) if m])
    assert new in now, now
    assert not old or old not in now, now


def test_a_relative_clause_after_a_clause_stays() -> None:
    """"We moved the stand-up to 9:30, which suits Ana, ..." opens with a clause, not a
    noun phrase: nothing is left out, and the change holds."""
    now = current_after_exchanges(
        "The stand-up is at 9:00.",
        "We moved the stand-up to 9:30, which suits Ana, and it stays there.")
    assert "9:30" in now and "9:00" not in now, now
