"""Stop 42's review leftovers (issue 28, stop 43): a bare number that names a held value
("8080 should be 8081"), "make it 3 rooms", a bare count after several counts (possibly
replaces each, never silently one), a wrapped line that opens with a figure or a capital, and
a word of when after a number ("to 9090 yesterday") that is no noun it counts."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_message_lines import unwrapped
from ollm_desktop.engine.fact_types import Fact
from tests.fact_ledger import status_of, user_ledger


def _possibly_by(ledger: list[Fact], value: str) -> str | None:
    fact = next(f for f in ledger if f.value == value)
    return next((f.value for f in ledger if f.id == fact.possibly_replaced_by), None)


def test_a_bare_number_naming_the_held_port_is_its_old_value() -> None:
    ledger = user_ledger("The api port is 8080.", "8080 should be 8081")
    assert status_of(ledger, "8080") == "replaced"
    new = next(f for f in ledger if f.value == "8081")
    assert new.status == "current"
    assert new.key == "api|port|port"


def test_a_bare_number_naming_two_held_values_takes_neither() -> None:
    ledger = user_ledger("The api port is 8080 and the admin port is 8080.", "8080 should be 8081")
    assert {f.status for f in ledger if f.value == "8080"} == {"current"}


def test_a_question_naming_the_held_port_replaces_nothing() -> None:
    ledger = user_ledger("The api port is 8080.", "8080 should be 8081?")
    assert status_of(ledger, "8080") == "current"


def test_make_it_a_count_of_its_noun_replaces_the_count() -> None:
    ledger = user_ledger("Please book 2 rooms.", "Make it 3 rooms.")
    assert status_of(ledger, "2 rooms") == "replaced"
    assert status_of(ledger, "3 rooms") == "current"


def test_move_it_some_days_is_no_value() -> None:
    ledger = user_ledger("The party is on Friday.", "Move it 2 days later.")
    assert status_of(ledger, "Friday") == "current"
    assert not any(f.value.startswith("2 days") and f.ref_kind == "number" and f.key.endswith(
        "|day") for f in ledger)


@pytest.mark.parametrize("texts", [
    ("We ordered 4 chairs and 2 tables.", "Actually make it 3."),
    ("We ordered 4 chairs and 2 tables. Actually make it 3.",),
])
def test_a_bare_count_after_two_counts_possibly_replaces_each(texts: tuple[str, ...]) -> None:
    ledger = user_ledger(*texts)
    assert status_of(ledger, "4 chairs") == "current"
    assert status_of(ledger, "2 tables") == "current"
    assert _possibly_by(ledger, "4 chairs") == "3"
    assert _possibly_by(ledger, "2 tables") == "3"


def test_a_bare_count_after_one_count_replaces_it() -> None:
    ledger = user_ledger("Please book 2 rooms.", "Actually make it 3.")
    assert status_of(ledger, "2 rooms") == "replaced"


@pytest.mark.parametrize(("first", "then", "old", "new"), [
    ("The staging server port is 8080.", "We moved the staging server port to\n9090 after "
     "the outage.", "8080", "9090"),
    ("The meeting is on Monday.", "The team decided to move the meeting to\nFriday because "
     "of the holiday.", "Monday", "Friday"),
    ("The venue is the Old Mill.", "The venue has changed from the Old Mill to\nThe Granary "
     "in town.", "Old Mill", "The Granary"),
])
def test_a_wrapped_line_opening_with_a_figure_or_a_capital_goes_on(
        first: str, then: str, old: str, new: str) -> None:
    ledger = user_ledger(first, then)
    assert status_of(ledger, old) == "replaced"
    assert status_of(ledger, new) == "current"


def test_a_list_item_after_a_line_ending_in_a_preposition_stays_apart() -> None:
    text = "Things to bring to\n- 2 tents\n3. stoves\nand\nFriday"
    assert unwrapped(text) == text
    assert unwrapped("moved it to\n9090 today") == "moved it to 9090 today"
    assert unwrapped("moved it to\nThe Granary") == "moved it to The Granary"


def test_a_word_of_when_after_a_number_is_no_noun_it_counts() -> None:
    ledger = user_ledger("The staging server port is 8080.",
                         "We moved the staging server port to 9090 yesterday.")
    assert status_of(ledger, "8080") == "replaced"
    assert status_of(ledger, "9090") == "current"
