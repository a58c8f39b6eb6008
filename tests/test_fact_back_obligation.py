"""A sentence of its own that says what the previous sentence's value should have been ("The
invoice lists 14 hours. This should have been 12 hours."): the earlier value is the wrong one.
An opinion of someone else, an inference, a requirement and an ambiguous pair replace nothing."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_extract import current_values


def _values(*texts: str) -> list[str]:
    return [v for vs in current_values([("user", t) for t in texts]).values() for v in vs]


@pytest.mark.parametrize("text, right, wrong", [
    ("The invoice bills the session at 14 hours. This should have been 12 hours.",
     "12 hours", "14 hours"),
    ("The release notes say the patch shipped on 3 March 2024. I think it should be "
     "4 March 2024.", "4 March 2024", "3 March 2024"),
    ("The seating plan puts the Okafors in room 12B. That must read room 21B.",
     "room 21B", "room 12B"),
    ("Our docs give the API port as 8080. It is supposed to be 8088.", "8088", "8080"),
])
def test_a_pronoun_that_says_what_it_should_be_retires_the_previous_value(
        text: str, right: str, wrong: str) -> None:
    values = _values(text)
    assert any(right.endswith(v) for v in values)
    assert not any(wrong.endswith(v) for v in values)


@pytest.mark.parametrize("text, kept", [
    # someone else's opinion
    ("The venue fee is €900. Dana thinks it should be €750.", "€900"),
    # an inference, not a correction
    ("The flight lands at 14:00. So it should be 15:30 by the time we reach the hotel.",
     "14:00"),
    # a requirement: when it must hold
    ("The rent is €950. It should be €990 from January.", "€950"),
    # no value of that kind in the obligation
    ("The staging port is 8443. It should be fine.", "8443"),
    # two values of that kind: which one is not said
    ("Breakfast is at 7:30 and lunch at 12:30. It should be 13:00.", "7:30"),
    # a question states no value to retire
    ("Is the deadline May 3? It should be May 10.", "May 10"),
])
def test_an_opinion_inference_requirement_or_unclear_reference_keeps_the_value(
        text: str, kept: str) -> None:
    assert kept in _values(text)
