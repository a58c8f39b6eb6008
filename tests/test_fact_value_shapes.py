"""Values read whole by their shape: a Windows drive path, an identifier of digit groups joined
by ":" and "-", a name joined by "+", a phone number in space-separated groups. Each is one
value as the user wrote it, never its first piece ("D", "2:24", "Kuehne", "0151")."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_extract import current_values
from ollm_desktop.engine.references import find_references
from tests.fact_ledger import values_after


@pytest.mark.parametrize("text, ref", [
    ("The catalog lives at D:/Photos/Catalog2023.", "D:/Photos/Catalog2023"),
    ("copy it to e:/backups/2024 tonight", "e:/backups/2024"),
])
def test_a_windows_drive_path_with_forward_slashes_is_a_path(text: str, ref: str) -> None:
    assert (ref, "path") in find_references(text)


def test_a_url_scheme_is_no_drive() -> None:
    refs = find_references("see https://example.com/a/b for details")
    assert all(kind != "path" or not ref.startswith("s:") for ref, kind in refs)
    assert ("https://example.com/a/b", "url") in refs


def test_a_drive_path_correction_replaces_the_old_path() -> None:
    values = values_after("My Lightroom catalog lives at D:/Photos/Catalog2023.",
                          "moved the catalog from D:/Photos/Catalog2023 to E:/LR/Main")
    assert "E:/LR/Main" in values
    assert "D:/Photos/Catalog2023" not in values
    assert "D" not in values and "E" not in values


@pytest.mark.parametrize("text, ref", [
    ("The case number is 2:24-cv-01187.", "2:24-cv-01187"),
    ("It was filed as 1:23-cr-00042 last year", "1:23-cr-00042"),
])
def test_digit_groups_joined_by_colon_and_hyphen_are_one_identifier(text: str, ref: str) -> None:
    refs = find_references(text)
    assert any(r == ref for r, _ in refs)
    assert not any(r == ref.split("-")[0] for r, _ in refs)


def test_a_time_range_is_no_docket_identifier() -> None:
    refs = find_references("The shop is open 09:30-17:00 on weekdays.")
    assert ("09:30-17:00", "name") not in refs  # (one range of hours: stop 41's shapes)
    assert ("09:30-17:00", "time") in refs


def test_a_case_number_correction_replaces_the_old_one() -> None:
    values = values_after("The case number is 2:24-cv-01187.",
                          "The case number is now 2:24-cv-01178.")
    assert values == ["2:24-cv-01178"]


@pytest.mark.parametrize("text, ref", [
    ("Our freight forwarder is Kuehne+Nagel.", "Kuehne+Nagel"),
    ("We bought the Disney+Hulu bundle", "Disney+Hulu"),
])
def test_a_name_joined_by_plus_is_one_name(text: str, ref: str) -> None:
    assert any(r == ref for r, _ in find_references(text))


def test_arithmetic_is_no_name() -> None:
    refs = [r for r, _ in find_references("so a+b gives 3+4 in the end")]
    assert "a+b" not in refs and "3+4" not in refs


def test_the_plus_name_is_the_value() -> None:
    assert values_after("Our freight forwarder is Kuehne+Nagel.") == ["Kuehne+Nagel"]


@pytest.mark.parametrize("text, ref", [
    ("My mobile is 0151 224 7799.", "0151 224 7799"),
    ("Call the office on +44 20 7946 0958 before noon.", "+44 20 7946 0958"),
    ("the landline is 030 1234 5678, not the old one", "030 1234 5678"),
    ("Reception: (0161) 496 0000 or 0161 496 0001.", "0161 496 0001"),
])
def test_a_phone_number_in_spaced_groups_is_one_number(text: str, ref: str) -> None:
    assert any(r == ref for r, _ in find_references(text))


@pytest.mark.parametrize("text", [
    "We sold 100 200 300 units over three years.",
    "Scores were 0 12 15 on the three runs.",
    "Marks at 05 10 15 20 minutes past.",
])
def test_numbers_in_a_row_without_a_phone_lead_stay_apart(text: str) -> None:
    refs = [r for r, _ in find_references(text)]
    assert not any(" " in r and r.replace(" ", "").isdigit() for r in refs)


def test_a_spaced_phone_correction_replaces_the_old_number() -> None:
    values = values_after("My mobile is 0151 224 7799.", "My mobile is now 0151 224 7788.")
    assert values == ["0151 224 7788"]


@pytest.mark.parametrize("text, ref", [
    ("The pond pump is set to 2,000 litres per hour.", "2,000 litres per hour"),
    ("the tank holds 40 L", "40 L"),
    ("we burn 12 gallons a week", "12 gallons a week"),
])
def test_a_volume_is_a_measure_with_its_unit_and_rate(text: str, ref: str) -> None:
    assert (ref, "number") in find_references(text)


def test_a_flow_correction_replaces_the_old_flow() -> None:
    values = values_after("The pond pump is set to 2,000 litres per hour.",
                          "turned the pond pump down to 1,500 litres per hour, the fish were fine")
    assert "1,500 litres per hour" in values
    assert "2,000 litres per hour" not in values


def test_a_title_and_its_number_open_a_noun_phrase_not_a_count() -> None:
    found = current_values([("user", "Year 8 reports are now due 28 November.")])
    assert list(found.values()) == [["28 November"]]
    assert any("year 8" in key for key in found)


def test_a_title_after_a_preposition_is_no_name_of_its_own() -> None:
    found = current_values([("user", "For Year 10 students the deadline is 12 December.")])
    assert [v for vs in found.values() for v in vs] == ["12 December"]


def test_a_verb_that_opens_a_sentence_still_counts() -> None:
    assert values_after("Need 2 approvals.") == ["2 approvals"]


def test_a_named_person_moving_somewhere_gives_no_value() -> None:
    values = values_after(
        "Expense approvals go to Gareth.",
        "From now on expense approvals go to Monique, Gareth moved over to audit.")
    assert values == ["Monique"]


def test_a_change_verb_with_its_key_still_takes_the_value() -> None:
    assert values_after("Then Priya switched the log level to debug.") == ["debug"]
    assert values_after("After the review the log level changed to info") == ["info"]


def test_a_name_beside_its_noun_after_but_replaces_the_old_name() -> None:
    values = values_after("Opposing counsel on the lease dispute is Priya Mehta.",
                          "Opposing counsel is not Priya Mehta but her colleague Daniel Osei.")
    assert "Daniel Osei" in values and "Priya Mehta" not in values


def test_two_nouns_joined_by_and_after_a_change_verb_are_one_value() -> None:
    values = values_after(
        "I feed the roses with Miracle-Gro.",
        "switching to fish blood and bone instead of the miracle-gro for the roses")
    assert "fish blood and bone" in values
    assert "bone" not in values and "Miracle-Gro" not in values


@pytest.mark.parametrize("text, ref", [
    ("Our layover in Doha is 1 hour 40 minutes.", "1 hour 40 minutes"),
    ("The drive takes 2 h 15 min on a good day", "2 h 15 min"),
    ("The run took 3 days and 4 hours", "3 days and 4 hours"),
])
def test_a_duration_in_several_units_is_one_number(text: str, ref: str) -> None:
    assert (ref, "number") in find_references(text)


def test_durations_in_rising_units_stay_apart() -> None:
    refs = [r for r, _ in find_references("we tried 5 minutes 2 hours and gave up")]
    assert "5 minutes 2 hours" not in refs


@pytest.mark.parametrize("text, value", [
    ("The rent is debited on the 1st of each month.", "the 1st"),
    ("The follow-up is booked on the 18th.", "the 18th"),
])
def test_an_ordinal_day_after_the_is_a_value(text: str, value: str) -> None:
    assert value in values_after(text)


def test_an_ordinal_day_correction_replaces_the_old_day() -> None:
    values = values_after("The rent is debited on the 1st of each month.",
                          "Asked the bank to change the rent debit to the 3rd of each month.")
    assert "3rd" in values and "1st" not in values


def test_an_ordinal_before_a_noun_is_no_day() -> None:
    assert "2nd" not in values_after("The 2nd floor is closed for repairs.")
