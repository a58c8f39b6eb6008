"""Figures from the runs: aggregate, print a table, write JSON, draw the chart, compare two runs."""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.memory.generator import generate
from bench.memory.retention import DEPTH_BUCKETS
from bench.memory.strategies import STRATEGIES

BUCKETS = [name for _, _, name in DEPTH_BUCKETS]
TYPES = ("identifier", "defined_name", "decision", "number", "correction", "goal", "pinned")


def _share(hits: int, total: int) -> float | None:
    return hits / total if total else None


SPEAKERS = ("user", "assistant")
FORMS = ("direct", "paraphrase")


def _by(rows: list[dict[str, Any]], key: str, values: tuple[str, ...] | list[str],
        ) -> dict[str, float | None]:
    return {v: _share(sum(r["retained"] for r in rows if r.get(key) == v),
                      sum(r.get(key) == v for r in rows)) for v in values}


def _retention(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Shares of ``rows`` retained: overall, by depth, type and speaker (and form, for
    questions); ``stale_current``: replaced values presented as current."""
    decisive = [r for r in rows if r["type"] in ("decision", "correction")]
    figures = {"overall": _share(sum(r["retained"] for r in rows), len(rows)),
               "facts": len(rows), "by_depth": _by(rows, "bucket", BUCKETS),
               "by_type": _by(rows, "type", TYPES), "by_speaker": _by(rows, "speaker", SPEAKERS),
               "decisions_corrections": _share(sum(r["retained"] for r in decisive),
                                               len(decisive)),
               "stale_current": sum(bool(r.get("stale_current")) for r in rows)}
    if any("form" in r for r in rows):
        figures["by_form"] = _by(rows, "form", FORMS)
        figures["unasked"] = sum(not r.get("asked", True) for r in rows)
        user_rows = [r for r in rows if r.get("speaker") == "user"]
        figures["user_by_form"] = _by(user_rows, "form", FORMS)
    return figures


def _questions(items: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Question-time retention at the last probe and over all probes (``--qa``)."""
    final = [row for run in items if run.get("questions")
             for row in run["questions"][-1]["rows"]]
    every = [row for run in items for point in run.get("questions") or []
             for row in point["rows"]]
    if not final:
        return None
    return {"final": _retention(final), "all_probes": _retention(every)}


def _slot_model(costs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The one-slot cache model over the runs: per request kind, the shares of all prompts."""
    kinds: dict[str, dict[str, int]] = {}
    for cost in costs:
        for kind, f in (cost.get("slot_model") or {}).items():
            total = kinds.setdefault(kind, {"prompt": 0, "cached": 0, "possible": 0})
            total["prompt"] += f["prompt_tokens"]
            total["cached"] += f["cached_tokens"]
            total["possible"] += round((f["possible_share"] or 0) * f["prompt_tokens"])
    if not kinds:
        return None
    return {kind: {"prompt_tokens": t["prompt"], "cache_share": _share(t["cached"], t["prompt"]),
                   "possible_share": _share(t["possible"], t["prompt"])}
            for kind, t in kinds.items()}


def _provenance(items: list[dict[str, Any]]) -> dict[str, Any] | None:
    found = [run["provenance"] for run in items if run.get("provenance")]
    if not found:
        return None
    user = sum(p["user"] for p in found)
    assistant = sum(p["assistant_only"] for p in found)
    return {"user": user, "assistant_only": assistant, "other": sum(p["other"] for p in found),
            "user_share": _share(user, user + assistant)}


def aggregate(runs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """strategy -> str(ctx) -> figures, over every kind and seed of the run."""
    groups: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for run in runs:
        groups[(run["strategy"], run["ctx"])].append(run)
    summary: dict[str, dict[str, Any]] = {}
    for (strategy, ctx), items in sorted(groups.items()):
        final = [row for run in items for row in run["probes"][-1]["facts"]]
        every = [row for run in items for probe in run["probes"] for row in probe["facts"]]
        costs = [run["cost"] for run in items if run["cost"]]
        if not costs:  # a run stopped early: its probes so far, no cost yet
            summary.setdefault(strategy, {})[str(ctx)] = {
                "final": _retention(final), "all_probes": _retention(every),
                "conversations": len(items),
                "partial_turns": items[0]["probes"][-1]["turn"] + 1 if items[0]["probes"] else 0,
                **dict.fromkeys(("summarizer_calls", "summary_input_ratio",
                                 "summarizer_output_tokens", "compaction_s_median",
                                 "compaction_s_p95", "waited_share", "qa_accuracy")),
                "overflow_requests": "-", "turn_requests": "-",
                "questions": _questions(items), "provenance": _provenance(items)}
            continue
        extras = {"questions": _questions(items), "provenance": _provenance(items),
                  "slot_model": _slot_model(costs),
                  "summary_read_ratio": sum(c.get("summarizer_read_tokens", 0) for c in costs)
                  / max(1, sum(c["conversation_tokens"] for c in costs))}
        caches = [c["cache"] for c in costs if c.get("cache")]
        if caches:
            extras["cache"] = caches[0] if len(caches) == 1 else {"runs": caches}
        seconds = [s for c in costs for s in c.get("compaction_seconds", [])]
        turns = sum(c["turns"] for c in costs)
        qa = [row for run in items for row in run.get("qa", []) if row["asked"]]
        figures = {
            "final": _retention(final),
            "all_probes": _retention(every),
            "conversations": len(items),
            "summarizer_calls": statistics.mean(c["summarizer_calls"] for c in costs),
            "summarizer_failures": sum(c["summarizer_failures"] for c in costs),
            "summary_input_ratio": sum(c["summarizer_input_tokens"] for c in costs)
            / max(1, sum(c["conversation_tokens"] for c in costs)),
            "summarizer_output_tokens": statistics.mean(c["summarizer_output_tokens"]
                                                        for c in costs),
            "compactions": statistics.mean(c["compactions"] for c in costs),
            "compaction_s_median": statistics.median(seconds) if seconds else None,
            "compaction_s_p95": _p95(seconds),
            "waited_share": sum(c["waited_turns"] for c in costs) / max(1, turns),
            "turn_requests": sum(c["turn_requests"] for c in costs),
            "overflow_requests": sum(c["overflow_requests"] for c in costs),
            "prompt_eval_ratio_max": max(c["prompt_eval_ratio_max"] for c in costs),
            "qa_accuracy": _share(sum(r["correct"] for r in qa), len(qa)),
            "qa_asked": len(qa),
            "seconds": sum(run["seconds"] for run in items),
            **extras,
        }
        summary.setdefault(strategy, {})[str(ctx)] = figures
    return summary


def _p95(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _num(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ordered(summary: dict[str, Any]) -> list[str]:
    return [s for s in STRATEGIES if s in summary] + [s for s in summary if s not in STRATEGIES]


def table(summary: dict[str, dict[str, Any]]) -> str:
    """The readable stdout table: retention at the end by depth, then the cost columns."""
    head = ("| strategy | ctx | all | 100+ | 50-100 | 20-50 | 0-20 | calls | in/conv | out tok"
            " | comp s med/p95 | waited | overflow |")
    lines = [head, "|" + "---|" * 13]
    for strategy in _ordered(summary):
        for ctx, f in sorted(summary[strategy].items(), key=lambda kv: int(kv[0])):
            d = f["final"]["by_depth"]
            lines.append(
                f"| {strategy} | {int(ctx) // 1024}K | {_pct(f['final']['overall'])} | "
                f"{_pct(d['100+'])} | {_pct(d['50-100'])} | {_pct(d['20-50'])} | "
                f"{_pct(d['0-20'])} | {_num(f['summarizer_calls'])} | "
                f"{_num(f['summary_input_ratio'], 2)} | {_num(f['summarizer_output_tokens'], 0)}"
                f" | {_num(f['compaction_s_median'])}/{_num(f['compaction_s_p95'])} | "
                f"{_pct(f['waited_share'])} | {f['overflow_requests']}/{f['turn_requests']} |")
    lines += ["", "| strategy | ctx | " + " | ".join(TYPES) + " | QA |",
              "|" + "---|" * (len(TYPES) + 3)]
    for strategy in _ordered(summary):
        for ctx, f in sorted(summary[strategy].items(), key=lambda kv: int(kv[0])):
            types = f["final"]["by_type"]
            lines.append(f"| {strategy} | {int(ctx) // 1024}K | "
                         + " | ".join(_pct(types[t]) for t in TYPES)
                         + f" | {_pct(f['qa_accuracy'])} |")
    lines += ["", "| strategy | ctx | end: user | end: assistant | dec+corr | replaced as "
              "current | asked: user | asked: assistant | asked: paraphrased | user ids |",
              "|" + "---|" * 10]
    for strategy in _ordered(summary):
        for ctx, f in sorted(summary[strategy].items(), key=lambda kv: int(kv[0])):
            end = f["final"]
            asked = (f.get("questions") or {}).get("final") or {}
            speakers = asked.get("by_speaker") or {}
            lines.append(
                f"| {strategy} | {int(ctx) // 1024}K | {_pct(end['by_speaker']['user'])} | "
                f"{_pct(end['by_speaker']['assistant'])} | "
                f"{_pct(end['decisions_corrections'])} | "
                f"{end['stale_current'] + asked.get('stale_current', 0)} | "
                f"{_pct(speakers.get('user'))} | {_pct(speakers.get('assistant'))} | "
                f"{_pct((asked.get('by_form') or {}).get('paraphrase'))} | "
                f"{_pct((f.get('provenance') or {}).get('user_share'))} |")
    lines += ["", "| strategy | ctx | read/conv | chat cache (possible) | summary cache "
              "(possible) |", "|" + "---|" * 5]
    for strategy in _ordered(summary):
        for ctx, f in sorted(summary[strategy].items(), key=lambda kv: int(kv[0])):
            slot = f.get("slot_model") or {}

            def share(kind: str, slot: dict[str, Any] = slot) -> str:
                k = slot.get(kind) or {}
                return f"{_pct(k.get('cache_share'))} ({_pct(k.get('possible_share'))})"

            lines.append(f"| {strategy} | {int(ctx) // 1024}K | "
                         f"{_num(f.get('summary_read_ratio'), 2)} | {share('chat')} | "
                         f"{share('summary')} |")
    return "\n".join(lines + _server_cache_table(summary))


def _server_cache_table(summary: dict[str, dict[str, Any]]) -> list[str]:
    """What the server itself reported (``--app`` against a live server): cache and waiting."""
    rows = [(strategy, ctx, f["cache"]) for strategy in _ordered(summary)
            for ctx, f in sorted(summary[strategy].items(), key=lambda kv: int(kv[0]))
            if isinstance(f.get("cache"), dict) and "chat" in f["cache"]]
    if not rows:
        return []
    lines = ["", "| strategy | ctx | server: chat cache (possible) | server: summary cache "
             "(possible) | TTFT s med/p95 | chat during summary | summaries paused | "
             "warm-ups |", "|" + "---|" * 8]
    for strategy, ctx, cache in rows:
        def share(kind: str, cache: dict[str, Any] = cache) -> str:
            k = cache.get(kind) or {}
            return f"{_pct(k.get('cache_share'))} ({_pct(k.get('possible_share'))})"

        lines.append(f"| {strategy} | {int(ctx) // 1024}K | {share('chat')} | "
                     f"{share('summary')} | {_num(cache.get('ttft_s_median'), 2)}/"
                     f"{_num(cache.get('ttft_s_p95'), 1)} | "
                     f"{cache.get('chat_during_summary', '-')} | "
                     f"{cache.get('summaries_cancelled', '-')} | {cache.get('warmups', '-')} |")
    return lines


def chart(summary: dict[str, dict[str, Any]], path: Path, title: str) -> str:
    """Retention by depth bucket per strategy, one subplot per ctx; a message if skipped."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed (pip install -e '.[bench]'): chart skipped"
    ctxs = sorted({int(c) for s in summary.values() for c in s})
    strategies = _ordered(summary)
    fig, axes = plt.subplots(1, len(ctxs), figsize=(4.2 * len(ctxs), 3.6), sharey=True,
                             squeeze=False)
    width = 0.8 / max(1, len(strategies))
    for ax, ctx in zip(axes[0], ctxs, strict=True):
        for i, strategy in enumerate(strategies):
            figures = summary[strategy].get(str(ctx))
            if figures is None:
                continue
            values = [figures["final"]["by_depth"][b] or 0.0 for b in BUCKETS]
            ax.bar([x + i * width for x in range(len(BUCKETS))], values, width,
                   label=strategy)
        ax.set_xticks([x + width * (len(strategies) - 1) / 2 for x in range(len(BUCKETS))],
                      BUCKETS)
        ax.set_title(f"num_ctx {ctx:,}")
        ax.set_xlabel("turns since the fact was stated")
        ax.set_ylim(0, 1.05)
    axes[0][0].set_ylabel("facts still in the request")
    axes[0][-1].legend(fontsize=7, loc="upper right")
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return f"chart: {path}"


def write(payload: dict[str, Any], out_dir: Path, name: str) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    from bench.memory import precision_report

    payload["precision"] = precision_report.aggregate(payload["runs"])
    path = out_dir / f"{name}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(payload, indent=1, sort_keys=False), encoding="utf-8")
    tmp.replace(path)
    return path


ENGINE_FREE = frozenset({"truncate", "rolling", "full"})  # the peers' strategies


def compare(before_path: Path, after_path: Path) -> str:
    """A side-by-side Markdown table of two runs (e.g. before/after an engine change)."""
    before = json.loads(before_path.read_text(encoding="utf-8"))
    after = json.loads(after_path.read_text(encoding="utf-8"))
    b_label = before["params"].get("label") or "before"
    a_label = after["params"].get("label") or "after"
    lines = [f"Before: {_describe(before)}", f"After: {_describe(after)}", "",
             f"| strategy | ctx | retention {b_label} | retention {a_label} | "
             f"100+ {b_label} | 100+ {a_label} | waited {b_label} | waited {a_label} | "
             f"calls {b_label} | calls {a_label} | in/conv {b_label} | in/conv {a_label} | "
             f"overflow {b_label} | overflow {a_label} |", "|" + "---|" * 14]
    strategies = _ordered({**before["summary"], **after["summary"]})
    shared_used = partial_used = False
    for strategy in strategies:
        ctxs = sorted({*before["summary"].get(strategy, {}), *after["summary"].get(strategy, {})},
                      key=int)
        for ctx in ctxs:
            b = before["summary"].get(strategy, {}).get(ctx)
            a = after["summary"].get(strategy, {}).get(ctx)
            if strategy in ENGINE_FREE and (a is None) != (b is None):
                a = b = a or b  # the peers do not use our engine: one run serves both sides
                shared_used = True

            def cell(f: dict[str, Any] | None, key: str) -> str:
                nonlocal partial_used
                if f is None:
                    return "-"
                if key == "overall":
                    if f.get("partial_turns"):
                        partial_used = True
                        return f"{_pct(f['final']['overall'])}*{f['partial_turns']}"
                    return _pct(f["final"]["overall"])
                if key == "100+":
                    return _pct(f["final"]["by_depth"]["100+"])
                if key == "waited_share":
                    return _pct(f["waited_share"])
                if key == "overflow":
                    return f"{f['overflow_requests']}/{f['turn_requests']}"
                return _num(f[key], 2 if key == "summary_input_ratio" else 1)

            row = [strategy, f"{int(ctx) // 1024}K"]
            for key in ("overall", "100+", "waited_share", "summarizer_calls",
                        "summary_input_ratio", "overflow"):
                row += [cell(b, key), cell(a, key)]
            lines.append("| " + " | ".join(row) + " |")
    if shared_used:
        lines += ["", f"{', '.join(sorted(ENGINE_FREE))} do not use our engine: where one side "
                  "has the run, it is shown on both."]
    if partial_used:
        lines += ["", "`N%*T`: a run stopped early; N is the retention at its last probe, "
                  "T turns in (no cost figures yet)."]
    return "\n".join(lines)


def _describe(payload: dict[str, Any]) -> str:
    p = payload["params"]
    return (f"{p.get('label') or 'run'}: model {p.get('model')}, engine commit "
            f"{p.get('engine_commit')}, {p.get('turns')} turns x {len(p.get('kinds', []))} kinds"
            f" x {len(p.get('seeds', []))} seeds, {p.get('date')}, "
            f"{p.get('wall_s', 0) / 60:.0f} min")


def conversation_facts(kinds: list[str], seeds: list[int], turns: int,
                       filler: str = "long") -> dict[str, Any]:
    """The planted facts of the run, so the JSON says what was asked of every strategy."""
    out: dict[str, Any] = {}
    for kind in kinds:
        for seed in seeds:
            conv = generate(kind, turns, seed, filler)
            out[f"{kind}/{seed}"] = {"fingerprint": conv.fingerprint(),
                                     "facts": [vars(f) for f in conv.facts]}
    return out


def merge(out: Path, inputs: list[Path]) -> Path:
    """Runs made by parallel processes (same label, other context sizes) as one result file.

    A run present in several inputs (a process stopped after another took over its context
    size) is kept once, from the first input that has it. ``partial`` says whether any run the
    inputs' parameters asked for is missing.
    """
    payloads = [json.loads(p.read_text(encoding="utf-8")) for p in inputs]
    params = dict(payloads[0]["params"])
    params["ctx"] = sorted({c for p in payloads for c in p["params"]["ctx"]})
    params["wall_s"] = max(p["params"].get("wall_s", 0) for p in payloads)
    params["merged_from"] = [str(p) for p in inputs]
    runs: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for payload in payloads:
        for run in payload["runs"]:
            key = (run["kind"], run["seed"], run["ctx"], run["strategy"])
            if key not in seen:
                seen.add(key)
                runs.append(run)
    done = {(r["kind"], r["seed"], r["ctx"]) for r in runs}
    wanted = {(k, s, c) for p in payloads for k in p["params"].get("kinds", [])
              for s in p["params"].get("seeds", []) for c in params["ctx"]}
    strategies = {s for p in payloads for s in p["params"].get("strategies", [])}
    params["partial"] = (bool(wanted - done)
                         or any(sum(1 for r in runs if (r["kind"], r["seed"], r["ctx"]) == cell)
                                < len(strategies) for cell in wanted))
    payload = {"params": params, "summary": aggregate(runs), "runs": runs}
    return write(payload, out.parent, out.stem)
