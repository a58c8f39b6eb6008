"""Digits that are not decimal digits (issue 28: a hostile or odd message loses nothing).

``str.isdigit`` is true for "²", "₂", "①" and 120 more characters that ``int`` cannot read;
a reading that tested ``isdigit`` and then called ``int`` raised ValueError on "1.75²" in a
reply's BMI sum, and the whole compaction of that chat was lost (found at stop 52 by a
review chat; 12-15 % of the dev chats with such characters spliced in raised). The readings
that turn a word into a number test ``isdecimal``, which is exactly what ``int`` reads (the
decimal digits of every script, "٣" and "३" too).
"""

from __future__ import annotations

import sys

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set

NOT_DECIMAL = "".join(c for c in map(chr, range(sys.maxunicode + 1))
                      if c.isdigit() and not c.isdecimal())
"""Every character that ``isdigit`` calls a digit and ``int`` cannot read."""

TEMPLATES = (
    "the standup is at {c} tomorrow",                  # a bare hour
    "we meet at {c}{c} on the east pitch",
    "the timeout was {c}0 and now it's 45",
    "it costs {c}000 rpm, since 19{c}{c}",
    "born in {c}{c}{c}{c}, moved here on the {c}{c}th",
    "BMI = 70 / (1.75{c}) ≈ 22.9",
    "port {c}{c}43 not 8443",
)


def test_the_set_is_what_int_cannot_read() -> None:
    """The premise: each such character is a digit to ``isdigit`` and not to ``int``."""
    assert len(NOT_DECIMAL) > 100 and "²" in NOT_DECIMAL and "①" in NOT_DECIMAL
    for c in NOT_DECIMAL[:5]:
        with pytest.raises(ValueError):
            int(c)


@pytest.mark.parametrize("template", TEMPLATES)
def test_no_reading_raises_on_a_digit_int_cannot_read(template: str) -> None:
    """Every such character, in every template, read as the user's and as a reply's."""
    for c in NOT_DECIMAL:
        text = template.format(c=c)
        for role in ("user", "assistant"):
            message_facts(text, role)


def test_a_reply_with_a_squared_height_keeps_the_users_values() -> None:
    """The chat that raised: the user's weight and height, a reply's BMI sum with "²"."""
    ledger = absorbed(("user", "I'm 70kg, 175cm — what's my BMI?"),
                      ("assistant", "BMI = 70 / (1.75²) ≈ 22.9 — in the healthy range."),
                      ("user", "nice"))
    assert {"70kg", "175cm"} <= current_set(ledger)


def test_decimal_digits_of_other_scripts_still_read_as_hours() -> None:
    """``isdecimal`` keeps what ``int`` reads: an Arabic-Indic bare hour is still a value
    to the reading, as before (no ValueError, and the Latin form unchanged)."""
    for text in ("the standup is at ٩ tomorrow", "the standup is at 9 tomorrow"):
        message_facts(text, "user")
    assert any(f.value == "9" or "9" in f.value for f in message_facts(
        "the standup is at 9 tomorrow", "user"))
