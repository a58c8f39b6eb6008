"""Stop 47's read-only review: readings of this stop that went too far, each reproduced on
f1debd3 and narrowed (the reviewer's own sentences, none from a corpus or probe set)."""

from __future__ import annotations

import pytest

from tests.fact_ledger import status_of, user_ledger


# An owner named alone meets a key only beside a sibling of another owner (fact_owner_alone).
@pytest.mark.parametrize(("first", "later", "kept"), [
    ("The kitchen table is 180 cm.", "The kitchen is 350 cm wide.", "180 cm"),
    ("The bathroom is 250 cm wide.", "The bathroom mirror is 60 cm.", "250 cm"),
    ("Leo's piano lesson is at 5pm.", "Leo is in bed by 8pm.", "5pm"),
    ("My son's school starts at 8:15.", "My son has soccer at 5pm.", "8:15"),
    ("The garden fence is 180 cm tall.", "The garden is 1200 cm long.", "180 cm"),
])
def test_a_word_that_begins_one_key_names_a_thing_of_its_own(first: str, later: str,
                                                             kept: str) -> None:
    assert status_of(user_ledger(first, later), kept) == "current"


# Errata in words (fact_written_errata): an update, the speaker's own listing or a wish is no
# erratum, and "N should be V-ed" only with a participle of showing.
@pytest.mark.parametrize(("first", "later", "new"), [
    ("The rent is 1200.", "The rent is now listed as 1300 instead of 1200.", "1300"),
    ("The rent is 1200.", "The updated contract has the rent as 1300 instead of 1200.", "1300"),
    ("The fee is 40.", "The revised invoice lists the fee as 45 instead of 40.", "45"),
])
def test_an_update_listed_as_y_instead_of_x_gives_y(first: str, later: str, new: str) -> None:
    ledger = user_ledger(first, later)
    assert status_of(ledger, new) == "current"


@pytest.mark.parametrize(("first", "later", "kept"), [
    ("The invoice total is 500.", "We paid 500, but 100 should be refunded.", "500"),
    ("The guest count is 40.", "We invited 40, but 35 should be confirmed by Friday.", "40"),
])
def test_a_participle_of_another_verb_makes_no_erratum(first: str, later: str,
                                                       kept: str) -> None:
    assert status_of(user_ledger(first, later), kept) == "current"


# A number placed by a verb with "on / at": a closed class of placing verbs (fact_verb_places).
@pytest.mark.parametrize("later", [
    "Actually the GPU runs out of memory anyway, it crashes at 80.",
    "Actually, it breaks at 128.",
])
def test_a_verb_that_places_nothing_gives_no_value(later: str) -> None:
    assert status_of(user_ledger("The batch size is 64.", later), "64") == "current"


# A name after "it's" only where it ends its clause (fact_values._proper_name).
@pytest.mark.parametrize(("first", "later", "kept"), [
    ("The dinner host is Priya.", "Oh wait, it's Sarah's birthday today, so I'll be offline.",
     "Priya"),
    ("My dentist is Dr. Kim.", "Sorry, it's Chrome again, it keeps freezing.", "Dr. Kim"),
])
def test_a_name_after_its_that_goes_on_is_no_correction(first: str, later: str,
                                                        kept: str) -> None:
    assert status_of(user_ledger(first, later), kept) == "current"


def test_a_lead_and_an_article_before_a_clause_of_its_own_corrects_nothing() -> None:
    ledger = user_ledger("We're staying at the Marriott.",
                         "Actually, the Hilton, where we stayed last year, is closing down.")
    assert status_of(ledger, "Marriott") == "current"


def test_another_wish_to_rename_renames_nothing() -> None:
    ledger = user_ledger("Our cat is called Biscuit.", "My sister wants to rename the cat Mochi.")
    assert status_of(ledger, "Biscuit") == "current"


def test_the_speakers_own_still_say_is_no_stale_text() -> None:
    ledger = user_ledger("The port is 8080.",
                         "I still say the port is 8080, and I moved the admin panel to 9090.")
    assert status_of(ledger, "8080") == "current"


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("Speed limit is 35 MPH.", "Last year I helped get the speed limit changed to 25 MPH.",
     "35 MPH", "25 MPH"),
    ("The fee is 50 dollars.", "After a lot of work we finally have the fee reduced to 40 dollars.",
     "50 dollars", "40 dollars"),
    ("The party is on Friday.", "We moved the party to Saturday and she declined.", "Friday",
     "Saturday"),
])
def test_a_change_made_is_made(first: str, later: str, old: str, new: str) -> None:
    ledger = user_ledger(first, later)
    assert status_of(ledger, old) == "replaced"
    assert status_of(ledger, new) == "current"
