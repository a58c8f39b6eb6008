"""Stop 49, keys (issue 28, point 2): a correction that names its key in other words than
the first statement did. A closed class of names of one thing (``fact_key_synonyms``: "db"
and "database", "internet" and "fiber") makes the two keys one, so the old value is replaced;
a word outside it never joins two keys ("pay", a verb in most chat, "iteration" and "repo", which
name other things too, were taken out by stop 49's review)."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_key_synonyms import key_stem, phrase_named
from tests.fact_ledger import stated_status, user_ledger


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("home internet plan: 300 Mbps", "upgraded, our fiber's 1 Gbps now", "300 Mbps", "1 Gbps"),
    ("db port is 5432 in the .env",
     "fyi the database listens on 6432 now since we put pgbouncer in front", "5432", "6432"),
])
def test_a_key_named_in_other_words_is_replaced(said: str, later: str, old: str,
                                                new: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, old) == "replaced"
    assert stated_status(ledger, new) == "current"


def test_the_other_name_picks_its_key_among_two_of_its_unit() -> None:
    ledger = user_ledger("db port is 5432, api port is 8080",
                         "the database listens on 6432 now")
    assert stated_status(ledger, "5432") == "replaced"
    assert stated_status(ledger, "8080") == "current"
    assert stated_status(ledger, "6432") == "current"


def test_a_rent_paid_is_corrected_by_what_we_pay_now() -> None:
    ledger = user_ledger("We pay $1,350 in rent.", "We pay $1,400 now.")
    assert stated_status(ledger, "$1,350") == "replaced"


@pytest.mark.parametrize(("said", "later", "kept"), [
    # another owner's port: never the database's
    ("the API port is 8080", "the database listens on 6432 now", "8080"),
    # rent paid is no salary
    ("rent is $1,200 a month", "my salary is $4,000 now", "$1,200 a month"),
    # the doctor and the vet are two (no group joins them)
    ("the doctor is Dr. Olsen", "the vet is Dr. Kim now", "Dr. Olsen"),
    # (stop 49's review) "pay" is a verb, a wage another's or the law's: no salary
    ("My salary is $5,000 a month.", "I pay $1,400 a month now.", "$5,000 a month"),
    ("My salary is $85k a year.", "The minimum wage here went up to $16 an hour.", "$85k a year"),
    ("Our sprints are 2 weeks long.", "Each training iteration takes 3 weeks now.", "2 weeks"),
])
def test_words_outside_the_class_never_join_two_keys(said: str, later: str,
                                                     kept: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, kept) == "current"


def test_a_group_is_compared_as_its_first_word() -> None:
    assert key_stem("db") == key_stem("databases")
    assert key_stem("iterations") != key_stem("sprint")
    assert key_stem("pay") != key_stem("salary")
    assert key_stem("doctor") != key_stem("vet")
    assert phrase_named("db primary") == "database primary"
    assert phrase_named("api gateway") == "api gateway"


def test_a_failed_name_never_stated_adds_no_replaced_line() -> None:
    ledger = user_ledger("The plumber is Mark.",
                         "The plumber is Joe now. Mark is away, and Steve quit.")
    assert stated_status(ledger, "Mark") == "replaced"
    assert stated_status(ledger, "Joe") == "current"
    assert stated_status(ledger, "Steve") is None


def test_a_failed_name_stated_before_is_still_replaced() -> None:
    ledger = user_ledger("Hotel in Kyoto: Hotel Granvia",
                         "booked Mitsui Garden instead, Granvia was full")
    assert stated_status(ledger, "Hotel Granvia") == "replaced"
    assert stated_status(ledger, "Mitsui Garden") == "current"


@pytest.mark.parametrize(("said", "name"), [
    ("Reception is at Hollins Barn, ceremony at St Mary's at 1pm.", "St Mary's"),
    ("we meet at St. Anne's at 9", "St. Anne's"),
])
def test_a_saints_name_before_a_value_is_one_name(said: str, name: str) -> None:
    assert stated_status(user_ledger(said), name) == "current"


def test_a_saints_name_stays_beside_a_correction_of_its_neighbour() -> None:
    ledger = user_ledger("Reception is at Hollins Barn, ceremony at St Mary's at 1pm.",
                         "Update: the reception's not at Hollins Barn any more but at "
                         "Millbrook Hall. Church unchanged.")
    assert stated_status(ledger, "Hollins Barn") == "replaced"
    assert stated_status(ledger, "St Mary's") == "current"
    assert stated_status(ledger, "1pm") == "current"


def test_an_owner_the_first_statement_named_in_its_clause_is_its_key() -> None:
    ledger = user_ledger("alarm's set for 6:10 on weekdays",
                         "my weekday alarm is 5:50, gym before work now")
    assert stated_status(ledger, "6:10") == "replaced"
    assert stated_status(ledger, "5:50") == "current"


def test_an_owner_the_first_statement_never_named_replaces_nothing() -> None:
    ledger = user_ledger("the alarm is 6:10", "the weekday alarm is 5:50")
    assert stated_status(ledger, "6:10") == "current"
    assert stated_status(ledger, "5:50") == "current"


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("Our cat's vet is Dr. Kim.", "We switched vets: Dr. Alvarez now.", "Dr. Kim",
     "Dr. Alvarez"),
])
def test_a_change_verb_is_no_owner_of_its_key(said: str, later: str, old: str,
                                              new: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, old) == "replaced"
    assert stated_status(ledger, new) == "current"
    assert next(f.key for f in ledger if f.value == new) == "|vet|name"


def test_a_participle_after_a_determiner_stays_in_its_key() -> None:
    ledger = user_ledger("the moved meeting is at 10")
    assert next(f.key for f in ledger if f.value == "10").startswith("moved|meeting|")
