"""The reviewer's findings 1, 3, 4, 5 and 12 on the merged fact engine (REVIEW37), each as the
reviewer's sentence and one or two of its own shape in other words."""

from __future__ import annotations

from tests.engine_fakes import absorbed, fact_of, value_of


# 1. "one" after an owner or an ordinal keeps them; only "the right one" refers back keyless.
def test_the_second_one_after_scratch_that_is_the_lists_second() -> None:
    ledger = absorbed(("user", "Sessions 2026-12-05, 2026-12-19 and 2027-01-09."),
                      ("user", "scratch that, the second one is 2026-12-20"))
    old = fact_of(ledger, "2026-12-19")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "2026-12-20"
    assert fact_of(ledger, "2026-12-05").status == "current"


def test_the_owners_one_replaces_only_that_owners_value() -> None:
    ledger = absorbed(("user", "The front door code is 4412 and the garage door code is 9087."),
                      ("user", "Actually the garage one is 9088."))
    old = fact_of(ledger, "9087")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "9088"
    front = fact_of(ledger, "4412")
    assert front.status == "current" and front.possibly_replaced_by is None


def test_the_right_one_still_refers_back_to_its_units_value() -> None:
    ledger = absorbed(("user", "The meeting is at 9:30."),
                      ("user", "Sorry, the right one is 9:45."))
    old = fact_of(ledger, "9:30")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "9:45"


# 3. The named old value is met by its value, however it is written.
def test_a_named_old_amount_written_without_its_comma_is_the_held_amount() -> None:
    ledger = absorbed(("user", "The budget is $5,000."),
                      ("user", "It's $6,000, not $5000."))
    old = fact_of(ledger, "$5,000")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "$6,000"


def test_a_named_old_date_by_month_and_day_is_the_held_iso_date() -> None:
    ledger = absorbed(("user", "The deadline is 2027-03-14."),
                      ("user", "It's March 15, not March 14."))
    old = fact_of(ledger, "2027-03-14")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "March 15"


def test_a_named_old_time_with_am_is_the_held_time_without() -> None:
    ledger = absorbed(("user", "The standup is at 9:15."),
                      ("user", "It's at 9:30am, not 9:15am."))
    old = fact_of(ledger, "9:15")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "9:30am"


def test_a_named_old_time_in_the_afternoon_is_the_held_24_hour_time() -> None:
    ledger = absorbed(("user", "Our team standup is at 9:15 every morning."),
                      ("user", "The quiz night starts at 19:00."),
                      ("user", "It starts at 7:30 pm, not 7 pm."))
    assert fact_of(ledger, "9:15").status == "current"
    assert fact_of(ledger, "19:00").status == "replaced"


def test_a_message_that_states_a_value_then_its_corrections_replaces_them_all() -> None:
    ledger = absorbed(("user", "The default timeout of 300 was too short.\n"
                               "600 was also too short so it was set to 900."))
    assert fact_of(ledger, "900").status == "current"
    assert fact_of(ledger, "600").status == "replaced"
    assert fact_of(ledger, "300").status == "replaced"


# 4. A lower-case word at a clause's start before a number is a product only if it names one.
def test_a_plain_noun_at_a_clauses_start_is_no_product_with_a_version() -> None:
    ledger = absorbed(("user", "budget is 3.2 million"), ("user", "budget is now 3.5"))
    assert fact_of(ledger, "3.5").key.split("|")[-1] != "version"
    assert fact_of(ledger, "3.2 million").status == "replaced"


def test_a_ratio_and_a_count_in_lower_case_are_their_nouns_numbers() -> None:
    for old, new, said in (("2.5", "3.0", "ratio"), ("4", "8", "gpus")):
        ledger = absorbed(("user", f"the {said} is {old}"), ("user", f"{said} is now {new}"))
        assert fact_of(ledger, new).key.split("|")[-1] == "number"
        old_fact = fact_of(ledger, old)
        assert old_fact.status == "replaced" and value_of(ledger, old_fact.replaced_by) == new


def test_a_known_product_in_lower_case_at_a_clauses_start_keeps_its_version() -> None:
    ledger = absorbed(("user", "We run python 3.11 in CI."), ("user", "python is now 3.12"))
    assert fact_of(ledger, "3.12").key == "python|version|version"


# 5. "right" is a side as often as it is correctness; "new" beside an owner tells two apart.
def test_the_right_one_of_two_sides_replaces_nothing_of_the_left() -> None:
    ledger = absorbed(("user", "The left monitor is 24 inches."),
                      ("user", "The right monitor is 27 inches."))
    left = fact_of(ledger, "24 inches")
    assert left.status == "current" and left.possibly_replaced_by is None


def test_the_right_door_code_is_another_doors_code() -> None:
    ledger = absorbed(("user", "The left door code is 1234."),
                      ("user", "The right door code is 5678."))
    left = fact_of(ledger, "1234")
    assert left.status == "current" and left.possibly_replaced_by is None


def test_a_new_thing_owned_after_its_value_is_no_correction() -> None:
    ledger = absorbed(("user", "The staging port is 8080."),
                      ("user", "The new port is 9090 for the admin panel."))
    assert fact_of(ledger, "8080").status == "current"


def test_a_new_thing_in_another_place_is_no_correction() -> None:
    ledger = absorbed(("user", "The backup window is 02:00."),
                      ("user", "The new window is 04:00 in production."))
    assert fact_of(ledger, "02:00").status == "current"


def test_a_new_value_with_nothing_after_it_is_still_a_correction() -> None:
    ledger = absorbed(("user", "The meeting room is B2."), ("user", "The new meeting room is C3."))
    old = fact_of(ledger, "B2")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "C3"


# 12. A header keeps its mood; "X not Y" names X of its own clause; chains and places are no
# values.
def test_an_idea_header_keeps_the_suggestions_mood() -> None:
    ledger = absorbed(("user", "The standup is at 9:30."), ("user", "Idea: standup -> 10:00."))
    assert fact_of(ledger, "9:30").status == "current"


def test_a_proposal_header_before_a_clause_is_no_correction() -> None:
    ledger = absorbed(("user", "The standup is at 9:30."),
                      ("user", "Proposal: the standup is now at 10:00."))
    assert fact_of(ledger, "9:30").status == "current"


def test_a_plain_header_still_leads_a_correction() -> None:
    ledger = absorbed(("user", "The standup is at 9:30."),
                      ("user", "Quick update: standup -> 10:00."))
    old = fact_of(ledger, "9:30")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "10:00"


def test_the_reporter_of_x_not_y_is_not_x() -> None:
    for said in ("Bob says the venue is the Ritz not the Hilton",
                 "Bob says the venue is the Ritz, not the Hilton"):
        ledger = absorbed(("user", "The venue is the Hilton."), ("user", said))
        hilton = fact_of(ledger, "Hilton")
        assert value_of(ledger, hilton.replaced_by or hilton.possibly_replaced_by) != "Bob"


def test_a_chain_of_arrows_is_a_sequence_not_a_change() -> None:
    ledger = absorbed(("user", "I changed the order: build -> test -> deploy"))
    assert all(f.value != "deploy" for f in ledger)


def test_a_place_contrasted_after_a_value_is_no_value() -> None:
    ledger = absorbed(("user", "Deploys take 45 s on staging not prod."))
    assert {f.value for f in ledger} == {"45 s"}


def test_a_correction_stating_two_ports_of_one_key_marks_the_first() -> None:
    for said in ("Hi, there was a typo in my documentation, this PR fixes it "
                 "(port 3000 should be 5000).",
                 "Sorry, I got that wrong: the port 3000 should be 5000."):
        ledger = absorbed(("user", said))
        first = fact_of(ledger, "3000")
        assert first.status == "replaced" or value_of(ledger, first.possibly_replaced_by) == "5000"
