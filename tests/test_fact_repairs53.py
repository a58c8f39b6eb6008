"""Stop 53, area D: corrections whose cue is a word, and repairs inside one message.

- "never mind / nevermind / nvm Y, ..." with an object that holds a value takes Y back, as
  "ignore Y, ..." does (``fact_never_mind``); a concession ("never mind the rain, we're
  still going") and a question take nothing back.
- A hesitation ("uh", "er") between a bare number and a number of its digits' shape with a
  unit repairs it ("7.185 — uh, 7.188 MHz"); a value of another unit class after the value
  meant ("7.188 MHz, 40 m SSB") lists nothing on (``fact_self_repairs``).
- "now" between a copula and a noun with its number keeps the noun's place ("it's now
  platform 12"), chat's "its now" is "it's now", and "not N 3 but N 5" reads both noun
  phrases (``fact_phrase_forms.noun_numbers``, ``fact_surface``).
- A self-repair's clause ("I mean Munich,") ends at its comma: the clause after it is one of
  its own (``fact_mood_words.repair_only``).
- A hearsay noun in a compound ("the correct claim reference is", "the insurance claim number
  is") is no report of someone's (``fact_mood_words.reports``).
"""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set, replaced_by_map


def _chat(said: str, later: str, reply: str = "Ok.") -> list:
    return absorbed(("user", said), ("assistant", reply), ("user", later))


def _one(said: str) -> list:
    return absorbed(("user", said), ("assistant", "Ok."))


# ----------------------------------------------------------------------------- never mind Y

@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("We're renting from Hertz.", "never mind Hertz, we booked with Sixt", "Hertz", "Sixt"),
    ("we use Slack at work", "nevermind Slack, the team moved to Teams last week", "Slack",
     "Teams"),
    ("tickets go in the PAY project in Jira", "nvm PAY - use BILL, PAY is archived", "PAY",
     "BILL"),
    ("My dentist is Dr. Lee at Smile Clinic", "ok never mind Dr. Lee — I switched to Dr. Park",
     "Dr. Lee", "Dr. Park"),
])
def test_never_mind_with_an_object_takes_it_back(said: str, later: str, old: str,
                                                 new: str) -> None:
    assert replaced_by_map(_chat(said, later)).get(old) == new


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("party is at 5 pm at Sam's", "never mind the rain, we're still going to Sam's", "5 pm"),
    ("We're renting from Hertz.", "never mind Hertz fees, we book them anyway", "Hertz"),
    ("we use Slack at work", "Never mind Slack, what time is it in Tokyo?", "Slack"),
    ("We're renting from Hertz.", "I never mind the rain, we walk to Hertz", "Hertz"),
])
def test_never_mind_of_a_concession_or_a_question_takes_nothing_back(said: str, later: str,
                                                                     kept: str) -> None:
    ledger = _chat(said, later)
    assert kept in current_set(ledger)
    assert kept not in replaced_by_map(ledger)


def test_never_mind_in_the_assistants_reply_takes_nothing_back() -> None:
    ledger = _chat("We're renting from Hertz.", "ok", "Never mind Hertz, Sixt is cheaper.")
    assert "Hertz" in current_set(ledger)


# ------------------------------------------------------------------ hesitating over a number

@pytest.mark.parametrize(("said", "old", "new"), [
    ("Sked tonight: I'll be on 7.185 — uh, 7.188 MHz, 40 m SSB, around 0100Z.", "7.185",
     "7.188 MHz"),
    ("the bag weighs about 20, um, 25 kg", "20", "25 kg"),
    ("my rent is 1200, uh, 1250 dollars a month", "1200", "1250 dollars a month"),
    ("oven at 180, uh, 200 degrees, 45 minutes", "180", "200 degrees"),
])
def test_a_hesitation_before_a_number_with_its_unit_repairs_the_bare_one(said: str, old: str,
                                                                         new: str) -> None:
    assert replaced_by_map(_one(said)).get(old) == new


def test_a_band_after_the_frequency_meant_is_kept() -> None:
    ledger = _one("I'll be on 7.185 — uh, 7.188 MHz, 40 m SSB tonight")
    assert {"7.188 MHz", "40 m"} <= current_set(ledger)


def test_a_list_after_a_hesitation_repairs_nothing() -> None:
    ledger = _one("the dose is 5 mg, um, 10 mg, 20 mg on weekends")
    assert "5 mg" in current_set(ledger)


# ------------------------------------------------------------------- a noun and its number

@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("Booked the ICE 578 to Hamburg, departs from platform 7.",
     "ugh it's now platform 12, announcement just came. running.", "platform 7", "platform 12"),
    ("my seat is row 9 on the bus", "its now row 14 after the swap", "row 9", "row 14"),
    ("We meet in room 201 on Mondays", "The meeting is now room 305.", "room 201", "room 305"),
    ("the gym opens at 6am", "its now 7am on weekdays", "6am", "7am"),
])
def test_now_after_the_copula_keeps_the_nouns_place(said: str, later: str, old: str,
                                                    new: str) -> None:
    assert new in replaced_by_map(_chat(said, later)).get(old, "")


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("chem test is period 3 on thurs", "nah not period 3 but period 5, mr harris moved it",
     "period 3", "period 5"),
    ("my seat is row 9", "no, not row 9 but row 14", "row 9", "row 14"),
    ("the talk is in hall 2", "it's not in hall 2 but hall 3", "hall 2", "hall 3"),
])
def test_not_one_noun_number_but_another(said: str, later: str, old: str, new: str) -> None:
    assert new in replaced_by_map(_chat(said, later)).get(old, "")


@pytest.mark.parametrize("later", ["is it now platform 9?", "not hall 2 but maybe hall 3?"])
def test_a_question_of_a_noun_number_corrects_nothing(later: str) -> None:
    ledger = _chat("My train departs from platform 7 and the talk is in hall 2.", later)
    assert not replaced_by_map(ledger)


# ------------------------------------------------------------------ a self-repair's clause

def test_a_repair_clause_ends_at_its_comma() -> None:
    ledger = _one("dentist appt on the 9th, i mean the 10th, the 9th was the old date")
    assert replaced_by_map(ledger).get("the 9th") in ("10th", "the 10th")


def test_a_past_clause_after_a_repair_still_says_nothing_now() -> None:
    ledger = _one("we used to meet in Berlin, I mean Munich, back in 2019")
    assert "Munich" not in current_set(ledger)


# ----------------------------------------------------------------- a hearsay noun's compound

@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("my claim reference is CL-55102 for the storm damage.",
     "Please disregard my previous message as regards the reference; the correct claim "
     "reference is CL-55120. I transposed two digits.", "CL-55102", "CL-55120"),
    ("the insurance claim number is 4471", "the correct claim number is 4417, typo", "4471",
     "4417"),
])
def test_a_claim_noun_in_a_compound_is_no_report(said: str, later: str, old: str,
                                                 new: str) -> None:
    assert replaced_by_map(_chat(said, later)).get(old) == new


@pytest.mark.parametrize("later", ["the doctor claims it is 500", "she claims number 7 is the "
                                   "lucky one", "Dana suggested 500"])
def test_someone_elses_claim_still_reports(later: str) -> None:
    ledger = _chat("my budget is 400", later)
    assert "400" in current_set(ledger)
    assert not replaced_by_map(ledger)


# ------------------------------------------------- a lead that says only why, then the value

@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("retro is in room B4 at 3", "scratch that, facilities gave B4 away. we're in C2",
     "room B4", "C2"),
    ("mince: 3 kg", "forget that, the client changed her mind. 4 kg", "3 kg", "4 kg"),
])
def test_a_lead_sentence_that_says_why_leads_the_next(said: str, later: str, old: str,
                                                      new: str) -> None:
    ledger = _chat(said, later)
    assert replaced_by_map(ledger).get(old) == new
    assert later.split(". ")[0] + "." not in current_set(ledger)


def test_a_lead_sentence_before_a_stated_value_is_not_kept() -> None:
    ledger = _chat("the venue is the Old Mill",
                   "never mind, the owner called back. It's the Granary now.")
    assert "never mind, the owner called back." not in current_set(ledger)
    assert replaced_by_map(ledger).get("Old Mill") == "Granary"


@pytest.mark.parametrize("later", ["Actually, I love this idea. We got 3 puppies.",
                                   "scratch that, why did they move it? we're in C2"])
def test_a_lead_that_takes_nothing_back_leads_nothing(later: str) -> None:
    ledger = _chat("my budget is 400 and the retro is in room B4", later)
    assert {"400", "room B4"} & current_set(ledger)
    assert not replaced_by_map(ledger)


# ------------------------------------------------------ a lower-case value meant, whole

@pytest.mark.parametrize(("said", "old", "new"), [
    ("dress code is cocktail, I mean black tie.", "cocktail", "black tie"),
    ("she is vegan, I mean mostly vegan", "vegan", "mostly vegan"),
])
def test_a_lower_case_value_meant_is_read_whole(said: str, old: str, new: str) -> None:
    assert replaced_by_map(_one(said)).get(old) == new


def test_a_lower_case_run_after_a_hesitation_alone_repairs_nothing() -> None:
    ledger = _one("we eat vegan — er, mostly vegan")
    assert "mostly vegan" not in replaced_by_map(ledger).values()


def test_an_old_child_who_insists_still_reports() -> None:
    """The ledger diff of this stop: "old" is a noun in "the 7 year old insists", the
    child's word, not a modifier of the noun after it."""
    ledger = _chat("i have 2 kids, 7 and 4", 'the 7 year old insists she\'s "nearly 8" lol',
                   "Two kids, ages 7 and 4.")
    assert not any("8" in value for value in current_set(ledger))
