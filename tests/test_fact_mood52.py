"""What supersedes nothing (issue 28, stop 52): a refusal said with a manner adverb after it
("rejected it obviously"), after a symbol used as a break ("a 5am slot 🚫 declined"), said
flatly ("said absolutely not") or as the speaker's "pass" with a will ("we'll pass"); a
wish of a counted or quantified part of a group ("a few parents want it at 6pm"); a choice
between two values after a word of choosing ("torn between 2200 and 2400 mAh"); history told
by an owner's "first" ("my first pair were KRK Rokits"), by a year that dates an event ("at
the 2015 review it was 6,900") or by a state held over a counted span ("we were on Heroku
for 3 years"), or set against a later "VALUE now" ("…fed twice daily over summer; once
daily now"). The value the user stated stays current, the other is never the user's.
Values read at last: a bandwidth in "Gbit" ("1 Gbit fibre"), a rate per area ("250 kg/ha")
and a place by a compass point or a verb of position ("on the south wall", "sits on the
patio"). Each negative reads as on main."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_types import Fact
from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set, replaced_by_map, stated_status


def _chat(said: str, later: str) -> list[Fact]:
    return absorbed(("user", said), ("assistant", "Noted."), ("user", later))


def _shown(ledger: list[Fact], value: str) -> bool:
    """Some current entry states ``value`` as the user's (an open question or a proposal, the
    kind "question", states nothing)."""
    return any(value.lower() in f.value.lower() for f in ledger
               if f.status == "current" and f.kind != "question")


def _check_kept(said: str, later: str, kept: str, other: str) -> None:
    ledger = _chat(said, later)
    assert stated_status(ledger, kept) == "current", [(f.value, f.status) for f in ledger]
    assert not _shown(ledger, other), sorted(current_set(ledger))
    assert kept not in replaced_by_map(ledger)


@pytest.mark.parametrize(("said", "later", "kept", "other"), [
    # a refusal with a manner adverb after it
    ("overdraft rate is 5.4%", "bank offered a renewal at 6.9%, rejected it obviously.",
     "5.4%", "6.9%"),
    ("rent is £1,200", "landlord offered a lease at £1,150, we declined it politely",
     "£1,200", "£1,150"),
    ("hotel is booked for the 12th",
     "the agency proposed the 14th, we rejected that immediately", "12th", "14th"),
    ("Gym membership is $40 a month.",
     "They pitched the $55 plan and I turned it down flatly.", "$40 a month", "$55"),
    # a symbol as the break before a bare refusal
    ("port slot for the tanker is 9am", "broker offered a 5am slot 🚫 declined, drivers hours",
     "9am", "5am"),
    ("rent is £1,200", "landlord offered a 2 year lease at £1,150 👎 we declined",
     "£1,200", "£1,150"),
    # a refusal said flatly, or the speaker's "pass" with a will
    ("the rent is £1,200", "the landlord offered a fixed rate at £1,150, said absolutely not",
     "£1,200", "£1,150"),
    ("the rent is £1,200", "the landlord offered a fixed rate at £1,150, told them no chance",
     "£1,200", "£1,150"),
    ("the rent is £1,200", "the landlord offered a fixed rate at £1,150, gonna pass on that",
     "£1,200", "£1,150"),
    ("port slot is 9am", "The broker offered a 5am slot. We will pass.", "9am", "5am"),
    ("port slot is 9am", "The broker offered a 5am slot. I said absolutely not.", "9am",
     "5am"),
    # a wish of some of a group
    ("u9 practice is at 5pm on mondays", "a few parents want it at 6pm because of work",
     "5pm", "6pm"),
    ("retro is on Friday", "most of the team wants Thursday", "Friday", "Thursday"),
    ("margin is 8%", "half the committee wants 10%", "8%", "10%"),
    ("bin day is Tuesday", "two neighbours would prefer Thursday", "Tuesday", "Thursday"),
    ("back door goes on the south wall",
     "architect suggested moving it to the west wall, told him absolutely not",
     "south wall", "west wall"),
    # a choice not made between two values
    ("flying the survey drone on the 1800 mAh packs",
     "torn between 2200 and 2400 mAh for the next order, weight vs flight time",
     "1800 mAh", "2400 mAh"),
    ("we run python 3.10", "kinda stuck between 3.11 and 3.12 for the upgrade tbh",
     "python 3.10", "3.12"),
    ("ewes go to market at 40 kg", "weighing up 42 vs 45 kg next season", "40 kg", "45 kg"),
    ("the budget is 500 quid", "torn between 600 and 650 now tbh", "500 quid", "650"),
    ("flying the survey drone on the 1800 mAh packs",
     "havent decided between 2200 and 2400 mAh yet", "1800 mAh", "2400 mAh"),
    ("flying the survey drone on the 1800 mAh packs",
     "it's a toss-up between 2200 and 2400 mAh", "1800 mAh", "2400 mAh"),
    # history: an owner's first, a year dating an event
    ("current studio monitors: Genelec 8030",
     "my first pair were battered KRK Rokits from a car boot sale lol",
     "Genelec 8030", "KRK Rokits"),
    ("We drive a Skoda Octavia.", "Our first car was a Fiat Panda.", "Skoda Octavia",
     "Fiat Panda"),
    ("the office is in Manchester", "our first office was in Leeds", "Manchester", "Leeds"),
    ("the ward has 7,400 registered voters",
     "at the 2015 boundary review it was 6,900, lots of new builds since",
     "7,400 registered voters", "6,900"),
    ("the population is 12,000", "in the 2011 census it was 9,800", "12,000", "9,800"),
    ("membership is 340", "for the 2019 season we had 280 members", "340", "280"),
    ("the ward has 7,400 registered voters", "as of 2015 it was 6,900",
     "7,400 registered voters", "6,900"),
    ("the ward has 7,400 registered voters", "the 2015 figure was 6,900",
     "7,400 registered voters", "6,900"),
    ("the ward has 7,400 registered voters", "it was 6,900 at the last review",
     "7,400 registered voters", "6,900"),
    # a past clause set against a later "VALUE now"
    ("I feed the starter once daily",
     "Starter got fed twice daily over summer; once daily now that the kitchen is cold.",
     "once daily", "twice daily"),
    ("the gym is £35", "the gym was £30 a month; £35 now.", "£35", "£30"),
    # a past state over a counted span of years or months
    ("We host on Render.", "we were on Heroku for 3 years", "Render", "Heroku"),
    ("I live in Leeds", "I lived in Bristol for 6 years lol", "Leeds", "Bristol"),
    ("I drive a Golf", "I drove a Corsa for 8 years before", "Golf", "8 years"),
    ("the rent is £900", "it was £800 for 2 years", "£900", "£800"),
])
def test_what_supersedes_nothing_leaves_the_user_s_value(said: str, later: str, kept: str,
                                                         other: str) -> None:
    _check_kept(said, later, kept, other)


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    # negatives: a change made, then another's reaction, still replaces
    ("the meeting is on the 12th", "we moved it to the 14th, she declined politely",
     "the 12th", "the 14th"),
    ("the standup is at 10am", "we moved it to 11am 🎉 declined only one invite",
     "10am", "11am"),
    ("the standup is at 10am",
     "we moved it to 11am, I said absolutely not but they did it anyway", "10am", "11am"),
    # a bandwidth in Gbit, a rate per area: read and replaced
    ("office uplink is 1 Gbit fibre", "we upgraded to 10 Gbit", "1 Gbit", "10 Gbit"),
    ("the backbone link runs at 40 gbit", "it is 100 gbit now", "40 gbit", "100 gbit"),
    ("seed rate is 180 kg per hectare", "we cut it to 160 kg per hectare",
     "180 kg per hectare", "160 kg per hectare"),
    # a place by a compass point and a noun
    ("back door goes on the south wall", "we moved it to the west wall", "south wall",
     "west wall"),
    ("the meeting room is in the east wing", "its in the west wing now", "east wing",
     "west wing"),
    ("the spare key lives in the shed", "moved it to the garage", "shed", "garage"),
])
def test_a_change_made_still_replaces(said: str, later: str, old: str, new: str) -> None:
    assert replaced_by_map(_chat(said, later)).get(old) == new


@pytest.mark.parametrize(("said", "later", "value"), [
    # negatives: a range is stated, a present "first" states, "first floor" is a key
    ("thermostat is at 19 degrees", "keep it between 18 and 20 degrees from now on", "18"),
    ("thermostat is at 19 degrees", "the range is between 18 and 20 degrees", "18"),
    ("the ground floor ceiling is 2.6 m", "the first floor was 2.4 m", "2.4 m"),
    ("the ward has 7,400 registered voters", "the 2024 count is 7,600", "7,600"),
    ("Our office is in Leeds.", "My first choice is the Tuesday slot.", "Tuesday"),
    # a span that is a term, a perfect that holds, a clause going on after the span
    ("the trial is 2 weeks", "we ran the trial for 3 months", "3 months"),
    ("the tripod sits on the patio by the shed for now",
     "maybe the pier goes at the north end of the garden? or not, trees", "patio"),
    ("I live in Leeds", "I've lived in Bristol for 6 years", "Bristol"),
    ("I play a Telecaster",
     "I played a Strat for ten years, been on a Telecaster for the last two", "Telecaster"),
    ("the retro is on Friday", "the client wants Thursday", "Thursday"),
])
def test_a_range_a_key_or_a_party_s_word_reads_as_before(said: str, later: str,
                                                         value: str) -> None:
    assert _shown(_chat(said, later), value)


@pytest.mark.parametrize(("text", "value"), [
    ("back door goes on the south wall", "south wall"),
    ("i have a monstera by the north window", "north window"),
    ("u12 practice is on the east pitch, warmup starts 17:15", "east pitch"),
    ("the tripod sits on the north side of the patio", "north side"),
    ("the tripod sits on the patio by the shed for now", "patio"),
    ("the printer stands in the hallway", "hallway"),
    ("fertiliser plan: 250 kg/ha of 20-10-10 on the maize", "250 kg/ha"),
    ("office uplink is 1 Gbit fibre", "1 Gbit"),
    ("we spread 2 tonnes per acre of lime", "2 tonnes per acre"),
])
def test_a_unit_read_whole(text: str, value: str) -> None:
    assert stated_status(absorbed(("user", text)), value) == "current"
