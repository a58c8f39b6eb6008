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
from bench.memory.ledger_text import Entry, ledger_entries, shown_current, shown_replaced

POINT_3 = ("x-not-y", "not-y-but-x", "from-y-to-x", "k-is-now-x", "verb-k-to-x",
           "instead-of-y", "scratch-that", "from-now-on", "replace-without-number")
NEGATIVES = ("question", "hypothetical", "suggestion-user", "isnt-it-now",
             "suggestion-assistant", "hedge-assistant", "invented-assistant")
VALUE_KINDS = ("date", "weekday", "time", "name", "number")


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
        assert any(form in c["forms"] for c in cases), f"{form} missing in {half}"


@pytest.mark.parametrize("kind", VALUE_KINDS)
def test_every_value_kind_in_both_halves(halves: dict[str, list[dict]], kind: str) -> None:
    for half, cases in halves.items():
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
        if case["shared_word"]:
            assert sum(not k["replaced"] for k in case["expect"]["keys"]) == 1


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
    assert set(data["summary"]["4096"]) == {"dev", "dev-more", "heldout"}
    assert len(data["cases"]) == sum(data["params"]["cases"].values())
    assert re.search(r"\| 4K \| held-out \|", (tmp_path / "corrections-t.md").read_text())
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
