"""Issue 28, point 3: one test per correction form, through the ledger's public calls.

Each test states a fact, then corrects it (or only asks, supposes or suggests), and reads which
values are current. The sentences of the issue's "Corrections a user writes every day" come
first, then our own for each form; every one of them went wrong on f01e965.
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine import facts
from tests.engine_fakes import absorbed
from tests.fact_ledger import by_form, some_value_holds
from tests.fact_ledger import current_list_without_corrections as _current

# ------------------------------------------------------------------ the forms of point 3
CORRECTIONS = [
    # (form, first statement, correction, new value, old value)
    ("X, not Y", "The API port is 8443.", "The port is now 9443, not 8443.", "9443", "8443"),
    ("X, not Y", "The report is due on Monday.", "It's due Wednesday, not Monday.",
     "Wednesday", "Monday"),
    ("not Y but X", "The request timeout is 30 s.", "The request timeout is not 30 s but 45 s.",
     "45 s", "30 s"),
    ("from Y to X", "The timeout is 30 s.", "Bump the timeout from 30 s to 45 s.",
     "45 s", "30 s"),
    ("K is now X", "The cache size is 512 MB.", "The cache size is now 1 GB.", "1 GB", "512 MB"),
    ("K is now X", "We call the staging server bluefin.",
     "The staging server is now called heron.", "heron", "bluefin"),
    ("set K to X", "The request timeout is 30 s.", "Set the request timeout to 60 s.",
     "60 s", "30 s"),
    ("raise K to X", "The worker pool has 4 threads.", "Raise the worker pool to 8 threads.",
     "8 threads", "4 threads"),
    ("lower K to X", "The retry limit is 5 attempts.", "Lower the retry limit to 3 attempts.",
     "3 attempts", "5 attempts"),
    ("move K to X", "The DB port is 5432.", "Move the DB port to 5434.", "5434", "5432"),
    ("switch K to X", "The log level is debug.", "Switch the log level to info.", "info",
     "debug"),
    ("rename K to X", "The staging server is called bluefin.",
     "Rename the staging server to heron.", "heron", "bluefin"),
    ("instead of Y", "We run MySQL 8.0 for the main database.",
     "Actually let's use Postgres instead of MySQL.", "Postgres", "MySQL"),
    ("scratch that", "The MVP deadline is March 14.", "Scratch that, the deadline is Friday.",
     "Friday", "March 14"),
    ("from now on", "The standup is at 9:30.", "From now on the standup is at 10:15.",
     "10:15", "9:30"),
]


@pytest.mark.parametrize(("form", "first", "correction", "new", "old"), CORRECTIONS,
                         ids=[f"{c[0]}: {c[2]}" for c in CORRECTIONS])
def test_a_correction_in_each_form_replaces_the_value_of_its_key(
        form: str, first: str, correction: str, new: str, old: str) -> None:
    ledger = absorbed(("user", first), ("user", correction))
    current = _current(ledger)
    assert some_value_holds(current, new), (form, current)
    assert not some_value_holds(current, old), (form, current)
    replaced = [f for f in ledger if f.status == "replaced" and old in f.value]
    assert replaced and all(f.replaced_turn == 2 for f in replaced)
    head = {f.id: f for f in ledger}[replaced[0].replaced_by or ""]
    assert new in head.value


def test_a_replacement_without_a_number_replaces_every_value_of_the_key() -> None:
    """"MySQL 8.0" and a later "MySQL" both belong to the database engine."""
    ledger = absorbed(("user", "We run MySQL 8.0 for the main database."),
                     ("user", "The MySQL host is db1."),
                     ("user", "Actually let's use Postgres instead of MySQL."))
    current = _current(ledger)
    assert "MySQL 8.0" not in current
    assert some_value_holds(current, "Postgres")
    assert "db1" in current  # the host is another key: it stays


def test_the_replaced_line_names_its_replacement_not_the_sentence() -> None:
    ledger = absorbed(("user", "We run MySQL 8.0 for the main database."),
                     ("user", "Actually let's use Postgres instead of MySQL."))
    notes = facts.value_notes(ledger)
    assert notes.get("MySQL 8.0") == "replaced by Postgres"


# ------------------------------------------------------------------ mood: nothing is replaced
MOODS = [
    ("user", "The DB port is 5432.", "Should we switch to port 5434 for the DB?", "5434"),
    ("user", "The API port is 8443.", "What if we moved the API to port 9000?", "9000"),
    ("user", "The request timeout is 30 s.", "Maybe the request timeout should be 60 s.",
     "60 s"),
    ("user", "The API port is 8443.", "Isn't the API port 9443 now?", "9443"),
    ("assistant", "We run MySQL 8.0 for the main database.",
     "I'd go with Postgres instead of MySQL.", "Postgres"),
]


@pytest.mark.parametrize(("role", "first", "musing", "value"), MOODS,
                         ids=[m[2] for m in MOODS])
def test_a_question_a_hypothetical_or_a_suggestion_replaces_nothing(
        role: str, first: str, musing: str, value: str) -> None:
    ledger = absorbed(("user", first), (role, musing))
    stated = next(f for f in ledger if f.message_id and f.turn == 1 and f.kind != "correction")
    assert stated.status == "current" and stated.disputed_by is None
    assert not any(f.status == "replaced" for f in ledger)
    assert not any(value in f.value and f.status == "current" and f.turn == 2
                   and f.kind != "question" for f in ledger)


# ------------------------------------------------------------------ keys that share a word
@pytest.mark.parametrize(("a", "b", "correction", "kept"), [
    ("The API port is 8443.", "The admin port is 8444.", "Correction: the API port is 9443.",
     "8444"),
    ("The API port is 8443.", "The admin port is 8444.", "Move the API port to 9443.", "8444"),
    ("The request timeout is 30 s.", "The statement timeout is 5 s.",
     "Actually the request timeout is 45 s.", "5 s"),
    ("The request timeout is 30 s.", "The statement timeout is 5 s.",
     "Bump the request timeout from 30 s to 60 s.", "5 s"),
])
def test_a_correction_of_one_key_leaves_a_key_sharing_a_word_alone(
        a: str, b: str, correction: str, kept: str) -> None:
    ledger = absorbed(("user", a), ("user", b), ("user", correction))
    assert kept in _current(ledger)
    assert next(f for f in ledger if f.value == kept).possibly_replaced_by is None


def test_a_replys_suggestion_on_another_key_disputes_nothing() -> None:
    ledger = absorbed(("user", "The API port is 8443."),
                     ("assistant", "I'd expose the metrics on port 9100 instead."))
    api = next(f for f in ledger if f.value == "8443")
    assert api.status == "current" and api.disputed_by is None
    assert facts.value_notes(ledger) == {}


def test_an_uncertain_match_keeps_both_and_marks_the_older() -> None:
    """"The port is now 9443" after two ports: which one is uncertain, so both stay."""
    ledger = absorbed(("user", "The API port is 8443."), ("user", "The admin port is 8444."),
                     ("user", "The port is now 9443."))
    current = _current(ledger)
    assert {"8443", "8444", "9443"} <= set(current)
    marked = [f for f in ledger if f.possibly_replaced_by is not None]
    assert {f.value for f in marked} == {"8443", "8444"}
    new = next(f for f in ledger if f.value == "9443")
    assert all(f.possibly_replaced_by == new.id for f in marked)


# ------------------------------------------------------------------ adoption (point 5)
def test_a_pinned_reply_adopts_its_values() -> None:
    from ollm_desktop.engine import ContextEngine, EngineConfig
    from tests.engine_fakes import GoodSummarizer

    engine = ContextEngine(EngineConfig(context_size=4096), GoodSummarizer())
    engine.add("user", "Where should the exporter write?")
    reply = engine.add("assistant", "Write it to var/export/daily.csv every night.")
    assert not any(f.users for f in engine.facts if f.message_id == reply.id)
    engine.set_pinned(reply.id, True)
    adopted = [f for f in engine.facts if f.message_id == reply.id]
    assert [f.value for f in adopted] == ["var/export/daily.csv", "every night"]  # how often too
    assert all(f.users for f in adopted)


# ------------------------------------------------------------------ the scorer's view, the counter
def test_current_values_per_key_and_one_extraction_per_message_version() -> None:
    from ollm_desktop.engine import facts_extract

    said = [("user", "The API port is 8443 and the admin port is 8444."),
            ("assistant", "The API could listen on 8000 instead."),
            ("user", "Actually the API port is 9443, not 8443."),
            ("assistant", "Noted.")]
    before = facts_extract.extraction_count()
    current = facts_extract.current_values(said)
    assert current["api|port|port"] == ["9443"] and current["admin|port|port"] == ["8444"]
    assert "8000" not in str(current)  # a suggestion is an open question
    extracted = facts_extract.extraction_count() - before
    assert extracted <= len(said)
    facts_extract.current_values(said)  # the same message versions again: nothing extracted
    assert facts_extract.extraction_count() - before == extracted


# ------------------------------------------------- value kinds and keys the grammar now reads
FORMS_READ_NOW = [
    # (what it checks, first statement, correction, new value, old value)
    ("scientific notation is one value", "We trained with a weight decay of 1e-5.",
     "Correction: the weight decay was 5e-6, not 1e-5.", "5e-6", "1e-5"),
    ("a duration in words; a verb's key beside its noun's",
     "Backups are kept for three weeks.", "Backup retention is now six weeks.", "six weeks",
     "three weeks"),
    ("an ordinal date with 'of'", "The launch is on the 3rd of May.",
     "Sorry, the launch is on the 5th of May, not the 3rd of May.", "5th of May", "3rd of May"),
    ("K is now X where K adds a head noun", "The disk alarm triggers at 85%.",
     "Raise the disk alarm threshold to 92%.", "92%", "85%"),
    ("a bare count replaces a counted one of the same noun phrase",
     "The build farm has 6 runners.", "Bump the build farm to 10.", "10", "6 runners"),
    ("a product's version, stated as the product alone", "The backend runs on Python 3.11.",
     "Python is now 3.12 everywhere.", "3.12", "3.11"),
    ("from now on, with the owner after a counted value", "Run the linters with 3 parallel jobs.",
     "From now on, use 6 parallel jobs for the linters.", "6 parallel jobs", "3 parallel jobs"),
    ("X, not Y between two people ('on call' names no one)", "On call tonight is Priya.",
     "It's Marek on call tonight, not Priya.", "Marek", "Priya"),
    ("a verb's key meets its noun's by stem", "We sample every 5 minutes.",
     "The sampling interval is now 10 minutes.", "10 minutes", "5 minutes"),
    ("a trailing 'instead' replaces the key's value", "The report template is in Google Docs.",
     "Put the report template in Notion instead.", "Notion", "Google Docs"),
    ("K's now X, a multi-word name", "The venue is the Rosewood Hall.",
     "The venue's now the Harbour Rooms.", "Harbour Rooms", "Rosewood Hall"),
    ("K is X now", "The submission deadline is March 3.",
     "The submission deadline is March 10 now.", "March 10", "March 3"),
    ("make K X: the object's last noun is part of K", "The body font size is 12 pt.",
     "Make the body font size 14 pt.", "14 pt", "12 pt"),
    ("from Y to X with one-digit numbers; '3' names '3 replicas'", "We run 3 replicas.",
     "Increase the replicas from 3 to 5.", "5", "3 replicas"),
    ("X, not Y with X a counted number", "The guest count is 80.",
     "It's 95 guests, not 80.", "95 guests", "80"),
    ("two versions of one product, whatever the phrase", "The database is MySQL 8.0.",
     "Switch the database to MySQL 8.4.", "MySQL 8.4", "MySQL 8.0"),
]


@by_form(("what", "first", "correction", "new", "old"), FORMS_READ_NOW)
def test_value_kinds_and_keys_the_finder_missed(what: str, first: str, correction: str,
                                                 new: str, old: str) -> None:
    stated = _current(absorbed(("user", first)))
    assert some_value_holds(stated, old), stated  # the first value is read at all
    current = _current(absorbed(("user", first), ("user", correction)))
    assert some_value_holds(current, new), current
    assert not some_value_holds(current, old), current


def test_multi_word_names_after_a_preposition_are_values() -> None:
    current = _current(absorbed(("user", "The workshop is in Utrecht, at the Hotel Mercator.")))
    assert "Utrecht" in current and "Hotel Mercator" in current, current


def test_a_key_with_a_head_noun_more_leaves_another_owners_value_alone() -> None:
    ledger = absorbed(("user", "The disk alarm triggers at 85%."),
                     ("user", "The memory alarm triggers at 70%."),
                     ("user", "Raise the disk alarm threshold to 92%."))
    current = _current(ledger)
    assert "70%" in current and "92%" in current and "85%" not in current, current


def test_the_stem_of_a_verb_and_of_its_noun_is_one() -> None:
    from ollm_desktop.engine.fact_keys import stem

    pairs = [("retained", "retention"), ("capped", "cap"), ("sampling", "sample"),
             ("shipping", "ships"), ("opens", "opening")]
    assert all(stem(a) == stem(b) for a, b in pairs), [(stem(a), stem(b)) for a, b in pairs]
    assert stem("port") != stem("portal") and stem("timeout") != stem("time")


def test_a_correction_whose_key_meets_none_marks_the_one_value_of_its_unit() -> None:
    ledger = absorbed(("user", "We poll the upstream feed every 30 seconds."),
                     ("user", "The polling interval is now 90 seconds."))
    old = next(f for f in ledger if f.value == "30 seconds")
    new = next(f for f in ledger if f.value == "90 seconds")
    # never silently current beside its correction: the statements share the key's word
    # ("poll", fact_topics), so the correction replaces it
    assert old.status == "replaced" and old.replaced_by == new.id
