"""Stop 51's review, narrowed (issue 28): chats the stop-51 rules read worse than main.

- A setting named by its env var's name ("Set MAX_CONN to 100", then "Set MAX_CONN to 200"):
  the name is the key of its value (``fact_setting_names``), and the change retires the
  value the user gave it before, not the name (read as the old value by named51's "bump
  MAX_CONN to 80").
- A lone "Postponed." / "Rescheduled." is a lead only where a sentence with a value follows
  it in the message (``fact_change_leads.value_follows``); alone it is kept as said. A
  clause after "Delayed," that leaves its subject out ("lands at 1 now") is read whole: its
  verb is no value.
- A key's word of a group of names of one thing ("max", "temp") meets the statement that
  said it as said (``fact_topics.key_words``: topics are not read through the groups).
- Another's wish the user says yes to ("Told him yes.", "I said yes") is the user's
  (``fact_mood_accepted``).

Each is read in both orders where the chat reads them so: the statement first
(``absorbed``), and the correction first (as the chat reads a correction at once and the
statements before it when they are compacted)."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set, play_forward, play_late, replaced_by_map, stated_status

_forward, _late = play_forward, play_late
BOTH = pytest.mark.parametrize("play", [_forward, _late], ids=["forward", "late"])


# ------------------------------------------------------------------ a setting by its name


@BOTH
@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("Set MAX_CONN to 100.", "Set MAX_CONN to 200.", "100", "200"),
    ("Set API_URL to https://a.io.", "Set API_URL to https://b.io.", "https://a.io",
     "https://b.io"),
    ("API_URL is https://a.io.", "Change API_URL to https://b.io.", "https://a.io",
     "https://b.io"),
    ("LOG_DIR is /var/log/app.", "point LOG_DIR to /srv/logs now", "/var/log/app",
     "/srv/logs"),
    ("set TIMEOUT_MS to 5000 and RETRIES_MAX to 3", "TIMEOUT_MS is 8000 now", "5000", "8000"),
    ("Set HOME_DIR to /home/a and LOG_DIR to /var/log/a.", "Change LOG_DIR to /var/log/b.",
     "/var/log/a", "/var/log/b"),
])
def test_a_change_of_a_setting_by_its_name_retires_its_value_not_its_name(play, said, later,
                                                                          old, new):
    ledger = play(said, later)
    assert replaced_by_map(ledger).get(old) == new
    assert new in current_set(ledger)


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("set TIMEOUT_MS to 5000 and RETRIES_MAX to 3", "TIMEOUT_MS is 8000 now", "3"),
    ("Set MAX_CONN to 100.", "should we set MAX_CONN to 200?", "100"),
    ("Set MAX_CONN to 100.", "If we set MAX_CONN to 200 it would crash.", "100"),
    ("Set MAX_CONN to 100.", "Dana set MAX_CONN to 200 on her laptop.", "100"),
    ("Set MAX_CONN to 100.", "Rename MAX_CONN to MAX_CONNECTIONS.", "100"),
    ("MAX_CONN is 100.", "Change MIN_CONN to 10.", "100"),
    ("Set HOME_DIR to /home/a and LOG_DIR to /var/log/a.", "Change LOG_DIR to /var/log/b.",
     "/home/a"),
])
def test_another_setting_a_question_or_a_renaming_keeps_the_value(said, later, kept):
    assert stated_status(_forward(said, later), kept) == "current"


def test_the_settings_name_is_its_values_key():
    (hundred,) = [f for f in message_facts("Set MAX_CONN to 100.") if f.value == "100"]
    assert hundred.key.split("|")[1] == "max_conn"
    (url,) = [f for f in message_facts("API_URL is https://a.io.") if not f.old and
              f.value == "https://a.io"]
    assert url.key.split("|")[1] == "api_url"


def test_the_env_vars_setting_is_still_replaced_by_a_change_of_its_name():
    assert replaced_by_map(_forward("MAX_CONN=50 on the pool", "bump MAX_CONN to 80")).get(
        "MAX_CONN=50") == "80"


# ------------------------------------------------------------------ a lead with no value after


@pytest.mark.parametrize(("said", "alone"), [
    ("The meeting is Wednesday.", "Postponed."),
    ("Interview Monday.", "Rescheduled."),
    ("Trip is in May.", "Postponed!"),
    ("dentist is on the 4th", "got moved"),
    ("The gig is Saturday.", "Postponed. Ugh."),
])
def test_a_lone_postponed_is_kept_as_said(said, alone):
    ledger = _forward(said, alone)
    assert any(f.kind == "correction" and f.value.lower().startswith(alone.split(".")[0].lower())
               for f in ledger)


@pytest.mark.parametrize(("text", "values"), [
    ("Postponed. Thursday at 10.", {"Thursday", "10"}),
    ("it got moved. 17 March.", {"17 March"}),
    ("band postponed. 2025-09-13", {"2025-09-13"}),
    ("meeting postponed, Thursday at 10", {"Thursday", "10"}),
    ("we rebuilt it, hostname is hermes-01", {"hermes-01"}),
])
def test_a_lead_before_a_value_still_leads(text, values):
    assert {f.value for f in message_facts(text)} == values


@pytest.mark.parametrize(("said", "later", "old", "new", "verb"), [
    ("Flight lands at 11.", "Delayed, lands at 1 now.", "11", "1", "lands"),
    ("Train leaves 8:10.", "delayed, leaving at 8:40 now", "8:10", "8:40", "leaving"),
    ("Class starts at 9:30.", "Rescheduled, starts at 10:15 now.", "9:30", "10:15", "starts"),
    ("The shop opens at 8:30.", "Moved, opens at 9:45 now.", "8:30", "9:45", "opens"),
])
def test_a_clause_without_its_subject_after_a_lead_reads_no_verb_as_a_value(said, later, old,
                                                                           new, verb):
    ledger = _forward(said, later)
    assert verb not in {f.value for f in ledger}
    assert replaced_by_map(ledger).get(old) == new


# ------------------------------------------------------------------ a key's word as said


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("Max speed on the road is 50.", "The max is 60 now.", "50", "60"),
    ("Temp in the greenhouse is 18 C.", "The temp is 21 C now.", "18 C", "21 C"),
])
def test_a_key_word_of_a_group_meets_its_statement_as_said(said, later, old, new):
    assert replaced_by_map(_forward(said, later)).get(old) == new


def test_a_name_like_a_key_word_replaces_nothing():
    ledger = _forward("Max speed on the road is 50.", "Max is my dog, he is 6.")
    assert stated_status(ledger, "50") == "current"


# ------------------------------------------------------------------ a wish the user grants


@pytest.mark.parametrize(("said", "later", "value"), [
    ("My brother wants to borrow my car on Friday.", "Told him yes.", "Friday"),
    ("My daughter wants the party on Saturday.", "I said yes.", "Saturday"),
    ("my sister wants to borrow the tent on the 12th", "gave her the go-ahead", "the 12th"),
])
def test_a_wish_granted_in_the_next_message_is_the_users(said, later, value):
    assert stated_status(_forward(said, later), value) == "current"


@pytest.mark.parametrize("text", [
    "My brother wants to borrow my car on Friday. I told him yes.",
    "My brother wants to borrow my car on Friday, I said yes.",
])
def test_a_wish_granted_in_its_own_message_is_the_users(text):
    assert {f.kind for f in absorbed(("user", text)) if f.value == "Friday"} == {"number"}


@pytest.mark.parametrize("later", [
    "told him no",
    "told him yes but only this week",
    "Agreed.",
    "ok",
])
def test_a_wish_refused_granted_in_part_or_answered_vaguely_stays_his(later):
    ledger = _forward("My son wants pickup at 4:30.", later)
    assert stated_status(ledger, "4:30") in (None, "current")
    assert not any(f.value == "4:30" and f.kind != "question" for f in ledger)
