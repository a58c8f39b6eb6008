"""A report of what a text holds, then what is right: "[a text] has K as Y, not X" and "[a
source] states … K Y, but … K X" make the reported Y the old value. Reports of opinion, of a
second source, hedged or past contrasts, questions and wishes replace nothing."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed, value_of
from tests.fact_ledger import check_current, values_after


@pytest.mark.parametrize("text, right, wrong", [
    ("Small thing: your invoice has the total as 412, not 421.", "421", "412"),
    ("You have my flight number as being 2231, not 2213!", "2213", "2231"),
    ("The seating chart you sent lists the table count as 18, not 16.", "16", "18"),
])
def test_a_text_that_has_k_as_y_not_x_holds_the_wrong_y(text: str, right: str,
                                                          wrong: str) -> None:
    check_current(values_after(text), right, wrong)


@pytest.mark.parametrize("text, right, wrong", [
    ("We have the budget as 500, not 400.", "500", "400"),
    ("My notes have the total as 412, not 421.", "412", "421"),
    ("Dana has the total as 412, not 421.", "412", "421"),
    ("The schedule shows the start as 9:00, not 10:00, so we need to hurry.", "9:00", "10:00"),
    ("The form gives the deadline as May 3, not May 10, which surprised me.", "May 3",
     "May 10"),
])
def test_has_k_as_y_not_x_of_the_speaker_a_person_or_a_relayed_text_states_y(
        text: str, right: str, wrong: str) -> None:
    values = values_after(text)  # (only "you have K as Y" / "your text has K as Y" errs)
    assert right in values
    assert wrong not in values


@pytest.mark.parametrize("history, text, right, wrong", [
    ("", "The wiki says the staging host listens on port 8081, but nginx.conf is set to "
     "port 8088.", "8088", "8081"),
    ("", "The syllabus says the exam is in room 204, but the timetable puts the exam in "
     "room 240.", "room 240", "room 204"),
    ("The client signed last week.", "The tracker says the due date is May 3, while the "
     "contract sets the due date at May 10.", "May 10", "May 3"),
])
def test_a_report_then_a_contrast_with_the_same_label_retires_the_report(
        history: str, text: str, right: str, wrong: str) -> None:
    values = values_after(*[t for t in (history, text) if t])
    assert any(right in v for v in values)
    assert not any(wrong in v and right not in v for v in values)


@pytest.mark.parametrize("text, kept", [
    # a second report: neither source is the speaker's own reading
    ("The README states the port is 5173, but the wiki says port 3070.", "5173"),
    # a hedged or wished contrast states nothing
    ("The docs say the limit is 50 requests, but maybe we could allow limit 80 requests.",
     "50 requests"),
    ("The docs say the limit is 50 requests, but possibly the limit is 80 requests.",
     "50 requests"),
    ("The docs say the limit is 50 requests, but assuming a paid plan the limit is 80 "
     "requests.", "50 requests"),
    # a past contrast
    ("The brochure states the tour takes 3 hours, but last year it was tour 4 hours.",
     "3 hours"),
    # another label: another key
    ("The brochure states the tour is 3 hours, but the drive is 2 hours.", "3 hours"),
])
def test_a_contrast_that_reports_hedges_looks_back_or_names_another_key_keeps_the_report(
        text: str, kept: str) -> None:
    assert any(kept in v for v in values_after(text))


@pytest.mark.parametrize("text, kept", [
    # the same head noun, another modifier: another key
    ("The website says the adult ticket is €12, but the child ticket is €6.", "€12"),
    ("The docs say the read timeout is 30 seconds, but the write timeout is 10 seconds.",
     "30 seconds"),
    ("The docs say the timeout is 30 seconds, but the retry timeout is 5 seconds.",
     "30 seconds"),
    ("The manual states the front tyre pressure is 32 psi, while the rear tyre pressure is "
     "36 psi.", "32 psi"),
    ("The README says the dev port is 5173, but the production port is 80.", "5173"),
    # a verb is no label
    ("The README says the free plan costs $10, but the pro plan costs $20.", "$10"),
    ("The guide says the hike takes 3 hours, but the drive takes 2 hours.", "3 hours"),
    # one verb, two subjects
    ("The README says the frontend runs on port 5173, while the backend runs on port 8000.",
     "5173"),
])
def test_a_contrast_about_another_noun_phrase_keeps_the_report(text: str, kept: str) -> None:
    assert any(kept in v for v in values_after(text))


def test_a_question_after_a_report_replaces_nothing() -> None:
    values = values_after("The runbook has the backup hour as 02:00.",
                          "The runbook states the backup runs at hour 02:00, but is it hour 03:00?")
    assert "02:00" in values


@pytest.mark.parametrize("text, kept", [
    ("The README says the dev server runs on port 5173, but in production we use port 80.",
     "5173"),
    ("The wiki states the API listens on port 8081, but on staging it uses port 8088.", "8081"),
    ("The docs say the upload limit is 50 MB, but for the admin panel the limit is 200 MB.",
     "50 MB"),
    ("The menu lists the lunch price as €14, but at the terrace the price is €18.", "€14"),
    ("The handbook states the shift is 8 hours, while for night staff the shift is 10 hours.",
     "8 hours"),
])
def test_a_contrast_fronted_by_another_place_or_setting_keeps_the_report(
        text: str, kept: str) -> None:
    assert any(kept in v for v in values_after(text))


@pytest.mark.parametrize("text, right, wrong", [
    ("The README says the dev server runs on port 5173, but in fact the config sets port "
     "3070.", "3070", "5173"),
    ("The flyer states the fee is €12, but in reality the fee is €15.", "€15", "€12"),
])
def test_a_contrast_in_fact_or_in_reality_still_retires_the_report(
        text: str, right: str, wrong: str) -> None:
    values = values_after(text)
    assert any(right in v for v in values)
    assert not any(wrong in v for v in values)


@pytest.mark.parametrize("history, text, name", [
    ("The invoice total is 421.", "Dana has the total as 412, not 421.", "Dana"),
    ("The booking is for 6 guests.", "Priya wrote the booking down as 8, not 6.", "Priya"),
    ("Gate B12 for the flight.", "Tom has it as gate C4, not B12.", "Tom"),
])
def test_a_named_old_value_is_never_replaced_by_the_name_that_opens_the_sentence(
        history: str, text: str, name: str) -> None:
    """"X, not Y" after a person's name: Y's replacement is the value read nearest to it
    (412, 8, gate C4), never the name (before: "421 replaced by Dana")."""
    ledger = absorbed(("user", history), ("user", text))
    assert all(value_of(ledger, f.replaced_by) != name for f in ledger if f.replaced_by)
