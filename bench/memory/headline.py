"""The one table docs/memory.md leads with: the two settings of issue 20, before and after.

    python -m bench.memory headline results/before-v2 results/after-v2

Each folder holds the runs under fixed names (``matrix-scripted``, ``matrix-noisy``,
``summariser-2k``, ``summariser-4k``, ``live-2k``, ``live-4k``, ``live-2k-norecall``); a missing
one is left out. Every figure is recomputed from the runs in the JSON files, so files written by
an older report still give the user-only columns. Goals count what the user stated: the user-only
columns are the ones to read, the assistant's are beside them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.memory.report import STRATEGIES

SETTINGS = (("matrix-scripted", "loopback, scripted"), ("matrix-noisy", "loopback, noisy"),
            ("summariser-2k", "SmolLM2 summaries"), ("summariser-4k", "SmolLM2 summaries"),
            ("live-2k", "live SmolLM2"), ("live-4k", "live SmolLM2"),
            ("live-2k-norecall", "live SmolLM2, recall off"),
            ("live-4k-norecall", "live SmolLM2, recall off"))

HEAD = ("| setting | strategy | ctx | end: user | end: user 100+ | user dec+corr | "
        "end: assistant | asked: user | asked: user paraphrased | asked: assistant | "
        "replaced as current | calls | in/conv | read/conv | waited | overflow |")


def _share(rows: list[dict[str, Any]]) -> float | None:
    return sum(r["retained"] for r in rows) / len(rows) if rows else None


def figures(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """User / assistant retention at the end and at question time, and the cost, over ``runs``."""
    end = [row for run in runs for row in run["probes"][-1]["facts"]]
    asked = [row for run in runs if run.get("questions")
             for row in run["questions"][-1]["rows"]]
    user = [r for r in end if r["speaker"] == "user"]
    asked_user = [r for r in asked if r["speaker"] == "user"]
    costs = [run["cost"] for run in runs if run.get("cost")]
    turns = sum(c["turns"] for c in costs)
    conversation = max(1, sum(c["conversation_tokens"] for c in costs))
    measured = conversation > len(costs)  # live runs do not count the conversation's tokens
    return {
        "user": _share(user),
        "user_deep": _share([r for r in user if r["bucket"] == "100+"]),
        "user_decisive": _share([r for r in user if r["type"] in ("decision", "correction")]),
        "assistant": _share([r for r in end if r["speaker"] == "assistant"]),
        "asked_user": _share(asked_user),
        "asked_user_paraphrase": _share([r for r in asked_user if r.get("form") == "paraphrase"]),
        "asked_assistant": _share([r for r in asked if r["speaker"] == "assistant"]),
        "stale": sum(bool(r.get("stale_current")) for r in end + asked),
        "calls": sum(c["summarizer_calls"] for c in costs) / max(1, len(costs)),
        "in_conv": sum(c["summarizer_input_tokens"] for c in costs) / conversation
        if measured else None,
        "read_conv": sum(c.get("summarizer_read_tokens", 0) for c in costs) / conversation
        if measured else None,
        "waited": sum(c["waited_turns"] for c in costs) / max(1, turns),
        "overflow": f"{sum(c['overflow_requests'] for c in costs)}/"
                    f"{sum(c['turn_requests'] for c in costs)}",
    }


def _groups(path: Path) -> dict[tuple[str, int], list[dict[str, Any]]]:
    files = sorted(path.glob("*.json"))
    if not files:
        return {}
    groups: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for run in json.loads(files[0].read_text(encoding="utf-8"))["runs"]:
        groups.setdefault((run["strategy"], run["ctx"]), []).append(run)
    return groups


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _num(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _pair(before: str | None, after: str | None) -> str:
    if before is None:
        return f"{after}"
    if after is None:
        return f"{before} → (not run)"
    return before if before == after else f"{before} → **{after}**"


def table(before_dir: Path, after_dir: Path) -> str:
    """One row per setting, strategy and size: "before → after" in every cell."""
    cells = (("user", _pct), ("user_deep", _pct), ("user_decisive", _pct), ("assistant", _pct),
             ("asked_user", _pct), ("asked_user_paraphrase", _pct), ("asked_assistant", _pct),
             ("stale", str), ("calls", lambda v: _num(v, 1)), ("in_conv", lambda v: _num(v, 2)),
             ("read_conv", lambda v: _num(v, 2)), ("waited", _pct), ("overflow", str))
    lines = [HEAD, "|" + "---|" * HEAD.count(" | ") + "---|"]
    for folder, setting in SETTINGS:
        before, after = _groups(before_dir / folder), _groups(after_dir / folder)
        keys = set(before) | set(after)
        order = {s: i for i, s in enumerate(STRATEGIES)}
        for strategy, ctx in sorted(keys, key=lambda k: (k[1], order.get(k[0], 99), k[0])):
            b = figures(before[(strategy, ctx)]) if (strategy, ctx) in before else None
            a = figures(after[(strategy, ctx)]) if (strategy, ctx) in after else None
            row = [_pair(fmt(b[key]) if b else None, fmt(a[key]) if a else None)
                   for key, fmt in cells]
            lines.append(f"| {setting} | {strategy} | {ctx // 1024}K | " + " | ".join(row) + " |")
    return "\n".join(lines)


CACHE_HEAD = ("| run | ctx | chat cache (possible) | summary cache (possible) | summary tokens "
              "read | TTFT s median / p95 | sends that waited | chat during our summary | "
              "summaries paused | warm-ups | over num_ctx |")


def _cache_cells(run: dict[str, Any]) -> list[str]:
    cost = run["cost"]
    cache = cost.get("cache") or {}

    def share(kind: str) -> str:
        k = cache.get(kind) or {}
        return f"{_pct(k.get('cache_share'))} ({_pct(k.get('possible_share'))})"

    summary = cache.get("summary") or {}
    return [share("chat"), share("summary"), str(summary.get("read_tokens", "-")),
            f"{_num(cache.get('ttft_s_median'), 2)} / {_num(cache.get('ttft_s_p95'), 1)}",
            f"{cost['waited_turns']}/{cost['turns']}", str(cache.get("chat_during_summary", "-")),
            str(cache.get("summaries_cancelled", "-")), str(cache.get("warmups", "-")),
            f"{cost['overflow_requests']}/{cost['turn_requests']}"]


def cache_table(before_dir: Path, after_dir: Path) -> str:
    """The live runs' server-measured cache and waiting (issue 21), before and after."""
    lines = [CACHE_HEAD, "|" + "---|" * (CACHE_HEAD.count(" | ") + 1)]
    for folder, _setting in SETTINGS:
        if not folder.startswith("live"):
            continue
        for label, base in (("before", before_dir), ("after", after_dir)):
            for (_strategy, ctx), runs in sorted(_groups(base / folder).items()):
                for run in runs:
                    if run.get("cost"):
                        name = f"{label}{', recall off' if 'norecall' in folder else ''}"
                        lines.append(f"| {name} | {ctx // 1024}K | "
                                     + " | ".join(_cache_cells(run)) + " |")
    return "\n".join(lines)
