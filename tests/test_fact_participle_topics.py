"""Issue 28: a participle clause has no subject of its own ("The loft insulation order is
27 rolls, covering 48 m² of floor"): its value's topic takes the owner words of the
sentence's subject, so "Loft area is now 54 m²" meets it. Only the owner words: the head
noun ("lease") never makes two owners' values meet."""

from __future__ import annotations

from ollm_desktop.engine.fact_topics import clause_subject_words
from tests.engine_fakes import absorbed, fact_of, value_of


def test_a_clauses_subject_is_the_words_before_its_copula() -> None:
    assert clause_subject_words(["the", "loft", "insulation", "order", "is"]) == \
        ["loft", "insulation", "order"]
    assert clause_subject_words(["the", "night", "bus", "runs"]) == ["night", "bus"]


def test_a_participle_clauses_value_meets_its_subjects_owner() -> None:
    ledger = absorbed(("user", "The kitchen tiling job is 40 boxes, covering 22 m² of wall."),
                      ("user", "The bathroom floor is 9 m²."),
                      ("user", "Kitchen area is now 25 m²."))
    assert value_of(ledger, fact_of(ledger, "22 m²").replaced_by) == "25 m²"
    bathroom = fact_of(ledger, "9 m²")
    assert bathroom.status == "current" and bathroom.possibly_replaced_by is None


def test_a_counted_value_of_a_participle_clause_meets_its_subject() -> None:
    ledger = absorbed(("user", "The night bus runs every 30 minutes, stopping at 12 "
                               "stations."),
                      ("user", "The day bus stops at 20 stations."),
                      ("user", "The night bus now serves 14 stations."))
    assert value_of(ledger, fact_of(ledger, "12 stations").replaced_by) == "14 stations"
    assert fact_of(ledger, "20 stations").status == "current"


def test_two_owners_of_one_head_noun_stay_apart() -> None:
    ledger = absorbed(("user", "The office lease is 3 years, covering 180 m² of space."),
                      ("user", "The warehouse lease covers 900 m²."),
                      ("user", "The warehouse area is now 950 m²."))
    office = fact_of(ledger, "180 m²")
    assert office.status == "current" and office.possibly_replaced_by is None
    assert value_of(ledger, fact_of(ledger, "900 m²").replaced_by) == "950 m²"


def test_a_question_replaces_nothing() -> None:
    ledger = absorbed(("user", "The kitchen tiling job is 40 boxes, covering 22 m² of wall."),
                      ("user", "Maybe the kitchen area is 25 m²?"))
    wall = fact_of(ledger, "22 m²")
    assert wall.status == "current" and wall.possibly_replaced_by is None
