"""Issue 28, point 2: two statements that name one key in other words ("the gym closes at",
"the closing time"; "runs on port 9100", "the exporter's on 9200") meet by the content words
of their statements, on a word that tells the earlier value from the others of its kind; a
word every candidate shares ("port", "review date") never makes them meet."""

from __future__ import annotations

from ollm_desktop.engine.fact_types import Fact
from tests.engine_fakes import absorbed, fact_of, value_of


def _retired_by(ledger: list[Fact], old: str, new: str) -> bool:
    """``old`` no longer reads as current beside ``new``: replaced by it, or marked."""
    fact = fact_of(ledger, old)
    return value_of(ledger, fact.replaced_by) == new if fact.status == "replaced" else \
        value_of(ledger, fact.possibly_replaced_by) == new


def test_a_correction_names_the_key_as_a_noun_where_it_was_a_verb() -> None:
    ledger = absorbed(("user", "The gym closes at 22:00."),
                      ("user", "Set the closing time to 23:00."))
    old = fact_of(ledger, "22:00")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "23:00"


def test_a_port_stated_without_the_word_port_is_the_port() -> None:
    ledger = absorbed(("user", "The metrics exporter runs on port 9100."),
                      ("user", "Quick note: the metrics exporter's on 9200 now since the "
                               "clash."))
    old = fact_of(ledger, "9100")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "9200"


def test_a_tool_replaced_by_a_name_meets_its_product_version() -> None:
    ledger = absorbed(("user", "I write the report in Word 2016."),
                      ("user", "Gave up on Word and moved the report to Notion."))
    assert fact_of(ledger, "Word 2016").status == "replaced"
    assert fact_of(ledger, "Notion").status == "current"


def test_the_word_that_tells_two_values_apart_decides_which_one_is_meant() -> None:
    ledger = absorbed(
        ("user", "The review date for the frontend team is 4 May and the review date for "
                 "the backend team is 11 May."),
        ("user", "scratch what I said about the frontend's review — it's 6 May."))
    assert _retired_by(ledger, "4 May", "6 May")
    backend = fact_of(ledger, "11 May")
    assert backend.status == "current" and backend.possibly_replaced_by is None


def test_a_leading_topic_phrase_names_the_key_of_a_restatement() -> None:
    ledger = absorbed(("user", "The cache purge runs every 10 minutes."),
                      ("user", "Cache purge: I've turned it up to every 2 minutes for the "
                               "demo."))
    assert _retired_by(ledger, "every 10 minutes", "every 2 minutes")
    assert fact_of(ledger, "every 2 minutes").status == "current"


def test_two_owners_of_one_attribute_never_meet_on_the_attribute() -> None:
    ledger = absorbed(("user", "The API runs on port 8443."),
                      ("user", "The admin console listens on 9000 now."))
    assert fact_of(ledger, "8443").status == "current"


def test_a_correction_of_another_owners_port_never_marks_this_one() -> None:
    """(it read "8443 (possibly replaced by 9000)": the one port so far, another owner)"""
    ledger = absorbed(("user", "The API runs on port 8443."),
                      ("user", "The admin console is on port 9000 now."))
    api = fact_of(ledger, "8443")
    assert api.status == "current" and api.possibly_replaced_by is None


def test_a_count_and_an_amount_of_money_never_meet() -> None:
    ledger = absorbed(("user", "The team has 12 engineers."),
                      ("user", "The team budget is now 12000 EUR."))
    team = fact_of(ledger, "12 engineers")
    assert team.status == "current" and team.possibly_replaced_by is None


def test_a_question_in_other_words_replaces_nothing() -> None:
    ledger = absorbed(("user", "The gym closes at 22:00."),
                      ("user", "Should we set the closing time to 23:00?"))
    old = fact_of(ledger, "22:00")
    assert old.status == "current" and old.possibly_replaced_by is None


def test_an_assistant_value_in_other_words_replaces_nothing() -> None:
    ledger = absorbed(("user", "The gym closes at 22:00."),
                      ("assistant", "Set the closing time to 23:00."))
    assert fact_of(ledger, "22:00").status == "current"


def test_a_rate_meets_its_adjective_of_time() -> None:
    ledger = absorbed(("user", "The cleaner costs us 25 EUR per hour."),
                      ("user", "Her hourly rate is now 28 EUR."))
    old = fact_of(ledger, "25 EUR per hour")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "28 EUR"


def test_one_owners_two_attributes_never_meet_on_the_owner() -> None:
    """The noisy benchmark's chat: "For the ablation table: the budget line for this is
    $6,394.96." then "For the ablation table: the quote came in at 4.852,36 EUR in total."
    (two amounts of one owner)."""
    ledger = absorbed(("user", "For the ablation table: the budget line for this is $6,394.96."),
                      ("user", "For the ablation table: the quote came in at 4.852,36 EUR in "
                               "total."))
    budget = fact_of(ledger, "$6,394.96")
    assert budget.status == "current" and budget.possibly_replaced_by is None


def test_a_lead_sentence_that_takes_a_word_back_names_the_key() -> None:
    ledger = absorbed(("user", "Our standup is at 09:15. The retro is at 16:00."),
                      ("user", "The standup time I gave you was wrong. The right one is "
                               "09:30."))
    old = fact_of(ledger, "09:15")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "09:30"
    retro = fact_of(ledger, "16:00")
    assert retro.status == "current" and retro.possibly_replaced_by is None


def test_a_trailing_aside_about_another_key_never_makes_it_meet() -> None:
    ledger = absorbed(
        ("user", "The frontend deploy window opens at 14:00 and the backend deploy window "
                 "opens at 16:00."),
        ("user", "Move the frontend one to 15:00, the backend stays."))
    backend = fact_of(ledger, "16:00")
    assert backend.status == "current" and backend.possibly_replaced_by is None


def test_a_correction_sharing_no_word_with_the_one_value_of_its_unit_leaves_it_alone() -> None:
    """(it read "20:00 (possibly replaced by 18:30)": bedtime and dinner, no word alike)"""
    ledger = absorbed(("user", "The kids go to bed at 20:00."),
                      ("user", "Dinner is at 18:30 now."))
    bedtime = fact_of(ledger, "20:00")
    assert bedtime.status == "current" and bedtime.possibly_replaced_by is None


def test_the_owner_read_as_the_attribute_still_meets_its_statement() -> None:
    """"The junior dev starts on 3 June" is read as the junior's "dev"; "Junior start moved
    to 10 June" names the same start (its statement has the word)."""
    ledger = absorbed(("user", "The junior dev starts on 3 June. The senior dev starts on "
                               "17 June."),
                      ("user", "Junior start moved to 10 June."))
    assert fact_of(ledger, "3 June").status == "replaced"
    senior = fact_of(ledger, "17 June")
    assert senior.status == "current" and senior.possibly_replaced_by is None
