"""Siblings that share words (issue 28, stop 52 round 2). A long owner keeps the word that
tells siblings apart (``fact_sibling_marks``: "ground floor ceiling height", "left monitor
speaker input"), so a correction naming one sibling ("first floor will be 2.5 m", "south
wing is 1.4 bar now") takes that one's value and never the other's; "the right one" is a
side where the ledger holds a left/right pair of one key (``fact_side_one``), a word of
correctness otherwise. Questions, suggestions, someone else's wish and the assistant's
reply take nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ollm_desktop.engine.fact_sibling_marks import marked_owner
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.provenance import message_facts
from tests.fact_ledger import play_forward, play_late


def _status(ledger: list[Fact], value: str) -> str:
    fact = next(f for f in ledger if f.value == value and f.kind != "question")
    return "possibly" if fact.possibly_replaced_by else fact.status


@pytest.mark.parametrize(("said", "later", "replaced", "kept"), [
    # S1: a sibling mark before a long owner stays in the key
    ("ground floor ceiling height 2.6 m, first floor ceiling height 2.4 m",
     "first floor will be 2.5 m, we're dropping the joists", "2.4 m", "2.6 m"),
    ("north wing boiler pressure 1.5 bar, south wing boiler pressure 1.2 bar",
     "south wing will be 1.4 bar after the service", "1.2 bar", "1.5 bar"),
    ("front left tyre pressure 2.2 bar, rear left tyre pressure 2.4 bar",
     "rear left should be 2.5 bar", "2.4 bar", "2.2 bar"),
    # (these three read right on integ52 too: guards of the wider keys)
    ("upstairs bathroom fan timer 10 min, downstairs bathroom fan timer 15 min",
     "the downstairs one is 20 min now", "15 min", "10 min"),
    ("primary dns server address 1.1.1.1, secondary dns server address 9.9.9.9",
     "secondary is 8.8.4.4 now", "9.9.9.9", "1.1.1.1"),
    ("outer wall insulation thickness 100mm, inner wall insulation thickness 50mm",
     "inner wall is 75mm actually", "50mm", "100mm"),
    # S2: "the right one" beside a left/right pair is the right side's
    ("the left speaker is on channel 3 and the right speaker is on channel 4",
     "actually the right one is on channel 6", "channel 4", "channel 3"),
    ("the left monitor speaker is on input 3 and the right monitor speaker is on input 4 on "
     "the interface", "actually the right one is on input 6, i plugged it into the wrong jack",
     "input 4", "input 3"),
    ("left ear aid volume 4, right ear aid volume 5", "the right one is 6 now", "5", "4"),
    ("Left hand grip strength 31 kg; right hand grip strength 35 kg.",
     "oops the right one was 38 kg", "35 kg", "31 kg"),
])
def test_a_correction_takes_only_its_sibling(said: str, later: str, replaced: str,
                                             kept: str) -> None:
    ledger = play_forward(said, later)
    assert _status(ledger, replaced) == "replaced"
    assert _status(ledger, kept) == "current"


@pytest.mark.parametrize("later", [
    "is the right one on channel 6?",
    "maybe put the right one on channel 6?",
    "what if the right one went on channel 6",
    "my brother wants the right one on channel 6",
])
def test_no_statement_takes_a_side(later: str) -> None:
    ledger = play_forward("the left speaker is on channel 3 and the right speaker is on "
                          "channel 4", later)
    assert _status(ledger, "channel 3") == "current"
    assert _status(ledger, "channel 4") == "current"


def test_a_reply_takes_no_side() -> None:
    ledger = play_forward("the left speaker is on channel 3 and the right speaker is on "
                          "channel 4", "ok", reply="I'd put the right one on channel 6.")
    assert _status(ledger, "channel 3") == "current"
    assert _status(ledger, "channel 4") == "current"


def test_right_without_left_is_correctness() -> None:
    """No left/right pair: "the right one" says the value is correct, keyless as before."""
    ledger = play_forward("the speaker is on channel 3", "actually the right one is channel 6")
    assert _status(ledger, "channel 3") == "replaced"


@pytest.mark.parametrize(("words", "owner"), [
    (["ground", "floor", "ceiling"], ["ground", "floor", "ceiling"]),
    (["left", "monitor", "speaker"], ["left", "monitor", "speaker"]),
    (["front", "left", "tyre"], ["front", "left", "tyre"]),
    (["big", "floor", "ceiling"], ["floor", "ceiling"]),  # no mark: cut as before
    (["minimum", "python", "version"], ["python", "version"]),  # a bound is no sibling mark
    (["left", "speaker"], ["left", "speaker"]),
])
def test_marked_owner(words: list[str], owner: list[str]) -> None:
    assert marked_owner(words) == owner


def test_a_bound_keeps_its_measure_key() -> None:
    """"minimum Python version requirement": the Python version's key, as before."""
    found = message_facts("This change updates our minimum Python version requirement to "
                          "3.10, allowing us to bump several packages.")
    assert [f.key for f in found] == ["python version|requirement|number"]


@pytest.mark.parametrize(("said", "later", "replaced", "kept"), [
    # S3: a capital "A" after a noun names one of its kind ("fridge A"), never the article
    ("cold storage in bay 3:\nfridge A: 4°C\nfreezer A: -20°C",
     "freezer A got reset to -25°C by facilities, fridge is fine", "-20°C", "4°C"),
    ("locker A code 4471, locker B code 9020", "locker A is 5512 now", "4471", "9020"),
    ("tank A ph 7.2; tank B ph 6.8", "tank A ph is 7.0 now", "7.2", "6.8"),
    ("Gate A opens 7:30, gate B opens 8:00", "gate A opens at 7:15 now", "7:30", "8:00"),
    # S4: a round trip's legs stated side by side: "return" is "back", "outbound" is "out"
    ("ferry out at 7:40, ferry back at 18:10",
     "return ferry is actually 17:25, I read the summer timetable", "18:10", "7:40"),
    ("train there at 8:05, train back at 17:40", "the returning train is 18:10 now",
     "17:40", "8:05"),
])
def test_a_named_sibling_takes_only_its_value(said: str, later: str, replaced: str,
                                              kept: str) -> None:
    ledger = play_forward(said, later)
    assert _status(ledger, replaced) == "replaced"
    assert _status(ledger, kept) == "current"


@pytest.mark.parametrize(("said", "later"), [
    ("tank A ph 7.2; tank B ph 6.8", "should tank A go to 7.0?"),
    ("ferry out at 7:40, ferry back at 18:10", "should the return ferry be 17:25?"),
    ("locker A code 4471, locker B code 9020", "my flatmate wants locker A to be 5512"),
])
def test_no_statement_takes_a_named_sibling(said: str, later: str) -> None:
    ledger = play_forward(said, later)
    assert all(f.status == "current" and not f.possibly_replaced_by for f in ledger
               if f.kind != "question" and f.message_id == ledger[0].message_id)


@pytest.mark.parametrize("play", [play_forward, play_late])
def test_a_leg_in_other_words_in_both_orders(play: Callable[[str, str], list[Fact]]) -> None:
    ledger = play("shuttle out at 8:05, shuttle back at 17:40", "the return shuttle is now 18:10")
    assert _status(ledger, "17:40") == "replaced"
    assert _status(ledger, "8:05") == "current"


def test_a_leg_unnamed_stays_uncertain() -> None:
    """"bus is 7:30 now" names neither leg: both stay, marked, as before."""
    ledger = play_forward("bus out at 7:10, bus back at 16:00", "bus is 7:30 now")
    assert _status(ledger, "7:10") == "possibly"
    assert _status(ledger, "16:00") == "possibly"


@pytest.mark.parametrize("said", ["We bought A new laptop for 900 pounds",
                                  "we need A lot of 5 kg bags"])
def test_the_article_stays_an_article(said: str) -> None:
    assert [f.key for f in message_facts(said)] == \
        [f.key for f in message_facts(said.replace(" A ", " a "))]


@pytest.mark.parametrize(("said", "later", "replaced", "kept"), [
    # S5: a weekday right before a noun owns its value, however the day is spelled
    ("Mon yoga is at 7 pm, Wed yoga is at 6 pm.", "Wednesday yoga is 6:30 pm now.",
     "6 pm", "7 pm"),
    ("Tue swim 6am, Thu swim 7am", "thursday swim is 7:30am now", "7am", "6am"),
    ("Wednesday yoga is at 6 pm, Friday yoga at 7 pm", "wed yoga moved to 6:15pm",
     "6 pm", "7 pm"),
    ("Sat football 10:00, Sun football 11:00", "Sunday football is 11:30 now",
     "11:00", "10:00"),
    ("Mon standup 9:15, Fri standup 10:00", "friday standup got pushed to 10:30",
     "10:00", "9:15"),
])
def test_a_weekday_names_its_sibling(said: str, later: str, replaced: str,
                                     kept: str) -> None:
    ledger = play_forward(said, later)
    assert _status(ledger, replaced) == "replaced"
    assert _status(ledger, kept) == "current"


@pytest.mark.parametrize(("said", "later"), [
    ("Mon yoga is at 7 pm, Wed yoga is at 6 pm.", "should wednesday yoga be 6:30 pm?"),
    ("Tue swim 6am, Thu swim 7am", "my coach wants thursday swim at 7:30am"),
])
def test_no_statement_takes_a_weekdays_value(said: str, later: str) -> None:
    ledger = play_forward(said, later)
    assert all(f.status == "current" and not f.possibly_replaced_by for f in ledger
               if f.message_id == ledger[0].message_id)


def test_a_weekday_after_its_noun_stays_a_date() -> None:
    found = message_facts("moved yoga to Thursday")
    assert [(f.key, f.value) for f in found] == [("|yoga|date", "Thursday")]
