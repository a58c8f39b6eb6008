"""Errata between quoted texts (``fact_quoted_errata``) and quoted values read without their
closing quote (``fact_words.TOKEN``), stop 44. Each correction between quotes standing alone,
and each quoted value, read nothing or a piece of it on 3113c5b; the rest hold on both."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_quoted_errata import errata
from ollm_desktop.engine.provenance import message_facts
from tests.fact_ledger import stated_status
from tests.fact_ledger import user_ledger as _ledger


@pytest.mark.parametrize(("said", "old", "new"), [
    ("The “Patt 6” at the start should be “Patt 4”.", "Patt 6", "Patt 4"),
    ("It says 'Dear Sir' where it should say 'Dear Ms Lee'.", "Dear Sir", "Dear Ms Lee"),
    ('The title says "Chapter Two" but should be "Chapter 2".', "Chapter Two", "Chapter 2"),
    ("Row 12 should be 'k2, p2' not 'k1, p1'.", "k1, p1", "k2, p2"),
    ('Not "Sunday roast" but "Sunday brunch" on the invitation.', "Sunday roast",
     "Sunday brunch"),
    ("Step 3: “fold in the flour” → “whisk in the flour”.", "fold in the flour",
     "whisk in the flour"),
])
def test_a_quoted_text_corrected_by_another_is_replaced_by_it(said: str, old: str,
                                                              new: str) -> None:
    ledger = _ledger(said)
    assert stated_status(ledger, new) == "current"
    assert stated_status(ledger, old) == "replaced"


def test_a_held_quoted_value_is_replaced_by_the_errata() -> None:
    ledger = _ledger("The button label is 'Quit'.", 'The label should read "Exit", not "Quit".')
    assert stated_status(ledger, "Exit") == "current"
    assert not any(f.value.strip("'’") == "Quit" and f.status == "current" for f in ledger)


@pytest.mark.parametrize("said", [
    "Should it read 'Exit' instead of 'Quit'?",
    "Maybe 'Exit' instead of 'Quit'.",
    "What if the label said 'Exit' instead of 'Quit'",
    "Could we say 'Exit', not 'Quit'?",
])
def test_a_question_or_a_hedge_between_quotes_replaces_nothing(said: str) -> None:
    ledger = _ledger("The button label is 'Quit'.", said)
    assert stated_status(ledger, "Quit") == "current"
    assert stated_status(ledger, "Exit") != "current"


@pytest.mark.parametrize("sentence", [
    "The route from 'Old Town' to 'Harbour' takes ten minutes.",  # no change verb: a route
    "I don't know 'foo' or 'bar'.",
    "The words 'cat' and 'dog' are both nouns.",
    "He said 'hello' and then 'goodbye'.",
])
def test_two_quotes_without_a_correction_s_shape_are_no_errata(sentence: str) -> None:
    assert errata(sentence) is None


@pytest.mark.parametrize(("sentence", "value"), [
    ("The button label is 'Quit'.", "Quit"),
    ("Our wifi is ‘Homebase’.", "Homebase"),
])
def test_a_quoted_value_is_read_without_its_closing_quote(sentence: str, value: str) -> None:
    assert value in [f.value for f in message_facts(sentence)]


@pytest.mark.parametrize(("sentence", "value"), [
    ("In Rome we're staying at Hotel Campo de' Fiori.", "Hotel Campo de' Fiori"),
    ("Ask O'Brien, the lead is O'Brien.", "O'Brien"),
])
def test_an_apostrophe_inside_a_name_or_before_its_next_word_stays(sentence: str,
                                                                    value: str) -> None:
    assert value in [f.value for f in message_facts(sentence)]


@pytest.mark.parametrize("said", [  # stop 44's review: another's proposal is no correction
    'Mia suggested "Spring Fling" instead of "Spring Gala". Thoughts?',
    'Mia suggested "Spring Fling" instead of "Spring Gala".',
    'Someone proposed "Spring Fling" in place of "Spring Gala".',
    'The committee asked for "Spring Fling" instead of "Spring Gala".',
])
def test_another_s_proposal_between_quotes_replaces_nothing(said: str) -> None:
    ledger = _ledger('The title is "Spring Gala".', said)
    assert stated_status(ledger, "Spring Gala") == "current"
    assert stated_status(ledger, "Spring Fling") != "current"


@pytest.mark.parametrize(("said", "old", "new"), [  # the review's own errata, in its words
    ("Typo: 'Q3 Results' should be 'Q4 Results'.", "Q3 Results", "Q4 Results"),
    ('Erratum: "96 stitches" should read "104 stitches".', "96 stitches", "104 stitches"),
    ('Fix the banner: "Open till 8" -> "Open till 9".', "Open till 8", "Open till 9"),
])
def test_an_erratum_after_its_label_is_read(said: str, old: str, new: str) -> None:
    ledger = _ledger(said)
    assert stated_status(ledger, new) == "current"
    assert stated_status(ledger, old) == "replaced"


@pytest.mark.parametrize("sentence", [
    'The Exit sign is fine, but the button "Quit" should read "Exit".',
    "Quit and Exit both appear; the menu's “ Quit ” should be “Exit”.",
])
def test_errata_give_the_places_inside_the_quotes(sentence: str) -> None:
    pair = errata(sentence)
    assert pair is not None
    for quoted in pair:  # (an unquoted "Exit" or "Quit" before them is not the quote)
        assert sentence[quoted.start:quoted.end] == quoted.text
        assert sentence[quoted.start - 1] in "\"“ "
    assert [q.text for q in pair] == ["Quit", "Exit"]
