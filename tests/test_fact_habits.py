"""A habit of action is not a setting (issue 28, sentence layer): "we typically start with
50", "we normally bump it to 32" tell what is usually done, and replace no value. A habitual
state ("the stand-up is usually at 9:30") still states its value. The sentences are new
words, not the corpus's; the habits failed on 655f768.
"""

from __future__ import annotations

import pytest

from tests.fact_ledger import check_current, current_after_exchanges

HABITS = [
    ("The worker pool size is 8.", "We normally bump the pool size to 32 in production.",
     "8", "32"),
    ("The default batch size is 16.", "Most of the time I usually start with a batch of 64.",
     "16", "64"),
]


@pytest.mark.parametrize(("fact", "message", "stays", "never"), HABITS)
def test_a_habit_replaces_nothing(fact: str, message: str, stays: str, never: str) -> None:
    check_current(current_after_exchanges(fact, message), stays, never)


def test_a_habitual_state_states() -> None:
    assert "9:30" in current_after_exchanges("The stand-up is usually at 9:30.")
