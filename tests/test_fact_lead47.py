"""Stop 47, the lead's readings (``fact_verb_places``): the plainest ways to state a port, a
version or a headcount stated nothing on 3c99df4 ("Postgres runs on 5432", "The API listens
on 8080", "the project's on 3.12", "Our team is 9 engineers"), so a later change of them had
nothing to replace and the first statement was lost to the ledger."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.fact_ledger import status_of, user_ledger


@pytest.mark.parametrize(("said", "value"), [
    ("Postgres runs on 5432.", "5432"),
    ("The API listens on 8080.", "8080"),
    ("Redis listens on 6379, like always.", "6379"),
    ("the project's on 3.12", "3.12"),
    ("Grafana is now on 3100.", "3100"),
    ("Our team is 9 engineers.", "9 engineers"),
])
def test_a_number_a_verb_places_or_a_copula_counts_is_stated(said: str, value: str) -> None:
    assert status_of(user_ledger(said), value) == "current"


@pytest.mark.parametrize("said", [
    "Postgres runs on 5432.", "The API listens on 8080.", "MySQL runs on 3306 here."])
def test_a_server_reached_on_four_or_five_digits_is_on_a_port(said: str) -> None:
    (found,) = [f for f in message_facts(said) if f.value[:1].isdigit()]
    assert found.ref_kind == "port"


@pytest.mark.parametrize(("said", "kind"), [("Node runs on 18.", "version"),
                                            ("The project is on 3.12.", "number")])
def test_a_short_number_placed_by_a_verb_is_no_port(said: str, kind: str) -> None:
    (found,) = [f for f in message_facts(said) if f.value[:1].isdigit()]
    assert found.ref_kind == kind


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("The API port is 8080.", "The API listens on 9090 now.", "8080", "9090"),
    ("Postgres runs on 5432.", "Postgres is on port 5433 now.", "5432", "5433"),
    ("Our team is 9 engineers.", "Our team is 11 engineers now.", "9 engineers",
     "11 engineers"),
])
def test_a_change_of_such_a_value_replaces_it(first: str, later: str, old: str,
                                              new: str) -> None:
    ledger = user_ledger(first, later)
    assert status_of(ledger, old) == "replaced"
    assert status_of(ledger, new) == "current"


@pytest.mark.parametrize("said", [
    "It depends on 12.",  # no verb of a clause before "on"
    "The talk builds on 2019 work by Chen.",  # a noun follows: no place, a modifier
    "The team is 9 minutes away.",  # no plural count that ends the clause
])
def test_no_place_and_no_count_where_the_grammar_says_otherwise(said: str) -> None:
    assert not [f for f in message_facts(said) if f.value in ("12", "2019", "9")]


# A text's verb without "as" gives the text's own value ("the manual says 180 instead of
# 200"): the erratum shape "lists K as Y instead of X" (``fact_written_errata``) wants its "as".
@pytest.mark.parametrize("later", [
    "The manual says 180 instead of 200 for this model.",
    "the spec says 180 instead of 200 now",
])
def test_a_text_that_says_y_instead_of_x_gives_y(later: str) -> None:
    ledger = user_ledger("The oven temperature is 200.", later)
    assert status_of(ledger, "200") == "replaced"
    assert status_of(ledger, "180") == "current"
