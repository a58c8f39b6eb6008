"""A correction's keyless bare number takes back the one port or count its own message
stated in an earlier sentence, as it does one a message before it stated (issue 28, stop 42,
``fact_keyless.referred_back``): "The port was 3000. Change it to 3001." replaces 3000."""

from __future__ import annotations

import pytest

from tests.fact_ledger import user_ledger


@pytest.mark.parametrize("text", [
    "The port is 3000. Change it to 3001.",
    "The port was 3000. Change it to 3001.",
    "The port is 3000 and this clashes with express. Change it to 3001.",
])
def test_a_keyless_number_takes_back_the_port_its_own_message_stated(text: str) -> None:
    ledger = user_ledger(text)
    old = next(f for f in ledger if f.value == "3000")
    new = next(f for f in ledger if f.value == "3001")
    assert old.status == "replaced" and old.replaced_by == new.id and new.key == old.key


def test_two_values_a_number_may_stand_for_leave_it_keyless() -> None:
    """"it" may be the port's or the workers': neither is taken back."""
    ledger = user_ledger("The API is on port 8080 and we run 4 workers. Change it to 6.")
    assert all(f.status == "current" for f in ledger)


@pytest.mark.parametrize(("first", "then", "old", "new"), [
    ("The port is 8080.", "Make it 9090.", "8080", "9090"),
    ("Set the limit to 40.", "Make it 50.", "40", "50"),
])
def test_make_it_and_a_bare_number_is_a_value_that_takes_back_its_key(
        first: str, then: str, old: str, new: str) -> None:
    """"Make it 50." read no value (only "make that 12 people" did): the number ending the
    clause after "make it" is the value the change gives."""
    ledger = user_ledger(first, then)
    replaced = next(f for f in ledger if f.value == old)
    assert replaced.status == "replaced"
    assert next(f for f in ledger if f.id == replaced.replaced_by).value == new


def test_make_it_before_a_noun_and_a_condition_reads_no_new_count() -> None:
    """"Make it 5 stars if you liked it": only "make that N <noun>" counts, as before."""
    assert not [f for f in user_ledger("Make it 5 stars if you liked it.") if "5" in f.value]


@pytest.mark.parametrize(("first", "then", "old", "new"), [
    ("We invited 20 guests.", "Make it 25.", "20 guests", "25"),
    ("We ordered 3 pizzas.", "Actually make it 4.", "3 pizzas", "4"),
])
def test_a_count_its_noun_names_is_taken_back_though_no_owner_names_it(
        first: str, then: str, old: str, new: str) -> None:
    ledger = user_ledger(first, then)
    replaced = next(f for f in ledger if f.value == old)
    assert replaced.status == "replaced"
    assert next(f for f in ledger if f.id == replaced.replaced_by).value == new


def test_two_counts_before_make_it_take_nothing() -> None:
    ledger = user_ledger("We need 4 chairs and 2 tables.", "Make it 6.")
    assert all(f.status == "current" for f in ledger)
