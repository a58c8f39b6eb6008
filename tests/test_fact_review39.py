"""The review of stop 39 round 1 (issue 28, sentence layer), in new words: a routine at a
time or place states its value; a comparison or a judgement beside a correction describes
the change; an ability that the sentence says came about ("we can finally ..., they agreed")
is a change made. Each case failed on 4f59e7b.
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine import facts
from ollm_desktop.engine.models import Message
from tests.fact_ledger import user_ledger


def _replaced(old: str, new: str, *texts: str) -> bool:
    ledger = user_ledger(*texts)
    by_id = {f.id: f for f in ledger}
    return any(f.value == old and f.replaced_by is not None and
               by_id[f.replaced_by].value == new for f in ledger)


def _stated(text: str, value: str) -> bool:
    return any(f.value == value and f.kind != "question" for f in user_ledger(text))


ROUTINES = [
    ("The ferry usually departs at 6:15.", "6:15"),
    ("My daughter normally gets home at 4:30pm.", "4:30pm"),
    ("The choir usually rehearses on Wednesdays.", "Wednesdays"),
    ("I usually drink 3 cups of tea a day.", "3 cups of tea a day"),
]


@pytest.mark.parametrize(("text", "value"), ROUTINES)
def test_a_routine_at_a_time_states_its_value(text: str, value: str) -> None:
    assert _stated(text, value), [(f.value, f.kind) for f in user_ledger(text)]


def test_a_routine_can_be_corrected() -> None:
    assert _replaced("9pm", "10pm", "The backup job usually runs at 9pm.",
                     "The backup job runs at 10pm now.")


def test_a_habit_that_applies_a_value_still_replaces_nothing() -> None:
    assert not _replaced("16", "48", "The chunk size is 16.",
                         "We typically go with 48 for big files.")


COMPARED_CORRECTIONS = [
    ("The recital is at 6pm.", "The recital is at 5pm, an hour earlier than planned.",
     "6pm", "5pm"),
    ("The ferry leaves at 9am.", "The ferry leaves at 10am, which suits us more than 9am.",
     "9am", "10am"),
    ("The exam is on Tuesday.", "The exam is on Monday, earlier than normal.",
     "Tuesday", "Monday"),
    ("Check-in opens at 2pm.", "Check-in opens at 3pm, later than Friday's 2pm.",
     "2pm", "3pm"),
]


@pytest.mark.parametrize(("fact", "message", "old", "new"), COMPARED_CORRECTIONS)
def test_a_trailing_comparison_describes_the_change(fact: str, message: str, old: str,
                                                    new: str) -> None:
    assert _replaced(old, new, fact, message)


def test_a_comparison_of_its_own_still_sets_nothing() -> None:
    assert not _replaced("Postgres", "MySQL", "We use Postgres.",
                         "MySQL is faster than Postgres.")


def test_an_ability_that_came_about_is_a_change_made() -> None:
    assert _replaced("June 3", "June 10", "The launch date is June 3.",
                     "Great, we can finally move the launch date to June 10, legal signed off.")


def test_an_offer_of_a_change_still_changes_nothing() -> None:
    assert not _replaced("June 3", "June 10", "The launch date is June 3.",
                         "We can move the launch date to June 10.")


def test_a_value_judged_too_small_before_the_one_wanted_is_replaced() -> None:
    assert _replaced("4 GB", "8 GB", "The cache size is 4 GB.",
                     "4 GB is too small, it has to be 8 GB.")


def test_a_reason_that_judges_the_old_value_keeps_the_change() -> None:
    assert _replaced("20 minutes", "45 minutes", "The session timeout is 20 minutes.",
                     "Bump the session timeout to 45 minutes, as 20 minutes was too short.")


def test_a_value_judged_too_big_does_not_touch_the_one_kept() -> None:
    ledger = user_ledger("The thread count is 16.", "24 is too many, so we keep 16.")
    kept = [f for f in ledger if f.value == "16"]
    assert kept and all(f.status == "current" and f.possibly_replaced_by is None
                        for f in kept), [(f.value, f.status) for f in ledger]


def test_one_person_in_two_roles_is_two_entries() -> None:
    ledger = user_ledger("Priya is the treasurer.", "Priya is the coach.")
    roles = {f.key for f in ledger if f.value == "Priya" and f.status == "current"}
    assert len(roles) == 2, roles


def test_one_role_said_both_ways_is_one_entry() -> None:
    ledger = user_ledger("Priya is the treasurer.", "The treasurer is Priya.")
    assert len([f for f in ledger if f.value == "Priya"]) == 1


def test_a_comparison_after_the_users_own_clause_leaves_it_stated() -> None:
    ledger = user_ledger("We're flying to Porto, it's cheaper than Lisbon.")
    assert "Porto" in {f.value for f in ledger if f.status == "current" and f.kind != "question"}


@pytest.mark.parametrize("message", [
    "$300 is too low, but we have to stay at $300.",
    "300 is way too low, honestly 450 would do.",
])
def test_a_judgement_without_a_new_value_taken_retires_nothing(message: str) -> None:
    ledger = user_ledger("The budget is 300.", message)
    assert all(f.status == "current" for f in ledger if f.value in ("300", "$300")), [
        (f.value, f.status) for f in ledger]


def test_a_modal_head_clause_still_states_nothing() -> None:
    ledger: list[facts.Fact] = []
    facts.absorb(ledger, Message(role="user", content="We paint the fence with oil stain."), 1)
    facts.absorb(ledger, Message(role="assistant", content=(
        "Instead of oil stain, latex would last longer, though it needs a primer.")), 2)
    assert all(f.status == "current" for f in ledger if f.value == "oil stain")
    assert not any(f.kind == "correction" for f in ledger), [(f.value, f.kind) for f in ledger]


def test_the_users_own_clause_after_a_contrast_is_stated() -> None:
    assert _replaced("Lido", "Odeon", "Movie night is at the Lido.",
                     "There are options, but we picked the Odeon instead.")


def test_a_negated_change_keeps_the_value_its_subject_names() -> None:
    ledger = user_ledger("The 9am yoga class hasn't been moved to 10am.")
    assert all(f.status == "current" for f in ledger if f.value == "9am"), [
        (f.value, f.status) for f in ledger]
