"""Money written with its own words or the cents sign is money (issue 28, stop 41): "75¢",
"85 cents", "30 dollars" meet "$1.00" or "$35" under one key, so a correction in the other
form replaces the older price instead of leaving both current. A bare "c" or "p" after a
figure is no money's word ("25c outside", "720p")."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_keys import unit_class
from tests.fact_ledger import current_set, user_ledger


@pytest.mark.parametrize(("first", "then", "old", "new"), [
    ("The youth fare is 75¢.", "The youth fare is now 85 cents.", "75¢", "85 cents"),
    ("Stamps cost 58 cents.", "Stamps now cost $0.63.", "58 cents", "$0.63"),
    ("The ticket is 30 dollars.", "The ticket is $35 now.", "30 dollars", "$35"),
    ("A coffee is 90 pence here.", "Actually a coffee is £1.10 here.", "90 pence", "£1.10"),
])
def test_a_price_in_words_or_cents_is_replaced_by_a_price_in_symbols(
        first: str, then: str, old: str, new: str) -> None:
    current = current_set(user_ledger(first, then))
    assert new in current
    assert old not in current


def test_a_weight_in_pounds_is_no_price() -> None:
    current = current_set(user_ledger("The bag of flour weighs 5 pounds.", "The flour is now $5."))
    assert "5 pounds" in current
    assert "$5" in current


@pytest.mark.parametrize(("value", "unit"), [("25c", "c"), ("720p", "p"), ("75¢", "money"),
                                             ("30 dollars", "money"), ("2 1/2 cups", "cup")])
def test_the_unit_class_of_a_figure_and_its_word(value: str, unit: str) -> None:
    """A temperature's "c" and a resolution's "p" stay their own class; a fraction's figure
    is the number, so "2 1/2 cups" counts cups."""
    assert unit_class(value, "number", "") == unit


def test_a_plain_fraction_is_its_number() -> None:
    """"1/2 teaspoon" and "1/4 teaspoon" are both teaspoons (not "/2 teaspoon")."""
    assert unit_class("1/2 teaspoon", "number", "") == unit_class("1/4 teaspoon", "number", "")


@pytest.mark.parametrize("limit", ["I can't eat after midnight.",
                                   "The baby shouldn't nap after 4pm.",
                                   "We can't start before 9am."])
def test_a_negated_bound_in_time_is_the_users_limit_not_an_old_value(limit: str) -> None:
    """(stop 41's review) "after 8pm" is one value; "can't eat after 8pm" states a limit, and
    the value stays current (a "not … Y" reading had marked it replaced)."""
    ledger = user_ledger("Dinner is at 7pm.", limit)
    bound = [f for f in ledger if f.value.lower().startswith(("after", "before"))]
    assert bound
    assert all(f.status == "current" for f in bound)
