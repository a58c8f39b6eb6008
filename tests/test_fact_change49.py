"""Corrections phrased as a plain statement of change or with a verb of change (issue 28,
stop 49): "Should have been 8080 to begin with", "renamed the repo to payments-core
yesterday". Each reading is grammar over closed classes; what it must not read is tested
beside it."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.engine_fakes import absorbed, fact_of, value_of


def _status(*said: str) -> dict[str, tuple[str, str | None]]:
    """Each value of the ledger after ``said`` ("A: " opens a reply): its status and what
    replaced it."""
    ledger = absorbed(*[("assistant", m[3:]) if m.startswith("A: ") else ("user", m)
                        for m in said])
    return {f.value: (f.status, value_of(ledger, f.replaced_by)) for f in ledger}


# --- "been" is the copula's participle, never a noun with a number ----------------------

@pytest.mark.parametrize("text, value", [
    ("It has been 8080 for years.", "8080"),
    ("The port should have been 8080.", "8080"),
    ("It should have been 8080.", "8080"),
])
def test_been_before_a_number_is_no_label(text: str, value: str) -> None:
    values = [f.value for f in message_facts(text)]
    assert value in values
    assert not any(v.startswith("been") for v in values)


# --- "(it) should have been X (to begin with)": a self-repair of an earlier message -----

@pytest.mark.parametrize("repair", [
    "Yup! Should have been 8080 to begin with...",
    "It should have been 8080 in the first place.",
    "That should have been 8080 from the start.",
    "should have been 8080",
])
def test_should_have_been_repairs_the_earlier_value(repair: str) -> None:
    status = _status("The web port is 8088.", "A: Port 8088, noted.", repair)
    assert status["8088"] == ("replaced", "8080")
    assert status["8080"][0] == "current"


@pytest.mark.parametrize("said", [
    "It should be 8080.",  # a requirement: what it has to become
    "It should have been 8080, but the vendor changed it.",  # a complaint: it IS 8088
    "It should have been 8080 from January.",
    "Should it have been 8080?",
])
def test_a_requirement_or_a_complaint_replaces_nothing(said: str) -> None:
    status = _status("The web port is 8088.", "A: Port 8088, noted.", said)
    assert status["8088"][0] == "current"


def test_a_repair_of_its_own_messages_previous_value_still_pairs_the_two() -> None:
    status = _status("The invoice bills the session at 14 hours. It should have been "
                     "12 hours to begin with.")
    assert status["14 hours"] == ("replaced", "12 hours")


# --- a change verb's "to X" followed by when the change was made ------------------------

@pytest.mark.parametrize("old, change, new", [
    ("the repo is called billing-svc on gitlab",
     "renamed the repo to payments-core yesterday, so use that name.", "payments-core"),
    ("monorepo uses yarn 1 workspaces",
     "yeah, migrated the whole monorepo to pnpm last sprint, lockfile's committed", "pnpm"),
    ("the log level is warn", "we switched the log level to debug this morning.", "debug"),
])
def test_a_change_verbs_value_before_when_it_was_made(old: str, change: str, new: str) -> None:
    ledger = absorbed(("user", old), ("assistant", "Noted."), ("user", change))
    assert fact_of(ledger, new).status == "current"
    olds = [f for f in ledger if f.turn == 1]
    assert olds and all(f.status == "replaced" for f in olds)


@pytest.mark.parametrize("text", [
    "renamed the repo to payments-core last year's way",  # the phrase goes on
    "we moved the meeting to room yesterday evening",  # "yesterday" is no end here
])
def test_a_time_that_does_not_end_the_clause_reads_no_bare_value(text: str) -> None:
    values = [f.value for f in message_facts(text) if f.kind != "correction"]
    assert "payments-core" not in values and "room" not in values


# --- "had been X": the past perfect of "be" is a state before a past time ---------------

@pytest.mark.parametrize("text, value", [
    ("It had been 30 per minute.", "30 per minute"),
    ("After the bot trouble, it had been 30 per minute.", "30 per minute"),
    ("It had been 30 per minute, with a warning.", "30 per minute"),
    ("The fee had been $40 a month.", "$40 a month"),
    ("The venue had been Hall C.", "Hall C"),
])
def test_a_past_perfect_value_is_not_current(text: str, value: str) -> None:
    assert value not in [f.value for f in message_facts(text) if not f.old]


@pytest.mark.parametrize("text, value", [
    ("The meeting had been moved to Friday.", "Friday"),  # a change still holds
    ("We had 5 people.", "5 people"),  # "had" alone is no perfect of "be"
])
def test_a_past_change_or_a_plain_had_still_states(text: str, value: str) -> None:
    assert value in [f.value for f in message_facts(text)]


# --- a mid-sentence self-repair: a hesitation "er" and "make that" ---------------------

@pytest.mark.parametrize("text, old, new", [
    ("set the deployment replicas to 3, er, 5 I mean, we're expecting launch traffic", "3", "5"),
    ("we need 2 cups of flour, make that 3 cups", "2 cups", "3 cups"),
])
def test_a_hesitation_or_make_that_repairs_the_value_before(text: str, old: str,
                                                             new: str) -> None:
    status = _status(text)
    assert status[old] == ("replaced", new)
    assert status[new][0] == "current"


@pytest.mark.parametrize("text, kept", [
    ("we need 2 cups of flour, er, and sugar too", "2 cups"),  # no second value: no repair
    ("book 2 rooms, er, 3 nights each", "2 rooms"),  # another unit: a second fact
])
def test_a_hesitation_alone_repairs_nothing(text: str, kept: str) -> None:
    assert _status(text)[kept][0] == "current"
