"""Stop 45 (issue 28): a change the user states in plain words meets the value it changes
(keys, values and change verbs). Each case failed on 5c26af4.
"""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed


def _current(*said: str) -> set[str]:
    ledger = absorbed(*(("user", s) for s in said))
    return {f.value for f in ledger if f.status == "current"}


def _status(value: str, *said: str) -> str:
    ledger = absorbed(*(("user", s) for s in said))
    return next(f.status for f in ledger if f.value == value)


@pytest.mark.parametrize(("said", "key"), [
    ("Retries are set to 3.", "|retry|number"),
    ("Timeout is set to 30.", "|timeout|number"),
    ("Workers are 4.", "|worker|number"),
    ("Platform changed to 9.", "|platform|number"),
])
def test_a_capital_at_the_sentence_start_is_no_product(said: str, key: str) -> None:
    """Case says nothing at a sentence's start: a plain noun there is no product whose
    version the number is (only a word the references know as one, "Node is now 20")."""
    ledger = absorbed(("user", said))
    assert [(f.key, f.ref_kind) for f in ledger] == [(key, "number")]


@pytest.mark.parametrize("said", ["Node is now 20.", "Java is 21.", "We moved, Node is now 20."])
def test_a_known_product_at_the_start_keeps_its_version(said: str) -> None:
    ledger = absorbed(("user", said))
    assert [f.ref_kind for f in ledger] == ["version"]


def test_set_retries_replaces_retries_set_to() -> None:
    assert _current("Retries are set to 3.", "Set retries to 5.") == {"5"}


def test_platform_changed_to_replaces_the_train_platform() -> None:
    assert _current("The train platform is 4.", "Platform changed to 9.") == {"9"}


@pytest.mark.parametrize(("before", "after", "now"), [
    ("The team has 9 engineers.", "We hired two, so 11 engineers now.", "11 engineers"),
    ("I own 2 cats.", "Adopted another one, so 3 cats now.", "3 cats"),
    ("We're 6 for dinner on Saturday.", "Two more are coming, so 8 for dinner.", "8"),
    ("There are 25 kids in the class.", "A new kid joined, 26 now.", "26"),
    ("I have 4 meetings tomorrow.", "One got cancelled, 3 left.", "3"),
])
def test_a_count_given_as_the_result_replaces_the_count(before: str, after: str,
                                                        now: str) -> None:
    """"…, so N [noun] [now]", "…, N now", "…, N left": what there is now."""
    ledger = absorbed(("user", before), ("user", after))
    current = {f.value for f in ledger if f.status == "current" and f.ref_kind == "number"}
    assert current == {now}, [(f.value, f.status) for f in ledger]


@pytest.mark.parametrize("said", [
    "It rained, so 2 of them failed.",
    "So we left at 5.",
])
def test_a_so_that_tells_no_count_gives_none(said: str) -> None:
    assert not [f for f in absorbed(("user", said)) if f.ref_kind == "number"]


@pytest.mark.parametrize(("before", "after", "now"), [
    ("Shard count is 12.", "Resharded to 24 shards.", "24 shards"),
    ("The number of replicas is 3.", "Bumped to 5 replicas.", "5 replicas"),
    ("The swap is 2 GB.", "I resized swap to 8 GB.", "8 GB"),
    ("We have 3 open bugs for the release.", "Down to 1 open bug.", "1 open bug"),
])
def test_a_change_of_a_count_meets_the_count(before: str, after: str, now: str) -> None:
    """A count noun and its count's key ("shard count", "number of replicas") are one key;
    "scale", "resize", "reshard", "relocate", "reschedule" are change verbs; a leading
    "down to X" changes."""
    assert _current(before, after) == {now}


def test_a_count_of_another_noun_is_not_the_count() -> None:
    assert _current("Shard count is 12.", "Bumped to 24 replicas.") == {"12", "24 replicas"}


def test_a_leading_up_to_is_a_bound() -> None:
    ledger = absorbed(("user", "The room holds 4 guests."), ("user", "Up to 6 guests."))
    assert next(f for f in ledger if f.value == "4 guests").status == "current"
