"""Stop 46, the lead's mends: a hesitation of ``REPAIRS`` is a correction's lead only as a
hesitation. "ER: 4 nurses" (the emergency room's) was read as "er," and replaced the ward's
"6 nurses" on 8263a31: a colon after it makes a label, and in capitals it is an acronym."""

from __future__ import annotations

import pytest

from tests.fact_ledger import status_of, user_ledger


@pytest.mark.parametrize("later", [
    "ER: 4 nurses on nights.",
    "er: 4 nurses on nights",
    "ER, 4 nurses on nights.",
])
def test_a_label_or_an_acronym_spelled_er_is_no_self_repair(later: str) -> None:
    ledger = user_ledger("The ward has 6 nurses on nights.", later)
    assert status_of(ledger, "6 nurses") == "current"


@pytest.mark.parametrize("later", ["err, 40 s", "errr... 40 s", "erm - 40 s", "nvm, 40 s"])
def test_a_hesitation_in_lower_case_still_repairs(later: str) -> None:
    ledger = user_ledger("The timeout is 30 s.", later)
    assert status_of(ledger, "30 s") == "replaced"
    assert status_of(ledger, "40 s") == "current"
