"""Old values a correcting message states for the first time (issue 28, stop 42,
``fact_named_changes``): a value that is the subject of "should be X", and the object of a
removing verb whose sentence states another value of its kind, are retired by the message
itself, with no history to take the key from."""

from __future__ import annotations

import pytest

from tests.fact_ledger import current_set, replaced_by_map, user_ledger


@pytest.mark.parametrize(("texts", "old", "new"), [
    (("3.0.1 should be 3.0.2",), "3.0.1", "3.0.2"),
    (("Port 3000 should be 5000.",), "3000", "5000"),
    (("My sister's birthday is on March 3.",
      "March 3 should be March 4, I always mix it up."), "March 3", "March 4"),
    (("We meet at the cafe on Tuesday at 10am.",
      "Tuesday must be Wednesday, I checked the calendar."), "Tuesday", "Wednesday"),
])
def test_the_subject_of_should_be_gives_way_to_its_complement(
        texts: tuple[str, ...], old: str, new: str) -> None:
    ledger = user_ledger(*texts)
    assert replaced_by_map(ledger).get(old) == new
    assert old not in current_set(ledger) and new in current_set(ledger)


@pytest.mark.parametrize(("text", "old", "new"), [
    ("remove port 3000, as the server runs on port 80 now", "3000", "80"),
    ("remove port 8080, use 443 as standard now", "8080", "443"),
    ("Let's drop the Friday meeting, Thursday works better.", "Friday", "Thursday"),
    ("Delete the 8am alarm, I'll wake up at 7am.", "8am", "7am"),
    ("Retire the v1 endpoint, v2 is live.", "v1", "v2"),
])
def test_a_removed_value_gives_way_to_the_value_of_its_kind_the_sentence_states(
        text: str, old: str, new: str) -> None:
    ledger = user_ledger(text)
    assert replaced_by_map(ledger).get(old) == new
    assert old not in current_set(ledger)


@pytest.mark.parametrize(("texts", "kept"), [
    (("Budget is $500 for the trip.", "$500 should be $600 after the bonus."), "$500"),
    (("I guess 1.5.3 should be 5.1.3.",), "1.5.3"),
    (("The rent of $1200 should be enough for a one-bedroom here.",), "$1200"),
    (("Tell the team the deadline is Friday.",
      "The deadline should be Monday if the client agrees."), "Friday"),
    (("Don't remove port 3000, add 8080 as well.",), "3000"),
    (("Should I remove port 3000 and use 8080?",), "3000"),
    (("New episodes drop Tuesdays, bonus episodes on Fridays.",), "Tuesdays"),
    (("We deleted the staging server at 10.0.0.5, prod at 10.0.0.6 stays.",), "10.0.0.6"),
])
def test_a_requirement_a_guess_a_negated_or_other_subjects_removal_retires_nothing(
        texts: tuple[str, ...], kept: str) -> None:
    assert kept in current_set(user_ledger(*texts))


@pytest.mark.parametrize(("texts", "old", "new"), [
    (("the documentation mentions 8080 but it is actually 9000",), "8080", "9000"),
    (("The docs say 8080 but it is actually 9000.",), "8080", "9000"),
    (("The menu says $12 but it is actually $14.",), "$12", "$14"),
    (("The schedule says 7:15 but it's actually 7:45.",), "7:15", "7:45"),
])
def test_a_report_that_a_contrast_points_back_to_gives_way_to_the_contrast(
        texts: tuple[str, ...], old: str, new: str) -> None:
    ledger = user_ledger(*texts)
    assert replaced_by_map(ledger).get(old) == new
    assert old not in current_set(ledger)


@pytest.mark.parametrize(("texts", "kept"), [
    (("My teacher said 25 pages, but it could be 30 pages.",), "25 pages"),
    (("The website says 9am but it was 10am last year.",), "9am"),
    (("The invoice lists $450 but it's $405 after the discount.",), "$450"),
])
def test_a_contrast_that_hedges_looks_back_or_holds_on_a_condition_keeps_the_report(
        texts: tuple[str, ...], kept: str) -> None:
    assert kept in current_set(user_ledger(*texts))


@pytest.mark.parametrize(("texts", "old", "new"), [
    (("The meeting is at 2pm.", "The meeting is actually at 3pm."), "2pm", "3pm"),
    (("The dentist appointment is on Monday.", "Hmm, it's actually on Tuesday."),
     "Monday", "Tuesday"),
])
def test_actually_after_a_copula_corrects_the_key_as_now_does(
        texts: tuple[str, ...], old: str, new: str) -> None:
    assert replaced_by_map(user_ledger(*texts)).get(old) == new


@pytest.mark.parametrize("text", ["The port is actually 9000.", "The limit is actually 50."])
def test_a_bare_number_after_actually_is_read(text: str) -> None:
    assert text.rstrip(".").split()[-1] in current_set(user_ledger(text))


def test_a_question_with_actually_states_nothing() -> None:
    assert not current_set(user_ledger("Is it actually 9000?"))
