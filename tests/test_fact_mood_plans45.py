"""Stop 45: changes refused, plans not yet in force, doubted memories and past places.

A negated move to a value ("We can't go to $4,000", ``fact_mood_unmade``), a plan with a
later time whose verb takes the value ("Tonight I'll scale it to 8 nodes", "From January I'm
going to charge $95", ``fact_mood_planned``), "the plan is to …" and a wish put off
("Eventually we want to migrate to Postgres") and a proposal's value after its noun ("that
idea about 5434", ``fact_mood_proposed``), a memory the speaker
doubts ("I vaguely remember $1,650", ``fact_mood_stance``) and a fronted place of before ("In
my old flat I paid $1,200", ``fact_tense``) replace nothing: the review's probes.
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_types import Fact
from tests.fact_ledger import status_of, user_ledger


def _not_current(ledger: list[Fact], value: str) -> bool:
    """No entry states ``value`` as current (an open question may name it; a whole
    sentence read as a decision or a correction that holds it states it)."""
    return all(f.status != "current" or f.kind == "question" for f in ledger if value in f.value)


@pytest.mark.parametrize(("held", "old", "said", "other"), [
    # refused
    ("The budget is $3,000.", "$3,000", "We can't go to $4,000, finance said no.", "$4,000"),
    ("Retention is 90 days.", "90 days", "We are NOT going to 30 days, I pushed back.",
     "30 days"),
    ("The fee is $40.", "$40", "We won't go to $50 this year.", "$50"),
    # plans not yet in force
    ("My hourly rate is $85.", "$85", "From January I'm going to charge $95.", "$95"),
    ("The cluster is 5 nodes.", "5 nodes", "Tonight I'll scale it to 8 nodes for the load test.",
     "8 nodes"),
    ("The database is MySQL 8.0.", "MySQL 8.0",
     "Eventually we want to migrate to Postgres, but not this year.", "Postgres"),
    ("The release is v3.2.", "v3.2", "The plan is to tag v3.3 next Friday.", "v3.3"),
    # a proposal's value after its noun ("the idea about 5434", "the proposal for $50")
    ("The DB port is 5432.", "5432", "Scratch that idea about 5434, we keep 5432.", "5434"),
    ("The fee is $40.", "$40", "The proposal for $50 is on the table.", "$50"),
    # doubted, or of before
    ("Rent is $1,600.", "$1,600",
     "I vaguely remember $1,650 from the renewal letter, need to double-check.", "$1,650"),
    ("Rent is $1,600.", "$1,600", "The renewal letter says $1,650, to be confirmed.", "$1,650"),
    ("My rent is $1,600.", "$1,600", "In my old flat I paid $1,200.", "$1,200"),
])
def test_a_refusal_a_plan_a_doubt_or_a_past_place_replaces_nothing(
        held: str, old: str, said: str, other: str) -> None:
    ledger = user_ledger(held, said)
    assert status_of(ledger, old) == "current"
    assert _not_current(ledger, other)


@pytest.mark.parametrize(("held", "old", "said", "new"), [
    # "not Y but X" is a correction's shape, not a refusal
    ("The referral is going to Dr. Lindqvist.", "Dr. Lindqvist",
     "The referral isn't going to Dr. Lindqvist but to Dr. Abara.", "Dr. Abara"),
    # no later time: the change is made
    ("The API port is 8080.", "8080", "I'll move the API port to 9090 in the next release.",
     "9090"),
    # the speaker's own wish, not put off
    ("The database is MySQL 8.0.", "MySQL 8.0", "We want to migrate to Postgres 16 now.",
     "Postgres 16"),
    # a value checked is stated
    ("Rent is $1,600.", "$1,600", "Rent is now $1,650, I checked.", "$1,650"),
])
def test_a_change_made_still_applies(held: str, old: str, said: str, new: str) -> None:
    ledger = user_ledger(held, said)
    assert status_of(ledger, old) == "replaced"
    assert status_of(ledger, new) == "current"
