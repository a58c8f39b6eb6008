"""Issue 28, stop 39: a name written in code marks ("rename the binary to `ollmd`") is a
name where its key's phrase calls it one, so it meets the plain name it renames though its
key names fewer words ("the binary" beside "the CLI binary"). A function, a variable, a path
stay kinds of their own."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize(("first", "then", "old", "new"), [
    ("The CLI binary is named ollm.", "Rename the binary to `ollmd`.", "ollm", "ollmd"),
    ("Our mobile app is called Tallyho.", "The app is now called `tally`.", "Tallyho",
     "tally"),
])
def test_a_name_in_code_marks_renames_the_plain_name(first: str, then: str, old: str,
                                                      new: str) -> None:
    ledger = absorbed(("user", first), ("user", then))
    renamed = fact_of(ledger, old)
    by = renamed.replaced_by or renamed.possibly_replaced_by
    assert by is not None and value_of(ledger, by) == new


def test_an_environment_variable_is_no_name() -> None:
    ledger = absorbed(("user", "The worker service is called Harvester."),
                      ("user", "Actually the service reads `HARVEST_TOKEN` now."))
    assert fact_of(ledger, "Harvester").status == "current"
    assert fact_of(ledger, "Harvester").possibly_replaced_by is None
