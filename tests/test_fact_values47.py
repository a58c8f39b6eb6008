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
