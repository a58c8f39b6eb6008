"""Issue 28, review 39: a bare number in a correction ("sorry, it is 16") takes back the one
value it can mean; a year, the very value it repeats, or a value the sentence turns down
("64 is too big") takes back nothing."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed


@pytest.mark.parametrize(("before", "after"), [
    ("Our choir has 24 singers.", "sorry, it is 2019"),  # a year, no count
    ("The web app listens on port 5173.", "5173 is taken, so use 5174 instead"),  # itself
    ("The worker pool size is 8.", "16 is too many, so we keep 8"),  # a value turned down
])
def test_a_bare_number_takes_back_no_value_it_cannot_mean(before: str, after: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    earlier = [f for f in ledger if f.turn == 1]
    assert earlier and all(f.status == "current" and not f.possibly_replaced_by
                           for f in earlier)
    # (a value turned down may be kept as a replaced one, "not 16": it never held)
    assert not [f for f in ledger if f.turn == 2 and f.possibly_replaced_by]
