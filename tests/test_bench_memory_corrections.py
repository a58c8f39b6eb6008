"""The correction corpus and its scorer (issue 28, point 8): the instrument, not the engine.

The corpus must cover every form of the issue's point 3 and every negative in both halves, and
each expected value must be one the case's messages actually write. The ledger reading must
tell a current value from a replaced one in the shapes a ledger writes, and the scorer must
count a stale value, a false supersession and a superseding question where they are.
"""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from bench.memory import cli, corrections
from bench.memory.corrections_report import summarise
from bench.memory.ledger_text import Entry, ledger_entries, mentioned, shown_current, shown_replaced

POINT_3 = ("x-not-y", "not-y-but-x", "from-y-to-x", "k-is-now-x", "verb-k-to-x",
           "instead-of-y", "scratch-that", "from-now-on", "replace-without-number")
NEGATIVES = ("question", "hypothetical", "suggestion-user", "isnt-it-now",
             "suggestion-assistant", "hedge-assistant", "invented-assistant")
VALUE_KINDS = ("date", "weekday", "time", "name", "number")
# The second corpus (dev-3, heldout-2) adds these negatives and the plain restatement.
SECOND = ("dev-3", "heldout-2")
SECOND_SHAPE = {"dev-3": (150, "t"), "heldout-2": (80, "g")}  # at least this many cases; id prefix
# The third corpus (dev-4, heldout-3): another writer's, 100 cases a half, ids v… and w….
THIRD = ("dev-4", "heldout-3")
THIRD_SHAPE = {"dev-4": (100, "v"), "heldout-3": (100, "w")}
SECOND_FORMS = ("reported", "conditional", "past-value", "undecided", "statement-change")
CASE_KEYS = {"id", "half", "forms", "domain", "value_kind", "polarity", "shared_word", "history",
             "message", "expect"}
# Real public text (dev-real, heldout-real; dev-real-2, heldout-real-2; dev-real-3,
# heldout-real-3; dev-real-4, heldout-real-4; dev-real-5, heldout-real-5; dev-real-6,
# heldout-real-6; dev-real-7, heldout-real-7): verbatim messages, so not every form can be in both
# halves of a pair.
REAL = ("dev-real", "heldout-real", "dev-real-2", "heldout-real-2", "dev-real-3",
        "heldout-real-3", "dev-real-4", "heldout-real-4", "dev-real-5", "heldout-real-5",
        "dev-real-6", "heldout-real-6", "dev-real-7", "heldout-real-7")
REAL_PREFIX = {"dev-real": "r", "heldout-real": "s", "dev-real-2": "p", "heldout-real-2": "q",
               "dev-real-3": "j", "heldout-real-3": "k", "dev-real-4": "b", "heldout-real-4": "c",
               "dev-real-5": "e", "heldout-real-5": "f", "dev-real-6": "u",
               "heldout-real-6": "z", "dev-real-7": "a", "heldout-real-7": "n"}
REAL_PAIRS = (("dev-real", "heldout-real"), ("dev-real-2", "heldout-real-2"),
              ("dev-real-3", "heldout-real-3"), ("dev-real-4", "heldout-real-4"),
              ("dev-real-5", "heldout-real-5"), ("dev-real-6", "heldout-real-6"),
              ("dev-real-7", "heldout-real-7"))


@pytest.fixture(scope="module")
def halves() -> dict[str, list[dict]]:
    return {half: corrections.load(half) for half in corrections.HALVES}


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def test_corpus_size_and_halves(halves: dict[str, list[dict]]) -> None:
    total = sum(len(cases) for cases in halves.values())
    assert total >= 80
    assert abs(len(halves["dev"]) - len(halves["heldout"])) <= 2
    ids = [c["id"] for cases in halves.values() for c in cases]
    assert len(ids) == len(set(ids))
    for half, cases in halves.items():
        assert all(c["half"] == half for c in cases)
    dev_texts = {_norm(c["message"]["text"]) for c in (*halves["dev"], *halves["dev-more"])}
    assert not dev_texts & {_norm(c["message"]["text"]) for c in halves["heldout"]}


@pytest.mark.parametrize("form", POINT_3 + NEGATIVES + ("shared-word", "statement"))
def test_every_form_in_both_halves(halves: dict[str, list[dict]], form: str) -> None:
    for half, cases in halves.items():
        if half in REAL:
            continue
        assert any(form in c["forms"] for c in cases), f"{form} missing in {half}"


@pytest.mark.parametrize("kind", VALUE_KINDS)
def test_every_value_kind_in_both_halves(halves: dict[str, list[dict]], kind: str) -> None:
    for half, cases in halves.items():
        if half in REAL:
            continue
        assert any(c["value_kind"] == kind and c["polarity"] == "correction" for c in cases), \
            f"no {kind} correction in {half}"


def test_expected_values_are_written_in_the_case(halves: dict[str, list[dict]]) -> None:
    for case in (c for cases in halves.values() for c in cases):
        history = _norm(" ".join(m["text"] for m in case["history"]))
        message = _norm(case["message"]["text"])
        for key in case["expect"]["keys"]:
            assert _norm(key["current"]) in history + " " + message, (case["id"], key)
            for value in key["replaced"]:
                assert _norm(value) in history + " " + message, (case["id"], value)
            for value in key["not_current"]:
                assert _norm(value) in message, (case["id"], value)
        assert case["expect"]["supersedes"] == (case["polarity"] == "correction")
        if case["polarity"] == "negative":
            assert all(not k["replaced"] for k in case["expect"]["keys"])
        if case["shared_word"] and case["polarity"] == "correction":
            # at least one sibling key kept (the fourth corpus has two or three)
            assert sum(not k["replaced"] for k in case["expect"]["keys"]) >= 1
        if case["shared_word"]:
            assert len(case["expect"]["keys"]) >= 2, case["id"]


def test_the_second_corpus_sizes_ids_and_text(halves: dict[str, list[dict]]) -> None:
    """dev-3 and heldout-2: big enough, their own ids, no sentence twice or of another file."""
    earlier = {_norm(c["message"]["text"]) for c in (*halves["dev"], *halves["dev-more"])}
    texts = []
    for half in SECOND:
        minimum, prefix = SECOND_SHAPE[half]
        assert len(halves[half]) >= minimum, half
        ids = [c["id"] for c in halves[half]]
        assert all(re.fullmatch(prefix + r"\d{3}", i) for i in ids), half
        assert ids == sorted(ids)
        texts += [_norm(c["message"]["text"]) for c in halves[half]]
    assert len(set(texts)) == len(texts)
    assert not set(texts) & earlier


def test_the_third_corpus_sizes_ids_and_text(halves: dict[str, list[dict]]) -> None:
    """dev-4 and heldout-3: full size, their own ids, no sentence twice or of another file."""
    earlier = {_norm(c["message"]["text"]) for half in halves if half not in THIRD
               for c in halves[half]}
    texts = []
    for half in THIRD:
        size, prefix = THIRD_SHAPE[half]
        assert len(halves[half]) == size, half
        ids = [c["id"] for c in halves[half]]
        assert ids == [f"{prefix}{i:03d}" for i in range(1, size + 1)], half
        texts += [_norm(c["message"]["text"]) for c in halves[half]]
    assert len(set(texts)) == len(texts)
    assert not set(texts) & earlier


@pytest.mark.parametrize("half", THIRD)
def test_the_third_corpus_has_the_same_mix_in_both_halves(halves: dict[str, list[dict]],
                                                          half: str) -> None:
    """60 corrections, 10 statements, 30 negatives a half; every later form in each."""
    polarities = [c["polarity"] for c in halves[half]]
    assert (polarities.count("correction"), polarities.count("fact"),
            polarities.count("negative")) == (60, 10, 30)
    forms = {f for c in halves[half] for f in c["forms"]}
    assert set(SECOND_FORMS) <= forms, set(SECOND_FORMS) - forms


@pytest.mark.parametrize("half", SECOND + THIRD)
def test_the_second_corpus_parses_as_cases(halves: dict[str, list[dict]], half: str) -> None:
    """Every line has the README's fields with the README's types and polarity rules."""
    for case in halves[half]:
        assert set(case) == CASE_KEYS, case["id"]
        assert case["polarity"] in ("correction", "negative", "fact")
        assert case["forms"] and all(isinstance(f, str) for f in case["forms"])
        assert ("shared-word" in case["forms"]) == case["shared_word"]
        assert case["message"]["role"] in ("user", "assistant") and case["message"]["text"]
        assert all(m["role"] in ("user", "assistant") and m["text"] for m in case["history"])
        keys = case["expect"]["keys"]
        assert keys and all(k["key"] and k["current"] for k in keys)
        if case["polarity"] == "correction":
            assert any(k["replaced"] for k in keys), case["id"]
        if case["polarity"] == "negative":
            assert any(k["not_current"] for k in keys), case["id"]
        if case["polarity"] == "fact":
            assert not any(k["replaced"] or k["not_current"] for k in keys), case["id"]


@pytest.mark.parametrize("half", REAL)
def test_the_real_corpus_parses_and_names_its_sources(halves: dict[str, list[dict]],
                                                      half: str) -> None:
    """dev-real and heldout-real: README fields plus a source, own ids, whole-token values."""
    cases = halves[half]
    assert len(cases) >= 50
    assert [c["id"] for c in cases] == [f"{REAL_PREFIX[half]}{i:03d}"
                                        for i in range(1, len(cases) + 1)]
    others = {_norm(c["message"]["text"]) for h in halves if h not in REAL for c in halves[h]}
    assert not others & {_norm(c["message"]["text"]) for c in cases}
    assert {c["polarity"] for c in cases} == {"correction", "fact", "negative"}
    for case in cases:
        assert set(case) == CASE_KEYS | {"source", "history_written"}, case["id"]
        assert case["source"] and isinstance(case["history_written"], bool)
        assert case["history_written"] <= bool(case["history"]), case["id"]
        text = " ".join(m["text"] for m in case["history"]) + "\n" + case["message"]["text"]
        for key in case["expect"]["keys"]:
            for value in (key["current"], *key["replaced"], *key["not_current"]):
                assert mentioned(text, value), (case["id"], value)
        if case["polarity"] == "correction":
            assert any(k["replaced"] for k in case["expect"]["keys"]), case["id"]
        if case["polarity"] == "negative":
            assert any(k["not_current"] for k in case["expect"]["keys"]), case["id"]


@pytest.mark.parametrize("pair", REAL_PAIRS)
def test_the_real_corpus_halves_do_not_share_a_message(halves: dict[str, list[dict]],
                                                       pair: tuple[str, str]) -> None:
    dev, held = ({_norm(c["message"]["text"]) for c in halves[h]} for h in pair)
    assert not dev & held


@pytest.mark.parametrize("pair", REAL_PAIRS[1:])
def test_the_later_real_corpora_are_half_and_half_by_polarity(
        halves: dict[str, list[dict]], pair: tuple[str, str]) -> None:
    """dev-real-2 / heldout-real-2 … dev-real-7 / heldout-real-7: each polarity split half and
    half, a quarter or more negative in each half."""
    counts = [[c["polarity"] for c in halves[h]] for h in pair]
    for polarity in ("correction", "fact", "negative"):
        assert abs(counts[0].count(polarity) - counts[1].count(polarity)) <= 1, polarity
    for polarities in counts:
        assert 4 * polarities.count("negative") >= len(polarities)


def test_no_source_is_used_by_two_real_corpora(halves: dict[str, list[dict]]) -> None:
    """A source (its address, without the note on which post) belongs to one real corpus only."""
    corpora = [{c["source"].split(" (")[0] for h in pair for c in halves[h]}
               for pair in REAL_PAIRS]
    for i, first in enumerate(corpora):
        for second in corpora[i + 1:]:
            assert not first & second, first & second


@pytest.mark.parametrize("half", SECOND)
def test_the_second_corpus_values_are_whole_tokens(halves: dict[str, list[dict]],
                                                   half: str) -> None:
    """The scorer matches whole tokens: each value must be written so in the case, a replaced
    value in the history, a suggested one in the message, and no value may hide in another."""
    for case in halves[half]:
        history = " ".join(m["text"] for m in case["history"])
        message = case["message"]["text"]
        values = []
        for key in case["expect"]["keys"]:
            assert mentioned(history + "\n" + message, key["current"]), (case["id"], key)
            assert all(mentioned(history, v) for v in key["replaced"]), (case["id"], key)
            assert all(mentioned(message, v) for v in key["not_current"]), (case["id"], key)
            values += [key["current"], *key["replaced"], *key["not_current"]]
        for value in values:
            assert not any(other != value and mentioned(other, value) for other in values), \
                (case["id"], value)


@pytest.mark.parametrize("form", SECOND_FORMS)
def test_the_second_corpus_has_every_new_form_in_both_files(halves: dict[str, list[dict]],
                                                            form: str) -> None:
    for half in SECOND:
        assert any(form in c["forms"] for c in halves[half]), f"{form} missing in {half}"


@pytest.mark.parametrize("half", SECOND)
def test_the_second_corpus_is_a_third_negative_with_shared_word_pairs(
        halves: dict[str, list[dict]], half: str) -> None:
    cases = halves[half]
    assert 3 * sum(c["polarity"] == "negative" for c in cases) >= len(cases)
    assert sum(c["shared_word"] and c["polarity"] == "correction" for c in cases) >= 5
    assert any(c["shared_word"] and c["polarity"] == "negative" for c in cases)
    assert any(c["message"]["role"] == "assistant" for c in cases)
    assert any(sum(bool(k["replaced"]) for k in c["expect"]["keys"]) >= 2 for c in cases)


LEDGER = """You are helpful.

Facts of this conversation (exact, kept by code; a later value replaces an earlier one):
Stated by the user:
- api port: 9443 (replaced 8443)
- The request timeout went from 30 s to 45 s.
- Actually let's use Postgres instead of MySQL.
  - earlier, now replaced: The warehouse runs on MySQL 8.0.
- eval dataset: CIFAR-100
From the assistant's replies (the user has not confirmed them):
- metrics port: 9100
</compressed_history_summary>"""


def test_ledger_reading() -> None:
    entries = ledger_entries([{"role": "system", "content": LEDGER}])
    assert len(entries) == 5
    assert shown_current(entries, "9443") and shown_replaced(entries, "8443")
    assert shown_current(entries, "45 s") and not shown_current(entries, "30 s")
    assert shown_current(entries, "45s")  # spacing does not matter
    assert shown_current(entries, "Postgres") and not shown_current(entries, "MySQL 8.0")
    assert shown_replaced(entries, "MySQL 8.0")
    assert not shown_current(entries, "CIFAR-10") and shown_current(entries, "CIFAR-100")
    assert shown_current(entries, "9100") and not shown_current(entries, "9100", assistant=False)
    assert not ledger_entries([{"role": "user", "content": "- api port: 9443"}])


def _case(polarity: str, shared: bool = False) -> dict:
    keys = [{"key": "api port", "current": "9443", "replaced": ["8443"], "not_current": []}]
    if polarity == "negative":
        keys = [{"key": "db port", "current": "5432", "replaced": [], "not_current": ["5434"]}]
    if shared:
        keys.append({"key": "admin port", "current": "9000", "replaced": [], "not_current": []})
    return {"id": "t1", "half": "dev", "forms": ["x-not-y"], "polarity": polarity,
            "shared_word": shared, "expect": {"keys": keys}}


def _entries(*lines: str) -> list[Entry]:
    return [Entry("stated by the user:", line, ()) for line in lines]


def test_score_counts_what_went_wrong() -> None:
    good = corrections.score(_case("correction", True),
                             _entries("api port: 9443 (replaced 8443)", "admin port: 9000"), [])
    assert good["applied"] and good["false_supersessions"] == 0 and good["stale_shown"] == 0
    bad = corrections.score(_case("correction", True),
                            _entries("api port: 9443 (replaced 9000)", "api port: 8443"), [])
    assert not bad["applied"] and bad["false_supersessions"] == 1 and bad["stale_shown"] == 1
    question = corrections.score(_case("negative"), _entries("port: 5434 (replaced 5432)"), [])
    assert question["superseded"] and question["suggestion_sent"]
    kept = corrections.score(_case("negative"), _entries("db port: 5432"), [])
    assert not kept["superseded"] and not kept["suggestion_sent"]


def test_a_case_through_the_real_engine() -> None:
    case = next(c for c in corrections.load("dev") if c["id"] == "d43")
    played = asyncio.run(corrections.play(case, 4096))
    assert not played["verbatim"]  # the facts are outside the recent window
    assert played["entries"], "the ledger carries the case's facts"
    row = corrections.score(case, played["entries"], played["panel"])
    row.update(ctx=4096, verbatim=False)
    figures = summarise([row])["4096"]["dev"]
    assert figures["cases"] == 1 and figures["corrections_applied"]["of"] == 1


def test_kind_corrections_cli(tmp_path, capsys) -> None:
    assert cli.main(["--kind", "corrections", "--out", str(tmp_path), "--label", "t"]) == 0
    data = json.loads((tmp_path / "corrections-t.json").read_text())
    assert set(data["summary"]["4096"]) == set(corrections.HALVES)
    assert {"dev-3", "heldout-2", "dev-4", "heldout-3"} <= set(corrections.HALVES)
    assert len(data["cases"]) == sum(data["params"]["cases"].values())
    table = (tmp_path / "corrections-t.md").read_text()
    assert re.search(r"\| 4K \| held-out \|", table)
    assert re.search(r"\| 4K \| held-out-2 \|", table) and re.search(r"\| 4K \| dev-3 \|", table)
    assert re.search(r"\| 4K \| held-out-3 \|", table) and re.search(r"\| 4K \| dev-4 \|", table)
    assert re.search(r"\| 4K \| held-out-real-3 \|", table)
    assert re.search(r"\| 4K \| dev-real-3 \|", table)
    assert re.search(r"\| 4K \| held-out-real-4 \|", table)
    assert re.search(r"\| 4K \| dev-real-4 \|", table)
    assert re.search(r"\| 4K \| held-out-real-5 \|", table)
    assert re.search(r"\| 4K \| dev-real-5 \|", table)
    assert re.search(r"\| 4K \| held-out-real-6 \|", table)
    assert re.search(r"\| 4K \| dev-real-6 \|", table)
    assert re.search(r"\| 4K \| held-out-real-7 \|", table)
    assert re.search(r"\| 4K \| dev-real-7 \|", table)
    with pytest.raises(SystemExit):
        cli.parser().parse_args(["--kind", "nonsense"])


def test_the_hand_written_chat_is_whole_and_scored(tmp_path) -> None:
    from bench.memory import chat_corpus

    chat = json.loads(chat_corpus.CHAT.read_text())
    assert len(chat["turns"]) == 60 and len(chat["facts"]) == 20
    assert sum(bool(f["replaced_by"]) for f in chat["facts"]) == 5
    for fact in chat["facts"]:
        assert fact["value"] in chat["turns"][fact["turn"] - 1]["user"]
    for turn in chat["turns"]:
        assert all(v in turn["assistant"] for v in turn["invented"])
    assert cli.main(["--kind", "chat", "--ctx", "2048", "--out", str(tmp_path)]) == 0
    points = json.loads((tmp_path / "chat60.json").read_text())["results"]["2048"]
    assert [p["turn"] for p in points] == list(chat_corpus.SCORED_TURNS)
    assert points[-1]["user_facts"] == 20
    assert 0 <= points[-1]["user_facts_in_request"] <= 20


def test_the_refusing_summariser_makes_every_checkpoint_code_built() -> None:
    from bench.memory import loopback

    assert "refusing" in loopback.SUMMARISERS
    text = loopback.REPLIES["refusing"]({"messages": [{"role": "user", "content": "x"}]})
    assert "can't" in text
