"""Stop 51, the mood round: what supersedes nothing (issue 28). Another's push that names
whom it presses ("petitioning Dr. Amari for Monday"), an offer told with "offering" and
turned down, a refusal said as an idiom ("not doing it", "no way", "I laughed"), and a
past state said to have ended ("until March", "before that", "when I lived in …"): none is
the user's current value and none replaces one. The user's own change of the same shape
still does."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed
from tests.fact_ledger import stated_status


def _ledger(said: str, later: str):  # type: ignore[no-untyped-def]
    return absorbed(("user", said), ("assistant", "Noted."), ("user", later))


def _stated(ledger, value: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.value for f in ledger if f.status == "current" and f.kind != "question" and
            value in f.value]


@pytest.mark.parametrize(("said", "later", "kept", "theirs"), [
    # a verb of pressing, the person pressed, "for" and a value
    ("the group project is due Friday", "half the class is petitioning Dr. Amari for "
     "Monday. I doubt she'll budge", "Friday", "Monday"),
    ("bedtime is 8:30", "the kids keep begging me for 9 pm", "8:30", "9 pm"),
    ("the speed limit on our street is 30 mph",
     "the residents lobbied the council for 20 mph", "30 mph", "20 mph"),
    ("the deadline is March 3",
     "students are petitioning the dean for March 10, lol good luck", "March 3", "March 10"),
    ("standup is at 9:30", "the devs keep pestering Maria for 10:00", "9:30", "10:00"),
])
def test_a_push_that_names_its_person_is_theirs(said: str, later: str, kept: str,
                                                 theirs: str) -> None:
    ledger = _ledger(said, later)
    assert stated_status(ledger, kept) == "current"
    assert not _stated(ledger, theirs)


@pytest.mark.parametrize(("said", "later", "kept", "offered"), [
    # "offering" after another's call, "I said no thanks" in the next sentence
    ("haircut with Jo on Saturday", "salon called offering a 9:15 slot with a new stylist. "
     "I said no thanks, I'll wait for Jo", "Saturday", "9:15"),
    ("my rent is £1,300", "the landlord wanted £1,450. I said no thanks.", "£1,300",
     "£1,450"),
    # a refusal said as an idiom, in the offer's sentence or the next
    ("kitten eats Royal Canin Kitten", "pet store guy pushed Orijen hard, not doing it, way "
     "too rich for her tummy", "Royal Canin Kitten", "Orijen"),
    ("my rent is £1,300", "the landlord wanted £1,400 for the renewal, no way", "£1,300",
     "£1,400"),
    ("I pay 45 a month for the gym", "they offered me the premium plan at 60 a month and "
     "I'm not doing it", "45 a month", "60 a month"),
    ("I lift 3 days a week", "my trainer wanted 5 days. I laughed. I have a job",
     "3 days a week", "5 days"),
    ("my rent is £1,300", "the landlord wants £1,450 from June. Not happening.", "£1,300",
     "£1,450"),
    ("standup is at 9:30", "Ana wants 10:00. Hard pass, I have school runs", "9:30", "10:00"),
])
def test_an_offer_or_push_turned_down_replaces_nothing(said: str, later: str, kept: str,
                                                       offered: str) -> None:
    ledger = _ledger(said, later)
    assert stated_status(ledger, kept) == "current"
    assert not _stated(ledger, offered)


@pytest.mark.parametrize(("said", "later", "kept", "past"), [
    # until a time, in the past tense
    ("We extract RNA with the Qiagen kit", "We extracted RNA with TRIzol until March.",
     "Qiagen", "TRIzol"),
    ("our rent is $1,100", "we paid $900 until last May, the landlord's been fair",
     "$1,100", "$900"),
    # before that
    ("I live in Leeds", "4 years. grew up in Cork and then spent 6 years in Dublin before "
     "that", "Leeds", "Dublin"),
    # a past copula while a past state held
    ("my commute is 25 min by tram", "it was 50 min when I lived out in Kelsterbach, so I'm "
     "not complaining", "25 min", "50 min"),
    ("the gym is 30 a month", "it was 20 a month when I was a student", "30 a month",
     "20 a month"),
])
def test_a_state_said_to_have_ended_is_past(said: str, later: str, kept: str,
                                            past: str) -> None:
    ledger = _ledger(said, later)
    assert kept in " ".join(f.value for f in ledger if f.status == "current")
    assert not _stated(ledger, past)


@pytest.mark.parametrize(("said", "later", "new"), [
    # the user's own change beside the same words still applies
    ("we ship on Fridays", "the PM wanted Thursdays. We moved it to Thursdays.", "Thursdays"),
    ("our retro is on Fridays", "They moved it to Mondays, no way!", "Mondays"),
    ("the deadline is March 3", "we petitioned the dean and she moved it to March 10",
     "March 10"),
])
def test_a_change_made_beside_them_still_applies(said: str, later: str, new: str) -> None:
    ledger = _ledger(said, later)
    assert _stated(ledger, new)


@pytest.mark.parametrize(("said", "later", "value"), [
    # a present state with "until", an event with "when": read as before
    ("my commute is 25 min by tram", "it's 40 min when I take the bus", "40 min"),
    ("we deploy on Tuesdays", "Dana suggested Thursdays, nope, Wednesdays it is", "Tuesdays"),
])
def test_present_states_and_repairs_read_as_before(said: str, later: str, value: str) -> None:
    assert _stated(_ledger(said, later), value)
