"""Values and corrections as people write them in public (issues, changelogs, notices): the
value shapes real text uses and the shapes that say which value is old. Each test names the
structure it reads, never one sentence's words."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.references import find_references
from tests.fact_ledger import check_current, values_after


@pytest.mark.parametrize("text, ref", [
    ("The game will now kick off at 8 p.m. Pacific Time.", "8 p.m. Pacific Time"),
    ("Doors open at 7 a.m. on Sundays", "7 a.m."),
    ("Our next meeting is on the 31st August at 10.30am.", "10.30am"),
    ("We meet at 7.45 pm.", "7.45 pm"),
])
def test_an_hour_with_dotted_minutes_or_a_dotted_half_of_the_day_is_a_time(
        text: str, ref: str) -> None:
    assert (ref, "time") in find_references(text)


def test_a_dotted_time_correction_replaces_the_old_time() -> None:
    values = values_after("The Saturday game kicks off at 6 p.m. Pacific.",
                          "The game will now kick off at 8 p.m. Pacific Time.")
    assert "8 p.m." in values
    assert "6 p.m." not in values


@pytest.mark.parametrize("text, new, old", [
    ("In the changelog, the release date is listed as January 23, 2014 but the year is "
     "wrong, it should be January 23, 2017.", "January 23, 2017", "January 23, 2014"),
    ("The README incorrectly states that the server port is 3000, while it should be 8000.",
     "8000", "3000"),
    ("The timeout in the docs is 30 s, this should have been 45 s.", "45 s", "30 s"),
])
def test_a_value_a_later_pronoun_says_should_be_another_is_the_old_one(
        text: str, new: str, old: str) -> None:
    check_current(values_after(text), new, old)


@pytest.mark.parametrize("text, kept", [
    ("The port is 8080 and it should be fine.", "8080"),
    ("The server port is 3000, and it should be ready by Friday.", "3000"),
])
def test_should_be_without_a_value_of_that_kind_retires_nothing(text: str, kept: str) -> None:
    assert kept in values_after(text)


@pytest.mark.parametrize("text, new, old", [
    ("Switch to MySQL from MongoDB", "MySQL", "MongoDB"),
    ("We moved the standup to 10:00 from 9:30.", "10:00", "9:30"),
])
def test_from_y_after_a_change_verbs_to_x_is_the_old_value(text: str, new: str, old: str,
                                                           ) -> None:
    check_current(values_after(text), new, old)


def test_from_y_after_a_plain_verbs_to_x_retires_nothing() -> None:
    assert "Paris" in values_after("We drove to Berlin from Paris.")


@pytest.mark.parametrize("text, new, old", [
    ("Updated port form 8080 to 8090", "8090", "8080"),
    ("Bump the replicas 3 to 5.", "5", "3"),
    ("Change the timeout 30 s to 45 s.", "45 s", "30 s"),
])
def test_y_to_x_after_a_change_verb_without_from_retires_y(text: str, new: str,
                                                           old: str) -> None:
    check_current(values_after(text), new, old)


def test_a_change_verbs_to_before_y_to_x_is_no_old_value() -> None:
    values = values_after("Set the shift to 9 to 5.")
    assert "9" in values


def test_a_change_of_y_to_x_without_from_replaces_the_earlier_y() -> None:
    values = values_after("The API port is 8080.", "Changed the API port 8080 to 8090")
    assert values == ["8090"]


@pytest.mark.parametrize("text, ref", [
    ("Board meetings start at 6:30 PM.", "6:30 PM"),
    ("The start time moved to 7:00 pm.", "7:00 pm"),
])
def test_a_sentences_full_stop_is_no_part_of_a_time(text: str, ref: str) -> None:
    assert (ref, "time") in find_references(text)
    assert values_after(text) == [ref]


def test_a_reason_clause_after_a_change_verbs_to_x_ends_the_value() -> None:
    values = values_after("The sample uses SQL Server for its database.",
                          "Move to postgresql because it is simpler to use")
    assert values == ["postgresql"]


def test_a_past_copula_with_still_is_a_state_that_has_changed_since() -> None:
    values = values_after("Updated docs for Node.js 18\n\nWas still referencing version 16.")
    assert "Node.js 18" in values
    assert "version 16" not in values


def test_a_past_copula_without_still_keeps_its_value() -> None:
    assert "version 16" in values_after("The docs were referencing version 16.")


@pytest.mark.parametrize("text, ref, kind", [
    ("The launch moved to June 2024.", "June 2024", "date"),
    ("The deadline is 2024/01/05.", "2024/01/05", "date"),
    ("Kickoff at 17h30", "17h30", "time"),
])
def test_a_month_of_a_year_a_slashed_iso_date_and_an_h_time_are_values(
        text: str, ref: str, kind: str) -> None:
    assert (ref, kind) in find_references(text)


def test_a_slashed_iso_date_correction_replaces_the_old_date() -> None:
    assert values_after("The deadline is 2024/01/05.", "The deadline is now 2024/02/01.") == \
        ["2024/02/01"]


def test_a_slashed_path_with_date_folders_stays_a_path() -> None:
    assert ("src/2024/01/05/x.md", "path") in find_references("see src/2024/01/05/x.md")


@pytest.mark.parametrize("text, ref", [
    ("The duty is CNY 41,300 and VAT is CNY 18,900.", "CNY 41,300"),
    ("Licences are SEK 4,500 per seat", "SEK 4,500 per seat"),
])
def test_a_currency_code_before_an_amount_is_part_of_it(text: str, ref: str) -> None:
    assert (ref, "number") in find_references(text)


def test_an_amount_after_its_currency_code_is_money_and_corrects_as_money() -> None:
    assert values_after("The duty estimate is CNY 41,300.",
                        "The duty changed from CNY 41,300 to CNY 37,650.") == ["CNY 37,650"]
    assert values_after("The rent is NOK 9,000.", "The rent is now NOK 9,500.") == ["NOK 9,500"]


@pytest.mark.parametrize("text, ref", [
    ("it's 3.6 m by 2.4 m, so 8.64 m² for flooring", "8.64 m²"),
    ("The tank holds 2 m³ of water.", "2 m³"),
])
def test_an_area_or_a_volume_unit_with_its_superscript_is_part_of_the_number(
        text: str, ref: str) -> None:
    assert (ref, "number") in find_references(text)


def test_an_area_correction_replaces_the_old_area() -> None:
    assert values_after("The loft area is 48 m².", "Loft area is now 54 m².") == ["54 m²"]


@pytest.mark.parametrize("text, ref", [
    ("set eval limit to 2h45m", "2h45m"),
    ("run-22 took 6h10m on the node", "6h10m"),
])
def test_a_duration_in_units_written_together_is_one_number(text: str, ref: str) -> None:
    refs = find_references(text)
    assert (ref, "number") in refs
    assert not any(r in ("2", "2h", "6h") for r, _ in refs)


def test_each_count_of_a_list_of_counts_is_a_value() -> None:
    values = values_after("Squad for the cup game: 11 starters, 5 subs, 2 coaches travelling.")
    assert "11 starters" in values and "5 subs" in values
    assert any(v.startswith("2 coaches") for v in values)


def test_a_count_after_and_follows_a_counted_number() -> None:
    values = values_after("We need 8 volunteers for the sort and 4 drivers for deliveries.")
    assert "8 volunteers" in values and "4 drivers" in values


def test_an_arrow_typed_as_two_marks_retires_the_value_before_it() -> None:
    assert values_after("Our default branch is called master.",
                        "Let's rename `master` => `mainline`") == ["mainline"]


@pytest.mark.parametrize("text, new, old", [
    ("The deadline is listed as March 3 (should be March 5).", "March 5", "March 3"),
    ("The port in the docs is 3000, it is supposed to be 8000.", "8000", "3000"),
    ("The timeout is 30 s, it must be 45 s.", "45 s", "30 s"),
])
def test_any_modal_of_obligation_after_a_pronoun_or_a_mark_names_the_right_value(
        text: str, new: str, old: str) -> None:
    check_current(values_after(text), new, old)


@pytest.mark.parametrize("text, ref", [
    ("We use lodash 4.17.15.", "lodash 4.17.15"),
    ("The eval harness is lm-eval 0.4.2.", "lm-eval 0.4.2"),
    ("we run redis 7.2.1 in prod", "redis 7.2.1"),
])
def test_a_lower_case_name_in_a_noun_place_takes_its_version(text: str, ref: str) -> None:
    assert ref in values_after(text)


@pytest.mark.parametrize("text", ["The tool requires 3.8.1 now.", "Pip requires 3.8.1 now."])
def test_a_verb_before_a_version_is_no_part_of_it(text: str) -> None:
    assert "3.8.1" in values_after(text)


@pytest.mark.parametrize("text, ref", [
    ("CI runs on Bitrise with Xcode 15.4, crash reporting is Crashlytics 10.27.", "Xcode 15.4"),
    ("CI runs on Bitrise with Xcode 15.4, crash reporting is Crashlytics 10.27.",
     "Crashlytics 10.27"),
    ("- SDK: Xcode 16.1", "Xcode 16.1"),
])
def test_a_name_and_a_decimal_version_after_it_are_one_value(text: str, ref: str) -> None:
    assert ref in values_after(text)


@pytest.mark.parametrize("text, ref", [
    ("Require Python >= 3.8", "Python >= 3.8"),
    ("node >= 18 is required", "node >= 18"),
])
def test_a_products_constraint_written_with_spaces_is_one_version(text: str, ref: str) -> None:
    assert (ref, "version") in find_references(text)


def test_a_comparison_of_a_plain_word_is_no_version() -> None:
    assert not any(kind == "version" for _, kind in find_references("score >= 0.5"))


def test_a_noun_and_a_decimal_number_after_it_are_one_value() -> None:
    values = values_after("Use dropout 0.05 for the run.")
    assert "dropout 0.05" in values
    # in a list of such pairs each noun is a setting and its number the value
    # (fact_settings_lists): "rank 16, alpha 32" gives the rank 16
    values = values_after("For the LoRA run: rank 16, alpha 32, dropout 0.05, 2 epochs.")
    assert "0.05" in values and "16" in values


def test_a_count_after_named_numbers_in_a_list_is_a_value() -> None:
    assert "2 epochs" in values_after(
        "For the LoRA run: rank 16, alpha 32, dropout 0.05, 2 epochs.")


def test_a_noun_number_beside_a_value_is_a_value_of_its_own() -> None:
    values = values_after("5.1.0 build 512, going out with the widget feature behind a flag")
    assert "5.1.0" in values and "build 512" in values


@pytest.mark.parametrize("text, ref", [
    ("Container number is MSKU 804211-3, seal number ML-4419027.", "MSKU 804211-3"),
    ("PO 4500123456 was raised", "PO 4500123456"),
])
def test_a_letter_prefix_and_a_long_digit_group_are_one_identifier(text: str, ref: str) -> None:
    assert (ref, "name") in find_references(text)


def test_a_model_number_with_few_digits_stays_as_it_was() -> None:
    assert not any(r.startswith("RTX") for r, _ in find_references("RTX 4090 cards"))


@pytest.mark.parametrize("text, ref", [
    ("We use Gitea v1.21.", "Gitea v1.21"),
    ("Machine pre-translation is Google Translate API v3.", "Google Translate API v3"),
])
def test_a_name_and_its_v_version_are_one_value(text: str, ref: str) -> None:
    assert ref in values_after(text)
