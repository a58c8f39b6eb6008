"""Names and findings (stop 52, names52): a person's full name that is its clause's whole first
part is one name, even where it opens the sentence ("Funmi Adeyemi, same firm.": not a label
"Funmi" and its value); a leading clause that only says the speaker found something out
("found the marriage cert, it's Kowalewska") corrects as "actually" does; "its" before a
capitalised name is "it's" ("its Vercel now"); a keyless person's name possibly corrects the
one person's name said so far, not a firm's beside it (a value's shape is a guess); a body
said to stay ("same firm") is only possibly what a keyless name replaces. Greetings,
imperatives, questions, another's finding, a reply's claim and two persons' names take
nothing over."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_extract import extract
from tests.engine_fakes import fact_of, value_of
from tests.fact_ledger import play_forward, replaced_by_map, stated_status


def _values(message: str) -> list[str]:
    return [f.value for f in extract("user", message)]


@pytest.mark.parametrize(("message", "name"), [
    ("Funmi Adeyemi, same firm. she's sharper tbh", "Funmi Adeyemi"),
    ("Priya Nair.", "Priya Nair"),
    ("Tomas Berg now, same agency", "Tomas Berg"),
    ("Keiko Sato", "Keiko Sato"),
    ("so Ama Owusu, same school", "Ama Owusu"),
])
def test_an_opening_full_name_is_one_value(message: str, name: str) -> None:
    assert name in _values(message)


@pytest.mark.parametrize(("message", "not_value"), [
    ("Happy Birthday!", "Happy Birthday"),
    ("Thanks Priya, that helps", "Thanks Priya"),
    ("Call Derek.", "Call Derek"),
    ("Drop Datadog; Grafana Cloud instead.", "Drop Datadog"),
    ("Use Postgres.", "Use Postgres"),
])
def test_an_opening_word_that_is_no_forename_joins_nothing(message: str,
                                                            not_value: str) -> None:
    assert not_value not in _values(message)


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("great-aunt Halina's married name was Kowalczyk",
     "found the marriage cert, it's Kowalewska. similar but not the same",
     "Kowalczyk", "Kowalewska"),
    ("great-aunt Halina's married name was Kowalczyk", "checked the cert, its Kowalewska",
     "Kowalczyk", "Kowalewska"),
    ("the router admin page is on port 8080", "checked the sticker, it's 8443", "8080", "8443"),
    ("the invoice total was €412", "found the receipt, its €421 actually", "€412", "€421"),
    ("our landlord is Mr Patel", "rang the agency, it's Mrs Okafor now who manages it",
     "Mr Patel", "Mrs Okafor"),
    ("the boat is called Sea Biscuit", "just rang the registry - it's Wind Dancer",
     "Sea Biscuit", "Wind Dancer"),
])
def test_a_finding_lead_corrects(said: str, later: str, old: str, new: str) -> None:
    assert replaced_by_map(play_forward(said, later)).get(old) == new


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("great-aunt Halina's married name was Kowalczyk", "found the cert, is it Kowalewska?",
     "Kowalczyk"),
    ("the router admin page is on port 8080",
     "if you checked the sticker, would it be 8443?", "8080"),
    ("the kids' dentist is Dr Hale", "i found a new dentist, it's closer", "Dr Hale"),
    ("my sister's flight lands at 14:20", "Mum checked, it's 15:05", "14:20"),
    ("the flat viewing is at 4pm", "checked the weather, it's 30 degrees tomorrow", "4pm"),
])
def test_no_finding_of_the_speakers_corrects_nothing(said: str, later: str,
                                                     kept: str) -> None:
    assert stated_status(play_forward(said, later), kept) == "current"


def test_a_replys_finding_replaces_nothing() -> None:
    ledger = play_forward("the router admin page is on port 8080", "ok thanks",
                          reply="I checked the docs, it's 8443.")
    assert stated_status(ledger, "8080") == "current"


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("we host the blog on Netlify", "its Vercel now", "Netlify", "Vercel"),
    ("great-aunt Halina's married name was Kowalczyk", "its Kowalewska now", "Kowalczyk",
     "Kowalewska"),
    ("the puppy is called Mochi", "its Biscuit now, mochi didn't suit her", "Mochi",
     "Biscuit"),
])
def test_its_before_a_name_is_its_copula(said: str, later: str, old: str, new: str) -> None:
    assert replaced_by_map(play_forward(said, later)).get(old) == new


@pytest.mark.parametrize(("said", "later", "person", "new"), [
    ("my accountant is Derek Moss at Moss & Pryor", "its Funmi Adeyemi now", "Derek Moss",
     "Funmi Adeyemi"),
    ("my accountant is Derek Moss at Moss & Pryor", "Funmi Adeyemi now, same firm",
     "Derek Moss", "Funmi Adeyemi"),
    ("our landlord is Tom Reyes from Keyhouse", "actually it's Ana Ruiz",
     "Tom Reyes", "Ana Ruiz"),
])
def test_a_persons_name_possibly_corrects_the_one_person(said: str, later: str, person: str,
                                                         new: str) -> None:
    ledger = play_forward(said, later)
    old = fact_of(ledger, person)
    assert old.status == "current" and value_of(ledger, old.possibly_replaced_by) == new
    assert all(f.possibly_replaced_by is None for f in ledger if f.value != person)


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("we host the blog on Netlify", "its Vercel integration is broken", "Netlify"),
    ("the lead is Ana Ruiz and the reviewer is Ben Ode", "it's Cal Hart now", "Ana Ruiz"),
    ("the lead is Ana Ruiz and the reviewer is Ben Ode", "it's Cal Hart now", "Ben Ode"),
    ("my accountant is Derek Moss at Moss & Pryor", "Funmi Adeyemi, same firm.",
     "Derek Moss"),  # (no correction's shape: a name said, nothing taken back)
])
def test_no_name_is_taken_over_on_a_guess(said: str, later: str, kept: str) -> None:
    assert stated_status(play_forward(said, later), kept) == "current"


@pytest.mark.parametrize(("said", "later", "kept", "new"), [
    ("my solicitor for the probate is at Harlow & Finch, Leeds office",
     "turns out the file moved to their Sheffield office, same firm", "Harlow & Finch",
     "Sheffield office"),
    ("our vet is Dr Hale at Pawsitive", "it's Dr Lee now, same practice", "Dr Hale", "Dr Lee"),
    ("we bank with Northgate Mutual", "our account moved to their Otley branch, same bank",
     "Northgate Mutual", "Otley branch"),
])
def test_a_body_said_to_stay_is_only_possibly_replaced(said: str, later: str, kept: str,
                                                       new: str) -> None:
    ledger = play_forward(said, later)
    old = fact_of(ledger, kept)
    assert old.status == "current" and value_of(ledger, old.possibly_replaced_by) == new


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("our dentist is at Smile Studio", "it's Brightwhite now, same price", "Smile Studio",
     "Brightwhite"),
    ("the team meets at the Anchor", "it's the Crown now, same time", "Anchor", "Crown"),
])
def test_same_of_no_body_leaves_the_correction(said: str, later: str, old: str,
                                               new: str) -> None:
    assert replaced_by_map(play_forward(said, later)).get(old) == new


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("our budget for the fence is £400", "asked for a quote, it's £450", "£400"),
    ("the venue is the Anchor", "found a new place, it's the Crown", "Anchor"),
    ("we pay 30 dollars a month for internet", "checked another provider, its 25 dollars",
     "30 dollars a month"),
])
def test_a_new_thing_found_corrects_nothing(said: str, later: str, kept: str) -> None:
    assert stated_status(play_forward(said, later), kept) == "current"


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("grandad was born in Tralee", "it's Listowel actually", "Tralee", "Listowel"),
    ("grandad was born in Tralee", "Found his baptism record - it's Listowel actually",
     "Tralee", "Listowel"),
    ("great-aunt Halina's married name was Kowalczyk", "its Kowalewska actually", "Kowalczyk",
     "Kowalewska"),
])
def test_a_name_before_a_closing_actually_is_the_value(said: str, later: str, old: str,
                                                       new: str) -> None:
    assert replaced_by_map(play_forward(said, later)).get(old) == new


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("the venue is the Anchor", "is the Crown actually any good?", "Anchor"),
    ("our host is Netlify", "we use Vercel actually for the docs", "Netlify"),
])
def test_actually_inside_a_clause_ends_no_value(said: str, later: str, kept: str) -> None:
    assert stated_status(play_forward(said, later), kept) == "current"
