"""The second review of stop 39 round 2 (issue 28, sentence layer), in new words: a
wh-question typed without "?" ends at its comma, and the clause after it states; "there are
ideas/options" leaves open only its own stretch, up to a new clause after a comma; a leading
"say" before a subject supposes ("say we push it to 5"). Each case failed on 2eff3ff.
"""

from __future__ import annotations

import pytest

from tests.fact_ledger import user_ledger


def _superseded(old: str, new: str, *texts: str) -> bool:
    """``old`` is replaced (or possibly replaced) by ``new``."""
    ledger = user_ledger(*texts)
    by_id = {f.id: f for f in ledger}
    return any(f.value == old and any(
        ref is not None and by_id[ref].value == new
        for ref in (f.replaced_by, f.possibly_replaced_by)) for f in ledger)


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    ("The standup is at 9am.", "Why did we agree to this, the standup moved to 10am.",
     "9am", "10am"),
    ("Rent is $900.", "What can you do, rent is now $950.", "$900", "$950"),
    ("The gym closes at 9pm.", "How was I to know, the gym now closes at 8pm.", "9pm", "8pm"),
    ("Lights out is 10pm.", "Who do we ask, lights out is now 11pm.", "10pm", "11pm"),
])
def test_a_wh_question_without_a_mark_ends_at_its_comma(
        before: str, after: str, old: str, new: str) -> None:
    assert _superseded(old, new, before, after)


def test_a_wh_clause_as_subject_leaves_the_next_clause_stated() -> None:
    assert _superseded("7pm", "6pm", "Choir practice is at 7pm.",
                       "Who does the grocery run is settled, and choir practice is now at 6pm.")


@pytest.mark.parametrize("asked", [
    "When did we move the standup to 10am",
    "When do we meet, 10am or 11am",
])
def test_a_wh_question_still_asks(asked: str) -> None:
    assert not _superseded("9am", "10am", "The standup is at 9am.", asked)


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    ("The course is 6 weeks.", "There were several suggestions, the course is now 8 weeks.",
     "6 weeks", "8 weeks"),
    ("Our grant is $2000.", "There are debates about the grant, it is $2500.",
     "$2000", "$2500"),
])
def test_an_open_existential_ends_at_a_new_clause(
        before: str, after: str, old: str, new: str) -> None:
    assert _superseded(old, new, before, after)


@pytest.mark.parametrize(("before", "after", "old", "new"), [  # (passed at 2eff3ff already)
    ("The venue is Hall A.", "There were many ideas but the venue is now Hall B.",
     "Hall A", "Hall B"),
    ("The venue is Hall A.", "There are other alternatives, but the venue is Hall B.",
     "Hall A", "Hall B"),
])
def test_an_open_existential_ends_at_a_contrast(
        before: str, after: str, old: str, new: str) -> None:
    assert _superseded(old, new, before, after)


def test_an_open_existential_still_leaves_its_own_value_open() -> None:
    assert not _superseded("$2000", "$2500", "Our grant is $2000.",
                           "There is talk of raising the grant, perhaps to $2500.")


@pytest.mark.parametrize("supposed", [
    "Say we push the demo to 5pm.",
    "Say I move the demo to 5pm, then lunch moves too.",
])
def test_say_before_a_subject_supposes(supposed: str) -> None:
    assert not _superseded("4pm", "5pm", "The demo is at 4pm.", supposed)
