"""A read-only review of stop 54's second round (/tmp/s54/narrow/review2.md, findings 3, 4,
5, 8, 9, 12): the pending, leaning and kept-answer readings narrowed to their shapes.

- "it's been decided / settled" is a decision made: only a negation or a nobody before
  "been" ("nothing's been decided", "it hasn't been decided") or "no one" leaves a segment
  pending (``fact_mood_pending._denied``).
- An idiom of an open outcome ("could go either way", "undecided") beside a change stated as
  made (a change verb in the past, "now", "actually") is about something else, the game or
  the vote (``fact_mood_pending._made``).
- A leaning needs a verb and a person: "a fancy place" and "is fancy" are adjectives; "sold
  on" leans only after a copula of the present ("the kids are sold on Lisbon"; "the bike
  sold on eBay", "the house was sold on June 3" are sales); a subject with a determiner or
  a count before it names a person or a party that chooses ("the scale keeps saying 82 kg",
  "the 3 rooms are all for Saturday" are things); a degree word at the sentence's start is no
  subject ("Definitely keen on …": the speaker's) (``fact_mood_keen``).
- A kept value answers another's wish only when it is of the wished value's kind ("the
  client wants May 3, it stays 2 phases" keeps another attribute:
  ``fact_mood_others._kept_answer``).
- ``pending_marks`` and ``keen_marks`` read a long segment in linear time (their results on
  many matches are checked here; the timing is in the report, not asserted).
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_mood_keen import keen_marks
from ollm_desktop.engine.fact_mood_pending import pending_marks
from ollm_desktop.engine.fact_words import tokens_of
from tests.fact_ledger import chat as _chat
from tests.fact_ledger import current_set, replaced_by_map


def _stated(ledger) -> set[str]:  # type: ignore[no-untyped-def]
    """The current values the ledger states (an open question or a report is none)."""
    return {f.value for f in ledger if f.status == "current" and f.kind != "question"}


def _current(new: str, *said: str) -> None:
    assert any(new in value for value in _stated(_chat(*said))), new


# ------------------------------------------------- 3. "it's been decided" is a decision made
@pytest.mark.parametrize("said", [
    ("The venue is the Grand Hotel", "A: Noted.",
     "We're moving the venue to the Palace Hotel, it's been decided"),
    ("The venue is the Grand Hotel", "A: Noted.",
     "It's been settled, the venue is the Palace Hotel"),
    ("standup is at 9", "A: ok", "standup is at 10 from Monday, it has been decided"),
    ("our offsite is in Leeds", "A: ok", "offsite moved to York, it's been settled"),
    ("the gym class is tuesdays", "A: ok", "gym class is thursdays now, its been decided"),
])
def test_a_decision_made_is_no_pending_one(said: tuple[str, ...]) -> None:
    new = {"Palace Hotel", "10", "York", "thursdays"}
    assert new & {v for value in _stated(_chat(*said)) for v in new if v in value}


@pytest.mark.parametrize(("first", "later", "old"), [
    ("dinner is at 7pm", "maybe shifting dinner to 8pm, nothing has been decided", "7pm"),
    ("dinner is at 7pm", "maybe shifting dinner to 8pm, it hasn't been decided", "7pm"),
    ("the lunch is noon", "lunch pushed to 1pm, no one decided that though", "noon"),
    ("Kickoff is at 3pm.", "someone floated 4pm for kickoff, nobody decided", "3pm"),
])
def test_a_denied_decision_still_pends(first: str, later: str, old: str) -> None:
    ledger = _chat(first, later)
    assert old in current_set(ledger)
    assert old not in replaced_by_map(ledger)


# ------------------------------------- 8. an open outcome beside a change made is another's
@pytest.mark.parametrize(("said", "new", "old"), [
    (("Kickoff is at 7pm", "A: Okay.", "Kickoff moved to 7:45pm, could go either way honestly"),
     "7:45pm", "7pm"),
    (("the match is at 3pm", "A: ok",
      "the match moved to 5pm, should be a close one, could go either way"), "5pm", "3pm"),
    (("polls open at 7am", "A: ok", "they open at 6am now actually, I'm still undecided"),
     "6am", "7am"),
    (("the final is on Sunday", "A: ok", "final got switched to Saturday, could go either way"),
     "Saturday", "Sunday"),
])
def test_an_open_outcome_beside_a_change_made_leaves_it(said: tuple[str, ...], new: str,
                                                         old: str) -> None:
    ledger = _chat(*said)
    assert any(new in value for value in _stated(ledger))
    assert old in replaced_by_map(ledger)


@pytest.mark.parametrize(("first", "later", "old"), [
    ("The trip is 7 nights.", "we might extend it to 10 nights, could go either way",
     "7 nights"),
    ("the trip is 7 nights", "extending it to 10 nights, could go either way", "7 nights"),
    ("the venue is the Barn", "thinking of the Grange instead of the Barn, still undecided",
     "Barn"),
])
def test_an_open_outcome_of_a_plan_still_pends(first: str, later: str, old: str) -> None:
    ledger = _chat(first, later)
    assert any(old in value for value in current_set(ledger))
    assert not any(old in key for key in replaced_by_map(ledger))


# --------------------------------------------- 4. a leaning needs a verb and a person's subject
@pytest.mark.parametrize(("said", "new"), [
    (("Dinner is at Luigi's at 7pm", "A: Okay.",
      "dinner moved to a fancy place called Nobu at 8pm"), "Nobu"),
    (("Our house closing is May 30", "A: ok", "the house sold on June 3 in the end"), "June 3"),
    (("my bike is listed for £300", "A: ok", "the bike sold on eBay for £240"), "£240"),
    (("the car is for sale at 9000", "A: ok", "the car sold on Monday for 8500"), "Monday"),
    (("the hotel booking is Friday", "A: ok", "I rebooked, the 3 rooms are all for Saturday"),
     "Saturday"),
    (("my budget is £500", "A: ok", "Definitely keen on keeping it at £450"), "£450"),
    (("my budget is £500", "A: ok", "super keen on keeping it at £450"), "£450"),
    (("the flat viewing is Tuesday", "A: ok", "the flat was sold on Monday so viewing is off"),
     "Monday"),
])
def test_no_leaning_without_a_leaning_verb_and_a_person(said: tuple[str, ...],
                                                          new: str) -> None:
    _current(new, *said)


@pytest.mark.parametrize(("first", "later", "old"), [
    ("the trip is to Porto", "the kids are sold on Lisbon tbh", "Porto"),
    ("the trip is to Porto", "my wife is totally sold on Lisbon", "Porto"),
    ("the slot is 2pm", "my sister really fancies the 4pm slot", "2pm"),
    ("we're on Postgres 15", "my boss fancies Postgres 17", "Postgres 15"),
    ("the tyres are at 32 psi", "the guy at the garage keeps telling me 36 psi", "32 psi"),
    ("the tyres are at 32 psi", "my neighbour keeps telling me 36 psi", "32 psi"),
])
def test_a_persons_leaning_is_still_theirs(first: str, later: str, old: str) -> None:
    ledger = _chat(first, later)
    assert old in current_set(ledger)
    assert old not in replaced_by_map(ledger)


# -------------------------------------------------- 5. a device's "keeps saying" is a reading
@pytest.mark.parametrize(("said", "new"), [
    (("my weight is 84 kg", "A: ok", "the scale keeps saying 82 kg this week"), "82 kg"),
    (("the drive is 40 minutes", "A: ok",
      "the GPS keeps saying 55 minutes because of roadworks"), "55 minutes"),
    (("the battery is at 80%", "A: ok", "the phone keeps telling me 15% even after charging"),
     "15%"),
    (("the tyres are at 32 psi", "A: ok", "the pump keeps telling me 29 psi"), "29 psi"),
])
def test_a_things_insistence_is_a_reading(said: tuple[str, ...], new: str) -> None:
    _current(new, *said)


# ---------------------------------------- 9. a kept value answers a wish of its own kind only
@pytest.mark.parametrize(("said", "new"), [
    (("launch is May 1", "A: ok",
      "The client wants the launch on May 3, it stays 2 phases though"), "May 3"),
    (("the report is due Friday", "A: ok",
      "my boss wants the report by Monday, it keeps 12 sections"), "Monday"),
    (("checkout is 11am", "A: ok", "the hotel wants checkout at 10am, it stays 2 nights"),
     "10am"),
])
def test_a_kept_value_of_another_kind_answers_no_wish(said: tuple[str, ...], new: str) -> None:
    _current(new, *said)


@pytest.mark.parametrize(("first", "later", "old"), [
    ("our rate is €80/h", "the agency wants €65/h, I told them it stays €80/h", "€80/h"),
    ("we sell the lambs at 40 kg", "the new buyer wants them at 45 kg, it stays 40 kg",
     "40 kg"),
    ("our fee is 500", "the landlord wants 650, we are sticking with 500", "500"),
])
def test_a_kept_value_of_the_wished_kind_still_answers(first: str, later: str,
                                                        old: str) -> None:
    ledger = _chat(first, later)
    assert old in current_set(ledger)
    assert old not in replaced_by_map(ledger)


# ----------------------------------------------------- 12. long segments, read in one pass
def test_pending_marks_on_a_long_segment() -> None:
    tokens = tokens_of("a " * 3000 + "settled", [])
    assert pending_marks(tokens, [(0, len(tokens), False)]) == []
    tokens = tokens_of("a " * 3000 + ", nothing decided yet", [])
    assert pending_marks(tokens, [(0, len(tokens), False)]) == [(0, len(tokens), "tentative")]


def test_keen_marks_on_many_matches() -> None:
    tokens = tokens_of("Dan fancies Sushi, " * 500, [])
    marks = keen_marks(tokens, 0, len(tokens))
    assert len(marks) == 500
    assert all(tokens[a].word == "sushi" and tokens[b].word == "," for a, b, _ in marks)
    tokens = tokens_of("Dan fancies tacos now, " * 50 + "my mum is keen on it", [])
    assert keen_marks(tokens, 0, len(tokens)) == []
