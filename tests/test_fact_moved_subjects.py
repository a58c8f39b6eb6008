"""Issue 28: the value that names what a change moves is its old value ("the dentist visit on
May 2 has been pushed to May 9": May 2 is the visit's old date), as the subject or as the
object of the change verb; a value of another kind, a name, or a value in another clause or
of another subject stays as it was."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_change_olds import moved_olds
from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize(("text", "old", "new"), [
    ("The dentist visit on May 2 has been pushed to May 9.", "May 2", "May 9"),
    ("Our 7:30 yoga class moves to 8:15 from next week.", "7:30", "8:15"),
    ("The school trip for Monday, June 3rd was postponed to Friday, June 7th.",
     "Monday, June 3rd", "Friday, June 7th"),
    ("We bumped the 2 GB volume up to 8 GB.", "2 GB", "8 GB"),
])
def test_the_moved_thing_s_own_value_is_replaced(text: str, old: str, new: str) -> None:
    ledger = absorbed(("user", text))
    assert fact_of(ledger, old).status == "replaced"
    assert fact_of(ledger, new).status == "current"


def test_an_earlier_statement_of_the_moved_value_is_replaced() -> None:
    ledger = absorbed(("user", "The kickoff is on July 8."),
                      ("user", "The kickoff on July 8 has been moved to July 12."))
    olds = [f for f in ledger if f.value == "July 8"]
    assert olds and all(f.status == "replaced" for f in olds)
    assert value_of(ledger, olds[0].replaced_by) == "July 12"


def _spans(text: str, *values: tuple[str, str]) -> list[tuple[int, int, str]]:
    return [(text.index(v), text.index(v) + len(v), kind) for v, kind in values]


@pytest.mark.parametrize(("text", "values"), [
    # another kind: when, not which
    ("The Friday demo moved to 4pm.", [("Friday", "date"), ("4pm", "time")]),
    # another clause, another subject
    ("The review stays at 10:00, and the standup moves to 10:30.",
     [("10:00", "time"), ("10:30", "time")]),
    ("At 3pm we moved the call to 4pm.", [("3pm", "time"), ("4pm", "time")]),
    # a name may say who, not where
    ("The Lisbon team moved to Porto.", [("Lisbon", "name"), ("Porto", "name")]),
])
def test_a_value_that_does_not_name_the_moved_thing_stays(
        text: str, values: list[tuple[str, str]]) -> None:
    assert moved_olds(text, _spans(text, *values)) == set()


@pytest.mark.parametrize(("text", "old", "new"), [
    ("The scheduled 9am ferry will instead sail at 10am.", "9am", "10am"),
    ("Our 2 GB mailbox plan is now 5 GB.", "2 GB", "5 GB"),
    ("The evening coach, first booked to leave at 6.30pm, will now leave at 7pm.",
     "6.30pm", "7pm"),
])
def test_the_subject_s_value_is_old_where_its_predicate_gives_another(text: str, old: str,
                                                                     new: str) -> None:
    ledger = absorbed(("user", text))
    assert fact_of(ledger, old).status == "replaced"
    assert value_of(ledger, fact_of(ledger, old).replaced_by) == new


def test_two_changes_of_one_message_each_keep_their_new_value() -> None:
    ledger = absorbed(("user", "The outbound 9am ferry will instead sail at 10am.\nThe return "
                               "ferry, first booked for 5pm, will now sail at 6pm."))
    assert fact_of(ledger, "10am").status == "current"
    assert fact_of(ledger, "6pm").status == "current"
    assert value_of(ledger, fact_of(ledger, "5pm").replaced_by) == "6pm"


@pytest.mark.parametrize("text", [
    "We will leave at 3pm instead of at 4pm.",  # the sentence names its own old value
    "The 10am standup will now also cover the 11am retro.",  # no placing word before 11am
    "At 9am the ferry will sail, and at 10am the bus leaves.",  # another clause
])
def test_a_value_outside_the_subject_stays(text: str) -> None:
    ledger = absorbed(("user", text))
    assert all(f.status == "current" or f.value in ("4pm",) for f in ledger)


@pytest.mark.parametrize("text", [
    "The Friday quiz night has not been moved to Saturday.",
    "The 9am ferry won't sail at 10am.",
    "Our 2 GB plan is never 4 GB.",
])
def test_a_change_said_not_to_happen_moves_nothing(text: str) -> None:
    ledger = absorbed(("user", text))
    assert not any(f.status == "replaced" for f in ledger)
