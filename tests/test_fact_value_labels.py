"""A value's label read as its label, not as the value: a setting's code name before its number
("versionCode 4120"), whose value is the number; the verb of "use X as K"; a count in words and
its noun ("two cups"), the same count as "2 cups"; a word stressed in capitals ("TEAspoons"); a
constant named through its module ("logging.INFO"); the word after "K verbs to" ("the log level
defaults to warning")."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.references import find_references
from tests.fact_ledger import check_current, values_after


@pytest.mark.parametrize("text, number, label", [
    ("The tablet build is 3.1.0, buildNumber 77.", "77", "buildNumber"),
    ("For the worker pool we settled on poolSize 12.", "12", "poolSize"),
    ("Retries stay low: max_retries 3", "3", "max_retries"),
])
def test_a_code_name_before_a_number_labels_it(text: str, number: str, label: str) -> None:
    check_current(values_after(text), number, label)


def test_a_code_name_before_a_count_of_things_stays_a_name() -> None:
    values = values_after("Please call fetchOrders 3 times per page.")
    assert "3" not in values


@pytest.mark.parametrize("text, value", [
    ("From now on we use 8443 as the default port.", "8443"),
    ("let us use redis as the cache", "redis"),
    ("we are using 16 as the batch size", "16"),
    ("close port 21, use 990 as standard", "990"),
])
def test_use_x_as_k_reads_x(text: str, value: str) -> None:
    values = values_after(text)
    assert value in values
    assert not any(v.startswith("use") for v in values)


@pytest.mark.parametrize("text, count", [
    ("It takes three cups of flour, not two cups.", "three cups"),
    ("We need four volunteers on the gate instead.", "four volunteers"),
    ("Five DESSERTspoons instead, honestly.", "Five DESSERTspoons"),
])
def test_a_count_in_words_is_one_value_with_its_noun(text: str, count: str) -> None:
    assert count in values_after(text)


def test_the_two_things_of_a_determiner_are_no_count() -> None:
    values = values_after("the two teams met on Friday, not Monday")
    assert not any(v.startswith("two") for v in values)


def test_a_count_in_words_in_a_plain_statement_is_prose() -> None:
    assert values_after("We hand-picked three examples for the appendix.") == []


def test_a_count_in_words_meets_the_same_count_in_digits() -> None:
    values = values_after("The dough needs 3 cups of flour.", "Two cups, not three cups.")
    assert "Two cups" in values
    assert "3 cups" not in values


def test_a_counted_word_stressed_in_capitals_is_no_class_name() -> None:
    values = values_after("Two TEAspoons, maybe, but not two TABLEspoons.")
    assert "Two TEAspoons" in values
    assert "TEAspoons" not in values


@pytest.mark.parametrize("text, constant", [
    ("Set the log level to logging.WARNING.", "logging.WARNING"),
    ("the default there is settings.DEBUG now", "settings.DEBUG"),
    ("we pass Level.ERROR instead", "Level.ERROR"),
])
def test_a_constant_named_through_its_module_is_one_value(text: str, constant: str) -> None:
    assert (constant, "code") in find_references(text)
    values = values_after(text)
    assert constant in values
    assert constant.partition(".")[0] not in values


@pytest.mark.parametrize("text, value", [
    ("The log level defaults to warning.", "warning"),
    ("the nightly backup job writes to glacier", "glacier"),
    ("Our staging database points to replica now.", "replica"),
])
def test_a_key_and_its_verb_before_to_take_the_word_after_it(text: str, value: str) -> None:
    assert value in values_after(text)


def test_a_person_and_a_verb_before_to_name_no_value() -> None:
    assert values_after("my sister talks to her boss") == []


@pytest.mark.parametrize("earlier, later, new", [
    ("Noor runs the morning class.",
     "Noor is away then, so Ilse will do the morning class instead.", "Ilse"),
    ("Bram has the closing talk.", "Bram cancelled, and Wim will have the closing talk instead.",
     "Wim"),
])
def test_a_name_opening_a_later_clause_before_will_do_the_k_is_the_value(
        earlier: str, later: str, new: str) -> None:
    values = values_after(earlier, later)
    assert new in values
    assert "class" not in values and "talk" not in values
