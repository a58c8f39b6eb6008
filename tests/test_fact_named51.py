"""Old values a correction names, read whole (issue 28, stop 51, named51).

A named old value that is a part of an earlier value (the time of a weekday-time pair, the
value of a NAME=value setting) replaces that value, and only the one whose key meets the
correction's; a particle of direction is no counted noun ("from 20 down to 12"); "from X to
Y" in the present simple of no change verb is a span stated, not a change; two values one
message gave one key side by side are only possibly replaced by a correction that names
neither; "VALUE is my K for NP" keys the value; a reply's restatement of the user's value
("7-day retention" of "7 days") takes the user's value with it when a correction replaces
it; "a.m." before "instead", "not", "and" ends no sentence. Each is read in both orders: the
statement first (``absorbed``), and the correction first (as the chat reads a correction at
once and the statements before it when they are compacted)."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_dotted_initials import sentences
from ollm_desktop.engine.facts_extract import extract
from tests.engine_fakes import absorbed
from tests.fact_ledger import play_forward, play_late, replaced_by_map, stated_status

_forward, _late = play_forward, play_late
BOTH = pytest.mark.parametrize("play", [_forward, _late], ids=["forward", "late"])


# ------------------------------------------------------------------ a part of a value named
@BOTH
@pytest.mark.parametrize(("said", "later", "pair", "new", "day"), [
    ("Noah's piano lesson is Thursdays at 4:30", "teacher moved him from 4:30 to 5:15, same day",
     "Thursdays at 4:30", "5:15", "Thursdays"),
    ("yoga is Mondays 18:00", "they moved it from 18:00 to 18:30", "Mondays 18:00", "18:30",
     "Mondays"),
    ("bin collection: Tuesday 7am", "council changed collection from 7am to 6am",
     "Tuesday 7am", "6am", "Tuesday"),
    ("standup is wed at 9:15", "not 9:15 but 9:45 now, same day", "wed at 9:15", "9:45",
     "wed"),
])
def test_a_pairs_time_named_replaces_the_pair_and_the_day_holds(play, said, later, pair, new,
                                                                 day):
    ledger = play(said, later)
    assert replaced_by_map(ledger).get(pair) == new
    assert stated_status(ledger, day) == "current"


@BOTH
def test_a_time_named_in_two_keys_pairs_takes_only_the_one_of_its_key(play):
    ledger = play("gym is Monday 6pm, swimming is Friday 6pm", "gym moved from 6pm to 7pm")
    assert replaced_by_map(ledger).get("Monday 6pm") == "7pm"
    assert stated_status(ledger, "Friday 6pm") == "current"


@BOTH
@pytest.mark.parametrize(("said", "later", "old", "new", "kept"), [
    ("worker env: REDIS_HOST=cache-stg.internal, REDIS_PORT=6380, REDIS_DB=2",
     "copy paste error — db index is 4 not 2. port is right", "REDIS_DB=2", "4",
     "REDIS_PORT=6380"),
    ("worker config: WORKERS=2, REDIS_DB=2", "db index is 4 not 2", "REDIS_DB=2", "4",
     "WORKERS=2"),
    ("pool settings: MAX_CONN=50, IDLE=50", "max conn is 80, not 50", "MAX_CONN=50", "80",
     "IDLE=50"),
])
def test_a_settings_value_named_replaces_the_setting_its_key_names(play, said, later, old,
                                                                  new, kept):
    ledger = play(said, later)
    assert replaced_by_map(ledger).get(old) == new
    assert stated_status(ledger, kept) == "current"


def test_a_bare_number_named_of_no_key_takes_no_setting():
    ledger = _forward("worker config: WORKERS=2, REDIS_DB=2", "it's 4 not 2")
    assert stated_status(ledger, "WORKERS=2") == "current"
    assert stated_status(ledger, "REDIS_DB=2") == "current"


# ------------------------------------------------------------------ a particle is no noun
@pytest.mark.parametrize(("text", "old"), [
    ("I turned the timer from 20 down to 12 minutes", "20"),
    ("we cut the dose from 40 down to 20 mg", "40"),
    ("the thermostat went from 19 up to 21", "19"),
    ("batch size from 64 up to 128", "64"),
])
def test_a_particle_of_direction_is_no_counted_noun(text, old):
    assert [f.value for f in extract("user", text) if f.old] == [old]


@BOTH
@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("drip irrigation runs 20 minutes every morning for the veg beds",
     "it's been rainy so I turned the timer from 20 down to 12 minutes", "20 minutes",
     "12 minutes"),
    ("my weekly mileage is 30 km", "bumped it from 30 up to 40 km", "30 km", "40 km"),
])
def test_from_a_figure_down_to_another_replaces_it(play, said, later, old, new):
    assert replaced_by_map(play(said, later)).get(old) == new


# ------------------------------------------------------------------ a span is no change
@pytest.mark.parametrize(("text", "ends"), [
    ("I sleep from 11:30 to 7", ("11:30", "7")),
    ("we usually work from 9 to 5", ("9", "5")),
    ("the bakery is open from 7 to 3 on weekdays", ("7", "3")),
    ("i'm at the office from 8:30 to 4:30 most days", ("8:30", "4:30")),
    ("the shop's open from 9 to 5", ("9", "5")),
    ("the course runs from 3 March to 12 May", ("3 March", "12 May")),
    ("the sale lasts from Friday to Sunday", ("Friday", "Sunday")),
])
def test_a_span_in_the_present_simple_states_both_ends(text, ends):
    found = extract("user", text)
    assert not any(f.old for f in found)
    assert set(ends) <= {f.value for f in found}
    assert replaced_by_map(absorbed(("user", text))) == {}


@pytest.mark.parametrize(("text", "old"), [
    ("standup went from 9:30 to 10", "9:30"),
    ("we changed class from 2 to 3", "2"),
    ("the timeout is from 30 s to 45 s now", "30 s"),
    ("sorry, the clinic is from 2 to 4pm", "2"),
    ("port from 8080 to 9090", "8080"),
    ("we moved dinner from 19:00 to 20:00", "19:00"),
    ("checkout shifts from 11 to 1", "11"),
    ("we shift standup from 9 to 10", "9"),
])
def test_a_change_from_to_still_names_its_old_value(text, old):
    assert [f.value for f in extract("user", text) if f.old] == [old]


def test_a_span_said_then_asked_about_keeps_its_start():
    ledger = absorbed(("user", "I sleep from 11:30 to 7"),
                      ("assistant", "That's 7.5 hours, right in the recommended range."),
                      ("user", "should I try going to bed at 10:30 though? I'm always tired"))
    assert stated_status(ledger, "11:30") == "current"


# ------------------------------------------------------------------ side by side
@BOTH
@pytest.mark.parametrize(("said", "later", "values"), [
    ("ferry out at 7:40, ferry back at 18:10", "the ferry is actually 17:25",
     ("7:40", "18:10")),
    ("shuttle out at 8:05, shuttle back at 17:40", "shuttle is now 18:10",
     ("8:05", "17:40")),
])  # (stop 52: "return ferry" names "ferry back" and takes it, tests/test_fact_pairs52.py)
def test_two_values_side_by_side_are_only_possibly_replaced(play, said, later, values):
    ledger = play(said, later)
    for value in values:
        fact = next(f for f in ledger if f.value == value)
        assert fact.status == "current"
        assert fact.possibly_replaced_by is not None


@BOTH
def test_a_correction_that_names_one_of_two_takes_it(play):
    ledger = play("bus there at 8:05, bus home at 17:40", "the bus home is 18:10, not 17:40")
    assert replaced_by_map(ledger).get("17:40") == "18:10"
    assert stated_status(ledger, "8:05") == "current"


@BOTH
def test_one_value_of_a_key_is_still_replaced(play):
    assert replaced_by_map(play("the port is 8080", "port is now 9090")).get("8080") == "9090"


# ------------------------------------------------------------------ VALUE is my K for NP
@pytest.mark.parametrize(("text", "key"), [
    ("Thursday is my carpool day for the twins", "carpool|day|date"),
    ("Friday is the deadline for the report", "|deadline|date"),
    ("Thursday is the day I swim", "||date"),
])
def test_a_value_before_its_copula_takes_the_key_before_a_phrase(text, key):
    assert [f.key for f in extract("user", text)] == [key]


@BOTH
def test_a_carpool_day_said_first_is_replaced(play):
    ledger = play("Thursday is my carpool day for the twins",
                  "Jen and I switched, my carpool day is Monday now",
                  reply="Okay, you drive the twins' carpool on Thursdays.")
    assert replaced_by_map(ledger).get("Thursday") == "Monday"


# ------------------------------------------------------------------ a reply's restatement
# (read in order only: read late, since "orders.v1" is a name (stop 51's merge), the user's
# "7 days" keys as "v1" and the correction meets neither it nor the reply's "7-day")
def test_a_replys_restatement_takes_the_users_value_with_it(play=_forward):
    ledger = play("kafka topic orders.v1: retention.ms = 7 days, 12 partitions",
                  "we bumped retention on orders.v1 to 14 days. partitions untouched",
                  reply="Noted for orders.v1: 7-day retention, 12 partitions.")
    assert replaced_by_map(ledger).get("7 days") == "14 days"
    assert stated_status(ledger, "12 partitions") == "current"


def test_a_question_after_a_restatement_replaces_nothing():
    ledger = _forward("trial: 14 days, seats: 5", "should we make the trial 30 days?",
                      reply="A 14-day trial with 5 seats.")
    assert stated_status(ledger, "14 days") == "current"


# ------------------------------------------------------------------ "a.m." and a pairing word
@pytest.mark.parametrize(("text", "count"), [
    ("high schools start at 7:50 a.m. instead of 7:25 a.m.", 1),
    ("Dinner is at 7 p.m. not 8 p.m.", 1),
    ("Meet at 10 a.m. but text me first.", 1),
    ("The bar opens at 3 p.m. the room is B12.", 2),
])
def test_a_pairing_word_after_a_meridiem_goes_on(text, count):
    assert len(sentences(text)) == count


# ------------------------------------------------------------------ one value in other words
@BOTH
@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("book club meets Thursdays", "not Thursday but Friday now", "Thursdays", "Friday"),
    ("bin day is Tuesday", "it moved from Tuesdays to Wednesdays", "Tuesday", "Wednesdays"),
    ("the retention window is 7 days", "we changed it from a 7-day to a 14-day window",
     "7 days", "14-day window"),
    ("my commute is 40 minutes", "it's 25 min now, not 40 min", "40 minutes", "25 min"),
    ("choir practice is Wednesdays at 7:30pm", "its 8pm now not 7:30",
     "Wednesdays at 7:30pm", "8pm"),
])
def test_a_named_old_value_in_other_words_names_it(play, said, later, old, new):
    assert replaced_by_map(play(said, later)).get(old) == new


@BOTH
def test_a_clock_time_named_takes_only_its_keys_value(play):
    ledger = play("dinner is Fridays at 7:30pm, yoga is Mondays at 7:30pm",
                  "dinner is 8 now, not 7:30")
    assert replaced_by_map(ledger).get("Fridays at 7:30pm") == "8"
    assert stated_status(ledger, "Mondays at 7:30pm") == "current"


@BOTH
def test_a_weekday_named_in_a_question_replaces_nothing(play):
    ledger = play("book club meets Thursdays", "should it be Friday instead of Thursday?")
    assert stated_status(ledger, "Thursdays") == "current"


def test_a_name_named_still_takes_its_versioned_value():
    ledger = _forward("The database is MySQL 8.0.", "We're using Postgres instead of MySQL now.")
    assert replaced_by_map(ledger).get("MySQL 8.0") == "Postgres"


@BOTH
@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("LOG_LEVEL=debug in the staging .env", "it was too noisy. set LOG_LEVEL to warn",
     "LOG_LEVEL=debug", "warn"),
    ("our config has CACHE_MODE=lazy and WORKERS=4", "switch CACHE_MODE to eager",
     "CACHE_MODE=lazy", "eager"),
])
def test_a_setting_named_by_its_name_is_replaced(play, said, later, old, new):
    assert replaced_by_map(play(said, later)).get(old) == new


def test_a_setting_named_in_a_question_stays():
    ledger = _forward("LOG_LEVEL=debug in the staging .env", "should I set LOG_LEVEL to warn?")
    assert stated_status(ledger, "LOG_LEVEL=debug") == "current"


@BOTH
@pytest.mark.parametrize(("said", "later", "old"), [
    ("setting up grafana on the homelab nuc, it's on port 3000",
     "yes pls. but heads up it's 3300 not 3000, pihole grabbed it so I moved it", "3000"),
    ("the dev server runs on port 8080", "heads up it's 8081 not 8080", "8080"),
])
def test_a_port_named_as_a_number_is_replaced_in_either_order(play, said, later, old):
    assert not [f for f in play(said, later) if f.value == old and f.status == "current"]


@pytest.mark.parametrize(("text", "old"), [
    ("students will now be dropped off at 7:30 a.m. instead of between 6:55-7:00 a.m.",
     "6:55-7:00 a.m."),
    ("the budget went from about 40k to 55k", "40k"),
    ("the meeting is at 3pm instead of around 2pm", "2pm"),
])
def test_a_word_of_approximation_before_an_old_value_is_passed_over(text, old):
    assert [f.value for f in extract("user", text) if f.old] == [old]


def test_a_word_of_approximation_alone_names_no_old_value():
    assert not [f for f in extract("user", "we have about 40 guests") if f.old]


# ------------------------------------------------------------------ the value a reason left
@BOTH
@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("the port is 8080", "its 9090 now because 8080 clashes with jenkins", "8080", "9090"),
    ("the db is MySQL", "we use Postgres now since MySQL kept crashing", "MySQL", "Postgres"),
    ("the dentist is Monday", "the dentist is Tuesday because Monday is a holiday", "Monday",
     "Tuesday"),
])
def test_the_subject_of_a_clause_of_reason_is_the_value_left(play, said, later, old, new):
    assert replaced_by_map(play(said, later)).get(old) == new


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("the dentist is Monday", "should the dentist be Tuesday because Monday is a holiday?",
     "Monday"),
    ("the port is 8080", "what if we used 9090 since 8080 clashes?", "8080"),
])
def test_a_reason_in_a_question_replaces_nothing(said, later, kept):
    assert stated_status(_forward(said, later), kept) == "current"


@pytest.mark.parametrize("text", [
    "we are 12 because 2 people cancelled",
    "the server runs on 8080 since 2019",
])
def test_a_reason_without_a_value_as_its_subject_names_no_old_value(text):
    assert not [f for f in extract("user", text) if f.old]


@BOTH
@pytest.mark.parametrize(("said", "later", "old", "new", "kept"), [
    ("bus there at 8:05, bus home at 17:40", "the bus home is now 18:10", "17:40", "18:10",
     "8:05"),
    ("lunch break at 12:30, tea break at 15:45", "the tea break is 16:00 now", "15:45",
     "16:00", "12:30"),
])
def test_the_words_of_one_of_two_values_side_by_side_tell_it_apart(play, said, later, old,
                                                                    new, kept):
    ledger = play(said, later)
    assert replaced_by_map(ledger).get(old) == new
    fact = next(f for f in ledger if f.value == kept)
    assert fact.status == "current"
    assert fact.possibly_replaced_by is None


@BOTH
@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("MAX_CONN=50 on the pool", "bump MAX_CONN to 80", "MAX_CONN=50", "80"),
    ("our worker runs with BATCH_SIZE=64", "we raised BATCH_SIZE to 128", "BATCH_SIZE=64", "128"),
])
def test_a_change_of_an_env_vars_name_to_a_number_replaces_its_setting(play, said, later, old,
                                                                       new):
    assert replaced_by_map(play(said, later)).get(old) == new


@pytest.mark.parametrize("later", [
    "should we bump MAX_CONN to 80?",
    "I copied MAX_CONN to the prod env file",
])
def test_an_env_vars_name_asked_about_or_moved_keeps_its_setting(later):
    assert stated_status(_forward("MAX_CONN=50 on the pool", later), "MAX_CONN=50") == "current"
