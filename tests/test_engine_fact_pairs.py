"""Two things of one kind in one sentence, each with its own value ("The under-14s train on
pitch 2 and the under-16s train on pitch 4"): both values are read, each keyed by its own
owner, and a correction of one leaves the other current (issue 28: false supersessions 0 on
pairs that share a word). "under-14s" is a name, not 14 seconds."""

from __future__ import annotations

from ollm_desktop.engine.references import find_references
from tests.fact_ledger import user_ledger


def test_a_hyphenated_word_holds_no_number():
    assert find_references("The under-14s train on the small pitch.") == []
    assert find_references("COVID-19 rules apply; the range is 10-20 ms.") == [
        ("10-20 ms", "number")]


def test_both_of_a_pair_are_read_and_one_is_corrected():
    ledger = user_ledger("The under-14s train on pitch 2 and the under-16s train on pitch 4.",
                         "the under-14s are on pitch 3 from now on")
    by_value = {f.value: f for f in ledger}
    assert {"pitch 2", "pitch 3", "pitch 4"} <= set(by_value), sorted(by_value)
    assert by_value["pitch 2"].status == "replaced"
    assert by_value["pitch 4"].status == "current"
    assert by_value["pitch 4"].possibly_replaced_by is None
