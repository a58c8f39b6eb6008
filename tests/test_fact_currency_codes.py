"""An amount with a currency's ISO code before or after it ("ISK 184,000", "45 NZD") is one
money value, whichever code it is, kept as written: it replaces the same key's amount and no
count. Upper-case words that are also codes of something else ("PHP 8", "COP 28") are no
money."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_extract import current_values
from tests.fact_ledger import check_current, values_after


def _current(*texts: str) -> dict[str, list[str]]:
    return current_values([("user", t) for t in texts])


@pytest.mark.parametrize("history, text, right, wrong", [
    ("The guesthouse in Akureyri is ISK 29,000 per night.",
     "The guesthouse price went from ISK 29,000 to ISK 26,500.", "ISK 26,500", "ISK 29,000"),
    ("Our rent in Wellington is NZD 2,400 a month.",
     "Actually the rent is NZD 2,550, not NZD 2,400.", "NZD 2,550", "NZD 2,400"),
    ("The venue deposit is ZAR 18,000.",
     "The venue deposit is now ZAR 15,000.", "ZAR 15,000", "ZAR 18,000"),
    ("The laptop quote came in at 21,500 MXN.",
     "The laptop quote dropped from 21,500 MXN to 19,900 MXN.", "19,900 MXN", "21,500 MXN"),
])
def test_an_amount_with_any_currency_code_is_money_and_replaces_its_keys_amount(
        history: str, text: str, right: str, wrong: str) -> None:
    check_current(values_after(history, text), right, wrong)


def test_an_amount_with_a_code_is_of_the_money_class() -> None:
    keys = _current("The whale watching tour is ISK 13,500 each.")
    assert any(key.endswith("|money") and "ISK 13,500" in vs for key, vs in keys.items())


def test_an_amount_does_not_replace_a_count_of_the_same_thing() -> None:
    values = values_after("The whale watching tour takes 12 people.",
                          "The whale watching tour is ISK 13,500 each.")
    assert "ISK 13,500" in values
    assert any("12" in v for v in values)


@pytest.mark.parametrize("text", [
    "The server needs PHP 8 for the new plugin.",
    "The report is due before COP 28 opens in Dubai.",
])
def test_a_code_that_names_something_else_is_no_money(text: str) -> None:
    assert not any(key.endswith("|money") for key in _current(text))
