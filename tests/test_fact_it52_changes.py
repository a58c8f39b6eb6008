"""Changes named by a gerund and reasons said of the old value (stop 52, it52).

A change verb's gerund that drops its "e" ("changing it to X", "moving it to 10:00",
"reducing it to 300 copies") is a change verb as "switching" is, where it is its clause's verb
(never after another verb, "mentioned increasing the rent to £1000", nor as a subject,
"moving it to Monday was rejected"). And a value said of the
old value the message takes back ("Greg is moving to the sales side", "jenkins01 gets wiped
on monday") is its reason, not a value keyed by the stale name: the entry is dropped, the
replacement stays."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_types import Fact
from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set, replaced_by_map


def _ledger(said: str, later: str) -> list[Fact]:
    return absorbed(("user", said), ("assistant", "Noted."), ("user", later))


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("the big faction in my mod is called Ashen Covenant", "changing it to Cinder Pact",
     "Ashen Covenant", "Cinder Pact"),
    ("the standup is at 9:30", "moving it to 10:00 from next week", "9:30", "10:00"),
    ("the print run is 500 copies", "reducing it to 300 copies, budget", "500 copies",
     "300 copies"),
    ("our team channel is called Night Owls", "changing the name to Early Birds",
     "Night Owls", "Early Birds"),
])
def test_a_gerund_that_drops_its_e_changes(said: str, later: str, old: str, new: str) -> None:
    assert replaced_by_map(_ledger(said, later)).get(old) == new


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("rent is £900", "landlord mentioned increasing the rent to £1000", "£900"),
    ("the deadline is Friday", "moving it to Monday was rejected", "Friday"),
    ("the cap is 40", "after reducing it to 30 last year we went back to 40", "40"),
    ("the price is £20", "we might be raising it to £25", "£20"),
    ("the mod is called Frostfall", "moving day is Friday", "Frostfall"),
])
def test_a_gerund_that_is_no_clause_verb_changes_nothing(said: str, later: str,
                                                         kept: str) -> None:
    ledger = _ledger(said, later)
    assert kept not in replaced_by_map(ledger)
    assert kept in current_set(ledger)


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("our caterer is Bloom", "not Bloom but Harvest. Bloom is booked till June", "Bloom",
     "Harvest"),
    ("the build server is jenkins01",
     "not jenkins01 but jenkins02. jenkins01 gets wiped on monday", "jenkins01", "jenkins02"),
    ("the team lead is Marta",
     "the team lead is Oskar now, Marta is switching to the Berlin office", "Marta", "Oskar"),
])
def test_a_reason_said_of_the_old_value_is_no_entry(said: str, later: str, old: str,
                                                    new: str) -> None:
    ledger = _ledger(said, later)
    assert replaced_by_map(ledger).get(old) == new
    assert not any(old.lower() in f.key.split("|") for f in ledger if f.status == "current")


def test_a_value_said_of_the_new_value_stays() -> None:
    ledger = _ledger("the venue is Hall A", "not Hall A but Hall B, Hall B has 200 seats")
    assert {"Hall B", "200 seats"} <= current_set(ledger)


def test_a_gerund_after_its_noun_with_a_particle_changes() -> None:
    ledger = _ledger("the deadline is Friday", "deadline moving back to Monday, client asked")
    assert replaced_by_map(ledger).get("Friday") == "Monday"


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("star party this year is at Kelling Heath",
     "scratch that, it's at Sherwood this year, kelling is full", "Kelling Heath", "Sherwood"),
    ("the quiz night is at the Red Lion", "sorry, it's at Crown Inn, the lion is shut",
     "Red Lion", "Crown Inn"),
    ("our cloud is AWS", "correction: we're on Hetzner, aws bill was 3x", "AWS", "Hetzner"),
    ("Meet me at Central Station at noon.", "Scratch that, meet me at the Cornmarket at noon.",
     "Central Station", "Cornmarket"),
    ("the book club meets at Hilltop Cafe at 7", "sorry, book club meets in Elm Library at 7",
     "Hilltop Cafe", "Elm Library"),
])
def test_the_clause_a_lead_opens_with_a_pronoun_states_the_name(said: str, later: str,
                                                                old: str, new: str) -> None:
    assert replaced_by_map(_ledger(said, later)).get(old) == new


def test_a_name_beside_a_keyed_value_without_a_lead_stays_a_mention() -> None:
    ledger = _ledger("the venue is the Old Barn",
                     "flooding at Mill Lane again, so the venue is now Grain Store")
    assert "Mill Lane" not in current_set(ledger)


def test_a_subject_name_after_a_lead_stays_a_mention() -> None:
    ledger = _ledger("the venue is the Old Mill",
                     "actually, Tom says the venue is the Old Mill at 7pm")
    assert "Tom" not in current_set(ledger)
    assert "Old Mill" in current_set(ledger)


@pytest.mark.parametrize(("said", "later", "value"), [
    ("I'm moving house on the 5th.", "New address: 3 Oak Rd.", "the 5th"),
    ("we're changing gyms in May", "the new one is Pure Gym", "May"),
])
def test_a_gerund_with_no_target_is_a_plan_keyed_by_its_verb(said: str, later: str,
                                                            value: str) -> None:
    """Stop 52's ledger diff: "I'm moving house on the 5th" lost its key ("moving: the 5th"
    became a bare "the 5th") once the gerund read as a change; a change names where the value
    goes ("to", "from"), a plan does not."""
    ledger = _ledger(said, later)
    assert any(f.value == value and f.status == "current" and f.subject for f in ledger)
