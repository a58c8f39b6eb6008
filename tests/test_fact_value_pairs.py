""""X, not Y." at a clause's end when X is already a value: Y is the old one, whatever
follows the sentence (a full stop, a dash and a reason). The word after "let's" is a verb, no
noun of a noun-and-number value ("Lets try 10" is no "try 10")."""

from __future__ import annotations

import pytest

from tests.fact_ledger import check_current, values_after


@pytest.mark.parametrize("history, text, new, old", [
    ("Machine pre-translation is Google Translate API v3.",
     "For pre-translation use DeepL, not Google.", "DeepL", "Google Translate API v3"),
    ("The office printer is a Brother HL-L2350DW.",
     "For the office printer buy the ReadyPrint, not Brother.", "ReadyPrint",
     "Brother HL-L2350DW"),
    ("Our ride to the airport is with Uber.", "For the airport ride use FreeNow, not Uber — "
     "the driver cancelled on us twice.", "FreeNow", "Uber"),
])
def test_x_comma_not_y_at_the_clause_end_retires_y(history: str, text: str, new: str,
                                                   old: str) -> None:
    check_current(values_after(history, text), new, old)


@pytest.mark.parametrize("text, junk", [
    ("Lets try 10.", "try 10"),
    ("Let's pick 3 then.", "pick 3"),
    ("Let us test 5 first.", "test 5"),
])
def test_the_verb_after_lets_is_no_noun_of_a_noun_and_number(text: str, junk: str) -> None:
    assert junk not in values_after(text)


def test_a_noun_and_number_after_a_verb_still_is_one_value() -> None:
    assert "bus 42" in values_after("Take bus 42 to work.")
