"""``python -m bench.memory --kind chat``: a hand-written 60-turn chat, held out entirely.

``bench/memory/corpus/chat60.json``: 20 user facts (5 corrected later, in everyday words), two
negatives (a question and a hypothetical whose values must never become current), and replies
like a small model's: verbose, inventing paths, commands and ports, hedging, proposing values
on the user's own subjects. No rule is written against it; it is the second, independent
check of the ledger's precision beside the generated matrix.

The chat is played into ``ContextEngine`` with the engine's defaults as the app drives it
(compaction before a send when needed and after each reply, the loopback's fact-free
summariser, so only what the engine keeps by code carries a value). At turns 20, 40 and 60 the
request is scored as the matrix scores it (``precision``): junk share of the ledger's tokens,
replaced values shown as current (in the ledger, and anywhere in the request by the bench's
strict check), the user's facts in the request, the panel's user share.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.memory import precision
from bench.memory.ledger_text import current_text, ledger_entries, panel_rows
from bench.memory.loopback import fact_free_reply
from bench.memory.retention import normalise, retained, stale_as_current
from bench.memory.tokens import cl100k_text

CHAT = Path(__file__).resolve().parent / "corpus" / "chat60.json"
SCORED_TURNS = (20, 40, 60)


async def _summarize(messages: list[dict[str, str]], *args: Any, **kwargs: Any) -> str:
    return fact_free_reply({"messages": messages})


def truth_at(chat: dict[str, Any], turn: int) -> precision.Truth:
    """Ground truth after turn ``turn`` (1-based)."""
    out = precision.Truth()
    for fact in chat["facts"]:
        if fact["turn"] > turn:
            continue
        if fact["replaced_by"] and fact["replaced_turn"] <= turn:
            out.stale.append(fact["value"])
            out.user.append(fact["replaced_by"])
        else:
            out.user.append(fact["value"])
    out.decoys = [d["value"] for d in chat["decoys"] if d["turn"] <= turn]
    played = chat["turns"][:turn]
    out.invented = sorted({v for t in played for v in t["invented"]})
    out.user_text = normalise("\n".join(t["user"] for t in played))
    out.assistant_text = normalise("\n".join(t["assistant"] for t in played))
    return out


def score(chat: dict[str, Any], messages: Sequence[dict[str, str]], turn: int,
          panel: Sequence[dict[str, Any]]) -> dict[str, Any]:
    truth = truth_at(chat, turn)
    entries = ledger_entries(messages)
    rows = precision.classify_ledger(entries, truth)
    total = sum(r["tokens"] for r in rows)
    junk = sum(r["tokens"] for r in rows if r["class"] in precision.JUNK)
    known = [f for f in chat["facts"] if f["turn"] <= turn]
    current = [(f["replaced_by"], f["value"]) if f["replaced_by"] and f["replaced_turn"] <= turn
               else (f["value"], None) for f in known]
    in_request = [value for value, stale in current if retained(messages, value, stale)]
    stale_request = [stale for value, stale in current
                     if stale and stale_as_current(messages, value, stale)]
    return {"turn": turn, "ledger_tokens": total, "junk_tokens": junk,
            "junk_share": junk / total if total else None,
            "request_tokens": sum(cl100k_text(str(m.get("content", ""))) for m in messages),
            "user_facts": len(current), "user_facts_in_request": len(in_request),
            "missing": [v for v, _ in current if v not in in_request],
            "replaced_current_ledger": sorted({v for v in truth.stale if any(
                current_text(e.text, v) for e in entries)}),
            "replaced_current_request": stale_request,
            "question_values_current": sorted({v for v in truth.decoys if any(
                current_text(e.text, v) for e in entries)}),
            "panel": precision.panel_figures(panel, truth),
            "ledger": [[r["class"], r["tokens"], r["text"][:200]] for r in rows]}


async def play(chat: dict[str, Any], ctx: int) -> list[dict[str, Any]]:
    from ollm_desktop.engine import ContextEngine
    from ollm_desktop.engine.models import EngineConfig

    engine = ContextEngine(EngineConfig(context_size=ctx), _summarize,
                           "You are a helpful assistant for a small software team.")
    out = []
    for number, turn in enumerate(chat["turns"], start=1):
        engine.add("user", turn["user"])
        if engine.needs_compaction():
            await engine.compact()
        engine.add("assistant", turn["assistant"])
        if engine.needs_compaction():
            await engine.compact()
        if number in SCORED_TURNS:
            out.append(score(chat, engine.api_messages(), number, panel_rows(engine)))
    return out


def table(results: dict[str, list[dict[str, Any]]], params: dict[str, Any]) -> str:
    lines = [f"# Hand-written 60-turn chat (engine {params.get('engine_last_change')}, "
             f"{params.get('label') or 'run'})", "",
             "| ctx | turn | ledger tokens | junk share (goal ≤ 10 %) | user facts in the "
             "request | replaced as current: ledger / request (goal 0) | question values as "
             "current | panel rows shown | panel user share |",
             "|---|---|---|---|---|---|---|---|---|"]
    for ctx, points in results.items():
        for p in points:
            share = "-" if p["junk_share"] is None else f"{100 * p['junk_share']:.0f} %"
            user = p["panel"]["user_share"]
            lines.append(
                f"| {int(ctx) // 1024}K | {p['turn']} | {p['ledger_tokens']} | {share} "
                f"| {p['user_facts_in_request']}/{p['user_facts']} "
                f"| {len(p['replaced_current_ledger'])} / {len(p['replaced_current_request'])} "
                f"| {len(p['question_values_current'])} | {p['panel']['shown']} "
                f"| {'-' if user is None else f'{100 * user:.0f} %'} |")
    return "\n".join(lines)


def main(ctx_sizes: Sequence[int], out: Path, label: str, engine: dict[str, Any]) -> int:
    chat = json.loads(CHAT.read_text(encoding="utf-8"))
    results = {str(ctx): asyncio.run(play(chat, ctx)) for ctx in ctx_sizes}
    params = {"kind": "chat", "ctx": list(ctx_sizes), "label": label, **engine}
    name = f"chat60-{label}" if label else "chat60"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps({"params": params, "results": results},
                                                 indent=1), encoding="utf-8")
    text = table(results, params)
    (out / f"{name}.md").write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0
