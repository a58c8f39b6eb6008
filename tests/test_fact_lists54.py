"""Stop 54, lists: several facts in one message, each with its own key.

- A header list whose items open with bare numbers ("Thermostat: 19.5 in the day, 16
  overnight"): every item is a value of (header, the item's words), not only the first one
  after the colon.
- A setting written "name=N" ("tabSize=4", "volume = 7") holds its number, however short.
- Items that share their label after the name they belong to ("Servers: Alpha port 8080,
  Beta port 9090"): each name is a word of its own item's key, the first one too.
- A word of sameness ("hers is unchanged", "the time is untouched") is no value: it keeps
  what the ledger holds and leaves the message's own new value standing.
"""

from __future__ import annotations

import pytest

from tests.fact_ledger import chat as _chat
from tests.fact_ledger import current_set, replaced_by_map


def _keys(ledger) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {f.value: f.key for f in ledger if f.status == "current"}


# ------------------------------------------------------------ bare numbers in a header list


@pytest.mark.parametrize(("said", "values"), [
    ("thermostat schedule: 19.5 in the day, 16 overnight", ("19.5", "16")),
    ("dosage: 2.5 in the morning, 5 at night", ("2.5", "5")),
    ("speed limits: 30 in town, 60 on the motorway", ("30", "60")),
    ("pool temps: 28 for the kids pool, 26 in the lap pool", ("28", "26")),
])
def test_bare_numbers_of_a_header_list_are_each_a_value(said: str,
                                                        values: tuple[str, ...]) -> None:
    keys = _keys(_chat(said))
    assert set(values) <= set(keys)
    assert len({keys[v] for v in values}) == len(values)  # each its own key


def test_a_later_item_of_a_header_list_is_corrected_alone() -> None:
    ledger = _chat("thermostat schedule: 19.5 in the day, 16 overnight", "A: Noted.",
                   "overnight is 15 now")
    assert replaced_by_map(ledger).get("16") == "15"
    assert "19.5" in current_set(ledger)


@pytest.mark.parametrize("said", [
    "Fees: £40 adults, 15 children",  # a bare number beside money: no list of numbers
    "Reminder: 3 things, 2 people",  # bare numbers alone: counts, as before
])
def test_a_bare_number_beside_no_bare_number_value_is_left(said: str) -> None:
    assert "15" not in current_set(_chat(said)) and "2" not in current_set(_chat(said))


# ------------------------------------------------------------------------- name=N settings


@pytest.mark.parametrize(("said", "value"), [
    ("editor settings for the record:\neditor.fontSize=13\neditor.tabSize=4", "4"),
    ("fontSize=13\ntabSize=4", "4"),
    ("my settings: volume=7, brightness=40", "7"),
    ("retries = 3 and timeout=30", "3"),
])
def test_a_short_number_after_a_names_equals_sign_is_its_value(said: str, value: str) -> None:
    assert value in current_set(_chat(said))


def test_a_short_assigned_setting_is_corrected() -> None:
    ledger = _chat("my settings: volume=7, brightness=40", "A: Noted.",
                   "volume=9 now. brightness untouched")
    assert replaced_by_map(ledger).get("7") == "9"
    assert "40" in current_set(ledger)


@pytest.mark.parametrize("said", ["2+2=4 right?", "if workers=2 would it be faster?"])
def test_sums_and_hypotheticals_hold_no_assigned_setting(said: str) -> None:
    assert not ({"2", "4"} & current_set(_chat(said)))


# ---------------------------------------------------------------- parallel items of a list


@pytest.mark.parametrize(("said", "later", "old", "new", "kept"), [
    ("servers: Alpha port 8080, Beta port 9090", "Alpha port is 8181 now",
     "8080", "8181", "9090"),
    ("rooms: Hall A capacity 150 seats, Hall B capacity 80 seats",
     "fire marshal visited, Hall A is 120 seats now. B unchanged",
     "150 seats", "120 seats", "80 seats"),
    ("bikes: Trek tyre pressure 80 psi; Giant tyre pressure 60 psi",
     "Giant tyre pressure is 65 psi now", "60 psi", "65 psi", "80 psi"),
])
def test_each_parallel_item_keeps_its_name_in_its_key(said: str, later: str, old: str,
                                                      new: str, kept: str) -> None:
    first = _chat(said)
    assert not ({"Alpha", "Hall A", "Trek"} & current_set(first))  # no header's value
    ledger = _chat(said, "A: Noted.", later)
    assert replaced_by_map(ledger).get(old) == new
    assert kept in current_set(ledger)


def test_items_of_one_head_noun_are_parallel() -> None:
    keys = _keys(_chat("Staff rota: Jenny morning shift 6am, Carl night shift 10pm"))
    assert "jenny" in keys["6am"] and "carl" in keys["10pm"]


@pytest.mark.parametrize("said", [
    "vet: Dr Alvarez at Greenway",  # one item: the header's value stays
    "Team: Priya lead dev, Sam designer",  # no value ends the items
])
def test_a_name_after_a_colon_without_parallel_items_stays(said: str) -> None:
    assert any(v.startswith(("Dr Alvarez", "Priya")) for v in current_set(_chat(said)))


# ------------------------------------------------------------------------ words of sameness


@pytest.mark.parametrize(("first", "later", "new"), [
    ("my seat is 43, mum is in seat 41", "they moved me to seat 44, hers is unchanged",
     "seat 44"),
    ("my desk is 4, Tom has desk 7", "I moved to desk 9, his is untouched", "desk 9"),
])
def test_a_word_of_sameness_is_no_value(first: str, later: str, new: str) -> None:
    current = current_set(_chat(first, "A: Noted.", later))
    assert new in current
    assert not ({"unchanged", "untouched"} & current)


@pytest.mark.parametrize("said", ["the plan is unchanged", "is the venue unchanged?",
                                  "the room is the same"])
def test_sameness_alone_states_nothing(said: str) -> None:
    assert not current_set(_chat(said))


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("Net: upstairs SSID Fernhill-Up, downstairs SSID Fernhill-Down",
     "the downstairs SSID is Fernhill-Low now", "Fernhill-Down", "Fernhill-Low"),
    ("wifi: guest network Beacon, main network Harbour", "main network is Lighthouse now",
     "Harbour", "Lighthouse"),
])
def test_a_capitalised_word_ending_parallel_items_is_their_value(said: str, later: str,
                                                                 old: str, new: str) -> None:
    ledger = _chat(said, "A: Noted.", later)
    assert replaced_by_map(ledger).get(old) == new
    assert len(current_set(ledger)) == 2


@pytest.mark.parametrize("said", [
    "Note: I talked to Mum, then called Dad",  # no label words: no parallel items
    "lunch: main course Lasagne, then Tiramisu",  # the second item is no NAME LABEL VALUE
])
def test_a_list_of_other_items_marks_no_parallel_values(said: str) -> None:
    assert not any(f.key.startswith(("|note", "note")) for f in _chat(said))


# ------------------------------------------------------------- a titled name and its verb


@pytest.mark.parametrize(("said", "keys"), [
    ("Theatre: Act 1 runs 55 minutes, Act 2 runs 48 minutes", ("act 1", "act 2")),
    ("Phase 1 costs £400, Phase 2 costs £650", ("phase 1", "phase 2")),
    ("Stage 3 takes 4 days", ("stage 3",)),
    ("Platform 9 gets 3 trains an hour", ("platform 9",)),
])
def test_a_titled_name_before_its_verb_is_the_key(said: str, keys: tuple[str, ...]) -> None:
    ledger = _chat(said)
    subjects = {" ".join(f.key.split("|")[:2]).strip() for f in ledger if f.status == "current"}
    assert set(keys) <= subjects
    assert not any(v.endswith((" runs", " costs", " takes", " gets")) for v in current_set(ledger))


def test_a_titled_item_is_corrected_alone() -> None:
    ledger = _chat("Act 1 runs 55 minutes, Act 2 runs 48 minutes", "A: Noted.",
                   "Act 1 runs 50 minutes now")
    assert replaced_by_map(ledger) == {"55 minutes": "50 minutes"}
    assert "48 minutes" in current_set(ledger)


@pytest.mark.parametrize(("said", "count"), [
    ("we have 3 kids 2 dogs", "3 kids"),  # no title before the number: a count
    ("Year 8 reports are due Friday", None),  # a copula after: a name, as before
])
def test_counts_without_a_title_and_verb_stay(said: str, count: str | None) -> None:
    current = current_set(_chat(said))
    assert count is None or count in current


# ------------------------------------------------------- a clause of sameness keeps its key


@pytest.mark.parametrize(("first", "later", "old", "kept"), [
    ("thermostat: 19.5 in the day, 16 overnight", "bumped it to 20.5, overnight unchanged",
     "19.5", "16"),
    ("prices: £40 adults, £15 children", "it is £45 now, children unchanged", "£40", "£15"),
    ("ports: web 8080, admin 9090", "moved it to 8081, admin untouched", "8080", "9090"),
    ("ports: web 8080, admin 9090", "moved it to 8081. admin stays", "8080", "9090"),
])
def test_a_kept_key_is_no_candidate_of_the_correction(first: str, later: str, old: str,
                                                      kept: str) -> None:
    ledger = _chat(first, "A: Noted.", later)
    assert kept in current_set(ledger)
    assert all(f.possibly_replaced_by is None for f in ledger if f.value == kept)
    assert old in replaced_by_map(ledger) or any(
        f.possibly_replaced_by for f in ledger if f.value == old)


def test_a_kept_key_among_several_is_left_unmarked() -> None:
    ledger = _chat("ports: web 8080, admin 9090, metrics 9100", "A: Noted.",
                   "moved it to 8081, admin untouched")
    marked = {f.value for f in ledger if f.possibly_replaced_by}
    assert "9090" not in marked and {"8080", "9100"} <= marked  # (only possibly: two left)


def test_a_question_with_a_kept_clause_replaces_nothing() -> None:
    ledger = _chat("ports: web 8080, admin 9090", "A: Noted.",
                   "what if we moved it to 8081, admin untouched?")
    assert {"8080", "9090"} <= current_set(ledger) and not replaced_by_map(ledger)
    assert not any(f.possibly_replaced_by for f in ledger)


@pytest.mark.parametrize(("said", "words"), [
    ("bumped it to 20.5, overnight unchanged", {"overnight"}),
    ("Floor and time the same", {"floor", "time"}),
    ("secondary and block unchanged", {"secondary", "block"}),
    ("NSF extended the deadline to Feb 14, same cutoff time", {"cutoff", "time"}),
    ("overnight stays 16", {"overnight"}),
    ("trade price stays", {"trade", "price"}),
    ("hers is unchanged", set()),
    ("I changed everything, it is not the same", set()),
])
def test_the_words_a_clause_of_sameness_keeps(said: str, words: set[str]) -> None:
    from ollm_desktop.engine.fact_kept_clauses import kept_words
    assert kept_words(said) == {w.rstrip("s") for w in words}


def test_the_subject_of_a_clause_of_sameness_is_no_value() -> None:
    ledger = _chat("editor settings for the record:\neditor.fontSize=13\neditor.tabSize=4",
                   "A: Font size 13, tab size 4.",
                   "set editor.fontSize=15 today. tabSize untouched")
    assert "tabSize" not in current_set(ledger)
    assert {"15", "4"} <= current_set(ledger)


def test_a_value_restated_as_unchanged_stays_a_value() -> None:
    ledger = _chat("New episodes drop Tuesdays at 6 am, bonus episodes on Fridays.",
                   "A: Tuesday 6 am drops, bonus on Fridays.",
                   "From now on main episodes drop on Mondays; Fridays unchanged")
    assert {"Fridays", "Mondays"} <= current_set(ledger)


@pytest.mark.parametrize("later", ["make the night one 18, the kids complained it's freezing",
                                   "make the night 18", "ok make the night one 18"])
def test_make_the_key_a_number_replaces_its_value(later: str) -> None:
    ledger = _chat("thermostat: 21 during the day, 17 at night", "A: Day 21, night 17. Saved.",
                   later)
    assert replaced_by_map(ledger).get("17") == "18"
    assert "21" in current_set(ledger)


@pytest.mark.parametrize("later", ["could you make the night one 18?",
                                   "we make the best pizza 2"])
def test_make_in_a_question_or_prose_replaces_nothing(later: str) -> None:
    ledger = _chat("thermostat: 21 during the day, 17 at night", "A: Noted.", later)
    assert {"21", "17"} <= current_set(ledger) and not replaced_by_map(ledger)
