"""A change written as a title, with no verb ("Port 5000 to 2000"): a one-word singular label,
Y, "to" and a smaller X, and nothing after, makes Y the old value and X current. A rising
pair may be a range, a plural label names one, a question asks, and a clause after X says
what of it: none of them changes anything."""

from __future__ import annotations

import pytest

from tests.fact_ledger import values_after


@pytest.mark.parametrize("history, text, right, wrong", [
    ("The dev server listens on port 5000.", "Port 5000 to 2000", "2000", "5000"),
    ("The job timeout is 30s.", "Timeout 30s to 20s.", "20s", "30s"),
    ("The room is €900 a month.", "Rent €900 to €850.", "€850", "€900"),
])
def test_a_verbless_title_change_retires_y(history: str, text: str, right: str,
                                           wrong: str) -> None:
    values = values_after(history, text)
    assert any(v.endswith(right) for v in values)
    assert not any(v.endswith(wrong) for v in values)


@pytest.mark.parametrize("history, text, kept", [
    ("The dev server listens on port 5000.", "Port 5000 to 2000?", "5000"),
    ("The budget is 500.", "Budget 500 to 800.", "500"),
    ("The guest list is at 50.", "Guests 50 to 40.", "50"),
    ("The dev server listens on port 5000.", "Port 5000 to 2000 was the old mapping.", "5000"),
])
def test_a_question_a_range_a_plural_or_a_clause_after_x_retires_nothing(
        history: str, text: str, kept: str) -> None:
    assert any(v.endswith(kept) for v in values_after(history, text))
