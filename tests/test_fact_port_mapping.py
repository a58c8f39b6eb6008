"""A verb before "K Y to X" that is no change verb ("map", "forward", "bind", "proxy")
maps one live value onto another: the sentence states Y again as it stands, so X neither
replaces Y nor marks it "possibly replaced". The verbless title ("Port 5000 to 2000") and
a plain restatement ("The port is 2000.") still do."""

from __future__ import annotations

import pytest

from tests.engine_fakes import fact_of
from tests.fact_ledger import user_ledger


@pytest.mark.parametrize("history, text", [
    ("The dev server listens on port 5000.", "Map port 5000 to 2000."),
    ("The port is 5000.", "Forward port 5000 to 2000."),
    ("The port is 5000.", "Bind port 5000 to 2000."),
    ("The port is 5000.", "Proxy port 5000 to 2000."),
])
def test_a_port_mapping_takes_nothing_back(history: str, text: str) -> None:
    old = fact_of(user_ledger(history, text), "5000")
    assert old.status == "current"
    assert old.possibly_replaced_by is None


@pytest.mark.parametrize("history, text, status, possibly", [
    ("The port is 5000.", "Port 5000 to 2000", "replaced", False),
    ("The port is 5000.", "The port is 2000.", "current", True),
])
def test_a_title_change_and_a_restatement_still_take_y_back(
        history: str, text: str, status: str, possibly: bool) -> None:
    old = fact_of(user_ledger(history, text), "5000")
    assert old.status == status
    assert (old.possibly_replaced_by is not None) == possibly
