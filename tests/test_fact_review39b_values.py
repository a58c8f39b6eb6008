"""Issue 28, second review of stop 39 (values): a named hour is a time only in lower case and
on its own ("the Noon Bistro", "midnight blue", "pre-noon" are not); a time zone has a letter
before its S/D T ("5pm ST Mary's" is no zone); "change K to X from Y" reads Y as the old value
with the change verb anywhere in the clause before "to"."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed, fact_of


@pytest.mark.parametrize(("said", "value"), [
    ("The bedroom wall is midnight blue.", "midnight blue"),
    ("The Noon Bistro is our lunch spot.", "Noon Bistro"),
    ("Pickup is at 5pm ST Mary's school.", "5pm"),
])
def test_a_named_hour_or_a_zone_only_where_it_is_one(said: str, value: str) -> None:
    ledger = absorbed(("user", said))
    assert value in {f.value for f in ledger}


def test_a_compound_before_noon_replaces_no_noon() -> None:
    ledger = absorbed(("user", "Lunch is at noon."),
                      ("user", "The pre-noon briefing moved to 11am."))
    assert fact_of(ledger, "noon").status == "current"


def test_the_old_value_after_to_x_from_y_with_the_verb_far_before() -> None:
    ledger = absorbed(("user", "The default port for the print spooler is 8080."),
                      ("user", "Change the default port for the print spooler service to 8888 "
                               "from 8080"))
    assert [f.status for f in ledger if f.value == "8080"] == ["replaced"]
    assert fact_of(ledger, "8888").status == "current"
