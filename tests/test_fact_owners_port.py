"""Issue 28, stop 39: two ports named by their owners ("the mail relay on 2525 and the
webmail on 8025"), then a correction that gives one owner a bare number ("the webmail moved
to 9025"): the number is that owner's port, and only that port is replaced."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed, fact_of, value_of

_FIRST = "The mail relay runs on port 2525 and the webmail UI on 8025."


@pytest.mark.parametrize("then", ["The webmail UI moved to 9025.",
                                  "The webmail UI is on 9025 now."])
def test_the_owner_named_takes_its_own_port(then: str) -> None:
    ledger = absorbed(("user", _FIRST), ("user", then))
    webmail = fact_of(ledger, "8025")
    assert webmail.status == "replaced" and value_of(ledger, webmail.replaced_by) == "9025"
    relay = fact_of(ledger, "2525")
    assert relay.status == "current" and relay.possibly_replaced_by is None


def test_a_number_no_port_can_be_takes_nothing() -> None:
    ledger = absorbed(("user", _FIRST), ("user", "The webmail UI moved to 90250."))
    assert fact_of(ledger, "8025").status == "current"
