"""A day of each month by its place is a date (stop 52, it52): "on the last working day",
"the first business day of the month", "the 1st of each month". Without "of the month" only
after "on the" and with "working" or "business": "my last working day is Friday" is a
person's last day and "on the first day we hiked" a story's, no day of each month."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set, replaced_by_map, user_ledger


@pytest.mark.parametrize(("message", "value"), [
    ("payday is the last working day of the month", "last working day of the month"),
    ("rent is due on the first of the month", "first of the month"),
    ("billing runs on the 1st business day of each month", "1st business day of each month"),
    ("I invoice on the last working day", "last working day"),
])
def test_a_day_of_each_month_is_read(message: str, value: str) -> None:
    assert value in current_set(user_ledger(message))


@pytest.mark.parametrize(("message", "value"), [
    ("my last working day is Friday", "last working day"),
    ("on the first day we hiked", "first day"),
])
def test_a_persons_or_a_storys_day_is_no_value(message: str, value: str) -> None:
    assert value not in current_set(user_ledger(message))


def test_a_day_of_each_month_replaces_the_day_it_takes_over() -> None:
    ledger = absorbed(("user", "I invoice all clients on the 25th of each month"),
                      ("assistant", "Noted."),
                      ("user", "from now on I invoice on the last working day instead"))
    assert replaced_by_map(ledger).get("the 25th") == "last working day"
