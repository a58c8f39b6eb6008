"""Stop 49, the mood round: others' wishes set against, others' tastes, plans waiting on a
roadmap, a choice still eyed (issue 28: none of these replaces the user's value; the user's
own change of the same shape still does)."""

from __future__ import annotations

import pytest

from tests.fact_ledger import stated_status, user_ledger


@pytest.mark.parametrize(("said", "later", "kept", "proposed"), [
    # a wish of a party named by its role, set against by "but" and a negation or the
    # speaker's own clause
    ("We release on Thursdays.", "The PM wants Tuesdays but that's not happening.",
     "Thursdays", "Tuesdays"),
    ("The launch is on May 5.", "The client wants May 12 but it won't work for us.", "May 5",
     "May 12"),
    ("The rent is £1,300.", "My landlord wants £1,400 but no way.", "£1,300", "£1,400"),
    # another's taste, named or set against
    ("We use Terraform for infra.", "Dana prefers Pulumi.", "Terraform", "Pulumi"),
    ("We use Terraform for infra.", "The new CTO likes Pulumi, but I don't.",
     "Terraform", "Pulumi"),
    # a plan waiting where plans wait
    ("We're on Postgres 14.", "Upgrade to Postgres 16 is on the roadmap, no date.",
     "Postgres 14", "Postgres 16"),
    ("Our CI runs Node 18.", "The move to Node 22 is still in the backlog.", "Node 18",
     "Node 22"),
    # a verb of considering
    ("storage: the 2TB plan.", "eyeing the 5TB one, haven't pulled the trigger.", "2TB", "5TB"),
    ("The trip is 7 nights.", "We're mulling 10 nights.", "7 nights", "10 nights"),
])
def test_others_wishes_tastes_and_waiting_plans_replace_nothing(said: str, later: str,
                                                                kept: str,
                                                                proposed: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, kept) == "current"
    stated = [f.value for f in ledger if f.status == "current" and f.kind != "question"]
    assert not [value for value in stated if proposed in value]  # (nor inside a correction)


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    # the user's own change beside a plan on the roadmap: only the plan's subject waits
    ("We're on Postgres 14.", "We moved to Postgres 16 last week, the rest is on the roadmap.",
     "Postgres 14", "Postgres 16"),
    # a role's wish the user carries out, "but" after it
    ("The launch is on May 5.", "The client wants May 12 now, but we moved it to May 12.",
     "May 5", "May 12"),
])
def test_the_users_own_change_beside_them_still_applies(said: str, later: str, old: str,
                                                         new: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, old) == "replaced"
    assert stated_status(ledger, new) == "current"


@pytest.mark.parametrize(("said", "later", "kept", "proposed"), [
    # another's offer, then a sentence that opens with the speaker's bare refusal
    ("My salary is $120k.", "The recruiter came back with $145k. I said no.", "$120k",
     "$145k"),
    ("The rent is £1,350.", "The landlord offered £1,300 for two years. I refused and "
     "stayed on the 12-month lease.", "£1,350", "£1,300"),
    ("The quote was $900.", "They countered at $1,100. We declined.", "$900", "$1,100"),
    ("Bella takes 10 mg tablets.", "The vet offered 20 mg. No thanks, she does fine.",
     "10 mg", "20 mg"),
    ("We pay $40 a month.", "Sales tried to upsell the $60 plan. I turned it down.",
     "$40 a month", "$60"),
])
def test_an_offer_refused_in_the_next_sentence_replaces_nothing(said: str, later: str,
                                                                 kept: str,
                                                                 proposed: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, kept) == "current"
    stated = [f.value for f in ledger if f.status == "current" and f.kind != "question"]
    assert not [value for value in stated if proposed in value]


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    # a refusal with its own object is read as before
    ("The rent is $1,400.", "The landlord offered $1,300. I refused the longer lease, so "
     "we moved the rent to $1,500.", "$1,400", "$1,500"),
])
def test_the_users_own_offer_or_a_refusal_with_its_object_still_applies(
        said: str, later: str, old: str, new: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, old) == "replaced"
    assert stated_status(ledger, new) == "current"


def test_the_speakers_own_offer_is_still_stated() -> None:
    ledger = user_ledger("I offered $300. They said no.")
    assert stated_status(ledger, "$300") == "current"


@pytest.mark.parametrize(("said", "later", "kept", "theirs"), [
    # another's "wants to" before a verb that is no change, with a value in its clause
    ("'Lanterns' is at 128 bpm.", "drummer wants to play it at 140 bpm.", "128 bpm", "140 bpm"),
    ("Dinner is at 7pm.", "Dana wants to eat at 8pm.", "7pm", "8pm"),
])
def test_anothers_wish_to_act_at_a_value_replaces_nothing(said: str, later: str, kept: str,
                                                          theirs: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, kept) == "current"
    stated = [f.value for f in ledger if f.status == "current" and f.kind != "question"]
    assert theirs not in stated


def test_a_wish_without_a_value_leaves_its_sentence_stating() -> None:
    ledger = user_ledger("Ana DMs the main campaign.",
                         "Kwame is DMing the main campaign from now on, Ana wants to play "
                         "for a while")
    assert [f.kind for f in ledger if f.value == "DMing"] == ["name"]
