"""Issue 28 (facts-engine): values whose key is read from the clause as a whole, and value
forms the grammar had no token for. Each case went wrong on d625f2c.

Every sentence here is our own, in words of no corpus: the forms are read by structure (the
clause's subject, verb, object and the phrase a value is placed on), not by these words.
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.fact_words import tokens_of
from ollm_desktop.engine.provenance import message_facts
from ollm_desktop.engine.references import occurs_in
from tests.engine_fakes import absorbed


def _current(ledger: list[Fact]) -> list[str]:
    return [f.value for f in ledger if f.status == "current" and f.kind != "correction"]


CASES = [
    # (form, statement, correction, new value, old value)
    ("PRONOUN VERB X on NP", "The build farm has 12 agents.",
     "We now have 16 agents on the build farm.", "16 agents", "12 agents"),
    ("NAME VERB-s the NP", "Invoices are approved by Priya.",
     "From now on Tomasz approves the invoices.", "Tomasz", "Priya"),
    ("NAME now VERB-s the NP", "Invoices are approved by Priya.",
     "Tomasz now approves the invoices.", "Tomasz", "Priya"),
    ("K per N is X", "Storage per tenant is 20 GB.",
     "Raise the per-tenant storage to 50 GB.", "50 GB", "20 GB"),
    ("X over Y", "We picked Grafana for dashboards.",
     "We went with Superset over Grafana for dashboards.", "Superset", "Grafana"),
    ("X, not Y after a decision", "We chose Keycloak 22 for login.",
     "Use Authentik for login, not Keycloak.", "Authentik", "Keycloak 22"),
    ("a ratio", "We split the budget 60/40.", "We split it not 60/40 but 70/30.",
     "70/30", "60/40"),
    ("digit groups", "My desk extension is 4471-203.", "My extension is now 4471-290.",
     "4471-290", "4471-203"),
    ("K: X (was Y)", "The build timeout is set to 7.", "Timeout: 9 (was 7).", "9", "7"),
]


@pytest.mark.parametrize(("form", "stated", "corrected", "new", "old"), CASES,
                         ids=[c[0] for c in CASES])
def test_a_correction_read_from_its_clause_replaces_the_value(
        form: str, stated: str, corrected: str, new: str, old: str) -> None:
    current = _current(absorbed(("user", stated), ("user", corrected)))
    assert any(occurs_in(new, v) for v in current), (form, current)
    assert not any(occurs_in(old, v) for v in current), (form, current)  # nor in a sentence


def test_the_place_a_value_is_put_on_is_its_key() -> None:
    from ollm_desktop.engine.fact_clauses import clause_key

    sentence = "We run Fedora 39 on the kiosks."
    values = [(7, 16, "Fedora 39", "version")]
    tokens = tokens_of(sentence, values)
    assert clause_key(tokens, 2, 0) == ("", "kiosk")


def test_a_value_placed_on_two_things_keeps_two_keys() -> None:
    """The kiosks' and the laptops' systems are two keys: one replaces neither."""
    current = _current(absorbed(("user", "We run Fedora 39 on the kiosks."),
                                ("user", "We run Fedora 38 on the laptops.")))
    assert "Fedora 39" in current and "Fedora 38" in current


def test_a_capitalised_first_word_without_a_change_is_no_name() -> None:
    """A sentence's first word is capitalised anyway: "Deploys need the token" names nobody,
    and a name before a verb is read only where the clause says it changed."""
    assert [f.value for f in message_facts("Marta reviews the drafts.")] == []


def test_a_quantity_over_a_number_is_no_choice() -> None:
    assert not any(f.old for f in message_facts("We moved Postgres over 2 nodes."))


def test_a_range_and_a_span_of_years_are_no_digit_groups() -> None:
    values = [f.value for f in message_facts("The study covers 2019-2023.")]
    assert "2019-2023" not in values


def test_a_hyphenated_value_is_not_shown_inside_a_longer_one() -> None:
    """The corrections scorer matches whole tokens: "acme-logs" is no part of
    "acme-logs-prod" (its ledger line was counted as stale)."""
    from bench.memory.ledger_text import mentioned

    assert not mentioned("bucket name: acme-logs-prod", "acme-logs")
    assert mentioned("bucket name: acme-logs, prod", "acme-logs")
