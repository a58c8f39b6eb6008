"""A change addressed to someone with a leading "@handle", and "upped" as a change verb
(issue 28, real text: a reply in an issue tracker). New words; each failed on 387fcb3.
"""

from __future__ import annotations

import pytest

from tests.fact_ledger import current_after


@pytest.mark.parametrize(("fact", "message", "new", "old"), [
    ("The nightly backup keeps 7 copies.", "I upped this to 14 copies.",
     "14 copies", "7 copies"),
    ("The worker pool size is 8.", "@marta_k @lee we upped it to 12.",
     "12", "8"),
    ("The attachment limit is 25MB.", "@jo-v I raised this to 40MB.", "40MB",
     "25MB"),
])
def test_an_addressed_change_applies(fact: str, message: str, new: str, old: str) -> None:
    now = current_after(fact, message)
    assert new in now and old not in now, now


def test_a_handle_inside_a_sentence_stays_its_subject() -> None:
    """Only a leading handle is a vocative: "... and @marta_k set it to 12" keeps its
    change."""
    now = current_after("The worker pool size is 8.",
                        "I checked the logs and @marta_k set the worker pool size to 12.")
    assert "12" in now and "8" not in now, now
