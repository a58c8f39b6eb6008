"""Sentences that once raised inside the grammar (issue 28's review): an error word with no
boundary after the last value ("the wrong port is 9443"), a subject made only of "now". The
message is stored inside the save's transaction, so an exception here lost the message."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_extract import extract


@pytest.mark.parametrize(("role", "text", "value"), [
    ("user", "the wrong port is 9443", "9443"),
    ("user", "the port is 9443 not the wrong 8443", "9443"),
    ("assistant", "The incorrect setting is 9443", "9443"),
    ("assistant", "That typo is in src/app.py", "src/app.py"),
])
def test_an_error_word_with_nothing_after_the_value_reads_the_value(role, text, value):
    assert value in [f.value for f in extract(role, text)]


@pytest.mark.parametrize("text", ["now now at the cafe", "The now now at the cafe.",
                                  "the now now in the hall from now on"])
def test_a_subject_of_only_now_reads_without_an_error(text):
    assert isinstance(extract("user", text), tuple)
