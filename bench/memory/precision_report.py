"""The precision figures of a memory run (issue 28): per context size and turn, pooled over the
run's kinds and seeds, and the cost figures beside them.

Junk share = junk tokens / ledger tokens, summed over the runs (a run with a longer ledger
weighs more, as it costs more). Goals: junk at most 10 % at every reported turn, replaced
values shown as current 0, false supersessions 0, the panel's default rows at least 80 % user
or adopted, no assistant filler in a code-built checkpoint's decisions and at least 90 % of
the user's decisions there, at most one extraction per message version, a compaction's engine
CPU at 32K at most 100 ms (median and p95).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.memory.precision import PRECISION_TURNS, _percentile


def _ratio(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def aggregate(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """{ctx: {"turns": {turn: figures}, "cost": figures, "halves": ...}} over the runs."""
    out: dict[str, Any] = {}
    # One strategy's ledger (ollm's when a run has it beside ollm-recall: the same ledger,
    # counted once).
    named = {r.get("strategy") for r in runs if r.get("precision")}
    if "ollm" in named and len(named) > 1:
        runs = [r for r in runs if r.get("strategy") == "ollm"]
    for ctx in sorted({r["ctx"] for r in runs if r.get("precision")}):
        mine = [r for r in runs if r["ctx"] == ctx and r.get("precision")]
        turns: dict[str, Any] = {}
        for turn in sorted({p["turn"] for r in mine for p in r["precision"]}):
            points = [p for r in mine for p in r["precision"] if p["turn"] == turn]
            ledger = sum(p["ledger_tokens"] for p in points)
            panel_shown = sum(p["panel"]["shown"] for p in points)
            checks = [p["checkpoints"] for p in points]
            turns[str(turn)] = {
                "runs": len(points), "ledger_tokens_mean": ledger / len(points),
                "junk_share": _ratio(sum(p["junk_tokens"] for p in points), ledger),
                "marked_share": _ratio(sum(p.get("marked_tokens", 0) for p in points), ledger),
                "replaced_current": sum(len(p["replaced_current"]) for p in points),
                "false_supersessions": sum(len(p["false_supersessions"]) for p in points),
                # (the first measure, on the same ledger: files from after stop 34 have it)
                "false_supersessions_before": sum(len(p.get("false_supersessions_before", ()))
                                                  for p in points),
                "panel_rows_mean": sum(p["panel"]["rows"] for p in points) / len(points),
                "panel_user_share": _ratio(sum(p["panel"]["user_or_adopted"] for p in points),
                                           panel_shown),
                "code_built": sum(c["code_built"] for c in checks),
                "checkpoint_filler_lines": sum(c["filler_lines"] for c in checks),
                "checkpoint_decision_lines": sum(c["decision_lines"] for c in checks),
                "user_decisions": sum(c["user_decisions"] for c in checks),
                "user_decisions_found": sum(c["user_decisions_found"] for c in checks),
                "tokens": _sum_dicts(p["tokens"] for p in points),
            }
        cpu = [x for r in mine for x in r["cost"].get("compaction_cpu_s", [])]
        made = [r["cost"].get("extractions") for r in mine]
        versions = sum(r["cost"].get("message_versions") or 0 for r in mine)
        builds = [r["cost"]["checkpoint_builds"] for r in mine
                  if r["cost"].get("checkpoint_builds")]
        out[str(ctx)] = {"turns": turns, "halves": _halves(mine),
                         "user_recall": _user_recall(mine), "cost": {
            "compactions": len(cpu), "compaction_cpu_s_median": _percentile(cpu, 0.5),
            "compaction_cpu_s_p95": _percentile(cpu, 0.95),
            "extractions": None if any(m is None for m in made) else sum(made),  # type: ignore[misc]
            "message_versions": versions,
            "checkpoint_builds": sum(b["builds"] for b in builds),
            "build_filler_lines": sum(b["filler_lines"] for b in builds),
            "build_decisions_in_span": sum(b["user_decisions_in_span"] for b in builds),
            "build_decisions_kept": sum(b["user_decisions_kept"] for b in builds),
            "extractions_per_version": None if any(m is None for m in made) or not versions
            else sum(made) / versions}}  # type: ignore[arg-type,misc]
    return out


def _user_recall(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """End of chat, the user's facts in the request: the generator's own and the corpus's
    (ids with ``-k``), each half apart (the corpus facts are new in issue 28)."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    halves = {f"k{i}": "dev" if i % 2 == 0 else "heldout" for i in range(10)}
    for run in runs:
        if not run.get("probes"):
            continue
        for fact in run["probes"][-1]["facts"]:
            if fact["speaker"] != "user":
                continue
            marker = fact["id"].rsplit("-", 1)[-1]
            group = f"corpus {halves.get(marker[:2], '?')}" if marker.startswith("k") \
                else "generator"
            counts[group][0] += fact["retained"]
            counts[group][1] += 1
    return {k: {"n": v[0], "of": v[1], "share": v[0] / v[1] if v[1] else None}
            for k, v in sorted(counts.items())}


def _halves(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per half of the phrasing corpus: keys on the ledger as current at each run's last point;
    replaced values and question values shown as current, summed over every point."""
    out: dict[str, Any] = {}
    for run in runs:
        last = run["precision"][-1]
        for point in run["precision"]:
            for half, row in (point.get("corpus") or {}).items():
                mine = out.setdefault(half, {"keys": 0, "current": 0, "corrections": 0,
                                             "replaced_current": 0,
                                             "question_values_current": 0})
                mine["replaced_current"] += row["replaced_current"]
                mine["question_values_current"] += row["question_values_current"]
                if point is last:
                    for key in ("keys", "current", "corrections"):
                        mine[key] += row[key]
    return out


def _sum_dicts(items: Any) -> dict[str, int]:
    total: dict[str, int] = defaultdict(int)
    for item in items:
        for key, value in item.items():
            total[key] += value
    return dict(total)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f} %"


def table(precision: dict[str, Any], title: str = "") -> str:
    if not precision:
        return ""
    turns = [str(t) for t in PRECISION_TURNS]
    lines = [f"### Ledger precision{f' ({title})' if title else ''}", "",
             "Junk share of the ledger's tokens (goal ≤ 10 %), per turn; the share of replaced "
             "values at the head of a line marked \"(possibly) replaced by\" their "
             "replacement (not junk by the issue's definition; the worst turn); replaced values "
             "shown as current and false supersessions (values replaced by a value of another "
             "key; in brackets the first measure's count on the same ledgers; summed over runs "
             "and turns, goal 0), "
             "the panel's default rows that are user-stated or adopted (last turn, goal "
             "≥ 80 %), and the code-built checkpoints' decisions.", "",
             "| ctx | " + " | ".join(f"turn {t}" for t in turns)
             + " | marked replaced lines, share (worst turn) | replaced as current | false sup. "
             "| panel rows (last) | panel user share "
             "| code-built ckpts: filler lines / decision lines (all turns); user decisions "
             "still in the request / known (last turn; the goal's figure is the build "
             "table's below) |",
             "|---|" + "---|" * (len(turns) + 6)]
    for ctx, figures in precision.items():
        by_turn = figures["turns"]
        last = by_turn[max(by_turn, key=int)]
        cells = [_pct(by_turn[t]["junk_share"]) if t in by_turn else "-" for t in turns]
        lines.append(
            f"| {int(ctx) // 1024}K | " + " | ".join(cells)
            + f" | {_pct(max((v.get('marked_share') or 0 for v in by_turn.values()), default=0))}"
            f" | {sum(v['replaced_current'] for v in by_turn.values())}"
            f" | {sum(v['false_supersessions'] for v in by_turn.values())}"
            f" ({sum(v.get('false_supersessions_before', 0) for v in by_turn.values())})"
            f" | {last['panel_rows_mean']:.0f} | {_pct(last['panel_user_share'])}"
            f" | {sum(v['checkpoint_filler_lines'] for v in by_turn.values())} / "
            f"{sum(v['checkpoint_decision_lines'] for v in by_turn.values())}; "
            f"{last['user_decisions_found']} / {last['user_decisions']} |")
    lines += ["", "The chat's corpus phrasings, per half: keys on the ledger as current at the "
              "last turn (the rest are still sent word for word, or missing); replaced values "
              "and question values shown as current, over every reported turn (goal 0).", "",
              "| ctx | half | keys current / known | corrections | replaced as current "
              "| question values as current |", "|---|---|---|---|---|---|"]
    for ctx, figures in precision.items():
        for half, row in sorted(figures.get("halves", {}).items()):
            lines.append(f"| {int(ctx) // 1024}K | {half} | {row['current']} / {row['keys']} "
                         f"| {row['corrections']} | {row['replaced_current']} "
                         f"| {row['question_values_current']} |")
    lines += ["", "End of chat, the user's facts in the request: the generator's own, and those "
              "drawn from the corpus (per half).", "",
              "| ctx | generator | corpus dev | corpus held-out |", "|---|---|---|---|"]
    for ctx, figures in precision.items():
        recall = figures.get("user_recall", {})
        cells = [recall.get(k) for k in ("generator", "corpus dev", "corpus heldout")]
        lines.append(f"| {int(ctx) // 1024}K | " + " | ".join(
            "-" if c is None else f"{c['n']}/{c['of']} ({_pct(c['share'])})" for c in cells)
            + " |")
    lines += ["", "| ctx | compactions | engine CPU per compaction, median / p95 (goal at 32K "
              "≤ 100 ms) | extractions per message version (goal ≤ 1) | code-built checkpoints: "
              "builds; the user's decisions in the messages each summarised, kept in its "
              "decisions (goal ≥ 90 %); reply sentences there (goal 0) |",
              "|---|---|---|---|---|"]
    for ctx, figures in precision.items():
        cost = figures["cost"]
        per = cost["extractions_per_version"]
        built = cost.get("checkpoint_builds", 0)
        kept = f"{cost.get('build_decisions_kept', 0)} / {cost.get('build_decisions_in_span', 0)}"
        lines.append(f"| {int(ctx) // 1024}K | {cost['compactions']} | "
                     f"{_ms(cost['compaction_cpu_s_median'])} / "
                     f"{_ms(cost['compaction_cpu_s_p95'])} | "
                     f"{'n/a' if per is None else f'{per:.2f}'} | "
                     + (f"{built}; {kept}; {cost.get('build_filler_lines', 0)} |" if built
                        else "- |"))
    return "\n".join(lines)


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{1000 * seconds:.0f} ms"


def from_files(paths: Sequence[Path]) -> str:
    """The tables of result files (``python -m bench.memory precision FILE...``)."""
    out = []
    for path in paths:
        payload = json.loads(path.read_text(encoding="utf-8"))
        params = payload["params"]
        title = f"{path.name}: {params.get('replies')} replies, engine " \
                f"{params.get('engine_last_change') or params.get('engine_commit')}"
        out.append(table(aggregate(payload["runs"]), title))
    return "\n\n".join(out)
