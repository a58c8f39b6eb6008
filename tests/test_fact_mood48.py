"""Stop 48, the mood round: offers turned down and others' hopes (issue 28: an offer the user
turned down, rejected, answered with "but no" or with "(I said) not X", another's hope and
the reason given for another's wish never replace the user's value; the user's own change
of the same shape still does)."""

from __future__ import annotations

import pytest

from tests.fact_ledger import stated_status, user_ledger


@pytest.mark.parametrize(("said", "later", "kept", "proposed"), [
    # a phrasal refusal: "turned it down", "turned down" with nothing after it
    ("My salary is 58k at the studio.", "a recruiter offered $66k but I turned it down.",
     "58k", "$66k"),
    ("The rent is $1,400.", "The landlord offered $1,300 for a longer lease and we turned "
     "it down.", "$1,400", "$1,300"),
    # a refusal with its subject left out shares the speaker's subject of its clause
    ("We deploy with Ansible.", "we tried Chef in March and rejected it.", "Ansible", "Chef"),
    # "but no," answering an offer or a question asked
    ("The bucket's storage class is STANDARD.",
     "ops asked about ARCHIVE for the cost, but no, we restore from it weekly.", "STANDARD",
     "ARCHIVE"),
    # "(I said) not X" repeating the offered value
    ("The haircut is on Friday.", "they offered Monday instead but I said not Monday.",
     "Friday", "Monday"),
    ("Swim class is on Saturdays.", "they had a sunday class too but not sunday, we rest.",
     "Saturdays", "sunday"),
    # another's hope; the reason given for another's wish is theirs too
    ("The fee is €9,000.", "their CFO hopes we'll do it for €7,500.", "€9,000", "€7,500"),
    ("His curfew is 10pm.", "he's lobbying for 11pm because all his friends have 11pm.",
     "10pm", "11pm"),
    # a wish of a party named by its role, answered by the speaker's own clause with a value
    ("The party is at 6pm.", "my sister wants it at 8pm, we're doing 6.", "6pm", "8pm"),
    # the idioms of a choice not made
    ("The strings are 9s.", "on the fence about going to 10s for the low tuning.", "9s",
     "10s"),
    ("The venue is the Grange.", "moving to the Lodge is up in the air.", "Grange", "Lodge"),
])
def test_offers_turned_down_and_hopes_replace_nothing(said: str, later: str, kept: str,
                                                      proposed: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, kept) == "current"
    stated = [f.value for f in ledger if f.status == "current" and f.kind != "question"]
    assert not [value for value in stated if proposed in value]  # (nor inside a correction)


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    # the same shapes as the user's own change still correct
    ("The rent is $1,400.", "We moved the rent to $1,500 and turned down the discount.",
     "$1,400", "$1,500"),
    ("The haircut is on Friday.", "Moved the haircut to Monday, not Friday.", "Friday",
     "Monday"),
    ("His curfew is 10pm.", "We moved his curfew to 11pm because he's older now.", "10pm",
     "11pm"),
    ("The fee is €9,000.", "As their CFO hoped, we raised the fee to €9,500.", "€9,000",
     "€9,500"),
    ("The party is at 6pm.", "my sister wants it at 8pm now, so we moved it to 8pm.", "6pm",
     "8pm"),
    ("The strings are 9s.", "I was on the fence, but we switched the strings to 10s.", "9s",
     "10s"),
])
def test_the_users_own_change_of_the_same_shape_still_applies(said: str, later: str,
                                                              old: str, new: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, old) == "replaced"
    assert stated_status(ledger, new) == "current"
