"""A later clause that says with a modal of obligation what a reported value ought to be
names the right value and retires the reported one ("the docs say 3000, it's supposed to be
8000"); the same modal that says what a value will or must be under a condition, at a time
or for a purpose retires nothing ("rent is €900, it should be €950 from January")."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_extract import current_values


def _values(*texts: str) -> list[str]:
    return [v for vs in current_values([("user", t) for t in texts]).values() for v in vs]


@pytest.mark.parametrize("text, new, old", [
    ("The port in the docs is 3000, it is supposed to be 8000.", "8000", "3000"),
    ("The wiki says the port is 3000, but it's supposed to be 8000.", "8000", "3000"),
    ("The changelog lists the timeout as 30 s; that's supposed to be 45 s.", "45 s", "30 s"),
])
def test_a_pronoun_joined_to_its_copula_before_supposed_to_names_the_right_value(
        text: str, new: str, old: str) -> None:
    values = _values(text)
    assert new in values
    assert old not in values
