"""Stop 54, round 2 (keys2_54): a correction read whose old value stayed current because
the two statements key the value in other words.

- A number typed again with two neighbouring digits swapped is a typo put right, whatever
  either statement keys it by (``fact_transposed``): "reg no. 08812345", then "08812354";
  "PIN 5531", then "the collection code is actually 5513". Clock times, years alone, short
  runs and ports are never read so; a ticket only where the message corrects.
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_transposed import swapped
from tests.fact_ledger import chat as _chat
from tests.fact_ledger import current_set, replaced_by_map


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("Parcel locker PIN 5531", "the collection code the courier texted is actually 5513",
     "PIN 5531", "5513"),
    ("company reg no. 08812345, registered office in Bath", "company reg no. 08812354",
     "08812345", "08812354"),
    ("Order number: 772918", "sorry, the order id on the receipt is actually 772981",
     "772918", "772981"),
    ("Dear assistant, I write regarding my claim reference CL-55102 for the storm damage.",
     "Please disregard that; the correct claim reference is CL-55120. I transposed two digits.",
     "CL-55102", "CL-55120"),
])
def test_a_number_retyped_with_two_digits_swapped_replaces(
        first: str, later: str, old: str, new: str) -> None:
    ledger = _chat(first, "A: Noted.", later)
    assert replaced_by_map(ledger).get(old) == new
    assert new in current_set(ledger)


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("order 48812 arrived", "order 48821 is still missing", "48812 arrived", "order 48821"),
    ("passport expires 12 Aug 2207", "lol yes 12 Aug 2027", "12 Aug 2207", "12 Aug 2027"),
])
def test_a_retype_that_does_not_say_it_corrects_is_only_possibly_one(
        first: str, later: str, old: str, new: str) -> None:
    ledger = _chat(first, "A: Noted.", later)
    assert old not in replaced_by_map(ledger)
    by_id = {f.id: f for f in ledger}
    marked = next(f for f in ledger if f.value == old)
    assert by_id[marked.possibly_replaced_by or ""].value == new


@pytest.mark.parametrize(("first", "later"), [
    ("my locker number is 1243", "the gym door code is 1234"),
    ("my PIN is 5531", "my husband's PIN is 5513"),
    ("Order number: 772918", "the order id on the receipt is 772981"),  # (unless it corrects)
])
def test_another_keys_number_swapped_replaces_nothing(first: str, later: str) -> None:
    ledger = _chat(first, "A: Noted.", later)
    assert not replaced_by_map(ledger)
    assert all(f.possibly_replaced_by is None for f in ledger)


@pytest.mark.parametrize(("first", "later", "kept"), [
    ("founded: 1958", "renovated: 1985", "1958"),
    ("meeting at 10:15", "train at 10:51", "10:15"),
    ("the exam is Jan 12", "results come Jan 21", "Jan 12"),
    ("ticket PAY-1234 is the login bug", "PAY-1243 is the signup bug", "PAY-1234"),
    ("the web ui is on port 8080", "the other container uses port 8008", "8080"),
    ("PIN is 5531", "is the code 5513 or something?", "5531"),
    ("the PIN is 5531", "what if it were 5513?", "5531"),
])
def test_two_values_a_swap_apart_stay_two(first: str, later: str, kept: str) -> None:
    ledger = _chat(first, "A: Noted.", later)
    assert kept in current_set(ledger)
    assert kept not in replaced_by_map(ledger)


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("my NHS number is 485 777 3456", "my NHS number is 485 777 3465",
     "485 777 3456", "485 777 3465"),
    ("the invoice total is 1,384.50 EUR", "invoice came to 1,348.50 EUR, misread it",
     "1,384.50 EUR", "1,348.50 EUR"),
])
def test_one_key_retyped_still_replaces_once(first: str, later: str, old: str,
                                             new: str) -> None:
    ledger = _chat(first, "A: Noted.", later)
    assert replaced_by_map(ledger) == {old: new}


@pytest.mark.parametrize("later", [
    "my colleague thinks the PIN should be 5513",
    "maybe we could change the code to 5513?",
])
def test_someone_elses_or_a_suggested_swap_replaces_nothing(later: str) -> None:
    ledger = _chat("the PIN is 5531", "A: Noted.", later)
    assert "5531" in current_set(ledger)
    assert "5531" not in replaced_by_map(ledger)


def test_an_assistants_swapped_number_replaces_nothing() -> None:
    ledger = _chat("PIN is 5531", "A: Should it be 5513?", "no, keep it")
    assert "5531" in current_set(ledger)
    assert "5531" not in replaced_by_map(ledger)
    ledger = _chat("Invoice number 4471902", "A: Invoice 4471920 noted.", "thanks")
    assert not replaced_by_map(ledger)


@pytest.mark.parametrize(("a", "b", "same"), [
    ("08812345", "08812354", True),
    ("CL-55102", "CL-55120", True),
    ("12 Aug 2207", "12 Aug 2027", True),
    ("10:15", "10:51", False),  # a run of two
    ("Jan 12", "Jan 21", False),
    ("1958", "1985", False),  # a year alone
    ("5531", "5531", False),
    ("5531", "5315", False),  # not neighbours
    ("55311", "55133", False),
])
def test_swapped(a: str, b: str, same: bool) -> None:
    assert swapped(a, b) is same


def test_a_self_repair_in_one_message_replaces_the_number_it_swaps() -> None:
    ledger = _chat("my flight is AF 1234.. no hold on, AF 1243, landing CDG 9:50")
    assert replaced_by_map(ledger).get("AF 1234") == "AF 1243"
    assert "AF 1243" in current_set(ledger)


@pytest.mark.parametrize("said", [
    "rooms 1214 and 1241 are booked",
    "tickets PAY-1234 and PAY-1243 are mine",
])
def test_two_numbers_a_swap_apart_in_one_message_are_a_list(said: str) -> None:
    assert not replaced_by_map(_chat(said))


def test_a_sum_of_money_a_swap_apart_is_only_what_its_key_says() -> None:
    ledger = _chat("the deposit is £1,250", "A: Noted.", "the parking permit costs £1,520")
    assert {"£1,250", "£1,520"} <= current_set(ledger)
    assert not replaced_by_map(ledger)


def test_a_list_item_a_swap_apart_is_not_retyped() -> None:
    ledger = _chat("The open invoices are INV-2231 and INV-2232.", "sorry, INV-2213")
    assert {"INV-2231", "INV-2232"} <= current_set(ledger)
