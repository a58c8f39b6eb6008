"""Issue 28, stop 47 (everyday corrections in the blind probes): a value that moved "from N
to M" after a verb of movement in the past; the head of "N with the X" opening its clause;
the head noun of a terse label ("Elasticsearch heap 8g"); a self-repair typed as spoken,
without a comma ("lands at 14:50 no wait 15:40"). Each with the places it must not fire."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.fact_ledger import status_of, user_ledger


def _keys(text: str) -> dict[str, str]:
    return {f.value: f.key for f in message_facts(text)}


def _values(text: str) -> list[str]:
    return [f.value for f in message_facts(text)]


@pytest.mark.parametrize("verb", ["went", "jumped", "rose", "grew", "climbed"])
def test_a_past_movement_from_n_to_m_is_a_change(verb: str) -> None:
    ledger = user_ledger("API rate limit for the public tier: 60 requests per minute",
                         f"We {verb} from 60 to 120 requests per minute after the upgrade.")
    assert status_of(ledger, "120 requests per minute") == "current"
    assert status_of(ledger, "60 requests per minute") == "replaced"


@pytest.mark.parametrize("said", ["The shuttle goes from 10 to 30 minutes apart.",
                                  "The warm-up takes from 10 to 30 minutes."])
def test_from_n_to_m_without_a_past_movement_stays_one_range(said: str) -> None:
    assert any(" to " in v for v in _values(said))


@pytest.mark.parametrize(("said", "key"), [
    ("meeting with the contractor is at 2pm", "contractor|meeting|time"),
    ("Dinner with the team is at 7pm", "team|dinner|time"),
])
def test_the_head_of_n_with_the_x_opening_its_clause(said: str, key: str) -> None:
    assert key in _keys(said).values()


def test_n_with_the_x_is_restated_as_x_n() -> None:
    ledger = user_ledger("meeting with the contractor is at 2pm", "contractor meeting's 3pm")
    assert status_of(ledger, "3pm") == "current"
    assert status_of(ledger, "2pm") == "replaced"


@pytest.mark.parametrize(("said", "key"), [
    ("Elasticsearch heap 8g", "elasticsearch|heap|g"),
    ("JVM heap 4g", "jvm|heap|g"),
])
def test_a_terse_labels_last_noun_is_its_head(said: str, key: str) -> None:
    assert key in _keys(said).values()


@pytest.mark.parametrize(("said", "key"), [
    ("the worker pool has 4 threads", "worker|pool|thread"),
    ("the servers need 8 GB", "|server|size"),
    ("the trip took 3 hours", "|trip|duration"),
])
def test_a_verb_before_the_value_is_no_head(said: str, key: str) -> None:
    assert key in _keys(said).values()


@pytest.mark.parametrize(("said", "old", "new"), [
    ("flight lands at 14:50 no wait 15:40, I always mix those up", "14:50", "15:40"),
    ("the train leaves at 9 actually 10", "9", "10"),
])
def test_a_repair_typed_without_a_comma(said: str, old: str, new: str) -> None:
    olds = {f.value: f.old for f in message_facts(said)}
    assert olds == {old: True, new: False}


@pytest.mark.parametrize("said", ["use 2 cups no sugar",
                                  "arrive at 9 no later than 10 please"])
def test_no_alone_without_a_comma_repairs_nothing(said: str) -> None:
    assert not any(f.old for f in message_facts(said))


@pytest.mark.parametrize(("said", "key"), [
    ("Checkout at the Airbnb is 11:00", "||time"),
    ("the meeting with the contractor is at 2pm", "contractor|meeting|time"),
])
def test_only_with_or_a_determiner_makes_the_opening_noun_the_head(said: str,
                                                                   key: str) -> None:
    assert key in _keys(said).values()
