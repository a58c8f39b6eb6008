"""A laugh after a value or a name closes its clause (stop 52, it52): "kids renamed him
Biscuit lol so that's his name now" renames as "…Biscuit, so…" does, where the whole sentence
was one entry. "lol no" (a laugh that opens its clause) stays a dismissal."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set, replaced_by_map


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("the new bull is called Hercules", "kids renamed him Biscuit lol so that's his name now",
     "Hercules", "Biscuit"),
    ("my cat is called Mochi", "partner renamed her Tofu haha", "Mochi", "Tofu"),
    ("the band is called Static Bloom", "we renamed it Velvet Hum lol, the old one was taken",
     "Static Bloom", "Velvet Hum"),
])
def test_a_laugh_after_the_name_closes_its_clause(said: str, later: str, old: str,
                                                   new: str) -> None:
    ledger = absorbed(("user", said), ("assistant", "Noted."), ("user", later))
    assert replaced_by_map(ledger).get(old) == new


def test_a_laugh_that_opens_a_dismissal_changes_nothing() -> None:
    ledger = absorbed(("user", "pay is 2k"), ("assistant", "A raise to 3k?"), ("user", "lol no"))
    assert "2k" in current_set(ledger)
    assert "2k" not in replaced_by_map(ledger)
