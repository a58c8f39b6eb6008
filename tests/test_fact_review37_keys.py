"""Issue 28, review 37 (findings 6, 9, 10): an "old" or "current" owner and a "new" one are
two things, not one key's old and new value; a word's stem keeps it apart from a shorter word
that merely begins like it, and an agent noun meets its action noun only through a stem that
still names something; a day alone ("not the 20th") takes back a date of the correction's own
key (or of none), never another key's date of that day."""

from __future__ import annotations

from ollm_desktop.engine.fact_keys import stem
from tests.engine_fakes import absorbed, fact_of


def _untouched(ledger: list, value: str) -> bool:  # type: ignore[type-arg]
    fact = fact_of(ledger, value)
    return fact.status == "current" and fact.possibly_replaced_by is None


# 6: "new" against an explicit "old" / "current" owner

def test_the_new_server_is_not_the_old_server() -> None:
    ledger = absorbed(("user", "The old server has 32 GB."),
                      ("user", "The new server has 64 GB."))
    assert _untouched(ledger, "32 GB")
    assert fact_of(ledger, "64 GB").key.split("|")[0] != "old"


def test_the_new_office_is_not_the_current_office() -> None:
    ledger = absorbed(("user", "Our current office is in Leeds."),
                      ("user", "The new office will be in York."))
    assert _untouched(ledger, "Leeds")


def test_the_existing_cluster_is_not_the_new_one() -> None:
    ledger = absorbed(("user", "The existing cluster has 12 nodes."),
                      ("user", "The new cluster has 20 nodes."))
    assert _untouched(ledger, "12 nodes")


def test_the_new_server_is_not_the_staging_server() -> None:
    ledger = absorbed(("user", "The staging server has 32 GB."),
                      ("user", "The new server has 64 GB."))
    assert _untouched(ledger, "32 GB")
    assert fact_of(ledger, "64 GB").key.split("|")[0] != "staging"


def test_new_alone_still_names_no_owner() -> None:
    ledger = absorbed(("user", "New episodes drop Tuesdays, bonus episodes on Fridays."),
                      ("user", "From now on main episodes drop on Mondays; Fridays unchanged"))
    assert fact_of(ledger, "Tuesdays").status == "replaced"
    assert _untouched(ledger, "Fridays")


# 9: stems of agent nouns

def test_monitor_and_monitoring_meet() -> None:
    assert stem("monitor") == stem("monitoring")
    assert stem("mentor") == stem("mentoring")


def test_a_short_word_that_begins_like_an_agent_noun_is_another_word() -> None:
    assert stem("curator") != stem("cure")
    assert stem("senator") != stem("sensor")
    assert stem("mentor") != stem("men")
    assert stem("doctor") != stem("doc")


def test_an_agent_noun_still_meets_its_action_noun() -> None:
    assert stem("supervisor") == stem("supervision")
    assert stem("operator") == stem("operation")
    assert stem("instructor") == stem("instruction")


def test_the_monitor_port_corrects_the_monitoring_port() -> None:
    ledger = absorbed(("user", "The monitoring port is 9100."),
                      ("user", "Actually the monitor port is 9200."))
    assert fact_of(ledger, "9100").status == "replaced"


def test_the_cure_is_not_the_curator() -> None:
    ledger = absorbed(("user", "The curator is Anna."),
                      ("user", "Actually the cure is rest."))
    assert _untouched(ledger, "Anna")


# 10: a day alone names a date of its own key

def test_a_day_alone_does_not_take_back_another_keys_date() -> None:
    ledger = absorbed(("user", "The conference is on 2027-05-20."),
                      ("user", "My talk is on the 21st, not the 20th."))
    assert _untouched(ledger, "2027-05-20")


def test_a_day_alone_names_the_date_of_its_own_key() -> None:
    ledger = absorbed(("user", "The invoice is due 2027-02-20 and the dentist is on "
                               "2027-03-20."),
                      ("user", "Sorry, the dentist is on the 22nd, not the 20th."))
    assert fact_of(ledger, "2027-03-20").status == "replaced"
    assert _untouched(ledger, "2027-02-20")


def test_the_rent_day_does_not_move_the_party() -> None:
    ledger = absorbed(("user", "The party is on March 20."),
                      ("user", "The rent is due on the 1st, not the 20th."))
    assert _untouched(ledger, "March 20")


def test_a_day_alone_of_two_keys_dates_names_neither() -> None:
    ledger = absorbed(("user", "The deadline is March 20 and the party is on 2027-04-20."),
                      ("user", "Actually it's the 22nd, not the 20th."))
    assert fact_of(ledger, "March 20").status == "current"
    assert fact_of(ledger, "2027-04-20").status == "current"
