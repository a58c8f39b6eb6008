"""Stop 53, mood53: what is current, what is only weighed, and what is past.

- A value the user only weighs or passes on ("maybe we go up to 20 mg", "someone suggested
  72°F") adopts nothing when the user's message is read again after a reply that repeats it
  (a message is read early when it may correct, and again when it is compacted): the reply's
  "a possible increase to 20 mg" stays the reply's, and replaces nothing of the user's.
- A clause that opens with "for now" / "rn" after a comma asserts its own value: "might bump
  it to 15 kg later, for now it's 12 kg" states 12 kg.
- A period of before named as such ("in years past", "in past years", "in days gone by",
  "back in the day") and the start of a series told in the past ("started out with a 10
  gallon", "we began with 3 servers") are past states.
- "as originally arranged" / "as previously agreed" says the value holds as agreed: no past
  state, and "as planned" / "as usual" after a value names no role for its key.
- A part told with a past copula and a before-time ends at the comma before a present part:
  "my old number was 555-0123, the new one is 555-0177".
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine import facts
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.models import Message
from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set


def _read_twice(said: str, reply: str) -> list[Fact]:
    """The message and its reply read early (as corrections may be), then read again in order
    at compaction, as the engine does."""
    ledger: list[Fact] = []
    for _ in range(2):
        for turn, role, text in ((1, "user", said), (2, "assistant", reply)):
            facts.absorb(ledger, Message(role=role, content=text), turn)  # type: ignore[arg-type]
    return ledger


def _users(ledger: list[Fact]) -> set[str]:
    return {f.value for f in ledger if f.status == "current" and (
        f.source == "user" or f.confirmed) and f.kind != "question"}


@pytest.mark.parametrize(("said", "reply", "now", "weighed"), [
    ("Doctor says maybe we go up to 20 mg next month, we'll decide at the review. "
     "For now 10 mg, at night.",
     "Noted: currently 10 mg at night, with a possible increase to 20 mg at next month's "
     "review.", "10 mg", "20 mg"),
    ("Someone on the forum suggested dropping the tank to 72°F. It's at 79°F right now.",
     "Lowering it to 72°F can help, but 72°F is low; most do best around 76-80°F.",
     "79°F", "72°F"),
    ("Thinking of upping it to 40 mg, we'll see. Currently 20 mg.",
     "Right: 20 mg now, with a possible increase to 40 mg.", "20 mg", "40 mg"),
])
def test_a_weighed_value_adopts_no_later_reply(said: str, reply: str, now: str,
                                               weighed: str) -> None:
    ledger = _read_twice(said, reply)
    assert now in _users(ledger)
    assert weighed not in _users(ledger)


def test_a_value_the_user_stated_still_adopts_the_replys_echo() -> None:
    """A user's block the extractor skips: the reply that repeats it is the user's."""
    said = "staging env for the worker:\n```\nREDIS_PORT=6380\nREDIS_DB=2\n```"
    ledger = _read_twice(said, "I've noted REDIS_PORT=6380 and REDIS_DB=2 for staging.")
    assert "REDIS_PORT=6380" in _users(ledger)


@pytest.mark.parametrize(("said", "now", "weighed"), [
    ("might bump it to 15 kg later, for now it's 12 kg", "12 kg", "15 kg"),
    ("we may go with Postgres 16 eventually, rn it's Postgres 14", "Postgres 14",
     "Postgres 16"),
    ("Maybe 20 mg next month, for now 10 mg", "10 mg", "20 mg"),
])
def test_a_clause_of_now_after_a_weighed_one_is_stated(said: str, now: str,
                                                       weighed: str) -> None:
    ledger = absorbed(("user", said))
    assert now in _users(ledger)
    assert weighed not in _users(ledger)


@pytest.mark.parametrize(("said", "past"), [
    ("In years past I served as precinct captain for Ward 5.", "Ward 5"),
    ("Started out with a 10 gallon, then a 20 long.", "10 gallon"),
    ("i began with 5 mg", "5 mg"),
    ("in past years the fee was $40", "$40"),
    ("During earlier seasons we trained at 6pm.", "6pm"),
    ("In days gone by the ferry left at 7:15.", "7:15"),
])
def test_a_period_of_before_or_a_series_start_is_past(said: str, past: str) -> None:
    assert past not in current_set(absorbed(("user", said)))


def test_the_value_of_now_beside_a_past_series_holds() -> None:
    ledger = absorbed(("user", "Started out with a 10 gallon, then a 20 long. This one's a "
                               "29 gallon."))
    assert current_set(ledger) == {"29 gallon"}


@pytest.mark.parametrize(("said", "kept"), [
    ("We start with 3 servers.", "3 servers"),  # a plan: no past
    ("The build started with 3 workers and it's fine.", "3 workers"),  # not at its head
    ("I take 5 mg at night.", "5 mg"),
])
def test_no_past_without_a_start_at_the_clause_head(said: str, kept: str) -> None:
    assert kept in current_set(absorbed(("user", said)))


@pytest.mark.parametrize(("said", "kept", "key"), [
    ("we shall remain in the Ballroom as originally arranged, for 60 guests.", "Ballroom", ""),
    ("the party is in Room 4 as planned", "Room 4", "party"),
    ("keeping the deposit at $500 as we previously agreed", "$500", "deposit"),
    ("we stay in Room 4 as usual", "Room 4", ""),
])
def test_as_agreed_is_no_past_and_no_key(said: str, kept: str, key: str) -> None:
    ledger = absorbed(("user", said))
    fact = next(f for f in ledger if f.value == kept and f.status == "current")
    attribute = fact.key.split("|")[1] if fact.key else ""
    assert attribute in (key, "")
    assert not any(w in (fact.key or "") for w in ("arranged", "planned", "usual", "agreed"))


def test_as_a_role_still_names_the_key() -> None:
    ledger = absorbed(("user", "use demo-2 as the demo server"))
    fact = next(f for f in ledger if f.value == "demo-2")
    assert fact.subject == "demo server"


def test_a_before_time_still_holds_its_clause_in_the_past() -> None:
    assert "7pm" not in current_set(absorbed(("user", "Originally the dinner was at 7pm.")))


@pytest.mark.parametrize(("said", "past", "now"), [
    ("my old number was 555-0123, the new one is 555-0177", "555-0123", "555-0177"),
    ("the old code was 4471, the new code is 9902", "4471", "9902"),
    ("Last year it was $30, this year it's $40", "$30", "$40"),
])
def test_a_past_part_ends_at_the_comma_before_a_present_one(said: str, past: str,
                                                           now: str) -> None:
    ledger = absorbed(("user", said))
    assert now in current_set(ledger)
    assert past not in current_set(ledger)


@pytest.mark.parametrize(("said", "kept"), [
    ("The meeting was moved to 3pm, the room is B12", "3pm"),  # a change holds
    ("the port was 9443 yesterday, the host is db-2", "9443"),  # no before-time
])
def test_a_past_copula_alone_before_a_present_part_is_no_past(said: str, kept: str) -> None:
    assert kept in current_set(absorbed(("user", said)))


@pytest.mark.parametrize(("later", "weighed"), [
    ("there's a possible move to 10:00 next month", "10:00"),
    ("There is a likely shift to 10:00 after the reorg.", "10:00"),
    ("landlord mentioned a potential increase to 10:30, we'll see", "10:30"),
])
def test_a_change_named_only_possible_changes_nothing(later: str, weighed: str) -> None:
    ledger = absorbed(("user", "standup is at 9:30"), ("assistant", "ok"), ("user", later))
    assert "9:30" in current_set(ledger)
    assert weighed not in _users(ledger)


def test_a_change_the_sentence_says_was_made_is_not_held_back() -> None:
    ledger = absorbed(("user", "standup is at 9:30"), ("assistant", "ok"),
                      ("user", "the possible move to 10:00 is now confirmed"))
    assert "10:00" in _users(ledger)


@pytest.mark.parametrize(("said", "declined", "kept"), [
    ("The dealer offered the Touring trim at $34,200, which I turned down; buying the Select "
     "at $31,500.", "$34,200", "$31,500"),
    ("the bank gave us a rate of 4.9%, which we declined. We keep the 5.2% fixed rate.", "4.9%",
     "5.2%"),
])
def test_a_relative_refusal_points_back(said: str, declined: str, kept: str) -> None:
    ledger = absorbed(("user", said))
    assert kept in current_set(ledger)
    assert declined not in _users(ledger)


@pytest.mark.parametrize(("said", "kept"), [
    ("We moved to the plan at $40, which I like.", "$40"),
    ("They offered 3pm, which works for us.", "3pm"),
])
def test_a_relative_clause_that_refuses_nothing_keeps_the_value(said: str, kept: str) -> None:
    assert kept in current_set(absorbed(("user", said)))


@pytest.mark.parametrize("later", [
    "my boss wants 10:00, for now it stays 9:30",
    "my boss wants 10:00, right now it's 9:30 and that's that",
])
def test_a_clause_of_now_answers_a_deciding_partys_wish(later: str) -> None:
    ledger = absorbed(("user", "standup is at 9:30"), ("assistant", "ok"), ("user", later))
    assert "9:30" in current_set(ledger)
    assert "10:00" not in _users(ledger)


def test_a_deciding_partys_wish_alone_is_read_as_before() -> None:
    ledger = absorbed(("user", "standup is at 9:30"), ("assistant", "ok"),
                      ("user", "my boss wants 10:00"))
    assert "10:00" in current_set(ledger)
