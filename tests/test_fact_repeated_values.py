"""A value said again in its sentence is a value at each place it is said as a whole, never
inside a longer number or word: "5 seconds" is not said inside "15 seconds", "8080" not
inside "18080"."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import sentence_facts


@pytest.mark.parametrize("sentence, values", [
    ("The retry waits 15 seconds, then 5 seconds.", ["15 seconds", "5 seconds"]),
    ("Port 8080, not 18080.", ["8080", "18080"]),
    ("The timeout is 5 seconds; 5 seconds is plenty.", ["5 seconds"]),
])
def test_a_value_is_found_only_where_it_is_said_whole(sentence: str, values: list[str]) -> None:
    assert sorted({f.value for f in sentence_facts(sentence)}) == sorted(values)
