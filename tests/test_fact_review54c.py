"""Stop 54, the second review's findings 1, 2, 6, 7 and 10 narrowed (review54c).

1. A correction that replaced an old value of its own key retypes no other key's number
   ("my locker is 1342", "sorry, my locker is actually 1243": the gym code 1234 holds), in
   the order the messages were sent (``fact_transposed._replaced_one``).
2. Counts and measures ("2,134 steps", "3412 photos") and a date's year ("12/03/1985",
   "12/03/1958") are never retyped numbers.
6. "did a NOUN move/go/happen" without "?" asks; the diary's "did a ramp test today" states.
7. "they're/you're bringing 24" is another's count, not the user's "I'm bringing 12".
10. A result's colon ("won 2:1", "the odds were 5:1", "final score 2:1") is no ratio.
"""

from __future__ import annotations

import pytest

from tests.fact_ledger import chat as _chat
from tests.fact_ledger import current_set, replaced_by_map


@pytest.mark.parametrize(("first", "own", "later", "kept", "old", "new"), [
    ("the gym door code is 1234", "my locker is 1342", "sorry, my locker is actually 1243",
     "1234", "1342", "1243"),
    ("my flight is BA 2134", "the room is 3412", "correction, the room is 2143",
     "BA 2134", "3412", "2143"),
    ("my PIN is 5531", "the alarm code is 9876", "sorry, I meant the alarm code is 5513",
     "5531", "9876", "5513"),
])
def test_a_correction_of_its_own_key_retypes_no_other_keys_number(
        first: str, own: str, later: str, kept: str, old: str, new: str) -> None:
    ledger = _chat(first, "A: ok", own, "A: ok", later)
    assert kept in current_set(ledger)
    assert replaced_by_map(ledger) == {old: new}


@pytest.mark.parametrize(("first", "later", "kept"), [
    ("2,134 steps this morning", "2,314 steps this afternoon", "2,134 steps"),
    ("We've got 1,234 subscribers on YouTube", "1,324 subscribers on Twitch",
     "1,234 subscribers"),
    ("we have 1,250 active users", "we got 1,520 signups last month", "1,250 active users"),
    ("bought 1,200 shares of AAPL", "and 1,020 shares of MSFT", "1,200 shares"),
    ("I have 3412 photos on my phone", "and 3142 photos on the laptop", "3412 photos"),
    ("I was born on 12/03/1985", "my wife was born on 12/03/1958", "12/03/1985"),
])
def test_counts_and_a_dates_year_are_not_retyped(first: str, later: str, kept: str) -> None:
    ledger = _chat(first, "A: Good.", later)
    assert kept in current_set(ledger)
    assert not replaced_by_map(ledger)
    assert all(f.possibly_replaced_by is None for f in ledger)


def _values(ledger, kinds=("number", "identifier", "name", "date")):  # type: ignore[no-untyped-def]
    return {f.value for f in ledger if f.status == "current" and f.kind in kinds}


@pytest.mark.parametrize(("first", "later", "kept", "unread"), [
    ("the meeting is at 2pm", "did a colleague move the meeting to 3pm", "2pm", "3pm"),
    ("our release is 4.2.0", "did a 4.3.0 release go out already", "4.2.0", "4.3.0"),
    ("my flight is at 8am", "Did a gate change to B12 happen, the app is weird", "8am", "B12"),
    ("the dentist is on Tuesday", "did a nurse reschedule it to Thursday", "Tuesday",
     "Thursday"),
])
def test_did_a_noun_and_a_bare_verb_asks(first: str, later: str, kept: str,
                                         unread: str) -> None:
    ledger = _chat(first, "A: ok", later)
    assert kept in current_set(ledger)
    assert not replaced_by_map(ledger)
    assert all(f.possibly_replaced_by is None for f in ledger)
    assert not any(unread in v for v in _values(ledger))


@pytest.mark.parametrize(("first", "later", "kept"), [
    ("I'm bringing 12", "they're bringing 24", "12"),
    ("we're inviting 140", "they're inviting 200 so ours is smaller", "140"),
    ("We're expecting 30", "they're expecting 45", "30"),
    ("we are expecting 30", "you are expecting 45", "30"),
])
def test_anothers_count_is_not_ours(first: str, later: str, kept: str) -> None:
    ledger = _chat(first, "A: ok", later)
    assert kept in current_set(ledger)
    assert not replaced_by_map(ledger)
    assert all(f.possibly_replaced_by is None for f in ledger)


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("we're inviting 140", "we're inviting 160 now", "140", "160"),
    ("we are expecting 30", "actually we are expecting 35", "30", "35"),
    ("i'm bringing 12", "im bringing 14 actually", "12", "14"),
])
def test_our_own_count_still_replaces(first: str, later: str, old: str, new: str) -> None:
    assert replaced_by_map(_chat(first, "A: ok", later)).get(old) == new


@pytest.mark.parametrize("said", [
    "did a ramp test today, FTP went up to 262",
    "did a 10k run this morning in 52 minutes",
    "did a 5k loop today, 26 minutes",
])
def test_a_diarys_did_a_still_states(said: str) -> None:
    assert _values(_chat(said))


@pytest.mark.parametrize("said", [
    "Arsenal won 2:1 yesterday",
    "we lost 3:2 in extra time",
    "the odds were 5:1",
    "Final score 2:1",
])
def test_a_results_colon_is_no_ratio(said: str) -> None:
    assert not any(":" in v for v in _values(_chat(said)))


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("dilute it 1:4", "no make it 1:5", "1:4", "1:5"),
    ("the aspect ratio is 16:9", "sorry 4:3", "16:9", "4:3"),
    ("mix cement sand 1:3", "actually 1:4", "1:3", "1:4"),
])
def test_a_ratio_still_replaces(first: str, later: str, old: str, new: str) -> None:
    assert replaced_by_map(_chat(first, "A: ok", later)).get(old) == new
