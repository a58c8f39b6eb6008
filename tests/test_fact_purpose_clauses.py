"""Issue 28: "update the docs to say that the port is 5000" changes a document; the value is
the port's, the subject of the clause "that" opens, so it replaces the port stated before
(read as "change K to X", its key was the document's)."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_extract import extract
from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize(("text", "value", "attribute"), [
    ("Please update the documentation to reflect that the correct port is 5000.", "5000",
     "port"),
    ("Could you change the handbook to make it clear that the refund window is 30 days?",
     "30 days", "window"),
    ("Edit the onboarding page to state that the office wifi password is hunter22.",
     "hunter22", "password"),
])
def test_a_value_in_a_reported_clause_takes_that_clause_s_subject(text: str, value: str,
                                                                   attribute: str) -> None:
    item = next(f for f in extract("user", text) if f.value == value)
    assert item.key.split("|")[1] == attribute


def test_a_change_verb_s_own_object_still_keys_its_value() -> None:
    item = next(f for f in extract("user", "Change the retry limit to 7.") if f.value == "7")
    assert item.key.split("|")[:2] == ["retry", "limit"]


def test_the_reported_value_replaces_the_one_stated_before() -> None:
    ledger = absorbed(("user", "The quickstart guide says the dashboard runs on port 8000."),
                      ("user", "Kindly edit the guide to clarify that the correct port is "
                               "8050."))
    assert fact_of(ledger, "8000").status == "replaced"
    assert value_of(ledger, fact_of(ledger, "8000").replaced_by) == "8050"


@pytest.mark.parametrize(("text", "new", "later"), [
    ("Set the SDK floor to v7.2, which is the stable line now that v8 is in beta.", "v7.2", "v8"),
    ("Lower the cache size to 2 GB, the earlier 8 GB starved the build agents.", "2 GB", "8 GB"),
])
def test_a_value_in_a_later_clause_is_not_the_change_s_key(text: str, new: str,
                                                            later: str) -> None:
    found = {f.value: f for f in extract("user", text)}
    assert found[later].key != found[new].key


def test_the_change_s_own_from_after_its_to_keeps_the_key() -> None:
    found = {f.value: f for f in extract("user", "Push the review to 4pm, from 3pm.")}
    assert found["4pm"].key == found["3pm"].key
