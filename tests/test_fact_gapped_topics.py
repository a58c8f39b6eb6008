"""Issue 28: a coordinated clause that leaves its attribute out ("Job time limit on the
cluster is 48h and the eval job is 2h": the eval job's time limit) takes it from the clause
before, where its subject's noun is a modifier ("job" of "job time limit"). Then "set eval
limit to 2h45m" means the eval job's value, not the cluster's. Clauses of two attributes
("the rent ... and the deposit ...") take nothing, and a question replaces nothing."""

from __future__ import annotations

from ollm_desktop.engine.fact_topics import gapped_attribute
from tests.engine_fakes import absorbed, fact_of, value_of


def test_the_left_out_attribute_is_read_from_the_clause_before() -> None:
    before = ["Visa", "processing", "time", "at", "the", "embassy", "is", "\x00\ue000\x00"]
    assert gapped_attribute(before, ["the", "express", "visa", "is", "\x00\ue001\x00"]) == \
        ["processing", "time"]
    assert gapped_attribute(["The", "rent", "is", "\x00\ue000\x00"],
                             ["the", "deposit", "is", "\x00\ue001\x00"]) == []


def test_a_correction_of_the_gapped_key_replaces_its_value() -> None:
    ledger = absorbed(("user", "Visa processing time at the embassy is 15 days and the "
                               "express visa is 5 days."),
                      ("user", "ok, set the express processing to 3 days"))
    assert value_of(ledger, fact_of(ledger, "5 days").replaced_by) == "3 days"
    assert fact_of(ledger, "15 days").status == "current"


def test_the_first_clauses_value_stays_current() -> None:
    ledger = absorbed(("user", "Review time for a normal PR is 48h and the hotfix PR is 4h."),
                      ("user", "set hotfix review to 2h"))
    assert value_of(ledger, fact_of(ledger, "4h").replaced_by) == "2h"
    normal = fact_of(ledger, "48h")
    assert normal.status == "current" and normal.possibly_replaced_by is None


def test_two_attributes_in_coordinated_clauses_stay_apart() -> None:
    ledger = absorbed(("user", "The rent for the flat is £900 and the deposit is £1800."),
                      ("user", "The rent is now £950."))
    deposit = fact_of(ledger, "£1800")
    assert deposit.status == "current" and deposit.possibly_replaced_by is None


def test_a_question_replaces_nothing() -> None:
    ledger = absorbed(("user", "Visa processing time at the embassy is 15 days and the "
                               "express visa is 5 days."),
                      ("user", "Should we set the express processing to 3 days?"))
    assert fact_of(ledger, "5 days").status == "current"
    assert fact_of(ledger, "15 days").status == "current"
