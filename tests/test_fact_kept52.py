"""Values a correction must leave current, and values never read (stop 52, kept52).

- A count that is one item of a list of a statement's values of other kinds ("sports hall,
  48 students, 9:00 start"): read as a value (``fact_listed_counts``), so a correction of
  another item leaves it current. "at 5, 3 of them left", "so far, 3 people came" are no
  list's count.
- An earlier value a plain restatement says again as it stands ("Primer stock is in box 17
  freezer B." after "box 14 in freezer B"): it holds (``fact_said_again``); a value the
  message names as old ("from cabinet C to ...", "not freezer B") is still replaced.
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.engine_fakes import absorbed
from tests.fact_ledger import stated_status


def _status(said: str, later: str, value: str) -> str | None:
    return stated_status(absorbed(("user", said), ("assistant", "Noted."), ("user", later)),
                         value)


def _values(text: str) -> list[str]:
    return [f.value for f in message_facts(text, "user") if not f.old]


@pytest.mark.parametrize(("text", "value"), [
    ("Year 9 mock exam is in the sports hall, 48 students, 9:00 start", "48 students"),
    ("PCR annealing temp 58 °C, 35 cycles", "35 cycles"),
    ("booked the hall, 120 guests, starts 7pm", "120 guests"),
    ("venue: the barn; 60 guests; dinner at 8", "60 guests"),
    ("gig at the cellar bar, 80 tickets, doors 7pm", "80 tickets"),
    ("brine 5% salt, 3 cloves", "3 cloves"),
    ("ferry at 9:10, 2 cars, 4 adults", "2 cars"),
])
def test_a_count_among_a_lists_values_is_read(text: str, value: str) -> None:
    assert value in _values(text)


@pytest.mark.parametrize(("text", "absent"), [
    ("at 5, 3 of them left", "3 of"),
    ("so far, 3 people came", "3 people"),
    ("honestly, 2 is plenty", "2 is"),
    ("48 students, 9:00 start", "48 students"),  # (no comma before it: as on main)
    ("by friday, 4 servers need patching", "4 servers"),
])
def test_a_number_that_goes_on_is_no_listed_count(text: str, absent: str) -> None:
    assert not any(v.startswith(absent) for v in _values(text))


@pytest.mark.parametrize(("said", "later", "kept", "gone"), [
    ("Year 9 mock exam is in the sports hall, 48 students, 9:00 start",
     "not the sports hall but the library. still 48 students", "48 students", "sports hall"),
    ("PCR annealing temp 58 °C, 35 cycles", "annealing temp is now 61 °C", "35 cycles",
     "58 °C"),
    ("class trip: coach leaves 8:15, 52 pupils, 6 staff", "actually 54 pupils now",
     "6 staff", "52 pupils"),
])
def test_a_correction_of_another_item_leaves_the_count(said: str, later: str, kept: str,
                                                        gone: str) -> None:
    assert _status(said, later, kept) == "current"
    assert _status(said, later, gone) != "current"


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("The primer stock is in box 14 in freezer B, second rack.",
     "Primer stock is in box 17 freezer B.", "freezer B"),
    ("my bike is locked at rack 9 in garage North", "bike is locked at rack 11 garage North",
     "garage North"),
])
def test_a_value_said_again_holds(said: str, later: str, kept: str) -> None:
    assert _status(said, later, kept) == "current"


@pytest.mark.parametrize(("said", "later", "kept"), [  # (as on main)
    ("sprint is 2 weeks, 5 devs", "sprint is 3 weeks now", "5 devs"),
    ("brine: 5% salt, 48 hours, 3 cloves", "make it 6% salt", "3 cloves"),
    ("the spare keys are in drawer 3 in cabinet C", "spare keys are in drawer 5 in cabinet C",
     "cabinet C"),
    ("the samples sit on shelf 2 of rack R4", "samples sit on shelf 6 of rack R4", "rack R4"),
    ("our stall is pitch 12 at Market Hall", "stall is pitch 15 at Market Hall now",
     "Market Hall"),
])
def test_values_kept_as_before(said: str, later: str, kept: str) -> None:
    assert _status(said, later, kept) == "current"


@pytest.mark.parametrize(("said", "later", "gone"), [
    ("the spare keys are in drawer 3 in cabinet C",
     "spare keys moved from cabinet C to drawer 5 in cabinet D", "cabinet C"),
    ("The primer stock is in box 14 in freezer B.",
     "Primer stock is in box 17, not freezer B, freezer C.", "freezer B"),
    ("The primer stock is in box 14 in freezer B.",
     "Primer stock is in box 17 in freezer C, freezer B was full.", "freezer B"),
])
def test_a_value_named_as_old_is_still_replaced(said: str, later: str, gone: str) -> None:
    assert _status(said, later, gone) != "current"


@pytest.mark.parametrize(("text", "value"), [
    ("drop is 41 Mill Lane, typo", "41 Mill Lane"),
    ("drop is 41 Mill Lane, sorry", "41 Mill Lane"),
    ("cancel is the red button, sorry", "red button"),
    ("drop was 9 Quay Street, my mistake", "9 Quay Street"),
])
def test_an_ending_verb_before_a_copula_is_a_noun(text: str, value: str) -> None:
    """"drop is X": "drop" is the clause's subject, no verb ending X."""
    found = [f for f in message_facts(text, "user") if f.value == value]
    assert found and not any(f.old for f in found)


@pytest.mark.parametrize(("text", "value"), [  # (as on main)
    ("we dropped Jira, sorry", "Jira"),
    ("dropped PureGym, typo", "PureGym"),
])
def test_an_ending_verb_with_its_object_still_ends_it(text: str, value: str) -> None:
    assert any(f.old for f in message_facts(text, "user") if f.value == value)


@pytest.mark.parametrize(("text", "value"), [
    ("redis maxmemory 2gb, policy allkeys-lru", "allkeys-lru"),
    ("lb on port 443, mode round-robin", "round-robin"),
    ("cache ttl 300s, eviction volatile-lru", "volatile-lru"),
    ("server A, os ubuntu-22", "ubuntu-22"),
    ("build on node 20; pkg manager pnpm, lockfile pnpm-lock", "pnpm-lock"),
])
def test_a_code_after_its_label_in_a_list_is_read(text: str, value: str) -> None:
    assert value in _values(text)


@pytest.mark.parametrize(("text", "word"), [
    ("done, see follow-up", "follow-up"),
    ("thanks, pls try dry-run", "dry-run"),
    ("it was fine, mostly well-known stuff", "well-known"),
    ("ok, follow-up tomorrow", "follow-up"),
    ("Is the policy allkeys-lru, or volatile-lru?", "allkeys-lru"),
])
def test_a_hyphenated_word_that_is_no_item_is_no_value(text: str, word: str) -> None:
    assert word not in [f.value for f in message_facts(text, "user") if f.kind != "question"]


@pytest.mark.parametrize(("said", "later", "kept", "new"), [
    ("redis maxmemory 2gb, policy allkeys-lru", "redis maxmemory 6gb", "allkeys-lru", "6gb"),
    ("lb on port 443, mode round-robin", "lb on port 8443 now", "round-robin", "8443"),
])
def test_a_change_of_another_item_leaves_the_code(said: str, later: str, kept: str,
                                                   new: str) -> None:
    assert _status(said, later, kept) == "current"
    assert _status(said, later, new) == "current"


def test_a_change_of_the_code_replaces_it() -> None:
    assert _status("cache ttl 300s, eviction volatile-lru", "eviction allkeys-lfu instead",
                   "volatile-lru") == "replaced"


@pytest.mark.parametrize(("text", "value"), [
    ("my solicitor for the probate is at Harlow & Finch, Leeds office", "Harlow & Finch"),
    ("our accountants are at Baker & Tilly", "Baker & Tilly"),
    ("we stayed at Bell & Anchor", "Bell & Anchor"),
])
def test_a_firm_after_at_is_one_name(text: str, value: str) -> None:
    assert value in _values(text)


@pytest.mark.parametrize(("text", "value"), [  # (as on main: two people, not a firm)
    ("dinner at Ana & Ben tonight", "Ana"),
    ("Ana & Ben lead the Tuesday shift", "Ana"),
])
def test_names_joined_by_and_that_go_on_stay_apart(text: str, value: str) -> None:
    assert not any("&" in v for v in _values(text))


@pytest.mark.parametrize(("text", "value"), [
    ("tiles are 60x60 porcelain, colour ash grey", "ash grey"),
    ("van: transit, colour white", "white"),
    ("bike: steel frame, colour racing green", "racing green"),
])
def test_a_colour_after_its_label_is_read(text: str, value: str) -> None:
    assert value in _values(text)


@pytest.mark.parametrize("text", ["what colour grey?", "if we go colour white, fine"])
def test_a_colour_asked_or_supposed_is_no_value(text: str) -> None:
    assert [f for f in message_facts(text, "user") if f.kind != "question"] == []


def test_a_change_of_another_item_leaves_the_colour() -> None:
    said = "tiles for the bathroom floor are 60x60 porcelain, colour ash grey"
    later = "gonna do 30x60 instead of 60x60. colour same"
    assert _status(said, later, "ash grey") == "current"
    assert _status(said, later, "60x60") == "replaced"


def test_a_value_said_again_holds_when_read_again() -> None:
    """A compaction reads the chat's messages again: the sibling the new value replaced is
    replaced by then, and the value said again still holds."""
    from ollm_desktop.engine import facts
    from ollm_desktop.engine.models import Message

    chat = [("user", "The primer stock is in box 14 in freezer B, second rack."),
            ("assistant", "Primers: freezer B, rack 2, box 14."),
            ("user", "Primer stock is in box 17 freezer B.")]
    messages = [Message(role=role, content=text) for role, text in chat]  # type: ignore[arg-type]
    ledger: list = []
    for _ in range(2):
        for turn, message in zip((1, 1, 2), messages, strict=True):
            facts.absorb(ledger, message, turn)
    assert stated_status(ledger, "freezer B") == "current"
    assert stated_status(ledger, "box 14") == "replaced"


@pytest.mark.parametrize(("text", "value"), [
    ("the notary appointment is with Mme Girard, 14 rue Pasteur", "14 rue Pasteur"),
    ("office at 5 avenue Foch", "5 avenue Foch"),
    ("flat is 22 calle Mayor now", "22 calle Mayor"),
    ("meet at 12 piazza Navona", "12 piazza Navona"),
    ("my aunt lives at 7 rua Augusta, Lisbon", "7 rua Augusta"),
])
def test_a_street_kind_in_lower_case_is_an_address(text: str, value: str) -> None:
    assert value in _values(text)


@pytest.mark.parametrize(("text", "part"), [
    ("sent 2 via Slack", "via"),
    ("we have 3 avenues to explore", "avenues "),
])
def test_an_english_word_is_no_street_kind(text: str, part: str) -> None:
    assert not any(part in v and f.ref_kind == "address"
                   for f in message_facts(text, "user") for v in [f.value])


def test_a_correction_of_the_person_leaves_the_address() -> None:
    said = "the notary appointment for the house sale is with Mme Girard, 14 rue Pasteur"
    later = "ah, it's with Maître Lefèvre instead of Girard, she is on leave. same office"
    assert _status(said, later, "14 rue Pasteur") == "current"
