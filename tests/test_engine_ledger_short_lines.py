"""When the ledger's lines do not all fit its budget, a line drops its "(replaced …)" note
before any of the user's facts is left out, where the replaced value carries its own mark
wherever the request quotes it (a compacted message: checkpoints and kept quotes are
annotated); a replaced value still sent word for word in a recent turn keeps the note
(issue 28, point 4: the replaced value beside the current one where that helps the model)."""

from __future__ import annotations

from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.facts_render import render
from tests.fact_ledger import user_ledger


def _ledger() -> list[Fact]:
    return user_ledger(
        "The API port is 8443.", "The read timeout is 30 s.", "The staging server is "
        "called halibut.", "Actually the API port is 9443, not 8443.",
        "Bump the read timeout from 30 s to 60 s.", "The DB port is 5432.",
        "The deposit is 2,340 EUR.", "The release is on June 2.")


def _count(text: str) -> int:
    return len(text) // 4


def test_ample_room_keeps_the_notes():
    ledger = _ledger()
    text = render(ledger, compacted={f.message_id for f in ledger if f.message_id},
                  quoted=set(), budget=1000, count=_count).text
    assert "9443 (replaced 8443)" in text and "60 s (replaced 30 s)" in text, text


def test_notes_go_before_facts_when_room_is_short():
    ledger = _ledger()
    compacted = {f.message_id for f in ledger if f.message_id}
    full = render(ledger, compacted=compacted, quoted=set(), budget=1000, count=_count)
    budget = _count(full.text) + len(full.shown) - 4  # the notes' room, not a fact's
    tight = render(ledger, compacted=compacted, quoted=set(), budget=budget, count=_count)
    assert tight.left_out == (), tight.text
    assert "9443" in tight.text and "8443" not in tight.text, tight.text
    assert "5432" in tight.text and "June 2" in tight.text and "halibut" in tight.text


def test_a_replaced_value_in_a_recent_turn_keeps_its_note():
    ledger = _ledger()
    old = next(f for f in ledger if f.value == "8443" and f.status == "replaced")
    compacted = {f.message_id for f in ledger if f.message_id and f.message_id != old.message_id}
    full = render(ledger, compacted=compacted, quoted=set(), budget=1000, count=_count)
    tight = render(ledger, compacted=compacted, quoted=set(),
                   budget=_count(full.text) + len(full.shown) - 4, count=_count)
    assert "9443 (replaced 8443)" in tight.text, tight.text
