"""A read-only review of stop 54's first round (``git diff 7a1d48c..f0820f1``), findings 1, 2,
5, 7, 8, 14 and 15: readings that made ordinary chat worse, narrowed.

- A repair a source gives ("…, hold on, the nurse wrote 135/85") holds only where the
  source's value ends the sentence (or a short "on the card" says where it is written): words
  after it may doubt it ("which can't be right", "by mistake") or give it another key or time
  ("for non-members", "last year"); "has" is no verb of a source ("my brother has £200").
- A lone hesitation with no comma ("4417 er 4471") repairs only where the value meant ends
  the sentence (or a day follows it): "500 um 200 of that is spent" goes on to a clause.
- Two capital codes side by side are one name only as a value stated (after "is", a colon),
  never a noun phrase's words ("an A4 PDF", "my PS5 DIED"), a route ("EZY123 LGW to Nice")
  or part of a longer code (an IBAN).
- Hyphened digit groups: after a verb of a result they are a game's score, no value ("we won
  3-1"); a range before a plural it counts keeps its noun ("15-20 chairs").
- A clock time in words is never a count of "times" ("eight ten times").
- Spaced digit groups that are all round figures are a list ("quotes of 1200 1450 1600"); a
  capital code before or a short group after makes them part of a longer code.
- "per email" names a source, no rate; "half one each" shares, no time; "May the fourth be
  with you" is a wish; a one-letter name before "=" is a formula's variable.
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.references import find_references
from tests.fact_ledger import chat as _chat
from tests.fact_ledger import current_set, replaced_by_map


def _refs(text: str) -> list[str]:
    return [ref for ref, _ in find_references(text)]


# 1. a source's value replaces the user's only as the sentence's last word
@pytest.mark.parametrize(("said", "kept"), [
    ("Flight is 14:50, hold on, the app says 15:40, which can't be right.", "14:50"),
    ("My weight is 80kg, hold on, the gym scale says 82kg, it's always off.", "80kg"),
    ("Party is at 7pm, hold on, Mum wrote 8pm on the invites by mistake.", "7pm"),
    ("Check-in is 3pm, wait, the confirmation email says 2pm, I'll call them to check.", "3pm"),
    ("The price is £40, wait, the website says £45 for non-members.", "£40"),
    ("Budget is £500, sorry, my brother has £200 to chip in.", "£500"),
    ("The meeting is at 3pm, hold on, Dave has 4pm free too.", "3pm"),
    ("my badge number is 4471, hold on, the HR portal says 4417 but that's a typo", "4471"),
    ("train's at 9:10, sorry, the board says 9:40 for platform 2", "9:10"),
    ("rent is £900, sorry, the landlord wrote £950 last time", "£900"),
    ("appointment at 10:15, hold on, the letter says 10:45, no idea why", "10:15"),
])
def test_a_sources_value_with_words_after_it_repairs_nothing(said: str, kept: str) -> None:
    ledger = _chat(said)
    assert kept in current_set(ledger)
    assert kept not in replaced_by_map(ledger)


def test_a_sources_value_said_last_year_replaces_nothing() -> None:
    ledger = _chat("The fee is £200.", "A: ok",
                   "The fee is £200, sorry, my boss said £250 last year.")
    assert "£200" in current_set(ledger)
    assert "£200" not in replaced_by_map(ledger)


@pytest.mark.parametrize(("said", "new", "old"), [
    ("gate code is 1234, hold on, the letter says 1243", "1243", "1234"),
    ("appointment is at 10:15, wait, the card says 10:45.", "10:45", "10:15"),
    ("the deposit is $300, sorry, the contract says $350 in the small print", "$350", "$300"),
])
def test_a_sources_value_ending_the_sentence_still_repairs(said: str, new: str,
                                                           old: str) -> None:
    ledger = _chat(said)
    assert new in current_set(ledger)
    assert old not in current_set(ledger)


# 5. a lone hesitation repairs only a value meant that ends the sentence
@pytest.mark.parametrize(("said", "kept"), [
    ("The budget is 500 um 200 of that is already spent.", "500"),
    ("It costs £40 um £15 for kids.", "£40"),
    ("Kickoff is 3pm uh 5pm for the under 12s.", "3pm"),
    ("ticket is 45 euro um 30 for students", "45 euro"),
])
def test_a_hesitation_before_a_clause_of_its_own_repairs_nothing(said: str,
                                                                 kept: str) -> None:
    ledger = _chat(said)
    assert kept in current_set(ledger)
    assert kept not in replaced_by_map(ledger)


@pytest.mark.parametrize(("said", "new", "old"), [
    ("the door code is 5521 um 5512", "5512", "5521"),
    ("call is at 4 uh 4:30 tomorrow", "4:30", "4"),
])
def test_a_hesitation_before_the_last_value_repairs(said: str, new: str, old: str) -> None:
    ledger = _chat(said)
    assert new in current_set(ledger)
    assert old not in current_set(ledger)


# 2. two capital codes: one name only as a value stated
@pytest.mark.parametrize("later", [
    "Sorry, I need an A4 PDF.",
    "Sorry, my PS5 DIED lol.",
    "sorry, I bought a HP4 LAPTOP",
])
def test_capital_words_of_a_noun_phrase_replace_nothing(later: str) -> None:
    ledger = _chat("Our wifi password is tulip99.", "A: ok", later)
    assert "tulip99" in current_set(ledger)
    assert "tulip99" not in replaced_by_map(ledger)


@pytest.mark.parametrize(("text", "part"), [
    ("Send me an A4 PDF of the floor plan please.", "A4 PDF"),
    ("I'm flying BA2490 LHR to JFK", "BA2490 LHR"),
    ("Sorry, I need a USB3 HUB for the laptop.", "USB3 HUB"),
    ("Sorry, I'm on EZY123 LGW to Nice.", "EZY123 LGW"),
    ("the flight is IC42 BRU to Paris", "IC42 BRU"),
    ("My IBAN is GB29 NWBK 6016 1331 9268 19.", "GB29 NWBK"),
])
def test_two_capital_codes_outside_a_statement_are_no_name(text: str, part: str) -> None:
    assert part not in _refs(text)


@pytest.mark.parametrize(("text", "value"), [
    ("the reg is AB12 CDE", "AB12 CDE"),
    ("bike chain: KMC X11", "KMC X11"),
])
def test_two_capital_codes_stated_are_one_name(text: str, value: str) -> None:
    assert value in _refs(text)


# 7. hyphened groups: a game's score is no value, a range keeps the plural it counts
@pytest.mark.parametrize("later", [
    "Sorry, we went 2-0 down, rubbish match.",
    "sorry, they beat us 4-1",
    "Sorry for the late reply, we won 3-1!",
])
def test_a_games_score_replaces_nothing(later: str) -> None:
    ledger = _chat("My PIN is 4417.", "A: ok", later)
    assert "4417" in current_set(ledger)
    assert "4417" not in replaced_by_map(ledger)


@pytest.mark.parametrize(("text", "score"), [
    ("lol we lost 10-46", "10-46"),
    ("we drew 2-2 lol", "2-2"),
    ("the match ended 1-1", "1-1"),
])
def test_a_score_after_a_verb_of_a_result_is_no_value(text: str, score: str) -> None:
    assert score not in _refs(text)


@pytest.mark.parametrize(("text", "value"), [
    ("Oh sorry, we need 15-20 chairs for the hall.", "15-20 chairs"),
    ("sorry, it's 15-20 people not 12", "15-20 people"),
    ("we need 8-10 volunteers", "8-10 volunteers"),
])
def test_a_range_keeps_the_plural_it_counts(text: str, value: str) -> None:
    assert value in _refs(text)


def test_a_range_of_chairs_replaces_no_seat() -> None:
    ledger = _chat("Seat is 14.", "A: ok", "Oh sorry, we need 15-20 chairs for the hall.")
    assert "14" not in replaced_by_map(ledger)


def test_a_range_still_replaces_a_range() -> None:
    ledger = _chat("my hours are 9-5", "A: ok", "actually it's 10-6")
    assert replaced_by_map(ledger).get("9-5") == "10-6"


# 8. a clock time in words counts no "times"
@pytest.mark.parametrize(("text", "part"), [
    ("Oh sorry, I called her eight ten times today.", "eight ten"),
    ("Actually I've read it three twelve times, it's great.", "three twelve"),
    ("sorry, I've rung him five ten times", "five ten"),
    ("i waited two twenty minutes lol", "two twenty"),
])
def test_a_count_of_times_is_no_clock_time(text: str, part: str) -> None:
    assert part not in _refs(text)


def test_a_count_of_times_replaces_no_time() -> None:
    ledger = _chat("Dinner is at 7pm.", "A: ok", "Oh sorry, I called her eight ten times today.")
    assert "7pm" in current_set(ledger)
    assert "7pm" not in replaced_by_map(ledger)


def test_a_clock_time_in_words_still_reads() -> None:
    assert "seven fifty" in _refs("train is the seven fifty tomorrow")


# 14. spaced digit groups: round figures list, a longer code keeps its groups
@pytest.mark.parametrize(("text", "part"), [
    ("We got quotes of 1200 1450 1600 from three builders.", "1200 1450 1600"),
    ("bids of 2500 2750 3000 from agents", "2500 2750 3000"),
    ("My IBAN is GB29 NWBK 6016 1331 9268 19.", "6016 1331 9268"),
    ("My IBAN is DE89 3704 0044 0532 0130 00.", "3704 0044 0532 0130"),
])
def test_digit_groups_of_a_list_or_a_longer_code_are_no_number(text: str, part: str) -> None:
    assert part not in _refs(text)


@pytest.mark.parametrize(("text", "value"), [
    ("card 4111 1111 1111 1111 is my main one", "4111 1111 1111 1111"),
    ("my NHS number is 943 476 5919", "943 476 5919"),
])
def test_an_identifier_in_groups_still_reads_whole(text: str, value: str) -> None:
    assert value in _refs(text)


# 15. minor junk
@pytest.mark.parametrize(("said", "junk"), [
    ("We meet at 10:30 per email from Jo.", "10:30 per email"),
    ("We start at 9:15 per text from the boss", "9:15 per text"),
    ("Actually the kids can have half one each", "half one"),
    ("they get half two each", "half two"),
    ("May the fourth be with you!", "May the fourth"),
    ("In the formula a=2, b=3 gives 13.", "2"),
    ("x=4, y=7 so the sum is 11", "4"),
])
def test_small_talk_gives_no_value(said: str, junk: str) -> None:
    assert junk not in current_set(_chat(said))


@pytest.mark.parametrize(("said", "value"), [
    ("my pace is 5:10 per km", "5:10 per km"),
    ("volume=7, brightness=40", "7"),
    ("the wedding is May the fourth", "May the fourth"),
])
def test_the_shapes_still_read(said: str, value: str) -> None:
    assert value in current_set(_chat(said))
