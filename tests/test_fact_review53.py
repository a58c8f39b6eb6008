"""A read-only review of stop 53's first round (``git diff 6f62ef8..dfa2f5e``): the readings
that made ordinary chat worse, narrowed, and a regex that was quadratic on blank runs.

- "nvm Monday works" keeps Monday: only a noun phrase after "never mind" is taken back.
- "My mistake, I forgot to mention my daughter. She is 12.": a lead that adds what was left
  out takes nothing back, so the son's age is not replaced.
- Initials are certain only with one owner named ("the scope's FL"); "my resting HR" is no
  hourly rate.
- A perfect reaches up to now: "over the past days the load has been 80%" is no past period.
- "an RN" is a nurse, not "right now".
- An admitted error lets a measure's own noun ("the living area") possibly replace the one
  value of its unit, never another place's ("the balcony is 6 m²").
- "as shared storage" names the value's role; "as planned" is a manner.
- ``fact_unit_alone.sentence_at`` and ``fact_topics`` number sentences as the readers do.
"""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set, replaced_by_map


def _chat(*said: str):  # type: ignore[no-untyped-def]
    turns = []
    for text in said:
        turns.append(("assistant", text[3:]) if text.startswith("A: ") else ("user", text))
    return absorbed(*turns)


@pytest.mark.parametrize(("first", "later", "kept"), [
    ("The meeting is Monday.", "nvm Monday works, let's keep it.", "Monday"),
    ("The meeting is on Friday.", "Never mind Friday is fine, we'll go then.", "Friday"),
])
def test_never_mind_a_clause_keeps_its_value(first: str, later: str, kept: str) -> None:
    ledger = _chat(first, "A: Would Tuesday suit better?", later)
    assert kept in current_set(ledger)
    assert kept not in replaced_by_map(ledger)


@pytest.mark.parametrize(("first", "later", "kept"), [
    ("My son is 10.", "My mistake, I forgot to mention my daughter. She is 12.", "10"),
    ("The port is 5432.", "Oops, I forgot to say hi. The API port is 8080.", "5432"),
])
def test_a_lead_that_adds_takes_nothing_back(first: str, later: str, kept: str) -> None:
    assert kept not in {old for old, new in replaced_by_map(_chat(first, later)).items()
                        if new and "possibly" not in new}
    assert kept in current_set(_chat(first, later)) or \
        kept in replaced_by_map(_chat(first, later))  # (at most possibly)


def test_initials_with_another_owner_meet_nothing() -> None:
    ledger = _chat("My hourly rate is 60.", "My resting HR is 52 these days.")
    assert {"60", "52"} <= current_set(ledger)
    assert "60" not in replaced_by_map(ledger)


def test_initials_with_one_owner_still_replace() -> None:
    ledger = _chat("My scope's focal length is 1200 mm.",
                   "the scope's FL is 1250 mm, checked the tube label.")
    assert replaced_by_map(ledger).get("1200 mm") == "1250 mm"


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("The server load is 40%.", "Over the past days the server load has been 80%.",
     "40%", "80%"),
    ("Sertraline dose is 10 mg.", "Over the past weeks the sertraline dose has been 20 mg.",
     "10 mg", "20 mg"),
])
def test_a_perfect_over_the_past_days_is_now(first: str, later: str, old: str,
                                             new: str) -> None:
    ledger = _chat(first, later)
    assert new in current_set(ledger)
    assert old in replaced_by_map(ledger) or any(
        f.possibly_replaced_by for f in ledger if f.value == old)


def test_in_years_past_is_still_past() -> None:
    ledger = _chat("In years past I served as precinct captain for Ward 5. "
                   "I am now assigned to Ward 11 as a poll watcher.")
    assert "Ward 5" not in current_set(ledger)
    assert "Ward 11" in current_set(ledger)


def test_an_rn_is_a_nurse() -> None:
    ledger = _chat("The nurse on my ward is Jo.", "My sister is an RN at St Mary's.")
    assert "RN" in current_set(ledger)


@pytest.mark.parametrize("later", [
    "The balcony is 6 m², I misread the listing at first.",
    "The bedroom is 12 m², I had it wrong before.",
])
def test_another_places_area_replaces_nothing(later: str) -> None:
    ledger = _chat("The living room is 20 m².", later)
    assert "20 m²" in current_set(ledger)
    assert all(f.possibly_replaced_by is None for f in ledger if f.value == "20 m²")


def test_a_role_after_as_is_an_owner() -> None:
    ledger = _chat("Storage is on vol-3.", "Use vol-7 as shared storage.")
    assert {"vol-3", "vol-7"} <= current_set(ledger)
    assert all(f.possibly_replaced_by is None for f in ledger if f.value == "vol-3")


def test_clause_break_is_linear_in_blanks() -> None:
    from ollm_desktop.engine.fact_unit_alone import _clause_of
    text = "odometer says 146,200 km as of today," + " " * 4000 + "x"
    assert _clause_of(text, "146,200 km") == "odometer says 146,200 km as of today"


def test_sentence_at_counts_wrapped_lines_as_the_readers_do() -> None:
    from ollm_desktop.engine.fact_message_lines import said_sentences
    from ollm_desktop.engine.fact_unit_alone import sentence_at
    content = "we sold the\npolo last week\nThe odometer says 146,200 km as of today"
    assert [sentence_at(content, n) for n in range(2)] == said_sentences(content)


# A second read-only review, of the second round (``git diff dfa2f5e..a9639d7``).

@pytest.mark.parametrize(("first", "later", "kept"), [
    ("Master bedroom temp is 19 °C. Guest bedroom temp is 17 °C.", "The bedroom is 21 °C now.",
     {"19 °C", "17 °C"}),
    ("Home upload limit is 25 MB and office upload limit is 10 MB.", "Upload is 50 MB now.",
     {"25 MB", "10 MB"}),
])
def test_a_short_key_replaces_no_two_siblings(first: str, later: str, kept: set[str]) -> None:
    ledger = _chat(first, "A: ok", later)
    assert kept <= current_set(ledger)
    assert not kept & set(replaced_by_map(ledger))


def test_a_whose_word_keeps_an_owner_apart() -> None:
    ledger = _chat("The kids bedroom temp is 19 °C.", "A: ok", "My bedroom is 22 °C.")
    assert "19 °C" not in replaced_by_map(ledger)


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("The train leaves at 9.", "I thought the train left at 9 but the bus leaves at 10.", "9"),
    ("The seat is 14C.", "I thought seat 14C was taken but seat 14D is open.", "14C"),
])
def test_a_belief_of_another_thing_corrects_nothing(said: str, later: str, kept: str) -> None:
    ledger = _chat(said, "A: ok", later)
    assert not any(old.endswith(kept) for old in replaced_by_map(ledger))


@pytest.mark.parametrize("text", ["I scored IQ 130 today", "The VM has RAM 64 now.",
                                  "My LDL 130 now."])
def test_a_measure_and_its_figure_are_no_code(text: str) -> None:
    from ollm_desktop.engine.fact_designators import coded
    assert coded(text, []) == []


def test_a_code_after_a_copula_is_still_one() -> None:
    from ollm_desktop.engine.fact_designators import coded
    assert [v for _, _, v, _ in coded("my flight is BA 117 to London", [])] == ["BA 117"]
