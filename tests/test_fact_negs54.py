"""Stop 54, negatives: choices still pending, another's leaning, refusals said as idioms.

- A bare clause that the choice is still pending ("still deciding", "haven't decided",
  "could go either way", "nobody decided", "still weighing it up") leaves its segment
  unasserted, as "TBD" does (``fact_mood_pending``); one with its own object ("still
  deciding on the colour") does not.
- Another's leaning ("is keen on", "dead set on", "sold on", "swears by", "fancies") is
  theirs, not the user's value (``fact_mood_keen``), and so is an insistence ("my dad
  keeps saying 3pm"); the speaker's own is read as before.
- The set phrases of refusal ("no way", "not happening") give no value ("way",
  "happening": ``fact_no_values.REFUSAL_HEADS``), and "no way" with no value after it takes
  no word back (``fact_leads._no_way``); "over my dead body", "no dice" dismiss.
- A role's wish answered by the speaker's clause that keeps a value ("the agency wants
  €65/h, I told them it stays €80/h") is another's (``fact_mood_others._kept_answer``).
"""

from __future__ import annotations

import pytest

from tests.fact_ledger import chat as _chat
from tests.fact_ledger import current_set, replaced_by_map, stated_status


def _kept(ledger, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    assert old in current_set(ledger)
    assert old not in replaced_by_map(ledger)
    assert stated_status(ledger, new) != "current"


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("Standup is at 9:30.", "moving standup to 10, still deciding", "9:30", "10"),
    ("The trip is 7 nights.", "we might extend it to 10 nights, could go either way",
     "7 nights", "10 nights"),
    ("rent budget is £1,200", "bumping the rent budget to £1,400, havent decided yet tbh",
     "£1,200", "£1,400"),
    ("Kickoff is at 3pm.", "someone floated 4pm for kickoff, nobody decided", "3pm", "4pm"),
    ("The server runs Debian 11.", "Upgrading the server to Debian 12, we're still weighing "
     "it up", "Debian 11", "Debian 12"),
    ("dinner is at 7pm", "maybe shifting dinner to 8pm, it hasn't been decided",
     "7pm", "8pm"),
    ("the deadline is March 3", "I will change deadline to March 10, still I am deciding",
     "March 3", "March 10"),
])
def test_a_bare_pending_decision_leaves_its_segment_open(first: str, later: str, old: str,
                                                         new: str) -> None:
    _kept(_chat(first, later), old, new)


@pytest.mark.parametrize(("first", "later", "new"), [
    ("Standup is at 9:30.", "moved standup to 10, still deciding on the room", "10"),
    ("The venue is the Barn.", "the venue is now the Grange, we'll see you there", "Grange"),
])
def test_a_deliberation_with_its_own_object_doubts_only_it(first: str, later: str,
                                                           new: str) -> None:
    ledger = _chat(first, later)
    assert any(new in v for v in current_set(ledger))


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("we're on Postgres 15", "the new hire is keen on Postgres 17", "Postgres 15",
     "Postgres 17"),
    ("the colour is sage", "my mum has her heart set on lilac", "sage", "lilac"),
    ("the trip is to Porto", "the kids are sold on Lisbon tbh", "Porto", "Lisbon"),
    ("the slot is 2pm", "Dan's partial to the 4pm slot", "2pm", "4pm"),
    ("Bedtime is 8pm.", "the kids are dying for 9pm lol", "8pm", "9pm"),
])
def test_anothers_leaning_is_theirs(first: str, later: str, old: str, new: str) -> None:
    _kept(_chat(first, later), old, new)


def test_anothers_fancy_replaces_nothing() -> None:
    ledger = _chat("we're on Postgres 15", "my boss fancies Postgres 17")
    assert "Postgres 15" in current_set(ledger)
    assert "Postgres 15" not in replaced_by_map(ledger)


@pytest.mark.parametrize(("first", "later", "new"), [
    ("the slot is 2pm", "the boss is keen on 4pm now, so 4pm it is", "4pm"),
    ("We use Jira.", "we moved to Linear, the team is keen on it", "Linear"),
])
def test_a_leaning_with_a_change_made_still_corrects(first: str, later: str, new: str) -> None:
    assert new in current_set(_chat(first, later))


@pytest.mark.parametrize(("first", "later", "old"), [
    ("we use Jira", "the PM wants Linear, no way", "Jira"),
    ("rent is £1,200 a month", "landlord wants £1,350. Not happening, we're staying put",
     "£1,200 a month"),
    ("we use Jira", "the PM wants Linear, over my dead body", "Jira"),
    ("the budget is £500", "the vendor suggested £650, no dice", "£500"),
])
def test_a_refusal_idiom_gives_no_value(first: str, later: str, old: str) -> None:
    ledger = _chat(first, later)
    assert old in current_set(ledger)
    assert old not in replaced_by_map(ledger)
    assert not {"way", "happening", "body", "dice"} & {f.value for f in ledger}
    assert not any(f.kind == "correction" and f.status == "current" for f in ledger)


@pytest.mark.parametrize(("first", "later", "new"), [
    ("we use Jira", "no way, it's Linear now", "Linear"),
    ("the venue is the Barn", "No way! they moved it to the Grange", "Grange"),
])
def test_a_surprise_before_a_change_still_corrects(first: str, later: str, new: str) -> None:
    assert any(new in v for v in current_set(_chat(first, later)))


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("our rate is €80/h", "the agency wants €65/h, I told them it stays €80/h", "€80/h",
     "€65/h"),
    ("we sell the lambs at 40 kg", "the new buyer wants them at 45 kg, it stays 40 kg",
     "40 kg", "45 kg"),
])
def test_a_wish_answered_by_a_kept_value_is_anothers(first: str, later: str, old: str,
                                                     new: str) -> None:
    _kept(_chat(first, later), old, new)


def test_a_wish_answered_by_a_change_made_still_corrects() -> None:
    ledger = _chat("the meeting is at 10am", "the client wants 9am, we moved it to 9am")
    assert "9am" in current_set(ledger)


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("the party is at 6pm", "my dad keeps saying 3pm", "6pm", "3pm"),
    ("the tyres are at 32 psi", "the guy at the garage keeps telling me 36 psi", "32 psi",
     "36 psi"),
    ("the tyres are at 32 psi", "mechanic kept recommending 36 psi, whatever", "32 psi",
     "36 psi"),
])
def test_anothers_insistence_is_theirs(first: str, later: str, old: str, new: str) -> None:
    _kept(_chat(first, later), old, new)


def test_an_insisted_report_with_its_copula_is_read_as_before() -> None:
    ledger = _chat("my BP was 130/85", "my GP keeps telling me my BP is 140/90")
    assert "140/90" in current_set(ledger)


def test_the_speakers_own_insistence_is_read_as_before() -> None:
    ledger = _chat("the party is at 6pm", "I keep saying 6pm to everyone")
    assert "6pm" in current_set(ledger)
