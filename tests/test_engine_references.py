"""Critical identifiers survive a summary: the engine appends what the model dropped."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ollm_desktop.engine import ContextEngine, EngineConfig, facts
from ollm_desktop.engine.budget import ledger_budget
from ollm_desktop.engine.references import (
    KINDS,
    MAX_REFERENCES,
    Reference,
    extract_ranked,
    extract_references,
    find_references,
    key_references_line,
    locate,
    looks_like_path,
    occurs_in,
)
from ollm_desktop.engine.tokens import count_tokens
from tests.engine_fakes import (
    GoodSummarizer,
    ScriptedSummarizer,
    api_text,
    compact,
    text_of_tokens,
    words,
)

REFS = ["src/app/main.py", "https://example.com/docs/setup", "load_config()", "250 ms", "Phoenix"]
# Identifiers of the summarised reply (the user's own stay word for word as a quoted request).
REPLY_REFS = ["load_config()", "250 ms", "var/cache/app.db", "KESTREL_DEPLOY_TOKEN"]


def _engine(summarizer: GoodSummarizer | ScriptedSummarizer) -> ContextEngine:
    engine = ContextEngine(EngineConfig(context_size=8192, min_messages=2), summarizer)
    engine.add(
        "user",
        "The entry point is src/app/main.py and the guide is at "
        "https://example.com/docs/setup. Let's call it Phoenix.",
    )
    engine.add(
        "assistant",
        "Then `load_config()` must return within 250 ms. It reads var/cache/app.db and "
        "KESTREL_DEPLOY_TOKEN. " + words(200),
    )
    for turn in range(8):
        engine.add("user", f"question {turn}")
        engine.add("assistant", words(200, turn))
    return engine


def test_extraction_finds_each_kind() -> None:
    found = extract_references(
        [
            "Edit src/app/main.py, see https://example.com/docs/setup, run `load_config()`,"
            " it takes 250 ms. I named it Phoenix."
        ]
    )
    for ref in REFS:
        assert ref in found


def _ledger_text(engine: ContextEngine) -> str:
    """The facts ledger as sent: its header up to the next blank line of the system message."""
    system = engine.api_messages()[0]["content"]
    assert facts.HEADER in system, "no facts ledger in the request"
    return system.split(facts.HEADER + "\n", 1)[1].split("\n\n", 1)[0]


def test_dropped_identifiers_go_to_the_ledger_and_recall_reported() -> None:
    engine = _engine(GoodSummarizer())  # mentions none of them
    report = compact(engine, force=True)
    assert report.status == "compacted"
    assert report.recall == 0.0
    group = engine.groups[0]
    assert "Key references" not in group.summary  # no line appended to the summary any more
    assert group.key_references == REPLY_REFS
    assert report.missing_references == REPLY_REFS  # none in the summary text...
    # ...and not in the ledger either: it is the user's (issue 28); recall answers for them
    system = engine.api_messages()[0]["content"]
    assert facts.HEADER not in system
    assert all(ref not in system for ref in REPLY_REFS[2:])
    text = api_text(engine)
    for ref in ("src/app/main.py", "https://example.com/docs/setup", "Phoenix"):
        assert ref in text  # the user's, quoted word for word
    assert group.recall == 0.0 and report.ledger_added >= len(REPLY_REFS)


def test_the_ledger_does_not_depend_on_what_the_model_kept() -> None:
    """Recall is reported; the ledger renders from its own entries alone (a summary that
    keeps two values does not change the ledger's bytes: issue 21)."""
    def keeps_two(prompt: list[dict[str, str]]) -> str:
        return ("## Key Information\n- load_config() reads var/cache/app.db\n"
                + text_of_tokens(40, ""))

    engine = _engine(ScriptedSummarizer(keeps_two))
    report = compact(engine, force=True)
    assert report.status == "compacted"
    total = len(engine.groups[0].key_references)
    assert total == len(REPLY_REFS)
    assert report.recall == 2 / total
    assert report.missing_references == ["250 ms", "KESTREL_DEPLOY_TOKEN"]
    other = _engine(GoodSummarizer())
    compact(other, force=True)
    assert engine.facts_view().shown == other.facts_view().shown == frozenset()
    assert [f.value for f in engine.facts] == [f.value for f in other.facts]


def test_references_line_respects_its_token_cap() -> None:
    many = [f"src/pkg{i}/module_{i}.py" for i in range(40)]
    line, added = key_references_line(many, 60)
    assert count_tokens(line) <= 60
    assert 0 < len(added) < len(many)
    assert added == many[: len(added)]
    assert key_references_line(many, 5) == ("", [])


def test_unfitting_facts_are_left_out_oldest_first_and_reported() -> None:
    """A span with more identifiers than the ledger can hold: what went is reported, never
    lost silently (it stays in the ledger's entries for the panel), and the least recent
    go first."""
    config = EngineConfig(context_size=4096, min_messages=2, preserve_user_messages=False)
    engine = ContextEngine(config, GoodSummarizer())
    for turn in range(10):
        paths = " ".join(f"src/area{turn}/part{i}/file_{turn}_{i}.py" for i in range(14))
        engine.add("user", f"question {turn} look at {paths}")
        engine.add("assistant", words(30, turn))
    report = compact(engine, force=True)
    assert report.status == "compacted"
    view = engine.facts_view()
    assert report.ledger_dropped == len(view.left_out) > 0
    assert engine.usage().ledger <= ledger_budget(config)
    by_id = {f.id: f.value for f in view.facts}
    kept = [by_id[i] for i in view.shown]
    left = [by_id[i] for i in view.left_out]
    text = api_text(engine)
    assert kept and all(ref in text for ref in kept)
    assert all(ref not in text for ref in left)
    group = engine.groups[0]
    summarised = [m for m in engine.display_messages() if m.id in group.message_ids]
    every = {ref for m in summarised for ref in m.content.split() if ref.startswith("src/")}
    assert set(kept) | set(left) == every

    def turn_of(ref: str) -> int:
        return int(ref.split("/")[1].removeprefix("area"))

    # the least recent go first (a shorter older line may still fit in what is left)
    assert all(turn_of(ref) < 9 for ref in left) and min(map(turn_of, left)) == 0


def test_a_short_ledger_keeps_the_users_facts_first() -> None:
    """What the user stated outranks what the assistant did (issue 22): a token the user gave
    outlives the assistant's many paths when the ledger is short."""
    config = EngineConfig(context_size=4096, min_messages=2, preserve_user_messages=False)
    engine = ContextEngine(config, GoodSummarizer())
    for turn in range(10):
        paths = " ".join(f"src/area{turn}/part{i}/file_{turn}_{i}.py" for i in range(14))
        asked = ("please deploy with KESTREL_DEPLOY_TOKEN on port 8443" if turn == 1
                 else words(10, turn))
        engine.add("user", f"question {turn} {asked}")
        engine.add("assistant", f"look at {paths}")
    report = compact(engine, force=True)
    assert report.status == "compacted"
    group = engine.groups[0]
    asked_in = next(m for m in engine.display_messages() if "KESTREL_DEPLOY_TOKEN" in m.content)
    assert asked_in.id in group.message_ids  # summarised, so only the ledger can keep it
    text = _ledger_text(engine)
    for ref in ("KESTREL_DEPLOY_TOKEN", "8443"):
        assert ref in text
    assert "src/area" not in text  # the assistant's paths are not sent (issue 28)


def test_sentence_punctuation_is_not_part_of_a_path() -> None:
    found = extract_references(["Open src/app/main.py. Then see /etc/hosts, and ./run.sh!"])
    assert "src/app/main.py" in found and "src/app/main.py." not in found
    assert "/etc/hosts" in found and "./run.sh" in found


# (expected kind, sentence, expected text): one line per pattern the extraction must cover.
FOUND = [
    ("url", "See https://example.com/docs/setup, then retry.", "https://example.com/docs/setup"),
    ("path", "Edit src/app/main.py. Now.", "src/app/main.py"),
    ("path", "Run ./run.sh now", "./run.sh"),
    ("path", "it lives in ~/projects/kestrel today", "~/projects/kestrel"),
    ("path", r"Open C:\Users\ana\report.txt, please", r"C:\Users\ana\report.txt"),
    ("path", "the file config.yaml is wrong", "config.yaml"),
    ("path", "check /etc/hosts first", "/etc/hosts"),
    ("code", "run `kubectl get pods` again", "kubectl get pods"),
    ("function", "call reconcile_ledger_entries() nightly", "reconcile_ledger_entries()"),
    ("function", "then ledger.close() runs", "ledger.close()"),
    ("function", "and parse(data, strict=True) fails", "parse()"),
    ("function", "use `load_config()` here", "load_config()"),
    ("class", "the LedgerReconciler owns it", "LedgerReconciler"),
    ("class", "an HTTPServer subclass", "HTTPServer"),
    ("version", "pin v2.14.3 for now", "v2.14.3"),
    ("version", "tag 2.14.3 is out", "2.14.3"),
    ("version", "we run PostgreSQL 15.4 in prod", "PostgreSQL 15.4"),
    ("version", "needs Python 3.12 or later", "Python 3.12"),
    ("version", "on node 20.x only", "node 20.x"),
    ("env", "export KESTREL_DEPLOY_TOKEN first", "KESTREL_DEPLOY_TOKEN"),
    ("port", "listen on port 8443.", "8443"),
    ("port", "bind to :8443 instead", "8443"),
    ("port", "the db is at db.internal:5432 now", "5432"),
    ("number", "it costs 1.234,56 EUR a month", "1.234,56 EUR"),
    ("number", "it costs 1,234.56 USD a month", "1,234.56 USD a month"),
    ("number", "we see 12,500 requests per minute at peak", "12,500 requests per minute"),
    ("number", "the timeout is 45 s here", "45 s"),
    ("number", "give it 8 GiB of memory", "8 GiB"),
    ("number", "p50 is 3.5 ms", "3.5 ms"),
    ("number", "the invoice says €1.234,56 total", "€1.234,56"),
    ("number", "the laptop is $1,299 now", "$1,299"),
    ("number", "uptime must be 99.9% or better", "99.9%"),
    ("ticket", "fixed in OPS-4821.", "OPS-4821"),
    ("ticket", "see #1234 for details", "#1234"),
    ("ticket", "JIRA-12 is done", "JIRA-12"),
    ("hash", "commit a3f9c2e broke it", "a3f9c2e"),
    ("name", "Let's call the staging server bluefin.", "bluefin"),
    ("name", "let's name it heron-sweep and move on", "heron-sweep"),
    ("name", "we'll refer to this as the blue plan from now on", "blue plan"),
    ("name", 'call it "Project Heron".', "Project Heron"),
    ("name", "a bucket named tern-logs holds them", "tern-logs"),
    ("name", "its codename is kestrel-two", "kestrel-two"),
    ("name", "the project codename: osprey", "osprey"),
    ("date", "ship on 2026-03-14 at the latest", "2026-03-14"),
    ("time", "standup at 14:30 daily", "14:30"),
]

# Sentences with nothing a user would ask for: each must yield no reference at all.
NOTHING = [
    "OK, let's call it a day.",
    "I'll call it quits and call the function twice.",
    "I'll name the file carefully and call the endpoint again.",
    "We speak HTTP and JSON over TLS with the API.",
    "The end. This is it. Then we rest.",
    "Strings are UTF-8, digests SHA-256, and COVID-19 is over.",
    "Words like deadbeef and numbers like 1234567 are not hashes.",
    "Use and/or, TCP/IP, 24/7 and read/write freely.",
    "The file(s) and user(s) were sent.",
    "The ratio is 3:1 or 16:9, not more.",
    "I have 3 apples, 2024 was good, and step 2 follows step 1.",
]


@pytest.mark.parametrize(("kind", "sentence", "text"), FOUND)
def test_each_kind_is_found_whole(kind: str, sentence: str, text: str) -> None:
    assert (text, kind) in find_references(sentence)


@pytest.mark.parametrize("sentence", NOTHING)
def test_plain_prose_yields_nothing(sentence: str) -> None:
    assert find_references(sentence) == []


def test_numbers_keep_thousands_separators_and_units() -> None:
    found = [text for text, _ in find_references("Total 1.234,56 EUR, then 1,234.56 USD.")]
    assert found == ["1.234,56 EUR", "1,234.56 USD"]  # never the fragment 234,56 EUR


def test_a_line_number_is_not_a_port_and_punctuation_is_not_kept() -> None:
    found = find_references("See main.py:42 and src/app/main.py. Then v2.1.")
    assert found == [("main.py", "path"), ("src/app/main.py", "path"), ("v2.1", "version")]


def test_overlaps_resolve_to_the_longest_reference() -> None:
    found = find_references("Docs at https://db.internal:8443/v2/setup, tag v2.")
    assert found == [("https://db.internal:8443/v2/setup", "url"), ("v2", "version")]


def test_references_appear_in_order_each_once() -> None:
    text = "Port 8443 first, then src/a.py, then port 8443 again and src/a.py."
    assert find_references(text) == [("8443", "port"), ("src/a.py", "path")]


def test_ranking_is_by_source_then_first_appearance_not_frequency() -> None:
    messages = [
        ("assistant", "LedgerReconciler, LedgerReconciler and LedgerReconciler again."),
        ("summary", "Key references: Phoenix; 250 ms"),
        ("user", "The config is in src/app/settings.toml."),
        ("assistant", "I will read src/app/settings.toml with load_config()."),
        ("user", "And the token is KESTREL_DEPLOY_TOKEN."),
    ]
    ranked = extract_ranked(messages)
    assert [r.text for r in ranked] == [
        "src/app/settings.toml", "KESTREL_DEPLOY_TOKEN", "LedgerReconciler", "load_config()",
        "250 ms", "Phoenix",
    ]
    first = ranked[0]
    assert first == Reference("src/app/settings.toml", "path", "user", 2)
    assert ranked[-1] == Reference("Phoenix", "name", "summary", 1)


def test_source_is_the_best_one_and_position_the_first_appearance() -> None:
    ranked = extract_ranked([("assistant", "Try port 8443."), ("user", "Yes, port 8443.")])
    assert ranked == [Reference("8443", "port", "user", 0)]


def test_contained_reference_is_dropped_only_within_its_message() -> None:
    ranked = extract_ranked([
        ("user", "Open src/app/main.py; main.py is the entry point."),
        ("assistant", "main.py it is."),
    ])
    assert [(r.text, r.source) for r in ranked] == [
        ("src/app/main.py", "user"), ("main.py", "assistant")]


def test_ranked_extraction_has_no_cap_and_invents_nothing() -> None:
    messages = [("user", f"see src/area{i}/file_{i}.py and port {1000 + i}") for i in range(60)]
    ranked = extract_ranked(messages)
    assert len(ranked) == 120 > MAX_REFERENCES
    for ref in ranked:
        assert ref.text in messages[ref.position][1]


def test_old_extraction_ranks_by_order_and_keeps_its_bound() -> None:
    assert extract_references(["see src/a.py", "250 ms, 250 ms and 250 ms"]) == [
        "src/a.py", "250 ms"]
    many = [f"src/pkg{i}/module_{i}.py" for i in range(MAX_REFERENCES + 10)]
    assert extract_references(many) == many[:MAX_REFERENCES]


def test_occurs_in_respects_word_boundaries_and_normalised_calls() -> None:
    assert occurs_in("45 s", "timeout 45 s.") and not occurs_in("45 s", "timeout 145 s")
    assert occurs_in("v2.1", "use v2.1 now") and not occurs_in("v2.1", "use v2.10")
    assert occurs_in("8443", "https://h:8443/x")
    assert occurs_in("parse()", "then parse(data) runs") and not occurs_in("parse()", "reparse(x)")
    assert not occurs_in("parse()", "parse the data")
    assert locate("parse()", "reparse(x); parse(y)") == 12 and locate("45 s", "145 s") == -1


def test_looks_like_path() -> None:
    assert looks_like_path("src/app/main.py") and looks_like_path("config.yaml")
    assert not looks_like_path("https://example.com/a.py") and not looks_like_path("250 ms")
    assert not looks_like_path("Node.js")


_PIECES = ["port ", " ", "8443", "call it ", "named ", "1.234,56", " EUR", "`", "(", ")", "/",
           "src", ".py", ":", "v2", ".", ",", "KESTREL_X", "#12", "a3f9c2e", "€", "%", "\n", "x",
           "PostgreSQL ", "15.4", "'", '"', "run", "-", "~", "$"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
@example("15.4x15.4port ")  # a size read as "15.4x1", ending inside a number (stop 51)
def test_every_reference_is_verbatim(text: str) -> None:
    for ref, kind in find_references(text):
        assert kind in KINDS
        assert occurs_in(ref, text)
        assert ref in text or kind == "function"


def test_a_huge_message_is_read_for_facts_and_references_in_its_first_part_only() -> None:
    """A reply of one 500 KB line held the event loop for 47 s in the fact grammar and the
    reference scan: both read a bounded first part; what lies beyond stays in the history."""
    from ollm_desktop.engine import facts_extract, provenance, references

    head = "The staging API listens on port 8443 at /srv/api/config.yaml. "
    filler = "lorem ipsum dolor sit amet " * 40_000
    tail = " The admin port is 9555 at /srv/admin/late.yaml."
    text = head + filler + tail
    assert len(text) > 20 * max(provenance.MAX_FACT_TEXT, references.MAX_REFERENCE_TEXT)
    values = {f.value for f in facts_extract.extract("user", text)}
    refs = {ref for ref, _kind in references.message_references(text)}
    assert "8443" in values and "/srv/api/config.yaml" in refs
    assert "9555" not in values and "/srv/admin/late.yaml" not in refs
