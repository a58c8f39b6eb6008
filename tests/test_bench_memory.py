"""The memory benchmark's runner works: every figure for every strategy, deterministic input.

These tests check the instrument, not what it measures: the smoke run plays a short chat through
all five strategies against the in-process loopback server and must produce every key of the
JSON, figures in range, and the one invariant that holds by construction (``full`` keeps every
fact). The generator must give the same conversation for the same seed on every machine.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.memory import cli
from bench.memory.generator import KINDS, generate, verify
from bench.memory.retention import DEPTH_BUCKETS, bucket, normalise, request_text, retained
from bench.memory.strategies import STRATEGIES

BUCKETS = [name for _, _, name in DEPTH_BUCKETS]
COST_KEYS = ("summarizer_calls", "summary_input_ratio", "summarizer_output_tokens",
             "compaction_s_median", "compaction_s_p95", "waited_share", "overflow_requests",
             "turn_requests", "compactions")


@pytest.fixture(scope="module")
def smoke(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path, str]:
    out = tmp_path_factory.mktemp("memory")
    printed: list[str] = []
    import builtins

    original = builtins.print

    def capture(*args: object, **kwargs: object) -> None:
        if kwargs.get("file") is None:
            printed.append(" ".join(str(a) for a in args))
        else:
            original(*args, **kwargs)  # type: ignore[arg-type]

    builtins.print = capture  # type: ignore[assignment]
    try:
        assert cli.main(["--smoke", "--out", str(out)]) == 0
    finally:
        builtins.print = original
    payload = json.loads((out / "memory-smoke.json").read_text(encoding="utf-8"))
    return payload, out, "\n".join(printed)


def test_smoke_json_has_every_figure_for_every_strategy(smoke) -> None:
    payload, _, _ = smoke
    params = payload["params"]
    for key in ("model", "host", "engine_file", "engine_commit", "date", "wall_s", "turns",
                "seeds", "kinds", "label", "ctx", "facts"):
        assert key in params, key
    assert params["partial"] is False and params["label"] == "smoke"
    assert set(payload["summary"]) == set(STRATEGIES)
    for strategy, by_ctx in payload["summary"].items():
        assert list(by_ctx) == ["2048"], strategy
        figures = by_ctx["2048"]
        final = figures["final"]
        assert 0.0 <= final["overall"] <= 1.0 and final["facts"] > 0
        assert set(final["by_depth"]) == set(BUCKETS)
        assert set(final["by_type"]) >= {"identifier", "correction", "goal", "pinned"}
        for key in COST_KEYS:
            assert key in figures, (strategy, key)
        assert 0.0 <= figures["waited_share"] <= 1.0
        assert figures["summary_input_ratio"] >= 0.0
        for key in ("compaction_s_median", "compaction_s_p95"):
            assert figures[key] is None or figures[key] >= 0.0
    assert payload["summary"]["full"]["2048"]["final"]["overall"] == 1.0
    for strategy in ("rolling", "ollm", "ollm-pins"):  # 40 turns at 2K must compact
        assert payload["summary"][strategy]["2048"]["summarizer_calls"] > 0, strategy
        assert payload["summary"][strategy]["2048"]["compactions"] > 0, strategy
    assert payload["summary"]["truncate"]["2048"]["summarizer_calls"] == 0


def test_smoke_runs_probe_every_strategy_at_several_points(smoke) -> None:
    payload, _, _ = smoke
    assert len(payload["runs"]) == len(STRATEGIES)
    for run in payload["runs"]:
        turns = [p["turn"] for p in run["probes"]]
        assert turns == [9, 19, 29, 39]
        assert all(0 <= row["depth"] <= 39 for p in run["probes"] for row in p["facts"])
        assert run["cost"]["turns"] == 40


def test_smoke_prints_the_table_and_writes_chart_and_markdown(smoke) -> None:
    _, out, printed = smoke
    for strategy in STRATEGIES:
        assert f"| {strategy} | 2K |" in printed
    assert (out / "memory-smoke.md").read_text(encoding="utf-8").startswith("| strategy |")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "chart skipped" in printed
    else:
        assert (out / "memory-smoke.png").stat().st_size > 1000


def test_compare_writes_a_side_by_side_markdown_table(smoke, capsys) -> None:
    _, out, _ = smoke
    path = out / "memory-smoke.json"
    assert cli.main(["compare", str(path), str(path)]) == 0
    text = capsys.readouterr().out
    rows = [line for line in text.splitlines() if line.startswith("| ollm |")]
    assert len(rows) == 1 and rows[0].count("|") == 15


def test_generator_is_deterministic_per_seed() -> None:
    first, again = generate("coding", 150, 1), generate("coding", 150, 1)
    assert first.fingerprint() == again.fingerprint()
    assert generate("coding", 150, 2).fingerprint() != first.fingerprint()
    assert generate("trip", 150, 1).fingerprint() != first.fingerprint()


@pytest.mark.parametrize("kind", KINDS)
def test_generator_plants_every_type_at_every_depth(kind: str) -> None:
    conversation = generate(kind, 150, 1)
    assert verify(conversation) == []
    assert {f.type for f in conversation.facts} == {
        "identifier", "defined_name", "decision", "number", "correction", "goal", "pinned"}
    assert {bucket(149 - f.turn) for f in conversation.facts} == set(BUCKETS)
    assert {f.speaker for f in conversation.facts} == {"user", "assistant"}
    for fact in conversation.facts:
        if fact.type == "correction":
            assert fact.stale and fact.stale != fact.answer
            assert fact.stale_turn is not None and fact.stale_turn < fact.turn
    for turn in conversation.turns:
        assert 15 <= len(turn.user.split()) <= 110
        assert 60 <= len(turn.assistant.split()) <= 300
    markers = [line for t in conversation.turns for line in t.assistant.splitlines()
               if line.startswith(("[GOAL]", "[DECISION]"))]
    goals = [f for f in conversation.facts if f.type == "goal"]
    assert sum(m.startswith("[GOAL]") for m in markers) == 1
    assert sum(m.endswith("- LOCKED") for m in markers) == len(goals) - 1
    assert any(t.user_pinned for t in conversation.turns)


def test_retention_normalises_and_judges_corrections() -> None:
    def user(text: str) -> list[dict[str, str]]:
        return [{"role": "user", "content": text}]

    said = user("We chose \u201cNATS  JetStream\u201d.\n"
                "Port 8443 now; port 8080 is no longer used.")
    assert normalise('"nats jetstream"') in request_text(said)
    assert retained(said, '"nats jetstream"')
    assert retained(said, "8443", stale="8080")
    # The old value first, in its own sentence of a message that is not kept in its place.
    stale_as_current = [{"role": "system",
                         "content": "The gateway listens on port 8080. Later: port 8443."}]
    assert not retained(stale_as_current, "8443", stale="8080")
    assert not retained(user("port 8080"), "8443", stale="8080")


def test_merge_keeps_each_run_once(smoke, tmp_path) -> None:
    _, out, _ = smoke
    path = out / "memory-smoke.json"
    assert cli.main(["merge", str(tmp_path / "merged.json"), str(path), str(path)]) == 0
    merged = json.loads((tmp_path / "merged.json").read_text(encoding="utf-8"))
    assert len(merged["runs"]) == len(STRATEGIES)
    assert merged["params"]["partial"] is False
    assert merged["summary"] == json.loads(path.read_text(encoding="utf-8"))["summary"]


def _fact(speaker: str, kind: str, bucket: str, retained: bool) -> dict:
    return {"id": f"{speaker}-{kind}-{bucket}", "type": kind, "speaker": speaker, "depth": 120,
            "bucket": bucket, "retained": retained, "stale_current": False}


def _result_dir(root: Path, retained_user: list[bool], calls: int) -> Path:
    rows = [_fact("user", "correction" if i == 0 else "identifier", "100+", kept)
            for i, kept in enumerate(retained_user)] + [_fact("assistant", "number", "0-20", True)]
    cost = {"summarizer_calls": calls, "summarizer_input_tokens": 2000, "summarizer_read_tokens":
            1000, "conversation_tokens": 1000, "turns": 10, "waited_turns": 1,
            "overflow_requests": 0, "turn_requests": 10}
    run = {"strategy": "ollm", "ctx": 2048, "probes": [{"facts": rows}],
           "questions": [{"rows": [dict(r, form="paraphrase", asked=True) for r in rows]}],
           "cost": cost}
    folder = root / "matrix-noisy"
    folder.mkdir(parents=True)
    (folder / "memory-x.json").write_text(json.dumps({"runs": [run]}), encoding="utf-8")
    return root


def test_headline_counts_user_facts_apart_and_pairs_before_with_after(tmp_path, capsys) -> None:
    before = _result_dir(tmp_path / "before", [False, False, True, False], calls=8)
    after = _result_dir(tmp_path / "after", [True, True, True, False], calls=6)
    assert cli.main(["headline", str(before), str(after)]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines()
               if line.startswith("| loopback, noisy | ollm | 2K |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    # end: user, user 100+, user dec+corr, end: assistant, ..., calls, in/conv, read/conv
    assert cells[3:7] == ["25% → **75%**", "25% → **75%**", "0% → **100%**", "100%"]
    assert cells[11:14] == ["8.0 → **6.0**", "2.00", "1.00"]
