"""Stop 46, the lead's mends: a hesitation of ``REPAIRS`` is a correction's lead only as a
hesitation. "ER: 4 nurses" (the emergency room's) was read as "er," and replaced the ward's
"6 nurses" on 8263a31: a colon after it makes a label, and in capitals it is an acronym."""

from __future__ import annotations

import pytest

from tests.fact_ledger import fact_of, status_of, user_ledger


@pytest.mark.parametrize("later", [
    "ER: 4 nurses on nights.",
    "er: 4 nurses on nights",
    "ER, 4 nurses on nights.",
])
def test_a_label_or_an_acronym_spelled_er_is_no_self_repair(later: str) -> None:
    ledger = user_ledger("The ward has 6 nurses on nights.", later)
    assert status_of(ledger, "6 nurses") == "current"


@pytest.mark.parametrize("later", ["err, 40 s", "errr... 40 s", "erm - 40 s", "nvm, 40 s"])
def test_a_hesitation_in_lower_case_still_repairs(later: str) -> None:
    ledger = user_ledger("The timeout is 30 s.", later)
    assert status_of(ledger, "30 s") == "replaced"
    assert status_of(ledger, "40 s") == "current"


# A street address is one value, never a count of streets or a bare house number: on 8263a31
# "We live at 14 Elm Street" stated nothing, "The office is at 221B Baker Street" a number
# "221B", and a move to another address replaced nothing.
@pytest.mark.parametrize(("said", "address"), [
    ("We live at 14 Elm Street, about 20 min from the school.", "14 Elm Street"),
    ("The office is at 221B Baker Street.", "221B Baker Street"),
    ("Ship it to 1600 Pennsylvania Avenue NW.", "1600 Pennsylvania Avenue NW"),
    ("The venue is 350 5th Avenue, third floor.", "350 5th Avenue"),
    ("Our flat is at 12 St Mary's Road.", "12 St Mary's Road"),
])
def test_a_street_address_is_one_value(said: str, address: str) -> None:
    assert status_of(user_ledger(said), address) == "current"


@pytest.mark.parametrize("said", [
    "meet at 4 PM Dr Smith said",  # no title-case word before the street type
    "I walked 3 blocks down the street",
])
def test_no_address_without_a_name_and_a_street_type(said: str) -> None:
    assert not any(f.ref_kind == "address" for f in user_ledger(said))


def test_a_move_to_another_address_replaces_it_and_a_hypothetical_does_not() -> None:
    moved = user_ledger("We live at 14 Elm Street.", "we moved to 9 Birch Lane last month")
    assert status_of(moved, "14 Elm Street") == "replaced"
    assert status_of(moved, "9 Birch Lane") == "current"
    maybe = user_ledger("We live at 14 Elm Street.",
                        "If we ever moved to 9 Birch Lane the school would be a 5 min walk.")
    assert status_of(maybe, "14 Elm Street") == "current"


# A duration after "every" is a period and keeps its "every" ("every 2 weeks" was read as "2
# weeks", a length of time); a correction naming the length still meets it.
def test_a_period_keeps_its_every_and_a_named_length_still_meets_it() -> None:
    ledger = user_ledger("our release cadence is every 2 weeks")
    assert status_of(ledger, "every 2 weeks") == "current"
    changed = user_ledger("the inventory sync job runs every 30 minutes",
                          "changed the interval from 30 minutes to 10 minutes")
    assert status_of(changed, "every 30 minutes") == "replaced"
    assert status_of(changed, "10 minutes") == "current"


# A self-repair inside one sentence: the value taken back is old and the value meant takes its
# key. On 8263a31 both stayed current (or the bare "1800", "Kowalska" was never read).
@pytest.mark.parametrize(("said", "old", "new"), [
    ("the staging box has 16 GB RAM, sorry, 32 GB, and 8 cores.", "16 GB", "32 GB"),
    ("tell the group we meet at Pier 39, I mean Pier 45, at noon", "Pier 39", "Pier 45"),
    ("the budget for the bathroom reno is 1500, ugh, 1800 I mean", "1500", "1800"),
    ("child's surname Kowalczyk—actually Kowalska, I typed her dad's.", "Kowalczyk", "Kowalska"),
    ("the door code is 4471 — no wait, 4417", "4471", "4417"),
    # (with its time the day is one value since stop 50: tests/test_fact_values50.py)
    ("The call is on Monday, sorry, Tuesday.", "Monday", "Tuesday"),
])
def test_a_self_repair_mid_sentence_replaces_the_value_taken_back(said: str, old: str,
                                                                  new: str) -> None:
    ledger = user_ledger(said)
    assert status_of(ledger, old) == "replaced"
    assert status_of(ledger, new) == "current"
    assert fact_of(ledger, new).key == fact_of(ledger, old).key


@pytest.mark.parametrize(("said", "values"), [
    ("we need 16 GB or 32 GB of RAM", ("16 GB", "32 GB")),  # two offered, none repaired
    ("swimming is on Thursdays actually, Tuesday is gymnastics", ("Thursdays", "Tuesday")),
    ("We close at 5pm, no exceptions, and open at 9am.", ("5pm", "9am")),
])
def test_two_values_with_no_repair_between_both_stay(said: str, values: tuple[str, ...]) -> None:
    ledger = user_ledger(said)
    assert all(status_of(ledger, value) == "current" for value in values)


# A question after a stated clause asks from its comma on: the clause before it states its
# value (on 8263a31 "?" made the whole sentence a question, and the value was never the user's).
@pytest.mark.parametrize(("said", "value"), [
    ("The port is 8443, can you write the nginx config?", "8443"),
    ("my salary is £52,000, how much goes into my pension at 5%?", "£52,000"),
    ("The DB is on 5434 now, could you update the doc?", "5434"),
    ("the party is on Friday at 8pm, what should I bring?", "Friday at 8pm"),
])
def test_a_question_after_a_stated_clause_leaves_it_stated(said: str, value: str) -> None:
    assert status_of(user_ledger(said), value) == "current"
    assert fact_of(user_ledger(said), value).kind != "question"


@pytest.mark.parametrize(("said", "value"), [
    ("The port is 8443, right?", "8443"),  # a tag asks about all of it
    ("In a world where we allowed 500 rpm, would the DB cope?", "500 rpm"),  # fronted
    ("Should we move to 5434, or keep 5432?", "5434"),  # a question from its start
])
def test_a_tag_a_fronted_clause_or_a_question_from_the_start_still_asks(said: str,
                                                                        value: str) -> None:
    assert fact_of(user_ledger(said), value).kind == "question"


def test_a_change_between_two_codes_of_one_shape_reads_both() -> None:
    """"gate changed from B12 to C4": on 8263a31 neither code was a value."""
    ledger = user_ledger("at the airport, flight leaves from gate B12 in an hour",
                         "gate changed from B12 to C4, and it's a 15 min walk")
    assert status_of(ledger, "C4") == "current"
    assert status_of(ledger, "gate B12") == "replaced"


def test_a_code_alone_is_no_change() -> None:  # (a vitamin, a paper size: no value read)
    ledger = user_ledger("I take B12 daily and switched from coffee to tea.")
    assert not any("B12" in f.value for f in ledger)


def test_a_bare_number_after_now_on_is_the_value() -> None:
    """"grafana is now on 3100": the bare number after "now on" was not read on 8263a31."""
    ledger = user_ledger("grafana runs on port 3000 on the monitoring box",
                         "fyi grafana is now on 3100, clashed with the node app")
    assert status_of(ledger, "3000") == "replaced"
    assert status_of(ledger, "3100") == "current"


def test_an_adverb_after_name_is_is_no_name() -> None:
    """"her name is actually Jennifer Tran": 8263a31 read the name "actually"."""
    ledger = user_ledger("her name is actually Jennifer Tran, I had the wrong email open.")
    assert status_of(ledger, "Jennifer Tran") == "current"
    assert not any(f.value == "actually" for f in ledger)
