"""The open review findings of stop 40 (issue 28): everyday sentences read wrongly, each
fixed by the shape of the sentence. Each case failed on eef6997.
"""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed


@pytest.mark.parametrize(("before", "after", "name"), [
    ("Mark drives the kids on Tuesdays.", "Mark is away, so Julia drives them instead.",
     "Julia"),
    ("Mark drives the kids on Tuesdays.", "Mark is away, and Julia drives them instead.",
     "Julia"),
    ("Mark drives the kids on Tuesdays.", "Mark is away, but Julia drives them instead.",
     "Julia"),
])
def test_a_clause_connective_names_no_key(before: str, after: str, name: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    keys = {f.key for f in ledger if f.value == name}
    assert keys, f"{name} is not in the ledger"
    assert not any(part in ("so", "and", "but") for key in keys for part in key.split("|")), \
        keys
