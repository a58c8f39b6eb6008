"""Issue 28: values the grammar did not see (a lower-case noun phrase in a value's place, a
name with the words of its phrase, a count without its unit word, "noun number" after a
correction's lead), read by the shape of the clause.

Each case states a value and corrects it in words the rules were not written against; the
new value must be current and the old one not. The negatives keep the old value: a question
or a suggestion replaces nothing, a reply's lower-case phrases are no values.
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_extract import current_values
from ollm_desktop.engine.provenance import message_facts
from tests.fact_ledger import some_value_holds


def _current(*messages: str) -> list[str]:
    said = [("assistant", m[2:]) if m.startswith("A:") else ("user", m) for m in messages]
    return [value for values in current_values(said).values() for value in values]


CORRECTIONS = [
    # (first statement, correction, new value, old value)
    # the object of a verb with the key's phrase after it, "instead"
    ("For the tart base I'm using shortcrust pastry.",
     "Going with puff pastry for the tart base instead, the shortcrust kept cracking.",
     "puff pastry", "shortcrust pastry"),
    ("For the garden path we're laying crushed gravel.",
     "Laying reclaimed brick for the garden path instead, the gravel washes away.",
     "reclaimed brick", "crushed gravel"),
    # the complement of a copula ("will be", "is going to be")
    ("Dessert is going to be tiramisu.",
     "Scratch the tiramisu, one guest can't have raw egg. Dessert will be panna cotta.",
     "panna cotta", "tiramisu"),
    ("The starter is going to be pea soup.",
     "Forget the pea soup, it's too warm out. The starter will be melon salad.",
     "melon salad", "pea soup"),
    # the place after a verb's preposition, after a lead that says it holds from now on
    ("We meet in room B204 for the reading group.",
     "From next week onward the reading group meets in the library seminar room.",
     "library seminar room", "B204"),
    ("The choir rehearses in hall C12.",
     "From now on the choir rehearses in the old chapel.", "old chapel", "C12"),
    # "swap Y for X": both objects are phrases
    ("I'm using Kerrygold salted butter in the shortbread.",
     "Swapping the butter for coconut oil, my sister is vegan now.", "coconut oil", "butter"),
    # a name with the words of its phrase ("Chicago author-date")
    ("I'm formatting the references in APA style.",
     "The venue switched templates, references are Chicago author-date now.",
     "Chicago author-date", "APA"),
    # a count without its unit word: "we're 8" counts us
    ("The dinner party is for 6 people.", "Two more said yes, so we're 8 for dinner now.",
     "8", "6 people"),
    ("The hiking trip is for 4 people.", "Sam dropped out, so we're 3 for the hiking trip now.",
     "3", "4 people"),
    # a copula's place, a change verb's "to" + a phrase
    ("The team lunch is at the taco place.", "Team lunch moved to the noodle bar.",
     "noodle bar", "taco place"),
    ("The party is in the back garden.", "Switch the party to the village hall.",
     "village hall", "back garden"),
    # a definite object is the key, an indefinite place the value (given, then new)
    ("I'm storing the photos on an external drive.", "The photos live on the NAS now.",
     "NAS", "external drive"),
    # "not Y but X" with phrases; a subject's verb and its place, a trailing "from now on"
    ("The main dish is beef stew.", "Not beef stew but mushroom risotto for the main dish.",
     "mushroom risotto", "beef stew"),
    ("The book club meets at the corner cafe.",
     "Book club meets at the public library from now on.", "public library", "corner cafe"),
    ("We keep the spare key under the doormat.", "The spare key is with the neighbour now.",
     "neighbour", "doormat"),
    # a purpose is the key whatever the object's article; "of" inside a complement
    ("I'm using the old laptop for the slides.",
     "Going with the new tablet for the slides instead.", "new tablet", "old laptop"),
    ("The quiz prize is a gift card.",
     "The quiz prize will be a bottle of wine instead of a gift card.", "bottle of wine",
     "gift card"),
    ("Our hiking group meets at the train station.", "Hiking group now meets at the car park.",
     "car park", "train station"),
    ("The reading group meets in the library seminar room.",
     "The reading group meets in the main hall instead of the library seminar room.",
     "main hall", "library seminar room"),
    # a noun's "'s" before a preposition is "is"; "from VALUE on" is when, no value
    ("The standup is at 9:15 every day.", "Standup's at 9:45 from Monday on.", "9:45", "9:15"),
    # "over to X": no label noun; a passive change's subject is the key
    ("We use pnpm for the monorepo.", "Switched the monorepo over to Bun.", "Bun", "pnpm"),
    ("The upload limit is 25 MB.", "Upload limit got bumped up to 50 MB.", "50 MB", "25 MB"),
    # a verb that ends a value: its object is the old value ("dropped Jira")
    ("Our issue tracker is Jira.", "We dropped Jira and track issues in Linear.", "Linear",
     "Jira"),
    ("The starter is tomato soup.", "Drop the tomato soup, the starter is bruschetta now.",
     "bruschetta", "tomato soup"),
    ("The wifi router is in the hallway.", "I moved the router to the spare room.",
     "spare room", "hallway"),
    ("We keep the budget in Excel 2016.",
     "Gave up on Excel and moved the budget to Actual Budget.", "Actual Budget", "Excel"),
    # a name and its size code are one name ("Mistral 7B")
    ("Our baseline is Qwen 2 7B.", "We're using Gemma 9B rather than Qwen 2 7B.",
     "Gemma 9B", "Qwen 2 7B"),
    # "scratch that, track 5": a lead, then "noun number" naming the key's head
    ("I'll submit to track 3 of the workshop.",
     "Oops, scratch that, track 5. Track 3 is for demos.", "track 5", "track 3"),
    ("I'll take bus 42 to work.", "Scratch that, bus 47.", "bus 47", "bus 42"),
    ("We sit in row 5 at the concert.", "Oops, it's row 9, not row 5.", "row 9", "row 5"),
    ("We board at gate 2 for the morning flight.",
     "Sorry, scratch that, gate 4. Gate 2 is for the evening flight.", "gate 4", "gate 2"),
]


@pytest.mark.parametrize(("first", "correction", "new", "old"), CORRECTIONS,
                         ids=[c[1][:40] for c in CORRECTIONS])
def test_a_phrase_in_a_value_place_replaces_the_old_value(first: str, correction: str,
                                                            new: str, old: str) -> None:
    assert some_value_holds(_current(first), old), "the old value is read before it is replaced"
    values = _current(first, correction)
    assert some_value_holds(values, new), values
    assert not any(old in value and new not in value for value in values), values


NEGATIVES = [
    # (first statement, a message that must replace nothing, the value that stays)
    ("For the tart base I'm using shortcrust pastry.",
     "Should we go with puff pastry for the tart base instead?", "shortcrust pastry"),
    ("Dessert is going to be tiramisu.", "Maybe dessert could be panna cotta?", "tiramisu"),
    ("We meet in room B204 for the reading group.",
     "Dana thinks the reading group might meet in the library seminar room.", "room B204"),
    ("The dinner party is for 6 people.", "If two more say yes, we're 8 for dinner.",
     "6 people"),
    ("Dessert is going to be tiramisu.",
     "A:Dessert could be panna cotta instead, which avoids raw egg.", "tiramisu"),
]


@pytest.mark.parametrize(("first", "message", "kept"), NEGATIVES,
                         ids=[n[1][:40] for n in NEGATIVES])
def test_questions_suggestions_and_replies_replace_nothing(first: str, message: str,
                                                           kept: str) -> None:
    assert some_value_holds(_current(first, message), kept)


def test_the_first_statement_is_read_as_a_value_of_its_key() -> None:
    """The old value is read too (not only the new one), with the key the correction names:
    the correction replaces it, it does not just add a second value beside it."""
    found = message_facts("Dessert is going to be tiramisu.")
    assert [(f.value, f.key) for f in found] == [("tiramisu", "|dessert|name")]
    found = message_facts("For the tart base I'm using shortcrust pastry.")
    assert [f.value for f in found] == ["shortcrust pastry"]
    assert "base" in found[0].key


REPLIES = [
    "The build is going to be slow on the first run because of the cache.",
    "I'd suggest using a context manager for the file handle instead.",
    "From now on the loop runs in the worker thread.",
    "Scratch the helper function, it is not needed.",
]


@pytest.mark.parametrize("reply", REPLIES, ids=[r[:30] for r in REPLIES])
def test_a_reply_gains_no_lower_case_phrase_values(reply: str) -> None:
    """The replies' lower-case phrases stay words: the panel and the junk share count them."""
    assert [f.value for f in message_facts(reply, "assistant") if f.kind == "name"] == []


def test_not_y_but_x_without_a_key_reads_no_new_phrase() -> None:
    """"This is not a bug but a feature" names no key: no value of anything."""
    assert [f.value for f in message_facts("This is not a bug but a feature.")
            if not f.old and f.kind == "name"] == []


def test_a_plain_statement_without_a_key_gains_no_phrase_value() -> None:
    """A lower-case phrase is a value only where the sentence names a key that is not the
    phrase itself: a narrative object is none."""
    assert [f.value for f in message_facts("I'm reading a long novel this week.")
            if f.kind == "name"] == []


def test_noun_number_names_the_key_by_its_noun_and_for_names_whose_it_is() -> None:
    """"scratch that, track 5" is the track's value; "Track 3 is for demos" is the demos'
    track (its purpose), not a second value of the track the user submits to."""
    found = message_facts("Oops, scratch that, track 5. Track 3 is for demos.")
    assert {f.value: f.key for f in found} == {"track 5": "|track|name",
                                               "Track 3": "demo|track|name"}


def test_a_value_before_a_copula_is_the_value_of_the_phrase_after_it() -> None:
    """"Thursday is the darts league" says whose Thursday it is: the league's, not a second
    value of the quiz night the clause before corrected ("Friday is the deadline" alike)."""
    found = message_facts("I meant Friday for the quiz night, Thursday is the darts league.")
    assert {f.value: f.key for f in found} == {"Friday": "quiz|night|date",
                                               "Thursday": "dart|league|date"}
    assert [f.key for f in message_facts("Friday is the deadline.")] == ["|deadline|date"]


def test_a_change_verb_with_to_is_no_ending() -> None:
    """"Drop the price to 5 EUR" changes the price; it takes nothing back."""
    found = message_facts("Drop the price to 5 EUR.")
    assert [(f.value, f.old) for f in found] == [("5 EUR", False)]


def test_a_leading_on_is_no_ending() -> None:
    """Only "give up on" ends its object: "On Monday the standup is at 10:00" keeps Monday."""
    assert not any(f.old for f in message_facts("On Monday the standup is at 10:00."))


def test_the_day_from_which_a_change_holds_is_no_value() -> None:
    """"from Monday on" says when the new time holds; Monday is no date of the standup."""
    found = message_facts("Standup's at 9:45 from Monday on.")
    assert [(f.value, f.key) for f in found] == [("9:45", "|standup|time")]
    assert found[0].correction


def test_a_change_verbs_bare_object_is_the_key() -> None:
    """"we're moving payments to Adyen": the payments' value (the verb is no key)."""
    assert [f.key for f in message_facts("We're moving payments to Adyen next month.")] == [
        "|payment|name"]
