"""Issue 28, asked with recall: a user's replaced value is marked in recall's quotes whatever
form the quote writes it in.

People write a quantity two ways: "a 48-hour window" (a compound before its noun: number,
hyphen, the unit in the singular) and "48 hours" (number, space, the unit as counted). The
ledger keeps the form its sentence used; the old round recall quotes may use the other. Its
value was then quoted unmarked beside the question, as if it still held ("asked with recall,
user" counted it as a replaced value shown as current, where the request without recall,
whose quote of that round had been compacted away, did not).
"""

from __future__ import annotations

import asyncio
import sqlite3

from ollm_desktop.engine import facts
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.recall import RecalledRound, compose, quantity_forms, quoted_notes
from ollm_desktop.engine.tokens import count_tokens

OLD = "The take-home assignment has a 48-hour window."
NEW = "We shortened the take-home window to 24 hours; 48 hours was just making people overwork."
QUESTION = "What is the take-home window now?"


def _ledger(old: str, new: str) -> list[Fact]:
    current = Fact(kind="number", value=new, source="user", message_id="m11", turn=11,
                   key="take-home|window|duration")
    replaced = Fact(kind="number", value=old, source="user", message_id="m4", turn=4,
                    key="take-home|window|duration", status="replaced",
                    replaced_by=current.id, replaced_turn=11)
    return [replaced, current]


def _quoted(ledger: list[Fact], text: str) -> str:
    round_ = RecalledRound(("m4", "r4"), 4, text, "Noted.", 3.0)
    found = compose([round_], QUESTION, room=400, count=count_tokens,
                    notes=quoted_notes(ledger, facts.value_notes(ledger)))
    return found.text


def test_a_replaced_quantity_is_marked_where_the_quote_writes_it_as_a_compound():
    """"48 hours" replaced by "24 hours": the quote's "48-hour window" carries the note."""
    text = _quoted(_ledger("48 hours", "24 hours"), OLD)
    assert "48-hour (replaced by 24 hours) window" in text


def test_a_replaced_compound_is_marked_where_the_quote_counts_it():
    """The other way round: the ledger kept "48-hour", the quote says "48 hours"."""
    text = _quoted(_ledger("48-hour", "24 hours"), "The window is 48 hours for everyone.")
    assert "48 hours (replaced by 24 hours)" in text


def test_only_the_same_quantity_is_marked():
    """Another number (148 hours), another unit (48 minutes) and the current value's own
    compound form stay as they are."""
    ledger = _ledger("48 hours", "24 hours")
    text = _quoted(ledger, "Not 148-hour runs, nor 48-minute ones; a 24-hour window.")
    assert "(replaced" not in text
    assert "24-hour window" in text


def test_quantity_forms_are_read_from_the_value_shape():
    assert set(quantity_forms("48 hours")) == {"48-hour", "48 hour"}
    assert set(quantity_forms("48-hour")) == {"48 hours", "48 hour"}
    assert set(quantity_forms("2 weeks")) == {"2-week", "2 week"}
    assert set(quantity_forms("10 GB")) == {"10-GB"}
    assert set(quantity_forms("1.5 days")) == {"1.5-day", "1.5 day"}
    assert quantity_forms("v2.14.3") == []
    assert quantity_forms("port 8443") == []
    assert quantity_forms("48") == []


def test_the_chat_asked_with_recall_does_not_state_the_old_window_as_current():
    """End to end, as the memory benchmark asks: the two messages compacted away (a
    fact-free summariser), the question sent with recall; the recalled quote of the first
    message marks its old value with the current one."""
    from bench.memory.corrections import _engine, _small_talk
    from bench.memory.retention import retained
    from ollm_desktop.storage.recall_index import RecallIndex

    async def play() -> list[dict[str, str]]:
        engine = _engine(4096)
        index = RecallIndex(sqlite3.connect(":memory:"), chat_id="t")
        said = 0

        def round_(user: str) -> None:
            nonlocal said
            asked = engine.add("user", user)
            reply = engine.add("assistant", _small_talk(said, "assistant"))
            index.add_round(user, reply.content, message_ids=(asked.id, reply.id))
            said += 1

        round_(OLD)
        for _ in range(6):
            round_(_small_talk(said, "user"))
        round_(NEW)
        for _ in range(12):
            round_(_small_talk(said, "user"))
            if said % 2 == 0:
                await engine.compact(force=True)
        sent = "\n".join(m["content"] for m in engine.api_messages()[1:])
        assert OLD not in sent and NEW not in sent  # both left the request's turns
        asked = engine.add("user", QUESTION)
        messages, found = engine.recall_request(index, QUESTION)
        engine.remove_last(asked.id)
        assert found.rounds  # the question recalled the rounds that state the window
        return messages

    messages = asyncio.run(play())
    assert retained(messages, "24 hours", "48-hour", recall_from=len(messages) - 1)


def test_the_ledger_s_own_quotes_mark_the_other_form_too() -> None:
    """A checkpoint or a kept quote that says "a 48-hour window" is marked like recall's
    quotes (``facts.value_notes``: the region's notes), not only "48 hours"."""
    from ollm_desktop.engine import facts
    from ollm_desktop.engine.models import Message

    ledger: list = []
    for turn, text in enumerate(("The log retention is 48 hours.",
                                 "Actually the log retention is 24 hours, not 48 hours."), 1):
        facts.absorb(ledger, Message(role="user", content=text), turn)
    notes = facts.value_notes(ledger)
    marked = facts.annotate("We agreed on a 48-hour window for the logs.", notes)
    assert "48-hour (replaced by 24 hours)" in marked, (notes, marked)


def test_a_three_letter_unit_s_compound_has_its_plural() -> None:
    """"a 5-day trial" is "5 days" counted (only an abbreviation, "5-GB", has no plural)."""
    from ollm_desktop.engine.facts import quantity_forms

    assert "5 days" in quantity_forms("5-day")
    assert quantity_forms("5-GB") == ["5 GB"]
