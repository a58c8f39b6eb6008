"""Issue 28 (facts-engine): values whose key is read from the clause as a whole, and value
forms the grammar had no token for. Each case went wrong on d625f2c.

Every sentence here is our own, in words of no corpus: the forms are read by structure (the
clause's subject, verb, object and the phrase a value is placed on), not by these words.
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine import facts_extract
from ollm_desktop.engine.fact_words import tokens_of
from ollm_desktop.engine.provenance import message_facts
from ollm_desktop.engine.references import occurs_in
from tests.engine_fakes import absorbed
from tests.fact_ledger import by_form
from tests.fact_ledger import current_list_without_corrections as _current

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


@by_form(("form", "stated", "corrected", "new", "old"), CASES)
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


# ------------------------------------------------------------------ leads, retractions, moods
LEADS = [
    ("from <time> onward", "The choir rehearses on Tuesdays.",
     "From next month onward the choir rehearses on Wednesdays.", "Wednesdays", "Tuesdays"),
    ("going forward", "We back up the wiki on Sundays.",
     "going forward we back up the wiki on Fridays", "Fridays", "Sundays"),
    ("henceforth", "Expense claims are signed off by Oskar.",
     "Henceforth Birgit signs off the expense claims.", "Birgit", "Oskar"),
    ("ignore what I said about Y", "We'll book the van from Europcar.",
     "Ignore what I said about Europcar — we booked with Avis.", "Avis", "Europcar"),
    ("strike that", "The launch is on March 14.", "Strike that, the launch is Friday.",
     "Friday", "March 14"),
    ("an error clause", "The launch is on March 14.",
     "My mistake — the launch is on March 21.", "March 21", "March 14"),
    ("an error clause", "The API port is 8443.", "I got that wrong: the API port is 9443.",
     "9443", "8443"),
    ("a definite subject's verb", "The lint jobs use Ruff 0.4.2.",
     "I upgraded the runners so the lint jobs run on Ruff 0.5.1 these days.", "Ruff 0.5.1",
     "Ruff 0.4.2"),
    ("not Y but X VERB-s", "The goalkeeper is Ines.", "Not Ines but Marta keeps goal.",
     "Marta", "Ines"),
    ("Y → X with binary units", "Each build pod requests 768Mi memory.",
     "Bumped the build pods: memory request 768Mi → 2Gi.", "2Gi", "768Mi"),
    ("it's X now before ...", "Applicants do 4 reference checks before an offer.",
     "We cut it down, it's 2 reference checks now before an offer.", "2 reference checks",
     "4 reference checks"),
    ("NAME will VERB the NP instead of Y", "Omar is editing the style guide.",
     "Lena will edit the style guide instead of Omar.", "Lena", "Omar"),
    ("K was VERBed; it's X", "Our nightly rate at the cabin is 120 EUR.",
     "The nightly rate was raised in May; it's 135 EUR now.", "135 EUR", "120 EUR"),
    ("wait no — VERB it X", "Give the test runner a 40 GB volume.",
     "Wait no — give it 80 GB.", "80 GB", "40 GB"),
    ("X, sorry. Y is the old one", "The gRPC server listens on port 7311.",
     "7312, sorry. 7311 is the old one", "7312", "7311"),
    ("Y → X", "The frontend uses Angular 16.", "angular 16 → 17, deployed today", "17",
     "Angular 16"),
    ("not Y (a product's version)", "We host the wiki on MediaWiki 1.39.",
     "Correction: the wiki runs 1.41, not 1.39.", "1.41", "MediaWiki 1.39"),
]


@by_form(("form", "stated", "corrected", "new", "old"), LEADS)
def test_a_lead_or_a_retraction_corrects(form: str, stated: str, corrected: str, new: str,
                                         old: str) -> None:
    current = _current(absorbed(("user", stated), ("user", corrected)))
    assert any(occurs_in(new, v) for v in current), (form, current)
    assert not any(occurs_in(old, v) for v in current), (form, current)


UNSURE = [
    ("reported", "The ferry leaves at 08:10.",
     "A woman at the harbour claims the ferry leaves at 08:40 on Sundays.", "08:40"),
    ("reported", "The plumber charges £60 an hour.",
     "My brother reckons it'll be more like £85 next year.", "£85"),
    ("undecided", "Logs are shipped to Graylog.",
     "We're evaluating Grafana Loki for the logs, nothing decided.", "Grafana Loki"),
    ("undecided", "The offsite is on June 3.",
     "The director floated moving the offsite to June 10; we'll see.", "June 10"),
    ("past", "Our broadband provider is Zen.",
     "The previous tenants were with Virgin Media, so letters still arrive for them.",
     "Virgin Media"),
    ("past", "We ship with Rollup.", "We used to ship with Parcel back in 2020.", "Parcel"),
    ("hypothetical", "The attachments bucket holds 200 GB.",
     "Let's say it grows to 2 TB by spring. Is the plan still fine?", "2 TB"),
    ("conditional", "The tasting is on Saturday.",
     "Unless the chef is ill, in which case we do Sunday.", "Sunday"),
    ("inclination", "The barbecue starts at 17:00.",
     "I'm half tempted to start the barbecue at 16:00, hmm.", "16:00"),
]


@pytest.mark.parametrize(("mood", "stated", "said", "value"), UNSURE,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(UNSURE)])
def test_a_sentence_that_states_nothing_current_replaces_nothing(
        mood: str, stated: str, said: str, value: str) -> None:
    ledger = absorbed(("user", stated), ("user", said))
    assert all(f.status == "current" for f in ledger if f.kind != "question"), mood
    stated_now = [f.value for f in ledger if f.status == "current" and f.kind != "question"]
    assert not any(occurs_in(value, v) for v in stated_now), (mood, stated_now)


def test_a_value_the_subject_of_a_past_copula_is_the_replaced_one() -> None:
    found = message_facts("Tuned the head dropout to 6%, 12% was underfitting.")
    assert [(f.value, f.old) for f in found] == [("6%", False), ("12%", True)], found


@pytest.mark.parametrize(("sentence", "old", "new"), [
    ("Replaced the Linksys with a Fritz mesh system last night.", "Linksys",
     "Fritz mesh system"),
    ("Swapping the oat milk for soy milk in the latte.", "oat milk", "soy milk"),
])
def test_the_objects_of_replace_and_swap_are_the_old_and_the_new_value(
        sentence: str, old: str, new: str) -> None:
    found = [(f.value, f.old) for f in message_facts(sentence)]
    assert (old, True) in found and (new, False) in found, found


def test_a_keyless_mention_beside_a_corrected_key_is_no_new_value() -> None:
    """"Roof leak at the Corn Exchange, so the dinner venue is now X": the venue's new value
    is X; the Corn Exchange, with no key of its own here, is a mention (it replaced X)."""
    found = message_facts("Roof leak at the Corn Exchange, so the dinner venue is now "
                          "Rosehill Manor.")
    assert [f.value for f in found if not f.old] == ["Rosehill Manor"], found


def test_a_names_affiliation_is_no_second_value_of_the_key() -> None:
    """"Renata from Ledgerline": Ledgerline is Renata's firm, not a newer accountant."""
    ledger = absorbed(("user", "The accountant we work with is Renata from Ledgerline."))
    renata = next(f for f in ledger if f.value == "Renata")
    assert renata.status == "current" and renata.possibly_replaced_by is None


def test_measures_joined_by_by_are_one_value() -> None:
    found = message_facts("The guest room is 3.2 m by 2.4 m, ceiling height 2.5 m.")
    assert [f.value for f in found] == ["3.2 m by 2.4 m", "2.5 m"], found


def test_a_value_said_twice_in_a_sentence_is_keyed_where_it_is_said_last() -> None:
    current = _current(absorbed(
        ("user", "My viva is scheduled for March 9."),
        ("user", "The examiners prefer March 16 instead, so the viva is March 16.")))
    assert current == ["March 16"], current


def test_a_replaced_value_mentioned_again_in_its_correction_stays_replaced() -> None:
    found = message_facts("Retro happens Tuesday instead of Monday, half the team is off "
                          "Monday.")
    assert [f.value for f in found if not f.old] == ["Tuesday"], found


def test_a_value_named_error_is_no_error_clause() -> None:
    current = _current(absorbed(("user", "The log level is warn."),
                                ("user", "Set the log level to error.")))
    assert current == ["error"], current


def test_what_i_said_is_no_report() -> None:
    """"what I said earlier" reports the user's own word: the correction stands."""
    current = _current(absorbed(("user", "The cache node runs Redis 7.0."),
                                ("user", "Fix to what I said earlier: it runs 7.2, not 7.0.")))
    assert "7.2" in current and "Redis 7.0" not in current, current


def test_an_instruction_the_user_follows_is_no_report() -> None:
    current = _current(absorbed(("user", "The cancellation fee is 4% of the fare."),
                                ("user", "Legal told us to cut the cancellation fee to 3%.")))
    assert any("3%" in v for v in current) and not any(v.startswith("4%") for v in current)


@pytest.mark.parametrize(("text", "value"), [
    ("We moved the offsite to Málaga.", "Málaga"),
    ("The venue is Graça now.", "Graça"),
    ("Our contact is Łukasz Nowak.", "Łukasz Nowak"),
    ("The hotel is in Zürich, not Genève.", "Zürich"),
])
def test_a_name_in_letters_beyond_ascii_is_one_value(text: str, value: str) -> None:
    """Names are read whole in any script ("Málaga" was read as "M", "Graça" as "Gra")."""
    found = [f.value for f in facts_extract.extract("user", text)]
    assert value in found
    assert all(len(v) > 2 for v in found), found


def test_a_verb_after_an_auxiliarys_not_is_no_replaced_value() -> None:
    """"a confound we did not control, and ..." negates a verb: no value "control" replaced
    (a reply's filler was stored as a correction with it); "Postgres, not MySQL," still is."""
    text = "The weakest part is a confound we did not control, and reviewers will look there."
    assert facts_extract.extract("assistant", text) == ()
    found = {f.value: f.old
             for f in facts_extract.extract("user", "The DB is Postgres, not MySQL.")}
    assert found == {"Postgres": False, "MySQL": True}
