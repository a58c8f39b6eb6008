"""An old value named in a sentence gives way to the new value of its own conjunct (issue 28,
stop 41, ``fact_pairing``): two changes side by side pair each old value with its own new one,
which the panel and the request show as "(replaced …)"."""

from __future__ import annotations

import pytest

from tests.fact_ledger import replaced_by_map, user_ledger


@pytest.mark.parametrize(("text", "pairs"), [
    ("Bag fees rise from $30 to $35 for the first bag and from $40 to $45 for the second.",
     {"$30": "$35", "$40": "$45"}),
    ("It's $35 instead of $30 for the first bag and $45 instead of $40 for the second.",
     {"$30": "$35", "$40": "$45"}),
    ("Rent goes from $900 to $950 and parking from $40 to $60.",
     {"$900": "$950", "$40": "$60"}),
])
def test_each_old_value_gives_way_to_the_new_value_of_its_own_change(
        text: str, pairs: dict[str, str]) -> None:
    assert replaced_by_map(user_ledger(text)) == pairs


def test_a_value_written_twice_keeps_the_reading_order() -> None:
    """"8080" twice cannot be placed by its text: the nearest value read still pairs."""
    replaced = replaced_by_map(user_ledger("Move the web port from 8080 to 8081; 8080 is taken."))
    assert replaced.get("8080") == "8081"
