"""A reply's value is adopted when the user *uses it as a value* (issue 28, point 1), not when
the user's sentence happens to hold the same word: "the read timeout" does not adopt a reply's
misread "read", "I looked at the CLI" does not adopt a reply's "CLI". Both were sent in the
ledger as the user's facts at 2K, pushing out the user's own oldest facts."""

from __future__ import annotations

from ollm_desktop.engine import facts
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.models import Message
from tests.engine_fakes import absorbed


def _assistant(ledger: list[Fact], value: str) -> Fact:
    found = [f for f in ledger if f.source == "assistant" and f.value == value]
    assert found, [(f.source, f.value) for f in ledger]
    return found[0]


def test_a_word_or_a_common_acronym_in_the_user_s_sentence_adopts_nothing():
    ledger = absorbed(
        ("assistant", "Hot take: you can keep 3 replicas. Deploy it with KESTREL_TOKEN=abc1 and "
                      "name the queue billing-retry-7."),
        ("user", "OK. The read timeout is 30 s, and I looked at the CLI again this morning."))
    words = [Fact(kind="name", value="read", source="assistant", turn=1, sequence=90),
             Fact(kind="name", value="CLI", source="assistant", turn=1, sequence=91)]
    ledger[:0] = words
    facts.absorb(ledger, Message(role="user", content="The read timeout is 45 s; the CLI "
                                                      "still pages."), 3)
    assert not words[0].confirmed and not words[0].users
    assert not words[1].confirmed and not words[1].users


def test_a_value_the_user_names_is_adopted():
    ledger = absorbed(
        ("assistant", "Name the queue billing-retry-7 and run it on PostgreSQL 16."),
        ("user", "Good, billing-retry-7 it is, on PostgreSQL 16."))
    assert _assistant(ledger, "billing-retry-7").confirmed
    acronym = Fact(kind="name", value="ZFS", source="assistant", turn=1, sequence=99)
    ledger.append(acronym)
    facts.absorb(ledger, Message(role="user", content="Fine, we format the pool with ZFS."), 3)
    assert acronym.confirmed
