"""Stop 53, keys (second round, area E): a key whose head only names the measure its unit
already tells ("sparge temp" of °C, "backup frequency" of MHz, "venue capacity" of people),
said again by its owner alone ("sparge at 78 °C", "backup is 145.550 MHz", "the venue holds
130 people"), is one key: the new value replaces the old (``fact_measure_heads``). A head
that names a thing ("the kitchen table"), a length's dimension ("bedroom width": several
nouns of one measure), another owner, a question, a suggestion and the assistant's words
replace nothing.
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_measure_heads import measure_left_out
from ollm_desktop.engine.fact_types import Fact
from tests.engine_fakes import absorbed


def _chat(said: str, later: str, reply: str = "Ok.") -> list[Fact]:
    return absorbed(("user", said), ("assistant", reply), ("user", later))


def _fact(ledger: list[Fact], value: str) -> Fact:
    return next(f for f in ledger if f.value == value and f.source == "user")


def _replaced(ledger: list[Fact], old: str, new: str) -> bool:
    return _fact(ledger, old).status == "replaced" and \
        _fact(ledger, old).replaced_by == _fact(ledger, new).id


def _untouched(ledger: list[Fact], old: str) -> bool:
    fact = _fact(ledger, old)
    return fact.status == "current" and fact.possibly_replaced_by is None


@pytest.mark.parametrize(("said", "reply", "later", "old", "new"), [
    ("For the club field day: primary frequency 145.500 MHz, backup frequency 145.525 MHz.",
     "Primary 145.500 MHz and backup 145.525 MHz noted.",
     "backup is 145.550 MHz — 525 is used by the packet guys. primary stays.",
     "145.525 MHz", "145.550 MHz"),
    ("sparge temp 76 °C", "Ok.", "sparge water at 78 °C this time", "76 °C", "78 °C"),
    ("venue capacity is 150 people", "Noted.", "the venue holds 130 people", "150 people",
     "130 people"),
    ("upload limit 25 MB", "ok", "upload is 50 MB", "25 MB", "50 MB"),
    ("commute time is 40 minutes", "ok", "the commute is 45 minutes", "40 minutes",
     "45 minutes"),
    ("Dog weight 31 kg", "Good boy.", "the dog is 29.5 kg at the vet today", "31 kg",
     "29.5 kg"),
    ("pool temp 28 °C", "Lovely.", "pool's at 26 °C now", "28 °C", "26 °C"),
    ("the spare room radiator temp is 19 °C", "ok", "radiator is 21 °C now", "19 °C",
     "21 °C"),
    ("uplink freq 437.8 MHz, downlink freq 145.9 MHz", "Uplink 437.8 MHz, downlink 145.9 MHz.",
     "downlink is 145.95 MHz actually", "145.9 MHz", "145.95 MHz"),
])
def test_the_owner_alone_is_the_key_whose_head_names_the_measure(
        said: str, reply: str, later: str, old: str, new: str) -> None:
    assert _replaced(_chat(said, later, reply), old, new)


@pytest.mark.parametrize(("said", "reply", "later", "old"), [
    ("The kitchen table is 180 cm", "ok", "The kitchen is 350 cm wide", "180 cm"),
    ("bedroom width 3 m", "ok", "the bedroom is 4 m", "3 m"),
    ("the fridge temp is 4 °C", "ok", "is the fridge at 6 °C?", "4 °C"),
    ("my suitcase weight was 23 kg", "ok", "should the suitcase be 20 kg?", "23 kg"),
    ("oven temp 180C", "I'd do the oven at 200C for crispier skin.", "thanks", "180C"),
    ("kitchen fridge temp 4 °C and garage fridge temp 8 °C", "ok", "fridge at 5 °C now",
     "4 °C"),
    ("front tyre pressure 32 psi", "ok", "the garage is 12 psi", "32 psi"),
])
def test_no_measure_head_or_no_statement_replaces_nothing(
        said: str, reply: str, later: str, old: str) -> None:
    assert _untouched(_chat(said, later, reply), old)


def test_a_sibling_left_out_replaces_nothing() -> None:
    ledger = _chat("rear tyre pressure 36 psi", "tyre is 38 psi")  # (possibly, as before)
    assert _fact(ledger, "36 psi").status == "current"


@pytest.mark.parametrize(("a", "b", "found"), [
    ("|sparge|°c", "sparge|temp|°c", "same"),
    ("sparge|temp|°c", "|sparge|°c", "same"),
    ("|backup|mhz", "club field day backup|frequency|mhz", "same"),
    ("|bedroom|m", "bedroom|width|m", "maybe"),
    ("|kitchen|cm", "kitchen|table|cm", ""),
    ("|sparge|°c", "sparge|temp|mhz", ""),
    ("|field|mhz", "club field day backup|frequency|mhz", ""),
    ("|temp|°c", "sparge|temp|°c", ""),
    ("|tyre|psi", "front tyre|pressure|psi", ""),
])
def test_measure_left_out(a: str, b: str, found: str) -> None:
    assert measure_left_out(a, b) == found
