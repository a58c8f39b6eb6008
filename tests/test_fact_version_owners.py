"""Issue 28: "the version of NAME" names the product whose version the sentence states ("raise
the minimum supported version of Ruby to 3.2" is Ruby's version, and replaces "Ruby 3.1"); the
name is no value of its own."""

from __future__ import annotations

from ollm_desktop.engine.facts_extract import extract
from tests.engine_fakes import absorbed, fact_of, value_of


def test_the_name_after_version_of_is_the_version_s_product() -> None:
    found = extract("user", "Please raise the lowest version of Elixir to 1.15.")
    assert [f.value for f in found] == ["1.15"]
    assert found[0].key.split("|")[0] == "elixir"


def test_a_version_of_a_name_replaces_that_product_s_earlier_version() -> None:
    ledger = absorbed(("user", "Our CI image ships Ruby 3.1."),
                      ("user", "Bump the required version of Ruby to 3.3 for the new parser."))
    assert fact_of(ledger, "Ruby 3.1").status == "replaced"
    assert value_of(ledger, fact_of(ledger, "Ruby 3.1").replaced_by) == "3.3"


def test_a_version_of_another_product_in_the_sentence_keeps_its_own_key() -> None:
    found = {f.value: f for f in extract(
        "user", "The version of Go is 1.22 and the build uses Node 20.")}
    assert "go" not in found["Node 20"].key.split("|")[0]


def test_the_name_before_version_is_the_version_s_product() -> None:
    found = {f.value: f for f in extract(
        "user", "The dashboard's oldest supported Vue.js version is 2.7.")}
    assert list(found) == ["2.7"]
    assert found["2.7"].key.split("|")[0] == "vue.js"
