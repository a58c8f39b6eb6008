"""Stop 43's read-only review (406 chat probes, 775638f against 3751ef4): three readings the
stop's rules had made worse, each pinned here with what must still hold beside it.

- a bare number opening a sentence names a held value's old only in "N should be X" with X
  ending the clause ("8080 should be reachable from 9090" changes nothing);
- a title that reports a change made ("Moved the timeout to 45 s") over "What do you think?"
  is no proposal: the change stands;
- "will" before a change verb, with a later time, is a plan as "going to" is ("We'll move the
  port to 9090 tomorrow" leaves 8080 current until then).
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_types import Fact
from tests.fact_ledger import user_ledger


def _current(ledger: list[Fact], value: str) -> bool:
    return any(f.value == value and f.status == "current" and f.kind != "question"
               for f in ledger)


@pytest.mark.parametrize(("held", "said", "old"), [
    ("The api port is 8080.", "8080 should be reachable from 9090.", "8080"),
    ("The api port is 8080.", "8080 should be mapped to 80 on the host.", "8080"),
    ("The queue limit is 1000.", "1000 should be plenty for 50 users.", "1000"),
    ("The api port is 8080.", "8080 should be 8081 next release.", "8080"),
])
def test_a_bare_number_that_opens_a_sentence_of_another_kind_changes_nothing(
        held: str, said: str, old: str) -> None:
    assert _current(user_ledger(held, said), old)


def test_n_should_be_x_still_replaces_the_held_value() -> None:
    ledger = user_ledger("The api port is 8080.", "8080 should be 8081.")
    assert not _current(ledger, "8080") and _current(ledger, "8081")


@pytest.mark.parametrize(("held", "said", "old", "new"), [
    ("The timeout is 30 s.", "Moved the timeout to 45 s\nWhat do you think?", "30 s", "45 s"),
    ("The budget is $500.", "Raised the budget to $600\nWhat do you think?", "$500", "$600"),
    ("The party is on Friday.", "Moved the party to Saturday\nWhat do you think?", "Friday",
     "Saturday"),
])
def test_a_title_that_reports_a_change_made_is_no_proposal(held: str, said: str, old: str,
                                                           new: str) -> None:
    ledger = user_ledger(held, said)
    assert _current(ledger, new) and not _current(ledger, old)


def test_a_title_that_proposes_a_change_over_a_question_of_opinion_stays_open() -> None:
    ledger = user_ledger("The timeout is 30 s.", "Bump the timeout to 45 s\nWhat do you think?")
    assert _current(ledger, "30 s") and not _current(ledger, "45 s")


@pytest.mark.parametrize("said", [
    "We'll move the port to 9090 tomorrow.",
    "We'll switch the port to 9090 tomorrow morning.",
    "Ops will change the port to 9090 tonight.",
    "I'll change the port to\n9090 tomorrow.",
])
def test_a_change_said_with_will_and_a_later_time_is_a_plan(said: str) -> None:
    ledger = user_ledger("The port is 8080.", said)
    assert _current(ledger, "8080") and not _current(ledger, "9090")


@pytest.mark.parametrize("said", ["We'll move the port to 9090.",
                                  "I changed the port to 9090 yesterday.",
                                  "The port is now 9090."])
def test_a_change_with_no_later_time_still_applies(said: str) -> None:
    ledger = user_ledger("The port is 8080.", said)
    assert _current(ledger, "9090") and not _current(ledger, "8080")


def test_will_with_next_week_is_a_plan_and_with_the_next_release_a_change_made() -> None:
    planned = user_ledger("We run Node 18.", "We'll switch to Node 20 next week.")
    assert _current(planned, "Node 18") and not _current(planned, "Node 20")
    made = user_ledger("The min required python is 3.9.",
                       "I will change the min required python to 3.8 in the next release.")
    assert _current(made, "3.8") and not _current(made, "3.9")
