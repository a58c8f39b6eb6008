"""Stop 54, what is current, only weighed, refused or past, and repairs inside one message:

- A part told in any past verb ends at the comma before a word of now or of the new one
  ("our old landlord charged £700, the new place charges £820"): the old value is past, the
  new one current (``fact_tense``).
- A hesitation alone repairs a spoken value with no commas ("4417 er 4471"), and counts
  nothing ("4417 er" is no count of "er"; ``fact_self_repairs``, ``fact_counted``).
- A decider's bare no ("Board said no at Tuesday's meeting.") turns down the previous
  sentence's request or offer ("HR asked about moving it to the 28th."), and the speaker's
  own request ("I asked to move it to 10:00. Boss said no."; ``fact_refused_after``).
- A trial given up ("we had a go at DADGAD …, not doing that") sets nothing
  (``fact_mood_refused``).
- A past copula that judges a value ("10 days was nicer last time") retires nothing
  (``fact_old_values``, ``fact_mood_words.JUDGED``).
- A repair whose value meant a source gives ("140/90, hold on, the nurse wrote 135/85"),
  never another's opinion ("…, sorry, Dana says 10:05 is better"; ``fact_self_repairs``).
- A past clause after the user's own asserted one leaves it a statement ("…, I mean Munich,
  the other one was last year"; ``fact_mood_open``).
- A repair's value meant of the old one's shape takes the old one's kind ("AF 1234, no hold
  on, AF 1243, landing CDG"), and the old value's noun may run three words ("2 tbsp red wine
  vinegar, make that 3 tbsp").
- "ignore my last message", "disregard the previous msg" before a break lead as "ignore that"
  does (``fact_leads``).
"""

from __future__ import annotations

import pytest

from tests.fact_ledger import chat as _chat
from tests.fact_ledger import current_set, replaced_by_map


def _shown(ledger) -> set[str]:  # type: ignore[no-untyped-def]
    return {f.value for f in ledger}


def _stated(ledger) -> set[str]:  # type: ignore[no-untyped-def]
    """The current values the user stated as facts (a request or offer is a "question")."""
    return {f.value for f in ledger if f.status == "current" and f.kind != "question"}


@pytest.mark.parametrize(("said", "new", "old"), [
    ("Our old landlord charged £700, the new place is £820", "£820", "£700"),
    ("our old vet charged £45, the new vet charges £60", "£60", "£45"),
    ("back then I paid £40 a month, now I pay £55", "£55", "£40"),
    ("my previous car did 38 mpg, the new one does 52 mpg", "52 mpg", "38 mpg"),
])
def test_a_past_part_ends_before_now_or_the_new_one(said: str, new: str, old: str) -> None:
    ledger = _chat(said)
    assert new in current_set(ledger)
    assert old not in current_set(ledger)


@pytest.mark.parametrize(("said", "value"), [
    ("I paid £40 for it, now it's worth £55", "£55"),  # (no past state: as before)
    ("The rent is £900, the new lease starts in May", "£900"),
])
def test_no_past_state_keeps_its_value(said: str, value: str) -> None:
    assert value in current_set(_chat(said))


@pytest.mark.parametrize(("said", "new", "old"), [
    ("The gate code is 4417 er 4471", "4471", "4417"),
    ("my pin is 1234 um 4321", "4321", "1234"),
    ("the flight is BA117 uh BA171 tomorrow", "BA171", "BA117"),
    ("meeting at 5 uh 5:30", "5:30", "5"),
])
def test_a_spoken_hesitation_repairs(said: str, new: str, old: str) -> None:
    ledger = _chat(said)
    assert new in current_set(ledger)
    assert old not in current_set(ledger)
    assert not any(" er" in v or " um" in v or " uh" in v for v in _shown(ledger))


@pytest.mark.parametrize("said", [
    "i have 2 um kids",
    "we need 2 er 3 boxes and 4 bags",
])
def test_a_hesitation_is_no_counted_noun(said: str) -> None:
    assert not any(v.endswith((" um", " er")) or " um kids" in v for v in _shown(_chat(said)))


@pytest.mark.parametrize(("first", "later", "kept", "asked"), [
    ("Payroll run is on the 25th",
     "HR asked about moving it to the 28th. Board said no at Tuesday's meeting.",
     "the 25th", "the 28th"),
    ("Standup is at 9:15", "The PM asked to move standup to 10:00. My manager said no.",
     "9:15", "10:00"),
    ("Standup is at 9:15", "I asked to move standup to 10:00. Boss said no.", "9:15", "10:00"),
    ("rent is £1,100", "landlord requested £1,250 from June. The tribunal rejected it",
     "£1,100", "£1,250"),
])
def test_a_deciders_no_turns_a_request_down(first: str, later: str, kept: str,
                                            asked: str) -> None:
    ledger = _chat(first, "A: Noted.", later)
    assert kept in current_set(ledger)
    assert asked not in _stated(ledger)
    assert kept not in replaced_by_map(ledger)


@pytest.mark.parametrize(("first", "later", "new"), [
    ("Standup is at 9:15", "We moved standup to 10:00. Dana declined.", "10:00"),
])
def test_a_change_made_stays_made(first: str, later: str, new: str) -> None:
    assert new in current_set(_chat(first, "A: Noted.", later))


@pytest.mark.parametrize(("first", "later", "kept", "tried"), [
    ("Guitar tuned to drop D for our set",
     "we had a go at DADGAD in rehearsal but it sounded like mush, not doing that",
     "drop D", "DADGAD"),
    ("We use Postgres 15", "we tried MongoDB for a sprint, no way", "Postgres 15", "MongoDB"),
])
def test_a_trial_given_up_sets_nothing(first: str, later: str, kept: str, tried: str) -> None:
    ledger = _chat(first, "A: Noted.", later)
    assert tried not in _stated(ledger)
    assert kept not in replaced_by_map(ledger)


@pytest.mark.parametrize(("first", "later", "kept"), [
    ("Kombucha steeping at 7 days",
     "hmm 7 days or 10 days, 10 was nicer last time but fizzier. no idea", "7 days"),
    ("Kombucha steeping at 7 days", "10 days was nicer last time", "7 days"),
])
def test_a_judged_trial_retires_nothing(first: str, later: str, kept: str) -> None:
    ledger = _chat(first, "A: Noted.", later)
    assert kept in current_set(ledger)
    assert not any("nicer" in v for v in _shown(ledger))


@pytest.mark.parametrize(("first", "later", "new"), [
    ("port 8080", "8080 was wrong, it's 8081", "8081"),
])
def test_a_wrong_value_still_retires(first: str, later: str, new: str) -> None:
    ledger = _chat(first, later)
    assert new in current_set(ledger)
    assert "8080" not in current_set(ledger)


@pytest.mark.parametrize(("said", "new", "old"), [
    ("My blood pressure target is 140/90, hold on, the nurse wrote 135/85 on the card",
     "135/85", "140/90"),
    ("the lease ends on 3 May, sorry, the contract says 5 May", "5 May", "3 May"),
    ("Our wifi password is Otter42, wait, the sticker says Otter24", "Otter24", "Otter42"),
    ("Dentist is Tuesday 3pm, wait, the reminder text says Thursday 3pm", "Thursday 3pm",
     "Tuesday 3pm"),
])
def test_a_repair_a_source_gives(said: str, new: str, old: str) -> None:
    ledger = _chat(said)
    assert new in current_set(ledger)
    assert old not in current_set(ledger)


@pytest.mark.parametrize(("said", "kept"), [
    ("the flight is at 9:40, sorry, Dana says 10:05 is better", "9:40"),  # (her opinion)
    ("the flight is at 9:40, and the app shows 10:05 for the return", "9:40"),
    ("the flight is at 9:40, sorry, the app says 10:05 maybe", "9:40"),
])
def test_no_repair_without_a_source_stated(said: str, kept: str) -> None:
    assert kept in current_set(_chat(said))


@pytest.mark.parametrize(("said", "new"), [
    ("the meeting is in Berlin, I mean Munich, the Berlin one was last year", "Munich"),
    ("the meeting is in Berlin, I mean Munich, the other one was last year", "Munich"),
])
def test_a_past_clause_after_the_users_own_leaves_it_a_statement(said: str, new: str) -> None:
    ledger = _chat(said)
    assert new in current_set(ledger)
    assert "Berlin" not in current_set(ledger)


@pytest.mark.parametrize("said", [
    "Back in 2019 we were on Heroku",
    "I used to live in Leeds, loved it",
])
def test_a_past_sentence_states_nothing(said: str) -> None:
    assert not current_set(_chat(said))


@pytest.mark.parametrize(("said", "new", "old", "other"), [
    ("my flight is AF 1234, no hold on, AF 1243, landing CDG 9:50", "AF 1243", "AF 1234",
     "CDG"),
    ("dressing: 2 tbsp red wine vinegar, make that 3 tbsp, 5 tbsp olive oil", "3 tbsp",
     "2 tbsp", "5 tbsp"),
])
def test_a_repairs_value_meant_takes_the_old_ones_kind(said: str, new: str, old: str,
                                                       other: str) -> None:
    ledger = _chat(said)
    assert {new, other} <= current_set(ledger)
    assert old not in current_set(ledger)
    assert replaced_by_map(ledger).get(old, new) == new


@pytest.mark.parametrize(("later", "new"), [
    ("ignore my last message - the zine is 100gsm", "100gsm"),
    ("disregard my previous message, the zine is 100gsm", "100gsm"),
    ("Ignore my previous message. The zine is 100gsm.", "100gsm"),
])
def test_a_retraction_of_the_last_message_leads(later: str, new: str) -> None:
    ledger = _chat("Printing the zine at 120gsm", later)
    assert new in current_set(ledger)
    assert replaced_by_map(ledger).get("120gsm") == new
    assert not any("message" in v for v in _shown(ledger))


@pytest.mark.parametrize("later", [
    "ignore my last message lol",
    "ignore my last message about the venue, the zine is still 120gsm",
])
def test_a_retraction_of_the_last_message_keeps_what_it_does_not_take(later: str) -> None:
    ledger = _chat("Printing the zine at 120gsm", later)
    assert "120gsm" in current_set(ledger)
    assert not any(v == "lol" for v in _shown(ledger))
