"""Issue 28, dev-5: which value a correction replaces where several values of one kind are
current, and when nothing may be replaced. One statement that gives two values of a key
states both (a name and its place, a list): neither is a restatement of the other; an old
date named by its day alone ("not the 20th") is the date of that day."""

from __future__ import annotations

from ollm_desktop.engine.fact_keys import stem, unit_class
from tests.engine_fakes import absorbed, fact_of, value_of


def test_two_values_of_one_key_in_one_message_mark_nothing() -> None:
    ledger = absorbed(("user", "The warehouse is Depot Zuid in Antwerp."))
    depot = fact_of(ledger, "Depot Zuid")
    assert depot.status == "current" and depot.possibly_replaced_by is None


def test_a_later_message_still_marks_the_same_key() -> None:
    ledger = absorbed(("user", "The warehouse is Depot Zuid."),
                      ("user", "The warehouse is Depot Noord."))
    depot = fact_of(ledger, "Depot Zuid")
    by = depot.replaced_by or depot.possibly_replaced_by  # marked, and by the later value
    assert by is not None and value_of(ledger, by) == "Depot Noord"


def test_a_later_message_marks_the_key_by_its_own_value_past_another_key() -> None:
    ledger = absorbed(("user", "The warehouse is Depot Zuid."),
                      ("user", "The office is Villa Oost."),
                      ("user", "The warehouse is Depot Noord."))
    depot = fact_of(ledger, "Depot Zuid")
    by = depot.replaced_by or depot.possibly_replaced_by
    assert by is not None and value_of(ledger, by) == "Depot Noord"
    office = fact_of(ledger, "Villa Oost")
    assert office.status == "current" and office.possibly_replaced_by is None


def test_an_old_date_named_by_its_day_is_replaced() -> None:
    ledger = absorbed(("user", "The Korean subtitles are due 2027-01-20 and the Spanish ones "
                               "2027-01-27."),
                      ("user", "Note the Korean deadline is 2027-01-17, not the 20th."))
    old = fact_of(ledger, "2027-01-20")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "2027-01-17"
    assert fact_of(ledger, "2027-01-27").status == "current"


def test_a_day_names_only_a_date_of_that_day() -> None:
    ledger = absorbed(("user", "The launch is on 2027-03-21."),
                      ("user", "The review is on 2027-03-14, not the 12th."))
    assert fact_of(ledger, "2027-03-21").status == "current"


def test_a_second_port_of_one_key_in_one_message_is_a_correction() -> None:
    """(Stop 42: "port 3000 should be 5000" names 3000 the subject of an obligation whose
    complement is 5000, so it is replaced outright, no longer only possibly.)"""
    ledger = absorbed(("user", "This PR fixes a typo (port 3000 should be 5000)."))
    old = fact_of(ledger, "3000")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "5000"


def test_an_agent_noun_meets_its_action_noun_and_a_noun_in_ery_its_verb() -> None:
    assert stem("supervisor") == stem("supervision")
    assert stem("operator") == stem("operation")
    assert stem("delivery") == stem("delivered")
    assert stem("vendor") != stem("vend")


def test_a_key_named_by_its_verb_is_corrected_by_its_noun() -> None:
    ledger = absorbed(("user", "Skip gets delivered Tuesday, collected the following Monday."),
                      ("user", "Scratch that — delivery's Wednesday. Collection unchanged."))
    old = fact_of(ledger, "Tuesday")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "Wednesday"
    assert fact_of(ledger, "Monday").status == "current"


def test_supervision_meetings_are_the_supervisor_meetings() -> None:
    ledger = absorbed(("user", "Supervisor meetings are on Mondays, lab meetings on Fridays."),
                      ("user", "Journal club is on Tuesdays."),
                      ("user", "Dr. Obi switched our supervision meetings to Wednesdays."))
    assert fact_of(ledger, "Mondays").status == "replaced"
    assert fact_of(ledger, "Fridays").status == "current"
    assert fact_of(ledger, "Tuesdays").status == "current"


def test_the_second_one_is_the_lists_second_value() -> None:
    ledger = absorbed(("user", "Next session is 2026-12-05, then 2026-12-19, then break until "
                               "2027-01-09."),
                      ("user", "scratch that, the second one is 2026-12-20, Ana is away then"))
    old = fact_of(ledger, "2026-12-19")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "2026-12-20"
    assert fact_of(ledger, "2026-12-05").status == "current"
    assert fact_of(ledger, "2027-01-09").status == "current"


def test_a_place_beyond_the_list_names_nothing() -> None:
    ledger = absorbed(("user", "The first talk is at 9:00, then 11:00."),
                      ("user", "Actually the fourth one is 15:00."))
    assert fact_of(ledger, "9:00").status == "current"
    assert fact_of(ledger, "11:00").status == "current"


def test_the_owners_one_is_that_owners_key() -> None:
    ledger = absorbed(("user", "The kitchen quote is £4,200 and the bathroom quote is £2,800."),
                      ("user", "Update: the bathroom one is £3,100 now."))
    old = fact_of(ledger, "£2,800")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "£3,100"
    kitchen = fact_of(ledger, "£4,200")
    assert kitchen.status == "current" and kitchen.possibly_replaced_by is None


def test_a_value_of_no_noun_phrase_is_not_possibly_a_found_key() -> None:
    ledger = absorbed(("user", "Standup is at 9:30, retro at 15:00 on Fridays."),
                      ("user", "Standup moved to 10:00."))
    assert fact_of(ledger, "9:30").status == "replaced"
    retro = fact_of(ledger, "15:00")
    assert retro.status == "current" and retro.possibly_replaced_by is None


def test_a_value_of_no_noun_phrase_beside_another_of_its_unit_is_not_an_owners_key() -> None:
    ledger = absorbed(("user", "Hotel in Lisbon is €140 a night, the one in Porto €95."),
                      ("user", "Porto is €110 now."))
    lisbon = fact_of(ledger, "€140 a night")
    assert lisbon.status == "current" and lisbon.possibly_replaced_by is None


def test_a_date_after_a_name_is_the_date_of_that_names_key() -> None:
    ledger = absorbed(("user", "Flights: outbound BA117 on 12 May, return BA118 on 26 May."),
                      ("user", "Return is now 28 May."))
    old = fact_of(ledger, "26 May")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "28 May"
    outbound = fact_of(ledger, "12 May")
    assert outbound.status == "current" and outbound.possibly_replaced_by is None


def test_a_value_restated_as_unchanged_marks_nothing_of_its_own_message() -> None:
    ledger = absorbed(("user", "New episodes drop Tuesdays at 6 am, bonus episodes on Fridays."),
                      ("user", "From now on main episodes drop on Mondays; Fridays unchanged"))
    tuesdays = fact_of(ledger, "Tuesdays")
    assert value_of(ledger, tuesdays.possibly_replaced_by) != "Fridays"
    assert fact_of(ledger, "Fridays").status == "current"


def test_of_several_keys_of_its_unit_a_correction_means_the_one_its_words_name() -> None:
    ledger = absorbed(("user", "The release train leaves every 2 weeks."),
                      ("user", "The sprint review happens every 3 weeks."),
                      ("user", "Change the release cadence to every 4 weeks."))
    old = fact_of(ledger, "every 2 weeks")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "every 4 weeks"
    review = fact_of(ledger, "every 3 weeks")
    assert review.status == "current" and review.possibly_replaced_by is None


def test_new_names_no_owner_of_a_key() -> None:
    ledger = absorbed(("user", "New episodes drop Tuesdays at 6 am, bonus episodes on Fridays."),
                      ("user", "Newsletter goes out Saturdays."),
                      ("user", "From now on main episodes drop on Mondays; Fridays unchanged"))
    old = fact_of(ledger, "Tuesdays")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "Mondays"
    assert fact_of(ledger, "Fridays").status == "current"
    assert fact_of(ledger, "Saturdays").status == "current"


def test_old_still_names_another_owner() -> None:
    ledger = absorbed(("user", "Our dog sitter is Mira."),
                      ("user", "Our old sitter Hannes moved to Graz, which is how we found Mira."))
    assert fact_of(ledger, "Mira").status == "current"


def test_a_subject_whose_verb_is_left_out_keeps_its_head_noun() -> None:
    ledger = absorbed(("user", "The morning shuttle leaves at 7:15 and the evening shuttle at "
                               "18:30."),
                      ("user", "Evening shuttle now leaves at 19:00."))
    old = fact_of(ledger, "18:30")
    assert old.key == "evening|shuttle|time"
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "19:00"
    morning = fact_of(ledger, "7:15")
    assert morning.status == "current" and morning.possibly_replaced_by is None


def test_a_value_the_correction_restates_as_it_is_is_never_what_it_replaces() -> None:
    ledger = absorbed(("user", "New episodes drop Tuesdays, bonus episodes on Fridays."),
                      ("user", "From now on main episodes drop on Mondays; Fridays unchanged"))
    assert fact_of(ledger, "Fridays").status == "current"
    assert fact_of(ledger, "Tuesdays").status == "replaced"


def test_a_noun_whose_copula_is_left_out_is_its_values_key() -> None:
    ledger = absorbed(("user", "Kickoff is at 9:00, lunch at 12:30, the keynote at 14:00."))
    assert fact_of(ledger, "12:30").key == "|lunch|time"
    assert fact_of(ledger, "9:00").key == "|kickoff|time"


def test_a_verb_before_a_preposition_is_still_no_key() -> None:
    ledger = absorbed(("user", "We start at 9:00, meet at 12:30."))
    assert fact_of(ledger, "12:30").key.split("|")[1] != "meet"


def test_an_amount_in_any_iso_currency_code_is_money() -> None:
    assert unit_class("ISK 184,000", "number", "price") == "money"
    assert unit_class("41,300 NZD", "number", "price") == "money"
    assert unit_class("45 EUR", "number", "price") == "money"
    assert unit_class("3 pen", "number", "") != "money"  # PEN is a word, no currency here
