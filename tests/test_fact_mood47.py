"""Stop 47, the mood round: others' proposals shown as the user's, and negatives that
superseded (issue 28: a refused offer, a trial given up, another's campaign, a refusal to go
for a value and a bracket beside a modal never replace the user's value; the user's own
change beside them still does)."""

from __future__ import annotations

import pytest

from tests.fact_ledger import stated_status, user_ledger


@pytest.mark.parametrize(("said", "later", "kept", "proposed"), [
    # a refusal after the value turns down the clauses before it
    ("Our offer on the house is $410,000",
     "below asking. the agent wanted us to go to $425,000 and we refused", "$410,000",
     "$425,000"),
    ("Our offer on the house is $410,000.", "The seller wanted $440,000 and we said no.",
     "$410,000", "$440,000"),
    ("The budget is $5,000.", "The contractor offered $8,000 but we declined.", "$5,000",
     "$8,000"),
    # a trial given up: kept another value, went back, or it did not help
    ("The heap size is 4g.", "Tried 8g, it didn't help, so we kept 4g.", "4g", "8g"),
    ("The heap size is 4g.", "We tried 8g, it didn't work, so we went back.", "4g", "8g"),
    # another's campaign or plea, with an adverb before its "for"
    ("Bedtime is 8 pm.", "The kids keep pleading for 9 pm.", "8 pm", "9 pm"),
    ("Bedtime is 8 pm.", "The kids are campaigning hard for 9 pm.", "8 pm", "9 pm"),
    # a refusal to go for a value
    ("Running the 5k at a 24 minute pace.", "I won't go for 23:00, too aggressive.",
     "24 minute", "23:00"),
    ("The budget is $5,000.", "We won't go for $8,000.", "$5,000", "$8,000"),
    # a bracket that names what a modal's change would replace goes with the modal
    ("The standup is on Monday.", "We could move it to Friday (instead of Monday).", "Monday",
     "Friday"),
])
def test_refusals_trials_and_campaigns_replace_nothing(said: str, later: str, kept: str,
                                                        proposed: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, kept) == "current"
    assert stated_status(ledger, proposed) != "current"


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    # a refusal with an object or a complement of its own points at nothing before it
    ("Our offer on the house is $410,000.",
     "We went up to $425,000 and the seller refused to budge.", "$410,000", "$425,000"),
    # a bracket beside a change made is the change's old value, as before
    ("The standup is on Monday.", "We moved it to Friday (instead of Monday).", "Monday",
     "Friday"),
])
def test_the_users_own_change_still_applies(said: str, later: str, old: str,
                                            new: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, old) == "replaced"
    assert stated_status(ledger, new) == "current"


@pytest.mark.parametrize(("said", "later", "value"), [
    ("The heap size is 4g.", "Tried 8g and it works great.", "8g"),  # nothing given up
    ("The heap size is 4g.", "We tried 8g and kept it.", "8g"),  # the trial kept
])
def test_a_trial_not_given_up_is_read_as_before(said: str, later: str, value: str) -> None:
    assert stated_status(user_ledger(said, later), value) == "current"


@pytest.mark.parametrize(("said", "later", "kept", "proposed"), [
    # a change worked for: "get / have NP <participle> to X" after a verb of effort
    ("The speed limit on Edmund Street is 35 MPH.",
     "I decided to help my neighbors on Edmund Street get the speed limit changed to 25 MPH.",
     "35 MPH", "25 MPH"),
    ("The fee is $50.", "We're trying to get the fee lowered to $40.", "$50", "$40"),
    # a text not yet set right: "still" before a verb of saying
    ("The timeout is 30 s.",
     "Correction needed in the runbook, it still says 20 s. The real timeout is 30 s.", "30 s",
     "20 s"),
])
def test_changes_worked_for_and_texts_not_set_right_replace_nothing(
        said: str, later: str, kept: str, proposed: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, kept) == "current"
    assert stated_status(ledger, proposed) != "current"


@pytest.mark.parametrize(("said", "later"), [
    ("The fee is $50.", "We got the fee lowered to $40."),  # the causative alone: made
    ("The fee is $50.", "I managed to get the fee lowered to $40."),  # success, not effort
])
def test_a_change_won_still_applies(said: str, later: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, "$50") == "replaced"
    assert stated_status(ledger, "$40") == "current"
