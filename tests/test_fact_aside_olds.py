"""An old value in a bracket after its new one is retired (issue 28, stop 42): "$45 (up from
$40)", "Friday, May 27 (changed from Wednesday, June 1)", "25 students (previously 30)"; and
"to X from its original Y" with a verb of swapping ("swaps the default model to gpt-4.1 from
gpt-4o"). A bracket that names no change, or with no value of the kind before it, retires
nothing."""

from __future__ import annotations

import pytest

from tests.fact_ledger import current_set, user_ledger


@pytest.mark.parametrize(("first", "then", "old", "new"), [
    ("The gym fee is $40.", "The gym fee is now $45 (up from $40).", "$40", "$45"),
    ("Class size is 30 students.", "Class size is 25 students (down from 30).", "30 students",
     "25 students"),
    ("The last day is Wednesday, June 1.",
     "The last day is Friday, May 27 (changed from Wednesday, June 1).", "Wednesday, June 1",
     "Friday, May 27"),
    ("Check-in opens at 3pm.", "Check-in opens at 2pm (previously 3pm).", "3pm", "2pm"),
    ("Retries: 3.", "Retries: 5 (was 3).", "3", "5"),
])
def test_the_bracketed_old_value_is_retired(first: str, then: str, old: str, new: str) -> None:
    current = current_set(user_ledger(first, then))
    assert new in current
    assert old not in current
    assert old.split()[0] not in current  # ("30" of "(down from 30)" is no current value)


@pytest.mark.parametrize(("text", "old", "new"), [
    ("This swaps the default model to gpt-4.1 from gpt-4o.", "gpt-4o", "gpt-4.1"),
    ("The marathon start has been moved to 10:00 a.m. from its original noon schedule.",
     "noon", "10:00 a.m."),
])
def test_to_x_from_the_original_y(text: str, old: str, new: str) -> None:
    """The old value is first named in the correcting message itself (no history)."""
    current = current_set(user_ledger(text))
    assert new in current
    assert old not in current


def test_a_bracket_of_a_place_retires_nothing() -> None:
    """"(from Lisbon)" after a name is where someone comes from, no change."""
    current = current_set(user_ledger("Our guide is Marta.", "Our guide is Marta (from Lisbon)."))
    assert "Marta" in current


def test_a_bracket_with_no_value_of_its_kind_before_it_retires_nothing() -> None:
    current = current_set(user_ledger("The fee is $40.",
                                      "Good news (up from $40 last year) on sales."))
    assert "$40" in current


def test_the_current_y_of_a_change_to_x_is_retired() -> None:
    current = current_set(user_ledger(
        "Switch the default AI model to the new gpt-4o-mini, which is cheaper and better than "
        "the current default gpt-3.5-turbo."))
    assert "gpt-4o-mini" in current
    assert "gpt-3.5-turbo" not in current


def test_the_current_value_of_a_plain_statement_stays() -> None:
    assert "$5" in current_set(user_ledger("The current price is $5 and we sell 20 a day."))


@pytest.mark.parametrize("text", ["The API port is 8080 (changed from 3000).",
                                  "The port is 8080 (changed from 3000)."])
def test_a_port_s_bracketed_old_number_is_the_old_port(text: str) -> None:
    """The review's finding: "(changed from 3000)" read 3000 as a bare number, which then
    took the port back from 8080 as a keyless correction."""
    current = current_set(user_ledger(text))
    assert "8080" in current
    assert "3000" not in current
