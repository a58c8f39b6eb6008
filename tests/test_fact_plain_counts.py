"""A count whose noun has no plural "s" ("3 staff", "2 people", "4 children") is a count
where a count goes: after a verb, before the noun and a preposition ("we need 3 staff on the
front desk"), and opening a sentence that adds to a list ("And 2 people on the front desk.").
An increment ("And 2 more") and a number that counts nothing stay unread."""

from __future__ import annotations

import pytest

from tests.fact_ledger import values_after


@pytest.mark.parametrize("text, count", [
    ("We need 3 staff on the front desk.", "3 staff"),
    ("The clinic wants 2 personnel at reception on Mondays.", "2 personnel"),
    ("The farm will bring 12 sheep for the petting corner.", "12 sheep"),
    ("And 2 people on the front desk.", "2 people"),
    ("And 4 children.", "4 children"),
])
def test_a_count_of_a_noun_without_plural_s_is_read(text: str, count: str) -> None:
    assert count in values_after(text)


def test_a_listed_count_in_its_own_sentence_stays_beside_the_changed_one() -> None:
    values = values_after(
        "We need 8 volunteers for the Saturday sort and 4 drivers for deliveries.",
        "And 2 people on the front desk.",
        "with the extra donations, the sort needs to go from 8 to 12 people")
    assert any("2 people" in v for v in values)
    assert any("12" in v for v in values)


@pytest.mark.parametrize("text", [
    "And 2 more on Sunday.",
    "And 3 of them are late.",
])
def test_an_increment_or_a_part_is_no_count(text: str) -> None:
    values = values_after(text)
    assert "2 more" not in values
    assert not any(v.startswith("3") for v in values)


def test_a_sentence_opening_noun_before_a_number_is_no_verb_of_a_count() -> None:
    assert not any("look" in v for v in values_after("question 4 look at src/app.py"))
