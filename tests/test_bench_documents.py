"""The document benchmark runs on any folder and questions file, dispatched by --kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.memory.cli import main

NAMES = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
         "juliett", "kilo", "lima"]
MANUAL = "# Manual\n\n" + "".join(
    f"## The {name} unit\n\n" + " ".join("Routine upkeep keeps every machine running well."
                                        for _ in range(40))
    + f"\n\nThe {name} unit stores its spare key in drawer value-{i * 7}.\n\n"
    for i, name in enumerate(NAMES))


def test_the_documents_kind_reports_each_window_and_strategy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "manual.md").write_text(MANUAL)
    (docs / "empty.txt").write_text("")  # skipped with its message, the run goes on
    questions = tmp_path / "q.jsonl"
    questions.write_text("\n".join(json.dumps(row) for row in [
        {"q": "Where does the delta unit keep its spare key?", "answer": "value-21"},
        {"q": "And the foxtrot one?", "answer": "value-35",
         "follows": "Where does the delta unit keep its spare key?"},
    ]))
    out = tmp_path / "figures.json"
    assert main(["--kind", "documents", "--docs", str(docs), "--questions", str(questions),
                 "--ctx", "2048,4096", "--json", str(out)]) == 0
    printed = capsys.readouterr()
    assert "empty.txt is empty" in printed.err
    rows = json.loads(out.read_text())["rows"]
    assert [(r["ctx"], r["strategy"]) for r in rows] == [
        (2048, "ours"), (2048, "top-3 x 512"), (2048, "truncated"),
        (4096, "ours"), (4096, "top-3 x 512"), (4096, "truncated")]
    ours = [r for r in rows if r["strategy"] == "ours"]
    assert all(r["in_request"] == 1.0 and r["follow_ups"] == 1.0 for r in ours)
    assert all(r["overflows"] == 0 for r in rows if r["strategy"] != "top-3 x 512")
    assert "questions" in printed.out and "ours" in printed.out


def test_the_speed_benchmark_reports_both_figures_against_their_goals() -> None:
    from bench.bench_documents import run_documents

    indexing, choosing = run_documents(copies=1, choose_copies=1)
    assert (indexing.key, indexing.goal) == ("D1", ">= 20 pages/s")
    assert indexing.figure.endswith("pages/s") and "93 pages" in indexing.details[0]
    assert (choosing.key, choosing.goal) == ("D2", "p95 <= 50 ms")
    assert choosing.name == "choosing passages, 511 passages"
    corpus = Path(__file__).resolve().parent.parent / "bench/memory/documents_corpus"
    asked = sum(1 for f in corpus.glob("questions-*.jsonl")
                for line in f.read_text(encoding="utf-8").splitlines() if line.strip())
    assert f"{asked} questions" in choosing.details[0]


def test_the_real_model_run_works_through_the_session(ollama_server, tmp_path: Path) -> None:
    import argparse
    import asyncio

    from bench.memory import documents_real
    from tests.controller_harness import scripted_model

    ollama_server.reply_fn = scripted_model(reply_words=12)
    corpus = Path(__file__).resolve().parent.parent / "bench" / "memory" / "documents_corpus"
    args = argparse.Namespace(
        host=ollama_server.url, model="", doc=str(corpus / "docs" / "pep-0008.txt"),
        questions=[str(corpus / "questions-dev.jsonl")], count=4, ctx=4096, json=None,
        predict=200)
    figures = asyncio.run(documents_real.run(args))
    assert figures["questions"] == 4
    rows = figures["rows"]
    assert all(r["sources"] and r["sources"][0].startswith("[pep-0008.txt, line")
               for r in rows)
    assert figures["in_request"] == 1.0  # the scripted replies never hold the answers
    assert figures["in_reply"] == 0.0
