"""Keeps bench/ from rotting: run_all imports, a cheap benchmark runs, the doc renders.

The benchmarks themselves are not part of the suite (``bench/run_all.py`` runs them).
"""

from __future__ import annotations

from bench import run_all


def _tiny_profile() -> dict:
    return dict(run_all.PROFILES["quick"], p2_turns=5, p2_sizes=(10, 20, 40),
                p2_contexts=(4096,), p3_samples=5, p3_sizes=(10, 50))


def test_tiny_engine_and_store_benchmarks_report_figures_against_their_goals():
    lines: list[str] = []
    results, seconds = run_all.run_benchmarks(["P3", "P2"], _tiny_profile(), lines.append)

    assert [r.key for r in results] == ["P2", "P3"]  # run in the table's order
    assert set(seconds) == {"P2", "P3"}
    engine, store = results
    assert "40 msgs" in engine.name and "50 msgs" in store.name
    for result in results:
        assert result.ratio is not None and result.ratio > 0
        assert result.met is not None
        assert any(line.startswith(result.key) for line in lines)
    assert store.met == (store.ratio <= 1.5)
    figure_ms = float(engine.figure.split()[0])
    assert engine.met == (engine.ratio <= 2.0 and figure_ms < 2.0)


def test_the_doc_lists_every_row_with_the_machine_and_keeps_hand_written_notes(tmp_path):
    from bench.common import Result

    rows = [Result("P9", "a missed goal", "3 ms", "1 ms", 3.0, "<= 2x", False, ["why"]),
            Result("P9v", "a figure", "1 ms", "1 ms", None, "-", None)]
    doc = tmp_path / "performance.md"
    doc.write_text("old table\n" + run_all.NOTES_MARK + "\n## Findings\nkeep me\n")

    text = run_all.render(rows, {"P9": 1.0}, "cmd --only P9", 1.0, run_all.kept_notes(doc))

    assert "| P9 a missed goal | 3 ms | 1 ms | 3.00 | <= 2x | **NO** |" in text
    assert "| P9v a figure | 1 ms | 1 ms | - | - | (info) |" in text
    assert "`cmd --only P9`" in text and "- nproc: " in text and "- PySide6: " in text
    assert text.rstrip().endswith("## Findings\nkeep me")
    assert "old table" not in text


def test_the_recall_benchmark_reports_its_p95_against_the_goal():
    from bench.bench_recall import GOAL_MS, run_p9

    result = run_p9(messages=300, sends=6)
    assert result.key == "P9" and "300-message" in result.name
    p95 = float(result.figure.split("p95 ")[1].split()[0])
    assert result.met == (p95 <= GOAL_MS)
    assert any("rounds indexed" in d for d in result.details)
