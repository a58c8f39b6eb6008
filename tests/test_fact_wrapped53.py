"""Every reading that numbers a message's sentences splits the same text the same way
(``fact_message_lines.said_sentences``, stop 53): the ending reading and the granting reading
had split the raw text while ``Found.sentence`` counts the unwrapped one, so a wrapped line
("we finally sold the\\npolo") ended nothing and numbered its sentences against the wrong ones.
"""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set, replaced_by_map


@pytest.mark.parametrize("ending", [
    "ok. we finally sold the\npolo last week",
    "Finally sold the\npolo yesterday.",
])
def test_a_wrapped_ending_ends_the_value(ending: str) -> None:
    ledger = absorbed(("user", "I drive a 2010 Polo."), ("assistant", "Noted."),
                      ("user", ending))
    assert "2010 Polo" in replaced_by_map(ledger)
    assert "2010 Polo" not in current_set(ledger)


def test_an_unwrapped_ending_still_ends_it_and_a_wish_still_does_not() -> None:
    ledger = absorbed(("user", "I drive a 2010 Polo."), ("assistant", "Noted."),
                      ("user", "we finally sold the polo last week"))
    assert "2010 Polo" in replaced_by_map(ledger)
    kept = absorbed(("user", "I drive a 2010 Polo."), ("assistant", "Noted."),
                    ("user", "we might sell the\npolo next year"))
    assert "2010 Polo" in current_set(kept)


def test_said_sentences_joins_wrapped_lines_and_caps_the_text() -> None:
    from ollm_desktop.engine.fact_message_lines import MAX_FACT_TEXT, said_sentences
    assert said_sentences("we sold the\npolo. It went fast.") == [
        "we sold the polo.", "It went fast."]
    assert sum(map(len, said_sentences("word " * MAX_FACT_TEXT))) <= MAX_FACT_TEXT
