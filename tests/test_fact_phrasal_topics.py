"""Issue 28, verb-k-to-x worded differently: a verb and its particle name the noun they make
("guests check out by 11:00" is the checkout time, "the festival kicks off at 18:00" the
kickoff), so "move the checkout time to 12:00" meets the earlier value; another key of the
same verb (the check-in) and a question are left alone."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    ("Guests check out by 11:00.", "Move the checkout time to 12:00.", "11:00", "12:00"),
    ("We roll out the update on Monday.", "Push the rollout to Wednesday.", "Monday",
     "Wednesday"),
    ("Volunteers sign up until 20 May.", "Change the sign-up deadline to 27 May.", "20 May",
     "27 May"),
])
def test_the_noun_a_phrasal_verb_makes_meets_its_statement(before: str, after: str, old: str,
                                                          new: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    replaced = fact_of(ledger, old)
    by = replaced.replaced_by or replaced.possibly_replaced_by
    assert by is not None and value_of(ledger, by) == new


def test_another_particle_of_the_same_verb_is_another_key() -> None:
    ledger = absorbed(("user", "Guests check in from 15:00 and check out by 11:00."),
                      ("user", "Move the checkout time to 12:00."))
    kept = fact_of(ledger, "15:00")
    assert kept.status == "current" and kept.possibly_replaced_by is None


def test_a_question_about_the_noun_replaces_nothing() -> None:
    ledger = absorbed(("user", "Guests check out by 11:00."),
                      ("user", "Could we move the checkout time to 12:00?"))
    kept = fact_of(ledger, "11:00")
    assert kept.status == "current" and kept.possibly_replaced_by is None
