"""Stop 47, values the ledger did not read: errata said in words of bare figures
(``fact_written_errata``)."""

from __future__ import annotations

from ollm_desktop.engine.provenance import message_facts


def _news_and_olds(text: str) -> tuple[set[str], set[str]]:
    found = [f for f in message_facts(text) if f.kind not in ("decision", "correction")]
    return ({f.value for f in found if not f.old and f.kind != "question"},
            {f.value for f in found if f.old})


def test_listed_as_y_instead_of_x_keeps_x() -> None:
    news, olds = _news_and_olds("The docs list the port as 8080 instead of 8081.")
    assert "8081" in news and "8080" in olds


def test_passive_listed_as_a_date_instead_of_a_year() -> None:
    news, olds = _news_and_olds(
        "On the release notes, the date for 2.422 is listed as March 22, 2017 instead of 2018.")
    assert "2018" in news and "March 22, 2017" in olds


def test_x_was_written_as_y_keeps_x() -> None:
    news, olds = _news_and_olds("We had a typo where 2.13.0 was written as 2.13.10 in the guide.")
    assert "2.13.0" in news and "2.13.10" in olds


def test_said_y_when_it_should_have_been_x() -> None:
    news, olds = _news_and_olds("It said 22.0.* when it should have been 23.0.*")
    assert "23.0.*" in news and "22.0.*" in olds


def test_y_mentioned_while_x_should_get_mentioned() -> None:
    news, olds = _news_and_olds(
        "Version 1.4 is mentioned in the first sentence, while 1.6 should get mentioned.")
    assert "1.6" in news and "Version 1.4" in olds


def test_which_value_is_listed_is_no_erratum() -> None:
    """The value before "is listed as" names which thing, of another kind: no wrong one."""
    news, olds = _news_and_olds(
        "In the changelog, the release date for version 1.2.0 is listed as January 23, 2014.")
    assert "version 1.2.0" in news and not olds


def test_a_question_about_an_erratum_corrects_nothing() -> None:
    _, olds = _news_and_olds("Should it say 2.1 instead of 2.0?")
    assert not olds


def test_a_plain_instead_of_stays_a_change() -> None:
    """No text's verb: "use X instead of Y" keeps its own direction."""
    news, olds = _news_and_olds("Use port 8081 instead of 8080.")
    assert "8081" in " ".join(news) and "8080" in " ".join(olds)


# Counts: a rate is one value, and a result's own amount is no old value.

def _ledger(*messages: tuple[str, str]) -> list[tuple[str, str]]:
    from tests.engine_fakes import absorbed

    return [(f.value, f.status) for f in absorbed(*messages)]


def test_a_rate_with_a_single_digit_is_one_value() -> None:
    news, _ = _news_and_olds("The login rate limit is 5 per minute.")
    assert "5 per minute" in news


def test_two_rates_of_two_keys_both_stay() -> None:
    ledger = _ledger(("user", "The login rate limit is 5 per minute."),
                     ("assistant", "Noted."),
                     ("user", "The search rate limit is 60 per minute."))
    assert ("5 per minute", "current") in ledger and ("60 per minute", "current") in ledger


def test_a_rate_replaces_the_count_of_its_noun() -> None:
    """A rate's unit class is its count's: "50 items per page" replaces "25 items"."""
    ledger = _ledger(("user", "Pagination returns 25 items per page."),
                     ("assistant", "Noted."),
                     ("user", "set pagination to 50 items per page"))
    assert ("50 items per page", "current") in ledger and ("25 items", "current") not in ledger


def test_a_cancelled_amount_is_no_old_value() -> None:
    ledger = _ledger(("user", "We booked 5 rooms at the hotel."),
                     ("assistant", "5 rooms."),
                     ("user", "Cancelled one room, so 4 rooms."))
    assert ("4 rooms", "current") in ledger and ("5 rooms", "current") not in ledger


def test_an_added_amount_does_not_replace_the_count() -> None:
    ledger = _ledger(("user", "We booked 5 rooms at the hotel."),
                     ("assistant", "5 rooms."),
                     ("user", "We added 2 rooms, so 7 rooms."))
    assert ("7 rooms", "current") in ledger and ("2 rooms", "current") not in ledger
    assert ("5 rooms", "current") not in ledger


def test_a_retracted_name_stays_old() -> None:
    """Only a count opening the object is an amount: "Cancelled PureGym" takes a name back."""
    _, olds = _news_and_olds("Cancelled PureGym, joined the Y.")
    assert "PureGym" in olds


def test_a_rate_unit_is_its_count_and_per_is_a_word() -> None:
    from ollm_desktop.engine.fact_keys import unit_class

    assert unit_class("50 items per page", "number", "") == "item"
    assert unit_class("5 per minute", "number", "") == "number"
    assert unit_class("5 paper cups", "number", "") == "paper cup"
