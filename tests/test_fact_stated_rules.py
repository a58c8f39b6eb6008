"""A rule's own condition is stated (issue 28, sentence layer): "X only if Y" asserts the rule,
so a threshold in its condition ("only if the basket is over £60") is a fact; the clause it
conditions stays conditional ("we ship on June 10 only if QA signs off"). A plain "if" still
supposes. The sentences are new words, not the corpus's; the threshold test failed on 655f768.
"""

from __future__ import annotations

from tests.fact_ledger import current_after_exchanges


def test_a_rules_threshold_is_stated() -> None:
    now = current_after_exchanges(
        "Free delivery is offered only if the basket comes to more than £60.")
    assert "£60" in now, now


def test_the_ruled_clause_stays_conditional() -> None:
    now = current_after_exchanges("The launch is on June 3.",
                                  "We ship on June 10 only if QA signs off.")
    assert "June 3" in now, now
    assert "June 10" not in now, now


def test_a_plain_if_still_supposes() -> None:
    now = current_after_exchanges("Free delivery is offered if the basket comes to more than £60.")
    assert "£60" not in now, now
