"""The lead's ledger diff of stop 52's second round (1,920 review chats of two writers, read on
the round's parent and after it): the readings a round made worse, narrowed.

Two capitalised words that open a sentence are one name only where they are its whole first
clause ("Funmi Adeyemi, same firm."): "Because Rogers was too expensive I switched to Fido"
had joined "Because Rogers" into a name, which became a key, and the switch replaced nothing;
"Using Neovim from now on." became a sentence-long value.
"""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set, replaced_by_map


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("Rogers is my carrier.", "Because Rogers was too expensive I switched to Fido.",
     "Rogers", "Fido"),
    ("We bank with Barclays.", "Since Barclays kept closing branches we moved to Monzo.",
     "Barclays", "Monzo"),
])
def test_a_sentence_opening_with_a_subordinator_joins_no_name(said: str, later: str,
                                                             old: str, new: str) -> None:
    ledger = absorbed(("user", said), ("assistant", "Ok."), ("user", later))
    assert replaced_by_map(ledger).get(old) == new


def test_an_opening_gerund_and_its_object_are_no_name() -> None:
    ledger = absorbed(("user", "I use VS Code."), ("assistant", "Ok."),
                      ("user", "Using Neovim from now on."))
    assert "Using Neovim from now on." not in current_set(ledger)
    assert "Neovim" in current_set(ledger)


@pytest.mark.parametrize("answer", ["Funmi Adeyemi, same firm.", "Priya Nair now."])
def test_a_full_name_that_is_its_clause_is_still_one_name(answer: str) -> None:
    ledger = absorbed(("user", "my accountant is Derek Moss at Moss & Pryor"),
                      ("assistant", "Who is your accountant now?"), ("user", answer))
    assert answer.split(",")[0].removesuffix(" now.") in current_set(ledger)
