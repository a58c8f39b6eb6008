"""Two value shapes at a clause's end: "X, not Y." when X is already a value (Y is the old
one, whatever follows the sentence), and a named product with its release number ("in
QuickBooks 2024", "on Windows 11"): one value, as the user names it."""

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


@pytest.mark.parametrize("text, value", [
    ("Invoicing is in QuickBooks 2024.", "QuickBooks 2024"),
    ("The lab machines run on Windows 11.", "Windows 11"),
    ("Slides are made in Keynote 14.", "Keynote 14"),
])
def test_a_named_product_and_its_release_are_one_value(text: str, value: str) -> None:
    assert value in _values(text)


@pytest.mark.parametrize("text, absent", [
    ("Invoicing is in QuickBooks 2 days a week.", "QuickBooks 2"),
    ("Maybe the lab machines could run on Windows 11.", "Windows 11"),
])
def test_a_number_that_goes_on_or_a_hedge_gives_no_product_release(
        text: str, absent: str) -> None:
    assert absent not in _values(text)
