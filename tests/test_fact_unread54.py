"""Stop 54, values the user stated that no reader took (issue 28): each reading is a step that
dropped every value of one shape or place, not one sentence.

- A ratio of colon-joined parts ("1:1:1", "1:4", "16:9") is one value; a clock ("9:30") and
  a thing so named after a determiner ("my 1:1 with Sam") are not ratios.
- One capital, a hyphen and three digits or more ("E-77302", "N-30818") is an identifier.
- A key's abbreviation in capitals ("Staff ID", "Passport ID") is the key, never a value.
- The digits after a noun's "no" ("acc no 70013345", "policy no 88231").
- A designator in a list ("outbound seat 7A, return seat 12D") is read, each item its own.
- A number after a verb in "-ing" right after "we're" / "I'm" ("we're inviting 140"): the
  verb's count, its key.
- A number before a copula after a comma opens a clause ("…, 2222 was the old image"): the
  past there does not reach the clause before it.
- A diary's "did a ramp test today, …" states (no "?").
- "its sunflower99 now", "password is sunflower99 now": a code before "now".
"""

from __future__ import annotations

import pytest

from tests.fact_ledger import chat as _chat
from tests.fact_ledger import current_set, replaced_by_map


def _values(ledger) -> set[str]:  # type: ignore[no-untyped-def]
    return {f.value for f in ledger}


def _stated(ledger) -> set[str]:  # type: ignore[no-untyped-def]
    """The current values stated (an open question's are no statement)."""
    return {f.value for f in ledger if f.kind != "question"} & current_set(ledger)


@pytest.mark.parametrize(("said", "value"), [
    ("We feed the sourdough starter 1:1:1", "1:1:1"),
    ("we mix the mortar 1:4", "1:4"),
    ("aspect ratio 16:9", "16:9"),
    ("the concrete mix is 1:2:3 now", "1:2:3"),
    ("epoxy goes 2:1, resin to hardener", "2:1"),
])
def test_a_ratio_of_colon_parts_is_one_value(said: str, value: str) -> None:
    assert value in current_set(_chat(said, "A: Noted.", "thanks"))


def test_a_clock_is_no_ratio() -> None:
    assert "9:30" in current_set(_chat("the standup is at 9:30", "A: Noted.", "thanks"))


def test_a_meeting_named_one_to_one_is_no_keyless_ratio() -> None:
    ledger = _chat("my 1:1 with the boss is on tuesday", "A: Noted.", "thanks")
    assert not any(f.value == "1:1" and not f.key.strip("|") for f in ledger)


def test_a_ratio_replaces_a_ratio() -> None:
    ledger = _chat("the starter gets fed 1:1:1", "A: Noted.",
                   "switched to 1:5:5 for the overnight feed, the starter is now 1:5:5")
    assert "1:5:5" in current_set(ledger)
    assert "1:1:1" in replaced_by_map(ledger)


@pytest.mark.parametrize(("said", "value"), [
    ("At the new place I'm E-77302", "E-77302"),
    ("Staff ID N-30818.", "N-30818"),
    ("Passport ID X1234567", "X1234567"),
    ("my badge is B-4410 now", "B-4410"),
    ("savings moved banks, acc no 70013345", "70013345"),
    ("my policy no 88231", "88231"),
])
def test_identifiers_and_measures_of_one_token_are_read(said: str, value: str) -> None:
    assert value in current_set(_chat(said, "A: Noted.", "thanks"))


@pytest.mark.parametrize("said", [
    "Staff ID N-30818", "Member ID AB-1234", "guest SSID Kestrel",
])
def test_a_key_abbreviation_is_no_value(said: str) -> None:
    assert not {"ID", "SSID"} & current_set(_chat(said, "A: Noted.", "thanks"))


@pytest.mark.parametrize("said", [
    "I said no 1000 times", "there is no 2000 limit.", "the I-95 was jammed",
])
def test_no_number_after_a_closed_word(said: str) -> None:
    assert not {"1000", "2000", "I-95"} & current_set(_chat(said, "A: Noted.", "thanks"))


@pytest.mark.parametrize(("said", "values"), [
    ("outbound flight EZY8721 seat 7A, return flight EZY8722 seat 12D",
     {"EZY8721", "seat 7A", "EZY8722", "seat 12D"}),
    ("outbound seat 7A, return seat 12D", {"seat 7A", "seat 12D"}),
    ("booking: berth 14C, 3 nights", {"berth 14C", "3 nights"}),
])
def test_designators_in_a_list_are_each_read(said: str, values: set[str]) -> None:
    assert values <= current_set(_chat(said, "A: Noted.", "thanks"))


@pytest.mark.parametrize(("said", "value"), [
    ("we're inviting 140", "140"),
    ("The venue holds 150 people, and we're inviting 140.", "140"),
    ("I'm bringing 12", "12"),
    ("we are expecting 35", "35"),
])
def test_a_verbs_count_is_read(said: str, value: str) -> None:
    assert value in current_set(_chat(said, "A: Noted.", "thanks"))


@pytest.mark.parametrize("said", [
    "we're thinking 140",  # weighing, not having
    "are we inviting 140?",
    "maybe we invite 140",
    "she weighs 62",  # no key: any number would seem to replace it
    "it costs 40",
    "we ordered 24",  # the past
    "we were expecting 24",
    "the grafana port is now 3300 since the new node exporter grabbed 3000",
])
def test_a_verbs_count_only_where_it_holds(said: str) -> None:
    assert not {"140", "62", "40", "24", "3000"} & _stated(_chat(said, "A: Noted.", "ok"))


def test_a_verbs_count_replaces_nothing_keyless() -> None:
    ledger = _chat("we're inviting 140", "A: ok", "she weighs 62", "A: ok", "it costs 40")
    assert "140" in current_set(ledger)
    assert "140" not in replaced_by_map(ledger)


@pytest.mark.parametrize(("said", "value"), [
    ("correction: sshd on the jump box actually listens on 2200, 2222 was the old image",
     "2200"),
    ("the api runs on 8443, 8080 was the old port", "8443"),
    ("redis listens on 6380, 6379 was the default one", "6380"),
])
def test_a_number_before_its_copula_opens_a_clause(said: str, value: str) -> None:
    assert value in current_set(_chat(said, "A: Noted.", "ok"))


@pytest.mark.parametrize(("said", "value"), [
    ("did a ramp test today, FTP went from 255W to 268W.", "268W"),
    ("had a checkup, my weight is 82 kg", "82 kg"),
    ("did a 5k this morning, time was 24:10", "24:10"),
])
def test_a_diarys_did_a_states(said: str, value: str) -> None:
    assert value in _stated(_chat(said, "A: Noted.", "ok"))


@pytest.mark.parametrize("said", [
    "did a ramp test today, FTP went from 255W to 268W?",
    "did the tests pass at 268W",
])
def test_a_question_still_asks(said: str) -> None:
    assert "268W" not in _stated(_chat(said, "A: Noted.", "ok"))


@pytest.mark.parametrize(("first", "later", "new"), [
    ("the wifi password is sunflower88", "its sunflower99 now, my roomate changed it",
     "sunflower99"),
    ("the gate code is 4471", "it's b7k2q now", "b7k2q"),
    ("the wifi password is hunter1", "password is hunter2 now", "hunter2"),
])
def test_a_code_before_now_is_read(first: str, later: str, new: str) -> None:
    assert new in current_set(_chat(first, "A: ok", later))


@pytest.mark.parametrize("said", ["it's fine now", "it's done now", "password is fixed now"])
def test_a_state_before_now_is_no_value(said: str) -> None:
    assert not {"fine", "done", "fixed"} & _values(_chat("the wifi password is x9", "A: ok",
                                                         said))


@pytest.mark.parametrize(("said", "value"), [
    ("[nas]\nip = 10.0.0.20\nshare = media", "media"),
    ("mode = fast", "fast"),
    ("theme = dark", "dark"),
])
def test_a_word_after_an_equals_sign_is_its_value(said: str, value: str) -> None:
    assert value in current_set(_chat(said, "A: Noted.", "ok"))


def test_an_equals_sign_in_a_condition_states_nothing() -> None:
    assert "fast" not in _stated(_chat("if mode = fast then it breaks", "A: Noted.", "ok"))


@pytest.mark.parametrize(("said", "value"), [
    ("We lint with flake8.", "flake8"),
    ("we ship in q3", "q3"),
    ("format it as ext4 please", "ext4"),
])
def test_a_lower_case_code_after_a_preposition_is_read(said: str, value: str) -> None:
    assert value in current_set(_chat(said, "A: Noted.", "ok"))
