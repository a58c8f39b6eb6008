"""Self-repairs inside one message (stop 52, it52): a counted value taken back by another
("40 bales — sorry, 45 bales": the first value's counted noun is a word it took in); a bare
number taken back for a number with its unit ("at 37 — no, 30 degrees", "pressure 32, sorry,
35 psi": the unit said once, with the value meant); an exasperated hesitation between two
values of one shape repairs as "er" does ("1200mm, ugh, 1000mm"). A list, a second clause or
two values with no word that takes back repair nothing."""

from __future__ import annotations

import pytest

from tests.fact_ledger import current_set, replaced_by_map, user_ledger


@pytest.mark.parametrize(("message", "old", "new"), [
    ("hay delivery is 40 bales — sorry, 45 bales — coming friday", "40 bales", "45 bales"),
    ("we need 12 chairs, sorry, 14 chairs for the hall", "12 chairs", "14 chairs"),
    ("order 3 crates, no wait, 5 crates of apples", "3 crates", "5 crates"),
    ("the class has 30 kids, oops, 32 kids", "30 kids", "32 kids"),
    ("incubate at 37 — no, 30 degrees", "37", "30 degrees"),
    ("bake it at 200, sorry, 180 degrees. then cool", "200", "180 degrees"),
    ("incubate at 37 — no, 30 °C", "37", "30 °C"),
    ("tyre pressure 32, sorry, 35 psi", "pressure 32", "35 psi"),
    ("focal length 1200mm, ugh, 1000mm. eyepiece 25mm", "1200mm", "1000mm"),
    ("the shelf is 80cm, argh, 90cm wide", "80cm", "90cm"),
])
def test_a_repair_inside_the_message_replaces_the_first_value(message: str, old: str,
                                                              new: str) -> None:
    ledger = user_ledger(message)
    assert replaced_by_map(ledger).get(old) == new
    assert new in current_set(ledger)


@pytest.mark.parametrize(("message", "kept"), [
    ("we need 12 chairs or 14 chairs for the hall", "12 chairs"),
    ("we have 12 chairs and 14 tables", "12 chairs"),
    ("we tried 1200mm, ugh, 1000mm and 900mm", "1200mm"),
    ("the room is 37, 30 degrees outside", "37"),
])
def test_a_list_or_a_second_value_repairs_nothing(message: str, kept: str) -> None:
    ledger = user_ledger(message)
    assert kept not in replaced_by_map(ledger)


def test_the_repairs_other_values_stay_stated() -> None:
    ledger = user_ledger("hay delivery is 40 bales — sorry, 45 bales — coming friday from "
                         "Pritchard's")
    assert "Pritchard's" in current_set(ledger)
