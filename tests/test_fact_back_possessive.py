"""A change "to its/their <noun>" names an attribute of the changed thing itself, not a value
the sentence gives ("switch it over to its actual name": which name is not said yet); a naming
verb after a copula ("is called X") is the verb, not part of the name."""

from __future__ import annotations

import pytest

from tests.fact_ledger import values_after


@pytest.mark.parametrize("text, unsaid", [
    ("We need to switch it over to its actual name.", "actual name"),
    ("Rename the repo to its final name once legal signs off.", "final name"),
    ("Move the kids' rooms to their permanent colours next month.", "permanent colours"),
])
def test_a_change_to_a_possessive_of_the_thing_itself_gives_no_value(
        text: str, unsaid: str) -> None:
    assert unsaid not in values_after(text)


@pytest.mark.parametrize("text, value", [
    ("Team lunch moved to the noodle bar.", "noodle bar"),
    ("Switch the venue to the old town hall.", "old town hall"),
])
def test_a_change_to_a_described_place_still_gives_it(text: str, value: str) -> None:
    assert any(value in v for v in values_after(text))


@pytest.mark.parametrize("text, value", [
    ("The frontend project is called new-gui.", "new-gui"),
    ("Our allotment plot is named plot-seven.", "plot-seven"),
])
def test_a_naming_verb_after_the_copula_is_no_part_of_the_name(text: str, value: str) -> None:
    values = values_after(text)
    assert value in values
    assert not any(v.startswith(("called", "named")) for v in values)
