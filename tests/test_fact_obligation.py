"""A later clause that says with a modal of obligation what a reported value ought to be
names the right value and retires the reported one ("the docs say 3000, it's supposed to be
8000"); the same modal that says what a value must be under a condition, from a time or for
a purpose, or that infers ("so it should be"), retires nothing ("rent is €900, it should be
€950 from January")."""

from __future__ import annotations

import pytest

from tests.fact_ledger import check_current, values_after


@pytest.mark.parametrize("text, new, old", [
    ("The port in the docs is 3000, it is supposed to be 8000.", "8000", "3000"),
    ("The wiki says the port is 3000, but it's supposed to be 8000.", "8000", "3000"),
    ("The changelog lists the timeout as 30 s; that's supposed to be 45 s.", "45 s", "30 s"),
])
def test_a_pronoun_joined_to_its_copula_before_supposed_to_names_the_right_value(
        text: str, new: str, old: str) -> None:
    check_current(values_after(text), new, old)


@pytest.mark.parametrize("text, kept", [
    ("Rent is €900 a month, it should be €950 from January.", "€900 a month"),
    ("The estimate is 3 days, and it should be 2 days if Bob helps.", "3 days"),
    ("We have 40 GB free; it must be 50 GB for the upgrade.", "40 GB"),
    ("Our flight lands at 14:00, so it should be 15:30 by the time we reach the hotel.",
     "14:00"),
    ("The standup is at 9:00, it should be 10:00 when daylight saving ends.", "9:00"),
    ("Our budget is $5,000 and it must be $6,000 next year.", "$5,000"),
])
def test_an_obligation_that_is_a_wish_or_a_requirement_retires_nothing(
        text: str, kept: str) -> None:
    assert kept in values_after(text)


@pytest.mark.parametrize("text, new, old", [
    ("There's a typo: the port is 3000, it should be 8000.", "8000", "3000"),
    ("The deadline is March 3 (should be March 5).", "March 5", "March 3"),
    ("The port is 3000 in the README, while it should be 8000.", "8000", "3000"),
])
def test_an_obligation_after_a_report_an_error_or_a_contrast_still_corrects(
        text: str, new: str, old: str) -> None:
    check_current(values_after(text), new, old)
