"""A sentence of its own that says what the previous sentence's value should have been ("The
invoice lists 14 hours. This should have been 12 hours."): the earlier value is the wrong one.
An opinion of someone else, an inference, a requirement and an ambiguous pair replace nothing."""

from __future__ import annotations

import pytest

from ollm_desktop.engine import facts
from ollm_desktop.engine.models import Message
from tests.fact_ledger import values_after


def _replaced(text: str) -> dict[str, str]:
    """Each replaced value of the ledger of ``text``, with the value that replaced it."""
    ledger: list[facts.Fact] = []
    facts.absorb(ledger, Message(role="user", content=text), 1)
    by_id = {f.id: f.value for f in ledger}
    return {f.value: by_id.get(f.replaced_by or "", "") for f in ledger
            if f.status == "replaced"}


@pytest.mark.parametrize("text, right, wrong", [
    ("The invoice bills the session at 14 hours. This should have been 12 hours.",
     "12 hours", "14 hours"),
    ("The release notes say the patch shipped on 3 March 2024. I think it should be "
     "4 March 2024.", "4 March 2024", "3 March 2024"),
    ("The seating plan puts the Okafors in room 12B. That must read room 21B.",
     "room 21B", "room 12B"),
    ("The docs list port 8080. It is supposed to be port 8088.", "8088", "8080"),
    ("CHANGELOG.md states that version 0.13 was released 31 Jun, 2022. I guess this should "
     "have been 31 May, 2022.", "31 May, 2022", "31 Jun, 2022"),
])
def test_a_pronoun_that_says_what_it_should_be_retires_the_previous_value(
        text: str, right: str, wrong: str) -> None:
    values = values_after(text)
    assert any(right.endswith(v) for v in values)
    assert not any(wrong.endswith(v) for v in values)
    replaced = {old: new for old, new in _replaced(text).items() if wrong.endswith(old)}
    assert len(replaced) == 1  # recorded as replaced, not dropped from the ledger,
    assert right.endswith(next(iter(replaced.values())))  # and by the right value


@pytest.mark.parametrize("text, kept", [
    ("The rent is 1200. It should be 1100 but the landlord refuses.", "1200"),
    ("The rent is 1200. This should be 1100, ideally.", "1200"),
    ("The rent is 1200. It should be 1100 in my opinion.", "1200"),
    ("The budget is 500 euros. It should be 600 euros in 2027.", "500 euros"),
    ("The budget is 500 euros. It should be 600 euros eventually.", "500 euros"),
])
def test_a_wish_or_norm_about_the_world_is_no_correction(text: str, kept: str) -> None:
    assert kept in values_after(text)
    assert not _replaced(text)


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
    assert kept in values_after(text)
