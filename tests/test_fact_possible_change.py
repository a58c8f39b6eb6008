"""A possible change is not a change (issue 28, sentence layer): "we can put it to X", "you
can move the call to X" offer or allow a change that has not been made. What "can" states
as so ("the van can carry up to 900 kg", "you can call me on ...") stays a fact. The
sentences are new words, not the corpus's; the offers failed on 655f768.
"""

from __future__ import annotations

import pytest

from tests.fact_ledger import check_current, current_after_exchanges

# (the earlier fact, an offer of a change, the value that stays, the offered value)
OFFERS = [
    ("The worker pool size is 8.", "We can simply bump the pool size to 16 later.", "8", "16"),
    ("The review call is on Tuesday.", "I can easily push it to Thursday if needed.",
     "Tuesday", "Thursday"),
    ("The upload cap is 20 MB.", "Honestly we can raise it to 50 MB without trouble.",
     "20 MB", "50 MB"),
]


@pytest.mark.parametrize(("fact", "message", "stays", "never"), OFFERS)
def test_an_offered_change_replaces_nothing(fact: str, message: str, stays: str,
                                            never: str) -> None:
    check_current(current_after_exchanges(fact, message), stays, never)


@pytest.mark.parametrize(("message", "value"), [
    ("The van can carry up to 900 kg.", "900 kg"),
    ("The new cap is 50 MB, and we can live with that.", "50 MB"),
])
def test_what_can_states_stays_a_fact(message: str, value: str) -> None:
    assert value in current_after_exchanges(message)
