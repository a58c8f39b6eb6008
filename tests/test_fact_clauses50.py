"""Stop 50: the asserted clause beside a question, a wish, a supposition or a past value
(issue 28). The user's current value in such a message is read; the value asked about,
wished, supposed or left in the past is never current."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_extract import current_values
from ollm_desktop.engine.provenance import message_facts


def _stated(text: str) -> set[str]:
    """The values a user's message states as current (an open question or an old value is
    none)."""
    return {f.value for f in message_facts(text, "user") if f.kind != "question" and not f.old}


def _current(*texts: str) -> set[str]:
    """The values current after these user messages (an assistant's "Noted." between)."""
    played: list[tuple[str, str]] = []
    for text in texts:
        played += [("user", text), ("assistant", "Noted.")]
    return {v for values in current_values(played).values() for v in values}


# ------------------------------------------------ a past state set against now (fact_mood_then)

@pytest.mark.parametrize(("text", "now", "then"), [
    ("I grew up in Leeds and lived in Bristol for years, but now I'm in Glasgow",
     "Glasgow", {"Leeds", "Bristol"}),
    ("I lived in Bristol for years, but now I live in Glasgow", "Glasgow", {"Bristol"}),
    ("we were on Trello until 2022, now we're on Jira", "Jira", {"Trello"}),
    ("the office was in Leeds for years, but now it's in York", "York", {"Leeds"}),
])
def test_a_past_state_before_a_clause_of_now_says_nothing_now(text: str, now: str,
                                                              then: set[str]) -> None:
    stated = _stated(text)
    assert now in stated
    assert not then & stated


def test_a_past_change_before_now_still_holds() -> None:
    assert {"10am", "10:30"} <= _stated("we moved the standup to 10am, now it's at 10:30")


def test_now_that_is_a_subordinator_not_a_time_of_now() -> None:
    assert "Bristol" in _stated("I lived in Bristol, now that I think of it")


def test_the_clause_of_now_replaces_the_earlier_value() -> None:
    current = _current("I live in Bristol",
                       "I lived in Bristol for years, but now I'm in Glasgow")
    assert "Glasgow" in current
    assert "Bristol" not in current


def test_a_hedged_clause_of_now_replaces_nothing() -> None:
    current = _current("the storage quota is 5 GB",
                       "we were on 5 GB for years but now we might go to 10 GB")
    assert current == {"5 GB"}


# ------------------------------------------------------- "but right now" after a wish

@pytest.mark.parametrize(("text", "now", "wished"), [
    ("in a perfect world I'd run 4 days a week but right now it's 2 days", "2 days", "4 days"),
    ("ideally we'd ship on Friday but at the moment it's Monday", "Monday", "Friday"),
    ("I'd sleep 8 hours a night but currently it's 6 hours", "6 hours", "8 hours"),
])
def test_a_clause_of_now_after_but_leaves_the_wish(text: str, now: str, wished: str) -> None:
    stated = _stated(text)
    assert now in stated
    assert wished not in stated


def test_the_wish_after_the_clause_of_now_still_replaces_nothing() -> None:
    current = _current("I run 2 days a week",
                       "right now it's 2 days but I'd love to run 4 days a week")
    assert current & {"2 days", "2 days a week"}
    assert not current & {"4 days", "4 days a week"}


# ---------------------------------------- a stated present before a question (fact_mood_asked)

@pytest.mark.parametrize(("text", "stated", "asked"), [
    ("the hamster gets 1 tablespoon of mix per day, is 2 tablespoons too much?",
     "1 tablespoon", "2 tablespoons"),
    ("the cat gets 60 g of wet food a day, is 80 g too much?", "60 g", "80 g"),
    ("we bill 85 EUR an hour, should we raise it to 95 EUR?", "85 EUR", "95 EUR"),
    ("the router runs on port 8080, can I move it to 9090?", "8080", "9090"),
])
def test_a_present_statement_before_a_question_states(text: str, stated: str,
                                                      asked: str) -> None:
    values = _stated(text)  # (a value read whole may go on: "85 EUR an hour")
    assert any(v == stated or v.startswith(stated + " ") for v in values)
    assert not any(v == asked or v.startswith(asked + " ") for v in values)


@pytest.mark.parametrize("text", [
    "the client wants Monday, would that work?",
    "my vet wants 80 g, would that work?",
    "Two rooms at 80 each, would that work?",
])
def test_a_wish_or_a_bare_phrase_before_a_question_still_asks(text: str) -> None:
    assert not _stated(text)


def test_the_question_after_a_present_statement_replaces_nothing() -> None:
    assert _current("the cat gets 60 g of wet food a day",
                    "the cat gets 60 g of wet food a day, is 80 g too much?") == {"60 g"}


# ------------------------------- a condition of relevance (fact_mood_words.relevance)

@pytest.mark.parametrize(("text", "value"), [
    ("it's in a 30 cm pot if that matters", "30 cm"),
    ("the server has 16 GB RAM if it matters", "16 GB"),
    ("I'm on Ubuntu 22.04 if that's relevant", "Ubuntu 22.04"),
])
def test_a_condition_of_relevance_leaves_its_clause_stated(text: str, value: str) -> None:
    assert value in _stated(text)


@pytest.mark.parametrize(("text", "value"), [
    ("the deadline is Friday if that helps the team", "Friday"),
    ("we'd keep 30 cm if that's what they sell", "30 cm"),
])
def test_a_condition_that_is_more_than_relevance_still_conditions(text: str,
                                                                  value: str) -> None:
    assert value not in _stated(text)


# --------------------------------------------------------- a quote is another's offer

@pytest.mark.parametrize(("text", "values"), [
    ("the garage quoted 800 EUR for the clutch", {"800 EUR"}),
    ("the painter quotes 2,400 for the hallway, the other guy 2,100", {"2,400", "2,100"}),
    ("for the new roof, roofer A quoted 14,200 and roofer B 12,900.", {"14,200", "12,900"}),
    ("the mechanic estimated 800 for the clutch", {"800"}),
])
def test_a_quote_is_an_offer_not_the_users_value(text: str, values: set[str]) -> None:
    assert not values & _stated(text)


@pytest.mark.parametrize(("text", "value"), [
    ("the garage quoted 800 EUR and we paid 750 EUR", "750 EUR"),
    ("the garage quoted 800 EUR, they fixed it for 750 EUR", "750 EUR"),
    ("I estimated 3 weeks for the migration", "3 weeks"),
])
def test_what_was_paid_after_a_quote_and_the_users_estimate_are_stated(text: str,
                                                                      value: str) -> None:
    assert value in _stated(text)


def test_a_quote_with_no_figure_leaves_its_sentence_a_correction() -> None:
    assert _current("Our conveyancer is Hart & Doyle.",
                    "Going with Mills Legal instead of Hart & Doyle for the conveyancing, "
                    "they quoted less.") == {"Mills Legal"}


def test_a_quoted_price_as_a_noun_phrase_is_still_stated() -> None:
    assert "800 EUR" in _stated("the quoted price is 800 EUR")


def test_a_quote_replaces_nothing() -> None:
    assert _current("the clutch repair is 650 EUR",
                    "the garage quoted 800 EUR for the clutch") == {"650 EUR"}


# ------------------------------------ another's word set against a written source's

@pytest.mark.parametrize(("text", "theirs", "source"), [
    ("my sister said to use 2 cups of flour but the recipe says 3 cups", "2 cups", "3 cups"),
    ("the forum says 30 psi but the door sticker says 35 psi", "30 psi", "35 psi"),
    ("my coworker said 8444 but the docs say 8443", "8444", "8443"),
])
def test_a_report_set_against_a_written_source_is_not_current(text: str, theirs: str,
                                                              source: str) -> None:
    stated = _stated(text)
    assert source in stated
    assert theirs not in stated


def test_a_report_set_against_a_clause_without_a_source_still_states() -> None:
    assert "8444" in _stated("my friend said 8444 but the docs are old")


# ----------------------------------- a past state over a span not counted (fact_tense)

@pytest.mark.parametrize("text", [
    "I lived in Bristol for years.",
    "we were on Trello for years.",
    "the office was in Leeds for a long time",
    "I worked at Acme for ages",
])
def test_a_past_state_for_years_says_nothing_now(text: str) -> None:
    assert not _stated(text)


@pytest.mark.parametrize(("text", "value"), [
    ("I've lived in Bristol for years.", "Bristol"),
    ("we ran the tests for 3 hours", "3 hours"),
    ("I work at Acme, been there for years", "Acme"),
])
def test_a_present_perfect_or_a_counted_span_still_states(text: str, value: str) -> None:
    assert value in _stated(text)


def test_a_past_state_for_years_then_now_replaces_the_old_value() -> None:
    current = _current("I live in Bristol", "I lived in Bristol for years. Now I'm in Glasgow.")
    assert "Glasgow" in current
    assert "Bristol" not in current


# --------------------------------------- a time of now read as "now" (fact_mood_then.now_said)

@pytest.mark.parametrize(("text", "now", "then"), [
    ("back in the day the app ran on 8080, these days it runs on 8443", "8443", "8080"),
    ("last year the fee was 40 EUR, these days it's 55 EUR", "55 EUR", "40 EUR"),
    ("originally the meeting was on Tuesday, at the moment it's on Thursday", "Thursday",
     "Tuesday"),
])
def test_a_clause_of_now_after_a_comma_states_alone(text: str, now: str, then: str) -> None:
    stated = _stated(text)
    assert now in stated
    assert then not in stated


def test_a_time_of_now_names_no_key() -> None:
    found = [f for f in message_facts("last year the fee was 40 EUR, these days it's 55 EUR")
             if f.value == "55 EUR"]
    assert found
    assert all("day" not in f.key for f in found)


def test_a_clause_of_now_replaces_the_same_keys_value() -> None:
    assert _current("the app port is 8080", "these days the app runs on 8443") == {"8443"}


# ------------------------------------------- a fronted before-time cut off by its comma

@pytest.mark.parametrize("text", [
    "Prior to the outage, this was at 180 per minute.",
    "Before the move, this was 40 per month.",
    "PRIOR to bot troubles, this was at 180 per minute (~3 per second), with a warning at 90 "
    "per minute.",
])
def test_a_past_clause_after_a_fronted_before_time_says_nothing_now(text: str) -> None:
    assert not _stated(text)


def test_a_present_clause_after_a_fronted_before_time_still_states() -> None:
    assert "180 per minute" in _stated("Prior to the outage, the limit is 180 per minute.")


# ------------------------------------------------- a bare figure's rate (reference_patterns)

@pytest.mark.parametrize(("text", "value"), [
    ("I bill 85/hour.", "85/hour"),
    ("car insurance is with Allianz, 640 a year.", "640 a year"),
    ("my gym membership is 39 a month", "39 a month"),
    ("the limit is 100 per user", "100 per user"),
])
def test_a_bare_figure_with_its_rate_is_one_value(text: str, value: str) -> None:
    assert value in _stated(text)


def test_a_rate_supposed_after_a_stated_one_replaces_nothing() -> None:
    stated = _stated("I bill 85/hour. imagine if I charged 110/hour, would I lose clients?")
    assert "85/hour" in stated
    assert "110/hour" not in stated


# ------------------------------------------ a bare refusal after another's sales pitch

@pytest.mark.parametrize(("text", "offered"), [
    ("They tried to upsell the premium plan at 34 EUR, declined.", "34 EUR"),
    ("the bank pitched a fixed rate at 4.1%, declined, we stay on 3.9%", "4.1%"),
])
def test_a_bare_refusal_after_a_pitch_turns_it_down(text: str, offered: str) -> None:
    assert offered not in _stated(text)


def test_a_change_another_declined_to_join_stays_made() -> None:
    assert "Saturday" in _stated("we moved the party to Saturday and she declined")


def test_since_then_is_a_time_of_now() -> None:
    stated = _stated("we were on Trello for years until 2022; since then Jira")
    assert "Jira" in stated
    assert "Trello" not in stated


# ---------------------------------- a measure as a compound adjective (reference_patterns)

@pytest.mark.parametrize(("text", "value"), [
    ("he's in a 30-liter tank already.", "30-liter"),
    ("I just have the standard 2-year one", "2-year"),
    ("I signed the 12-month lease at £1,350", "12-month"),
])
def test_a_measure_before_its_noun_is_one_value(text: str, value: str) -> None:
    assert any(v == value or v.startswith(value + " ") for v in _stated(text))  # ("… tank")


def test_a_refused_warranty_beside_the_one_the_user_has() -> None:
    stated = _stated("the dealer tried to sell me the 5-year extended warranty for 1,900, I "
                     "said no. I just have the standard 2-year one")
    assert "2-year" in stated
    assert not {"5-year", "1,900"} & stated


# -------------------------------- a short question that judges the clause before it

@pytest.mark.parametrize(("text", "value"), [
    ("my landlord charges 1200 a month, is that fair?", "1200 a month"),
    ("we pay 45 a month, is that normal?", "45 a month"),
    ("the deadline is Friday, is that ok?", "Friday"),
])
def test_a_question_judging_a_stated_clause_leaves_it_stated(text: str, value: str) -> None:
    assert value in _stated(text)


@pytest.mark.parametrize("text", [
    "the port is 8443, isn't it?",
    "the port is 8443, is that right?",
    "the port is 8443, right?",
    "my coach wants 5 days, is that too much?",
])
def test_a_tag_a_confirmation_or_a_wish_before_a_question_still_asks(text: str) -> None:
    assert not _stated(text)


# --------------------------------- a change put off to a time not named (fact_mood_planned)

@pytest.mark.parametrize(("said", "later", "kept"), [
    ("the fee is 40 EUR", "at some point I'll raise it to 50 EUR", "40 EUR"),
    ("the standup is at 9:30", "I'll move it to 10:00 eventually", "9:30"),
    ("my backup drive is 2 TB", "we'll switch it to 4 TB someday", "2 TB"),
])
def test_a_change_put_off_replaces_nothing(said: str, later: str, kept: str) -> None:
    assert kept in _current(said, later)


@pytest.mark.parametrize(("said", "later", "new"), [
    ("the standup is at 9:30", "I moved it to 10:00 eventually", "10:00"),
    ("the standup is at 9:30", "I'll move it to 10:00", "10:00"),
])
def test_a_change_made_or_announced_still_replaces(said: str, later: str, new: str) -> None:
    assert _current(said, later) == {new}


# ---------------------- a placed number before the part of the day (fact_time_tails)

@pytest.mark.parametrize(("text", "value"), [
    ("the bedroom is at 18 at night.", "18"),
    ("the heating is at 21 in the morning", "21"),
    ("the thermostat is at 19 on weekends", "19"),
])
def test_a_placed_number_before_the_part_of_the_day_is_read(text: str, value: str) -> None:
    assert value in _stated(text)


def test_anothers_preference_beside_the_setting_stays_theirs() -> None:
    stated = _stated("the bedroom is at 18 at night. my husband would prefer 21 but I can't "
                     "sleep when it's warm")
    assert "18" in stated
    assert "21" not in stated


def test_a_placed_number_before_a_noun_phrase_is_still_none() -> None:
    assert "8080" not in _stated("the API listens on 8080 at night for batch jobs")


def test_a_quote_as_a_noun_before_a_change_is_no_offer() -> None:
    assert _current("The laptop quote came in at 21,500 MXN.",
                    "The laptop quote dropped from 21,500 MXN to 19,900 MXN.") == {"19,900 MXN"}


def test_a_bare_figures_rate_is_replaced_by_a_bare_figure() -> None:
    assert _current("my car insurance is 1100 a year", "it's 1260 since the renewal") == {"1260"}
