"""The bare hour narrowed (issue 28, stop 51 review): an hour read after "at" ("the clinic
opens at 8", "Choir meets Tuesday at 7", ``fact_hour_places``) is a time of day, so a clock
time replaces it as one ("Sorry, 8:30.", "Choir meets at 7:30 now.") and a bare number
refers back to it ("Actually 10."); a hesitation between two values of one kind repairs the
first ("at 5, er, 5:30"; not a lower-case word that qualifies it, "vegan — er, mostly
vegan"); a value closing its sentence with "actually" corrects as a leading "Actually" does;
no hour is read in a clause of reason, after "off" of another verb, or where a second is
offered ("at 4, maybe 5"); an hour after a day and "at" is old with the day ("From Monday at
10 to Tuesday at 11"); "it's X at <time> now" reads X as "K is X at <time>" does. Each chat
of the review reads as on main (2125344) or better."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_types import Fact
from tests.engine_fakes import absorbed
from tests.fact_ledger import stated_status


def _ledger(*said: str) -> list[Fact]:
    return absorbed(*((("assistant", s[3:]) if s.startswith("A: ") else ("user", s))
                      for s in said))


def _current(ledger: list[Fact]) -> set[str]:
    return {f.value for f in ledger if f.status == "current"}


@pytest.mark.parametrize(("said", "reply", "later", "stale", "meant"), [
    # the review's chats: a terse or keyless correction, a same-key restatement
    ("The clinic opens at 8.", "A: Ok.", "Sorry, 8:30.", "8", "8:30"),
    ("The train leaves at 9.", "A: Ok.", "Correction: 9:20.", "9", "9:20"),
    ("Choir meets Tuesday at 7.", "A: Ok.", "Choir meets at 7:30 now.", "7", "7:30"),
    ("School starts at 8.", "A: Ok.", "No, 8:40.", "8", "8:40"),
    ("Bus leaves at 5.", "A: Ok.", "Bus leaves at 5:20 from now on.", "5", "5:20"),
    ("The movie starts at 8.", "A: Ok.", "It starts at 8:15 actually.", "8", "8:15"),
    ("The movie starts at 8.", "A: Ok.", "8:15 actually.", "8", "8:15"),
    # variants of our own
    ("the pharmacy closes at 7", "A: Noted.", "sorry, 7:30", "7", "7:30"),
    ("Yoga begins at 9.", "A: Got it.", "Correction: 9:15.", "9", "9:15"),
    ("The ferry departs at 11.", "A: Ok.", "no, 11:40", "11", "11:40"),
    ("Swim club meets on Thursday at 6.", "A: Ok.", "Swim club meets at 6:30 now.", "6",
     "6:30"),
    ("The dentist is Monday at 9.", "A: Ok.", "Actually 10.", "9", "10"),
    ("Our rehearsal is Friday at 4.", "A: Ok.", "Sorry, 5.", "4", "5"),
    ("The north gate opens at 10.", "A: ok", "North gate opens at 11 today onwards.", "10",
     "11"),
    ("Flight lands at 11.", "A: Ok.", "Delayed, lands at 1 now.", "11", "1"),
    ("Meet at 12:30.", "A: Ok.", "12:45 actually.", "12:30", "12:45"),
    ("The meeting is on Monday.", "A: Ok.", "Tuesday actually.", "Monday", "Tuesday"),
])
def test_a_later_time_replaces_a_bare_hour(said: str, reply: str, later: str, stale: str,
                                           meant: str) -> None:
    ledger = _ledger(said, reply, later)
    assert stated_status(ledger, stale) == "replaced"
    assert meant in _current(ledger)


@pytest.mark.parametrize(("said", "stale", "meant"), [
    ("Practice starts at 5, er, 5:30.", "5", "5:30"),
    ("Doors open at 6 — no, 6:30.", "6", "6:30"),
    ("We land at 6 — uh, 6:45 local.", "6", "6:45"),
    ("Dinner on Friday at 7, er, 8.", "7", "8"),
    ("We'll arrive at 4 — er, 5 at the latest.", "4", "5"),
    ("The bus comes at 7, um, 7:10.", "7", "7:10"),
    ("Lunch on Thursday at 1, uh, 2.", "1", "2"),
    ("Address is 12 Oak Lane — er, 21 Oak Lane.", "12 Oak Lane", "21 Oak Lane"),
    ("My name's Jon, er, John with an h.", "Jon", "John"),
    ("The fee is $40 — um, $45.", "$40", "$45"),
])
def test_a_hesitation_repairs_a_value_of_its_kind(said: str, stale: str, meant: str) -> None:
    ledger = _ledger(said, "A: Ok.", "Thanks.")
    assert stated_status(ledger, stale) != "current"
    assert meant in _current(ledger)


@pytest.mark.parametrize(("said", "kept"), [
    ("My diet is vegan — er, mostly vegan.", "vegan"),  # a word that qualifies, no repair
    ("I commute by bus — er, mostly.", "bus"),
    ("The shortlist is Lisbon, uh, Porto and Faro.", "Lisbon"),  # a list, hesitating
])
def test_a_hesitation_before_a_qualifying_word_repairs_nothing(said: str, kept: str) -> None:
    ledger = _ledger(said, "A: Ok.", "Thanks.")
    assert kept in _current(ledger)
    assert "mostly" not in _current(ledger)  # (nor a list's next item replaces it)


@pytest.mark.parametrize(("chat", "not_current"), [
    (("We'll arrive at 4 — er, maybe 5.", "A: Ok.", "Traffic."), "4"),
    (("We'll arrive at 4, maybe 5.", "A: Ok.", "Traffic."), "4"),
    (("Doors open at 6, perhaps 7.", "A: Ok.", "Fine."), "6"),
    (("Dinner is Friday at 7, or 8.", "A: Ok.", "Fine."), "7"),
    (("Meeting is at 2.", "A: Ok.", "It's at 3 because Sarah's flight lands at 2."), "2"),
    (("We meet at 4 since the shop closes at 3.", "A: Ok.", "Fine."), "3"),
    (("Pickup is at 5 because the gym opens at 6.", "A: Ok.", "Fine."), "6"),
    (("The lights are on.", "A: Ok.", "Turn them off at 10."), "10"),
    (("Switch the heater off at 9.", "A: Ok.", "Thanks."), "9"),
    (("The meeting is Monday at 10.", "A: Ok.", "From Monday at 10 to Tuesday at 11, sorry."),
     "10"),
    (("Tennis is Friday at 9.", "A: Ok.", "Move it from Friday at 9 to Saturday at 10."), "9"),
])
def test_no_current_hour_where_none_is_stated(chat: tuple[str, ...], not_current: str) -> None:
    ledger = _ledger(*chat)
    assert stated_status(ledger, not_current) != "current"


def test_a_kick_off_still_reads_its_hour() -> None:
    assert "3" in _current(_ledger("The game kicks off at 3.", "A: Ok.", "Thanks."))


@pytest.mark.parametrize(("said", "later", "stale", "meant"), [
    ("Gym class is spin at 6am.", "Actually it's yoga at 6am now.", "spin", "yoga"),
    ("Swim practice is freestyle on Monday.", "it's backstroke on Monday now", "freestyle",
     "backstroke"),
    ("Monday art class is clay at 5pm.", "It's watercolour at 5pm now.", "clay", "watercolour"),
])
def test_its_x_at_a_time_now_replaces_the_thing(said: str, later: str, stale: str,
                                               meant: str) -> None:
    ledger = _ledger(said, "A: Ok.", later)
    assert stated_status(ledger, stale) == "replaced"
    assert meant in _current(ledger)


@pytest.mark.parametrize(("chat", "kept", "absent"), [
    # no change said: an adjective, a question, a hedge, someone else's report
    (("It's fine at 6am.",), "6am", "fine"),
    (("The meeting is on Monday.", "A: Ok.", "Is it Tuesday actually?"), "Monday", ""),
    (("The meeting is on Monday.", "A: Ok.", "Maybe Tuesday actually."), "Monday", ""),
    (("Tom says the meeting is on Monday.", "A: Ok.", "Sam says Tuesday actually."), "Monday",
     ""),
    (("The meeting is on Monday.", "A: Sure, or Tuesday actually.", "Fine."), "Monday", ""),
])
def test_what_supersedes_nothing(chat: tuple[str, ...], kept: str, absent: str) -> None:
    ledger = _ledger(*chat)
    assert kept in _current(ledger)
    if absent:
        assert absent not in _current(ledger)
