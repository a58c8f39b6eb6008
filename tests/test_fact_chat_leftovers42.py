"""Stop 41's chat review left these everyday readings wrong (issue 28, stop 42): a measured
value's noun after it ("8gb ram and 50gb disk"), how often a thing is done after a trade name
("LinkedIn 3 times a week"), a month's name that is a person after "thanks to", and two rates
of different periods joined by "or", which are both offered, not a choice left open."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.references import find_references
from tests.fact_ledger import current_set, user_ledger


@pytest.mark.parametrize(("first", "then", "kept", "old", "new"), [
    ("I have 8gb ram and 50gb disk on the VPS.", "Upgraded the disk to 100gb.",
     "8gb", "50gb", "100gb"),
    ("The box has 16 GB RAM and 512 GB SSD.", "The SSD is now 1 TB.", "16 GB", "512 GB", "1 TB"),
    ("The server came with 4 GB memory, 80 GB storage.", "Bump the memory to 8 GB.",
     "80 GB", "4 GB", "8 GB"),
])
def test_a_measured_value_belongs_to_the_noun_after_it(
        first: str, then: str, kept: str, old: str, new: str) -> None:
    current = current_set(user_ledger(first, then))
    assert {kept, new} <= current
    assert old not in current


def test_a_unit_before_a_time_word_names_no_key() -> None:
    """"5 minutes early" is how early, not the key "early"."""
    ledger = user_ledger("I was 5 minutes early.")
    assert [f.key for f in ledger if f.value == "5 minutes"] != []
    assert all("early" not in f.key for f in ledger)


@pytest.mark.parametrize(("text", "absent"), [
    ("I post on LinkedIn 3 times a week.", "LinkedIn 3"),
    ("Thanks to May, the launch went well.", "May"),
    ("I talked to April.", "April"),
])
def test_no_release_or_month_where_there_is_none(text: str, absent: str) -> None:
    assert absent not in [ref for ref, _ in find_references(text)]


@pytest.mark.parametrize(("text", "ref"), [
    ("We moved the launch to May.", ("May", "date")),
    ("I use Python 3 every day.", ("Python 3", "version")),
])
def test_months_and_releases_are_still_read(text: str, ref: tuple[str, str]) -> None:
    assert ref in find_references(text)


def test_two_rates_of_different_periods_are_both_stated() -> None:
    ledger = user_ledger("Bob charges $2 an hour or $10 a day.")
    kinds = {f.value: f.kind for f in ledger}
    assert kinds.get("$2 an hour") not in (None, "question")
    assert kinds.get("$10 a day") not in (None, "question")


def test_a_choice_between_two_rates_of_one_period_stays_open() -> None:
    ledger = user_ledger("Is it $2 an hour or $3 an hour?")
    assert {f.kind for f in ledger if f.value in ("$2 an hour", "$3 an hour")} == {"question"}


@pytest.mark.parametrize(("first", "then", "old", "new"), [
    ("Use 2 tsp of salt.", "Oops, I meant 1 tsp of salt.", "2 tsp", "1 tsp"),
    ("The sauce takes 3 tablespoons of butter.", "Make it 2 tablespoons of butter.",
     "3 tablespoons", "2 tablespoons"),
    ("Add 2 cups of milk.", "Sorry, 1 cup of milk, not 2 cups.", "2 cups", "1 cup"),
])
def test_a_cook_s_measure_is_a_value_and_its_correction_replaces_it(
        first: str, then: str, old: str, new: str) -> None:
    """Teaspoons, tablespoons and cups are units as millilitres are: "1 tsp" was no value."""
    current = current_set(user_ledger(first, then))
    assert new in current
    assert old not in current


@pytest.mark.parametrize(("first", "then", "old", "new"), [
    # (the article read with the day since stop 50: "the 21st")
    ("My dentist appointment is on the 14th.", "Dentist moved me to the 21st.", "the 14th",
     "the 21st"),
    ("Rent is due on the 1st of each month.", "Rent is now due on the 5th.", "the 1st",
     "the 5th"),
    ("My appointment is on the 18th.", "It had been moved from the 18th to the 21st.",
     "the 18th", "the 21st"),
])
def test_a_day_of_the_month_alone_is_a_date(first: str, then: str, old: str, new: str) -> None:
    current = current_set(user_ledger(first, then))
    assert new in current
    assert old not in current


@pytest.mark.parametrize("text", ["We live on the 4th floor.", "He finished in the 3rd place.",
                                  "On the 5th try it worked."])
def test_an_ordinal_of_a_thing_is_no_date(text: str) -> None:
    assert [kind for _, kind in find_references(text) if kind == "date"] == []


@pytest.mark.parametrize(("text", "name"), [
    ("We use gpt-4.1 now.", "gpt-4.1"), ("Switch to llama-3.1-8b.", "llama-3.1-8b"),
    ("Use claude-3.5-sonnet today.", "claude-3.5-sonnet"),
    ("We run mistral-7b-v0.3 here.", "mistral-7b-v0.3"),
    ("ollama pull qwen2.5:7b first", "qwen2.5:7b"),
    ("Use llama3.1:8b-instruct-q4_K_M.", "llama3.1:8b-instruct-q4_K_M"),
])
def test_a_model_s_name_is_read_whole(text: str, name: str) -> None:
    assert (name, "name") in find_references(text)


@pytest.mark.parametrize(("text", "ref"), [
    ("the ticket JIRA-1234", ("JIRA-1234", "ticket")),
    ("host-1.example.com is up", ("host-1.example.com", "url")),
    ("python3.12 -m venv", ("python3.12", "version")),
])
def test_what_earlier_rules_read_keeps_its_kind(text: str, ref: tuple[str, str]) -> None:
    assert ref in find_references(text)


def test_a_word_s_prefix_is_no_model() -> None:
    assert find_references("pre-2020 data") == []


@pytest.mark.parametrize("text", ["chat 5 message 2 MARK-5-2-END lorem", "ISO-9001-A audit",
                                  "Encoding is utf-8.", "an x86-64 build"])
def test_a_code_in_capitals_or_a_plain_standard_is_no_model(text: str) -> None:
    """(CI found "MARK-5-2-END" read as a model's name, which moved the salvage tests' marker
    into a stored fact's row.)"""
    assert [ref for ref, kind in find_references(text) if kind == "name"] == []


def test_a_model_replaces_a_model() -> None:
    current = current_set(user_ledger("The default model is gpt-4o.", "Use gpt-4.1 as the default "
                               "model instead of gpt-4o."))
    assert "gpt-4.1" in current
    assert "gpt-4o" not in current


def test_a_measured_value_keeps_its_owner() -> None:
    """The review's finding: "the prod server has 32gb ram" is the prod server's RAM; "Prod
    now has 64gb ram" must not retire the staging server's."""
    current = current_set(user_ledger(
        "The staging server has 8gb ram and the prod server has 32gb ram.",
        "The prod server now has 64gb ram."))
    assert {"8gb", "64gb"} <= current
    assert "32gb" not in current


def test_a_value_inside_a_longer_value_is_not_read_again() -> None:
    """"2 cups" of the flour is no second value inside "1 1/2 cups" of the milk."""
    current = current_set(user_ledger("Pancakes: 2 cups flour, 2 eggs, 1 1/2 cups milk."))
    assert {"2 cups", "2 eggs", "1 1/2 cups"} <= current
    assert "1/2" not in current


def test_a_past_clause_beside_a_labelled_figure_keeps_the_sentence_a_statement() -> None:
    """"age 10" is a labelled figure, not a bare name: the past clause after it ("they
    previously started at age 12") does not make the sentence a suggestion."""
    current = current_set(user_ledger("Adult tickets start at age 12.",
                               "Adult tickets now start at age 10; they previously started at "
                               "age 12."))
    assert "age 10" in current
    assert "age 12" not in current


def test_a_measure_given_to_a_thing_is_that_thing_s() -> None:
    current = current_set(user_ledger("The container gets 4gb memory and 20gb disk.",
                               "Give the container 8gb memory instead."))
    assert {"20gb", "8gb"} <= current
    assert "4gb" not in current


def test_a_request_signed_is_granted() -> None:
    ledger = user_ledger("The rent is $1,500.",
                         "The landlord asked for $1,600 starting next month and we signed it.")
    assert [f.kind for f in ledger if f.value == "$1,600"] not in ([], ["question"])
