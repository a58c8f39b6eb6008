"""Issue 28, stop 48 (the lead, on blind48-a's everyday values): the shapes of values people
write that the value finder did not read whole: a pressure or a tempo ("2.5 bar", "128 bpm"), a
dilution ("1:500"), a size in dimensions ("30x40 cm"), a container image's tag
("node:18-alpine"), how often ("twice a day", "daily."); each with its unit class, so a
correction meets the value it corrects and no other; and the readings they must not take. (A
count joined to its unit of time, "a 30-minute rollback window", was read too and taken back:
its key is the noun after it, which the keys do not read, and a held-out correction in the
matrix's chat then left its old value current.)"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_value_classes import shaped_class
from ollm_desktop.engine.provenance import message_facts
from tests.fact_ledger import status_of, user_ledger


def _values(text: str) -> dict[str, str]:
    return {f.value: f.key for f in message_facts(text)}


def test_a_pressure_said_first_is_corrected_whole() -> None:
    ledger = user_ledger("tyre pressure on the Octavia should be 2.3 bar front",
                         "2.5 bar, not 2.3 bar - just read the sticker on the door pillar")
    assert status_of(ledger, "2.5 bar") == "current"
    assert status_of(ledger, "2.3 bar") == "replaced"


@pytest.mark.parametrize("text, value", [
    ("it's 128 bpm, the singer can't breathe faster", "128 bpm"),
    ("the compressor runs at 8 bar", "8 bar"),
    ("front tyres 32 psi", "32 psi"),
    ("vitamin D 25 mcg a day", "25 mcg a day"),
])
def test_a_unit_of_pressure_tempo_or_dose_is_read_with_its_figure(text: str, value: str) -> None:
    assert value in _values(text)


def test_a_bar_that_is_a_place_is_no_unit() -> None:
    assert not any("bar" in value for value in _values("Meet at the bar at 6"))


def test_a_dilution_is_one_value_and_its_sibling_stays() -> None:
    ledger = user_ledger("Western blot: primary antibody 1:500, secondary antibody 1:2000",
                         "background was awful so the primary is 1:1000 now")
    assert status_of(ledger, "1:1000") == "current"
    assert status_of(ledger, "1:500") == "replaced"
    assert status_of(ledger, "1:2000") == "current"


@pytest.mark.parametrize("text, value", [("meet at 10:30", "10:30"), ("call at 1:45", "1:45")])
def test_a_clock_time_is_no_dilution(text: str, value: str) -> None:
    assert value in _values(text) and shaped_class(value) is None


def test_an_image_tag_is_one_name_replaced_instead() -> None:
    ledger = user_ledger("Dockerfile base is node:18-alpine",
                         "going with node:20-alpine instead of node:18-alpine, 18 is EOL")
    assert status_of(ledger, "node:20-alpine") == "current"
    assert status_of(ledger, "node:18-alpine") == "replaced"


@pytest.mark.parametrize("text, port", [("the db is db:5432", "5432"),
                                        ("the proxy is nginx:80", "80")])
def test_a_host_and_its_port_stay_an_address(text: str, port: str) -> None:
    values = _values(text)
    assert port in values and not any(":" in value for value in values)


@pytest.mark.parametrize("text, value", [("base image redis:7.2", "redis:7.2"),
                                         ("we pin python:3.12-slim", "python:3.12-slim")])
def test_an_image_with_a_dotted_or_suffixed_tag_is_one_name(text: str, value: str) -> None:
    assert value in _values(text)


def test_a_size_in_dimensions_is_corrected_by_another_size() -> None:
    ledger = user_ledger("commission: portrait on 40x50 cm canvas, oils",
                         "scratch that, the canvas is 30x40 cm")
    assert status_of(ledger, "30x40 cm") == "current"
    assert status_of(ledger, "40x50 cm") == "replaced"


@pytest.mark.parametrize("value, unit", [("1:500", "ratio"), ("30x40 cm", "dimensions cm"),
                                         ("1920x1080", "dimensions"), ("twice a day", "frequency"),
                                         ("3 times a week", "frequency"), ("daily", "frequency"),
                                         ("every 2 days", None), ("12 cups", None)])
def test_a_shape_gives_its_unit_class(value: str, unit: str | None) -> None:
    assert shaped_class(value) == unit


def test_how_often_is_replaced_by_how_often() -> None:
    ledger = user_ledger("Starter got fed twice a day over summer.",
                         "From now on the starter gets fed once a day.")
    assert status_of(ledger, "once a day") == "current"
    assert status_of(ledger, "twice a day") == "replaced"


def test_a_question_of_how_often_replaces_nothing() -> None:
    ledger = user_ledger("I feed the goldfish twice a day.", "Is once a day enough honestly?")
    assert status_of(ledger, "twice a day") == "current"


@pytest.mark.parametrize("text, value", [("From now on we deploy daily.", "daily"),
                                         ("backups run nightly now", "nightly")])
def test_how_often_in_one_word_at_its_clause_end_is_a_value(text: str, value: str) -> None:
    assert value in _values(text)


def test_a_daily_thing_is_no_value() -> None:
    assert "daily" not in _values("the daily standup is on Zoom")
