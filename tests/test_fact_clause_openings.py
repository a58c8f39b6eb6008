"""Issue 28: a clause addressed to someone ("@dana I raised it to 100mb") has no "@dana" in its
subject: the mention is a vocative, and the value's key is what the clause says, or none."""

from __future__ import annotations

from ollm_desktop.engine.facts_extract import extract
from tests.engine_fakes import absorbed, fact_of, value_of


def test_a_mention_is_no_part_of_the_key() -> None:
    found = {f.value: f for f in extract("user", "@priya the retention window is 45 days now.")}
    assert found["45 days"].key.split("|")[:2] == ["retention", "window"]


def test_an_addressed_change_refers_back_to_the_one_value_of_its_kind() -> None:
    ledger = absorbed(("user", "The attachment limit on the helpdesk is 25mb."),
                      ("user", "@marco I raised it to 40mb, not tested with big files yet."))
    assert fact_of(ledger, "25mb").status == "replaced"
    assert value_of(ledger, fact_of(ledger, "25mb").replaced_by) == "40mb"
