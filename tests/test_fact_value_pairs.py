""""X, not Y." at a clause's end when X is already a value: Y is the old one, whatever
follows the sentence (a full stop, a dash and a reason). The word after "let's" is a verb, no
noun of a noun-and-number value ("Lets try 10" is no "try 10")."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_extract import current_values


def _values(*texts: str) -> list[str]:
    return [v for vs in current_values([("user", t) for t in texts]).values() for v in vs]


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
    values = _values(history, text)
    assert new in values
    assert old not in values


@pytest.mark.parametrize("text, junk", [
    ("Lets try 10.", "try 10"),
    ("Let's pick 3 then.", "pick 3"),
    ("Let us test 5 first.", "test 5"),
])
def test_the_verb_after_lets_is_no_noun_of_a_noun_and_number(text: str, junk: str) -> None:
    assert junk not in _values(text)


def test_a_noun_and_number_after_a_verb_still_is_one_value() -> None:
    assert "bus 42" in _values("Take bus 42 to work.")
