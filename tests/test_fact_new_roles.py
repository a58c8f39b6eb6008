"""Issue 28, statement-change: "VALUE is / will be the new K (for OWNER)" names the value as
its key's new holder. The subject is the value, the predicate's noun phrase its key, and the
key's earlier value (however the earlier statement worded it) is replaced; another owner's
key, a question, a modal, a condition or a reply's sentence replaces nothing."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    ("The treasurer is Bob Smith.", "Jane Doe is the new treasurer.", "Bob Smith", "Jane Doe"),
    ("The book club meets at Riverside Hall.",
     "Oakwood Library is our new venue for the book club.", "Riverside Hall", "Oakwood Library"),
    ("The minimum Node version is 16.", "18 is the new minimum Node version.", "16", "18"),
    ("Our wedding reception will be held at Hartley Manor.",
     "We are pleased to announce that Elm Barn will be the new venue for the wedding "
     "reception.",
     "Hartley Manor", "Elm Barn"),
])
def test_the_new_holder_of_a_key_replaces_its_value(before: str, after: str, old: str,
                                                     new: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    replaced = fact_of(ledger, old)
    assert replaced.status == "replaced" and value_of(ledger, replaced.replaced_by) == new
    assert fact_of(ledger, new).status == "current"


def test_the_key_words_inside_the_predicate_are_no_value() -> None:
    ledger = absorbed(("user", "The Big Weekend 2026 will be held at Southwell Racecourse."),
                      ("user", "Newark Showground will be the new venue for The Big Weekend "
                               "2026."))
    assert not [f for f in ledger if f.value.startswith("The Big Weekend")]


@pytest.mark.parametrize("after", [
    "Oakwood Library is the new venue for the chess club.",  # another owner's key
    "Is Oakwood Library the new venue for the book club?",
    "Oakwood Library could be the new venue for the book club.",
    "If Oakwood Library is the new venue for the book club, we need a minibus.",
    "Tom thinks Oakwood Library is the new venue for the book club, but he is guessing.",
    "Should Oakwood Library be the new venue for the book club?",
])
def test_another_key_or_a_sentence_that_states_nothing_replaces_nothing(after: str) -> None:
    ledger = absorbed(("user", "The venue for the book club is Riverside Hall."), ("user", after))
    kept = fact_of(ledger, "Riverside Hall")
    assert kept.status == "current" and kept.possibly_replaced_by is None


def test_a_reply_naming_a_new_holder_never_replaces_the_users_value() -> None:
    ledger = absorbed(("user", "The treasurer is Bob Smith."),
                      ("assistant", "Jane Doe is the new treasurer."))
    assert fact_of(ledger, "Bob Smith").status == "current"


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    ("The treasurer is Bob Smith.", "Jane Doe takes over as treasurer.", "Bob Smith", "Jane Doe"),
    ("The treasurer is Bob Smith.", "Jane Doe has taken over from Bob Smith as treasurer.",
     "Bob Smith", "Jane Doe"),
    ("Our goalkeeper is Sam Reid.", "Tom Hale replaces Sam Reid as goalkeeper.", "Sam Reid",
     "Tom Hale"),
    ("We use MySQL for the database.", "Postgres is now our database.", "MySQL", "Postgres"),
])
def test_a_value_that_takes_a_role_over_replaces_its_holder(before: str, after: str, old: str,
                                                           new: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    replaced = fact_of(ledger, old)
    assert replaced.status == "replaced" and value_of(ledger, replaced.replaced_by) == new


@pytest.mark.parametrize("after", [
    "Jane Doe takes over as treasurer of the chess club.",  # another owner's treasurer
    "Should Jane Doe take over as treasurer of the book club?",
    "If Jane Doe takes over as treasurer of the book club, who keeps the minutes?",
    "Jane Doe could take over as treasurer of the book club.",
])
def test_a_role_taken_by_another_owner_or_only_asked_about_replaces_nothing(after: str) -> None:
    ledger = absorbed(("user", "The treasurer of the book club is Bob Smith."), ("user", after))
    kept = fact_of(ledger, "Bob Smith")
    assert kept.status == "current" and kept.possibly_replaced_by is None


def test_a_value_inside_the_phrase_is_left_to_its_own_key() -> None:
    ledger = absorbed(("user", "The API port is 8443."), ("user", "The API is now on port 9443."))
    assert value_of(ledger, fact_of(ledger, "8443").replaced_by) == "9443"


@pytest.mark.parametrize("after", [
    "The budget is 500 dollars, and maybe Priya is the new team lead.",  # a marked clause
    "Priya will be the new team lead once Dana retires.",  # a plan: a condition's adjunct
    "Priya will be the new team lead in 2027.",  # a plan: a dated adjunct
])
def test_a_new_holder_the_sentence_does_not_assert_replaces_nothing(after: str) -> None:
    """REVIEW38b finding 1: the name before "is the new K" keeps the sentence layer's mood
    marks, and a dated or conditional adjunct makes the taking over a plan."""
    ledger = absorbed(("user", "The team lead is Dana."), ("user", after))
    assert fact_of(ledger, "Dana").status == "current"
    assert not [f for f in ledger if "once" in f.key or "2027" in f.key or "retire" in f.key]


@pytest.mark.parametrize("after", ["Priya is the new team lead.",
                                   "Priya takes over from Dana as team lead.",
                                   "Priya took over as team lead in March.",
                                   "Priya is the new team lead as of Monday."])
def test_an_asserted_new_holder_still_replaces_the_old_one(after: str) -> None:
    ledger = absorbed(("user", "The team lead is Dana."), ("user", after))
    dana = fact_of(ledger, "Dana")
    assert dana.status == "replaced" and value_of(ledger, dana.replaced_by) == "Priya"
    assert fact_of(ledger, "Priya").key.startswith("team|lead|")
    assert [f.key for f in ledger if f.value in ("March", "Monday")] == []  # the change's date
