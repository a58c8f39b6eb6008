"""Issue 28, a correction of a link or address named in other words: links are lists when
stated ("the docs are at X and Y"), but a correction that gives one link of its kind is that
key's one link ("From now on invoices go to X" after "Send invoices to Y"). Another owner's
link, a question and a correction that gives a list replace nothing silently."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    ("Send invoices to billing@acme.example.",
     "From now on invoices go to accounts@acme.example.", "billing@acme.example",
     "accounts@acme.example"),
    ("Post the match reports to https://club.example/reports.",
     "From now on match reports go to https://club.example/results instead.",
     "https://club.example/reports", "https://club.example/results"),
])
def test_a_correction_with_one_link_replaces_its_keys_link(before: str, after: str, old: str,
                                                           new: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    assert value_of(ledger, fact_of(ledger, old).replaced_by) == new


def test_another_owners_address_stays() -> None:
    ledger = absorbed(("user", "Send invoices to billing@acme.example and receipts to "
                               "receipts@acme.example."),
                      ("user", "From now on invoices go to accounts@acme.example."))
    kept = fact_of(ledger, "receipts@acme.example")
    assert kept.status == "current" and kept.possibly_replaced_by is None


def test_a_question_replaces_no_address() -> None:
    ledger = absorbed(("user", "Send invoices to billing@acme.example."),
                      ("user", "Should invoices go to accounts@acme.example from now on?"))
    kept = fact_of(ledger, "billing@acme.example")
    assert kept.status == "current" and kept.possibly_replaced_by is None


def test_a_keyless_correction_of_the_one_address_replaces_it() -> None:
    ledger = absorbed(("user", "Applicants should email their CVs to hr@lindenhall.example."),
                      ("user", "The address I gave you was wrong. The right one is "
                               "recruiting@lindenhall.example."))
    old = fact_of(ledger, "hr@lindenhall.example")
    assert value_of(ledger, old.replaced_by) == "recruiting@lindenhall.example"


def test_a_keyless_correction_among_two_addresses_replaces_neither_silently() -> None:
    ledger = absorbed(("user", "Send the rota to rota@stmarks.example and the minutes to "
                               "office@stmarks.example."),
                      ("user", "Sorry, that was wrong, it's admin@stmarks.example."))
    assert fact_of(ledger, "rota@stmarks.example").status == "current"
    assert fact_of(ledger, "office@stmarks.example").status == "current"
