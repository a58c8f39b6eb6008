"""The word-class readings narrowed (issue 28, stop 51 review): a value said to have ended
("Sold it.", "It got stolen.", "I quit being vegan.", "Off keto now.", "Basil died.") is
replaced by what the user said (fact_ended_values) when it refers back to exactly one value;
a colour or diet after a past copula ("was green", "was vegan from 2018 to 2020"), another
person's car or fence, a self-repaired diet, an idiom ("in the clear now"), "Me: ok." and a
pasted "K: V / K2: V2" line read no value; "a 2022 ID.4" is not cut to "2022 ID". Each chat
reads as on main or better; the readings' gains stay (tests/test_fact_whole51*.py)."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_types import Fact
from tests.engine_fakes import absorbed
from tests.fact_ledger import replaced_by_map, stated_status


def _chat(said: str, later: str, reply: str = "Ok.") -> list[Fact]:
    return absorbed(("user", said), ("assistant", reply), ("user", later))


@pytest.mark.parametrize(("said", "later", "value"), [
    ("My car is a 2016 Golf.", "Totalled it last week. Renting for now.", "2016 Golf"),
    ("I drive a 2016 Golf.", "It got stolen.", "2016 Golf"),
    ("I ride a 2019 Ducati.", "Sold it.", "2019 Ducati"),
    ("I drive a Tesla.", "Not anymore — we sold it.", "Tesla"),
    ("I'm vegan.", "I quit being vegan.", "vegan"),
    ("I'm vegan.", "Was vegan. Eating everything now.", "vegan"),
    ("i'm vegan", "not vegan anymore", "vegan"),
    ("I'm keto.", "Off keto now.", "keto"),
    ("I commute by bike.", "My bike got stolen, taking the bus.", "bike"),
    ("We have a 2018 Golf and a 2010 Polo.", "Sold the Polo.", "2010 Polo"),
    ("North bed: basil.", "Basil died. Mint there now.", "basil"),
    ("I drive a 2016 Golf.", "Replaced it with a 2022 ID.4.", "2016 Golf"),
    # variants: other things, other registers
    ("my laptop is a ThinkPad X1", "sold it last month", "ThinkPad X1"),
    ("we use a Synology", "got rid of it", "Synology"),
    ("my laptop is a ThinkPad", "the ThinkPad died, using my phone", "ThinkPad"),
    ("we're paleo", "we're no longer paleo", "paleo"),
    ("My car is a 2016 Golf.", "We sold the car.", "2016 Golf"),
    ("My car is a 2016 Golf.", "totaled it", "2016 Golf"),
    ("The hens are on layer pellets.", "We gave away the hens.", "layer pellets"),
])
def test_an_ended_value_is_replaced(said: str, later: str, value: str) -> None:
    assert stated_status(_chat(said, later), value) == "replaced"


@pytest.mark.parametrize(("said", "later", "value", "reply"), [
    ("I drive a Tesla.", "Would you sell it?", "Tesla", "Ok."),
    ("I drive a Tesla.", "Thinking of selling it.", "Tesla", "Ok."),
    ("I drive a Tesla.", "My brother sold his.", "Tesla", "Ok."),
    ("I drive a Tesla.", "If it got stolen I'd cry.", "Tesla", "Ok."),
    ("I drive a Tesla and live in Leeds.", "Sold it.", "Tesla", "Ok."),  # which one?
    ("I'm vegan.", "My sister quit being vegan.", "vegan", "Ok."),
    ("I'm vegan.", "I was vegan for years.", "vegan", "Ok."),
    ("He's vegetarian.", "He gave it up.", "vegetarian", "Ok."),
    ("My dentist is Dr. Ames.", "Not anymore.", "Dr. Ames", "Do you still smoke?"),
    ("My dentist is Dr. Ames.", "No, quit it last year.", "Dr. Ames", "Do you still smoke?"),
    ("The hens are on layer pellets.", "Dog died.", "layer pellets", "Ok."),
    ("My car is a 2016 Golf.", "My neighbour sold the car.", "2016 Golf", "Ok."),
    ("My car is a 2016 Golf.", "Should we sell the car?", "2016 Golf", "Ok."),
    ("My car is a 2016 Golf and my bike is a Brompton.", "Sold it.", "Brompton", "Ok."),
])
def test_no_ending_of_the_users_value(said: str, later: str, value: str, reply: str) -> None:
    assert stated_status(_chat(said, later, reply), value) == "current"


@pytest.mark.parametrize(("said", "later", "junk"), [
    ("The front door was green.", "It's yellow now.", "green"),
    ("Her hair was red.", "It's grey now.", "red"),
    ("The sofa was blue.", "It's been green since we reupholstered.", "blue"),
    ("I was vegan from 2018 to 2020.", "Fine.", "vegan"),
    ("I'm vegetarian — er, pescatarian.", "Fish ok.", "vegetarian"),
    ("My dad drives a 1998 Land Cruiser.", "Still runs.", "1998 Land Cruiser"),
    ("We're in the clear now.", "Phew.", "clear"),
    ("My head is in the game now.", "Let's go.", "game"),
    ("we're in the zone now", "yes", "zone"),
    ("Me: what's the plan?", "Me: ok.", "ok"),
    ("I drive a 2016 Golf.", "Replaced it with a 2022 ID.4.", "2022 ID"),
])
def test_no_value_read(said: str, later: str, junk: str) -> None:
    assert stated_status(_chat(said, later), junk) is None


def test_a_pasted_line_of_labels_is_two_values() -> None:
    ledger = _chat("hostname: web-01 / ip: 10.1.1.1", "rebuilt. hostname web-02, same ip")
    assert not any("web-01" in f.value and "10.1.1.1" in f.value for f in ledger)
    old = next(f for f in ledger if f.value == "web-01")  # (merged with the leads narrowing:
    assert old.status == "replaced" or old.possibly_replaced_by is not None  # possibly, as main)


def test_a_neighbours_fence_is_not_the_users() -> None:
    ledger = _chat("The fence is white.", "Neighbour painted his fence black.")
    assert stated_status(ledger, "white") == "current"
    assert stated_status(ledger, "black") is None


@pytest.mark.parametrize(("said", "value"), [
    ("The front door is navy blue.", "navy blue"),
    ("we drive a 2015 Prius", "2015 Prius"),
    ("I'm vegan.", "vegan"),
    ("we're at the library annex now", "library annex"),
    ("The hens are on layer pellets.", "layer pellets"),
    ("I commute by bike.", "bike"),
    ("Roof: fine.", "fine"),
    ("Pets allowed: yes", "yes"),
])
def test_the_readings_stay(said: str, value: str) -> None:
    assert stated_status(_chat(said, "Thanks."), value) == "current"


def test_we_painted_our_own_fence() -> None:
    ledger = _chat("The fence is white.", "We painted the fence black.")
    assert stated_status(ledger, "black") == "current"
    assert "white" not in replaced_by_map(ledger)  # (possibly replaced, as before)


def test_a_qualified_message_label_labels_no_value() -> None:
    """"quick update:" is a part of the message, as "update:" is (the perturbation harness's
    lead-update family: "quick update: data now lives in eu-north-1." read "data" as the
    label's value and replaced nothing)."""
    ledger = _chat("The data is stored in eu-west-1.",
                   "quick update: data now lives in eu-north-1.")
    assert stated_status(ledger, "eu-west-1") == "replaced"
    assert stated_status(ledger, "data") is None
