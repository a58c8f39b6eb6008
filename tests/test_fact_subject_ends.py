"""Issue 28: a change verb with no object ("the standup for the design team moved up to 10am")
keys its value by its subject's head, with the subject's prepositional phrase as the owner, as
a copula's subject is ("our layover on the way to Tokyo is in Frankfurt"); the owner's noun
alone was the key."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_extract import extract
from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize(("text", "value", "attribute"), [
    ("The rehearsal for the brass section moved up to 6pm.", "6pm", "rehearsal"),
    ("The deadline for the grant report has been pushed to May 30.", "May 30", "deadline"),
    ("Our layover on the way to Tokyo is in Frankfurt.", "Frankfurt", "layover"),
])
def test_the_subject_s_head_is_the_key(text: str, value: str, attribute: str) -> None:
    item = next(f for f in extract("user", text) if f.value == value)
    assert item.key.split("|")[1] == attribute


def test_the_head_s_change_replaces_its_earlier_value() -> None:
    ledger = absorbed(("user", "The rehearsal for the brass section is at 7pm."),
                      ("user", "The rehearsal for the brass section moved up to 6pm."))
    assert value_of(ledger, fact_of(ledger, "7pm").replaced_by) == "6pm"
