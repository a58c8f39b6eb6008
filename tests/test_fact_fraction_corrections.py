"""A keyless fraction replaces the one earlier value of its unit as a whole number does
(issue 28, stop 42; the review of stop 41 found "Make that 1/4 teaspoon" left "1/2 teaspoon"
current): two fractions, or a fraction and a whole number, are two numbers, never one value
written twice (``fact_named_only.same_value`` read only the number before the slash)."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_named_only import same_value
from tests.fact_ledger import user_ledger


@pytest.mark.parametrize(("first", "then", "old", "new"), [
    ("Use 1/2 teaspoon of salt.", "Make that 1/4 teaspoon.", "1/2 teaspoon", "1/4 teaspoon"),
    ("Add 1/2 cup sugar.", "Make it 1/3 cup.", "1/2 cup", "1/3 cup"),
    ("Use 1 teaspoon of salt.", "Make that 1/2 teaspoon.", "1 teaspoon", "1/2 teaspoon"),
])
def test_a_keyless_fraction_replaces_the_one_value_of_its_unit(
        first: str, then: str, old: str, new: str) -> None:
    ledger = user_ledger(first, then)
    by_id = {f.id: f for f in ledger}
    replaced = {f.value: by_id[f.replaced_by].value for f in ledger if f.status == "replaced"}
    assert replaced == {old: new}


@pytest.mark.parametrize(("a", "b", "same"), [
    ("1/2 teaspoon", "1/4 teaspoon", False),
    ("1/2 teaspoon", "1 teaspoon", False),
    ("1/2 teaspoon", "1/2 teaspoon", True),
    ("10 percent", "10%", True),
])
def test_a_fraction_is_one_number_with_its_denominator(a: str, b: str, same: bool) -> None:
    assert same_value(a, b) is same
