"""Issue 28: a version's product is its key. "Python 3.8" and "the Python version
requirement to 3.10" are one key whatever owner each sentence names; two things' versions of
one product ("the web app's Node" and "the worker's Node") and another product's version stay
apart, and a question replaces nothing."""

from __future__ import annotations

from ollm_desktop.engine.fact_labelled_numbers import counted_unit
from tests.engine_fakes import absorbed, fact_of, value_of


def test_a_bare_number_of_a_key_naming_a_version_is_a_version() -> None:
    assert counted_unit("3.10", "python version|requirement|number") == "version"
    assert counted_unit("3.10", "python|requirement|number") == ""  # no version named
    assert counted_unit("3 weeks", "python version|requirement|week") == ""


def test_the_products_version_requirement_replaces_the_products_version() -> None:
    ledger = absorbed(("user", "The build requires Python 3.8 or newer."),
                      ("user", "We raised the Python version requirement to 3.10."))
    assert value_of(ledger, fact_of(ledger, "Python 3.8").replaced_by) == "3.10"


def test_another_products_version_stays_current() -> None:
    ledger = absorbed(("user", "The docs site needs Ruby 3.1 and the exporter needs Python "
                               "3.9."),
                      ("user", "Bump the Python version requirement to 3.12."))
    assert value_of(ledger, fact_of(ledger, "Python 3.9").replaced_by) == "3.12"
    ruby = fact_of(ledger, "Ruby 3.1")
    assert ruby.status == "current" and ruby.possibly_replaced_by is None


def test_another_things_version_of_one_product_stays_current() -> None:
    ledger = absorbed(("user", "The web app runs Node 18 and the worker runs Node 16."),
                      ("user", "We set the worker Node version to 20."))
    assert value_of(ledger, fact_of(ledger, "Node 16").replaced_by) == "20"
    web = fact_of(ledger, "Node 18")
    assert web.status == "current" and web.possibly_replaced_by is None


def test_a_question_about_the_version_replaces_nothing() -> None:
    ledger = absorbed(("user", "The service runs on PostgreSQL 14."),
                      ("user", "Should we move the PostgreSQL version requirement to 16?"))
    old = fact_of(ledger, "PostgreSQL 14")
    assert old.status == "current" and old.replaced_by is None
