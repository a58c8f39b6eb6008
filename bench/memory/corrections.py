"""``python -m bench.memory --kind corrections``: how the engine reads corrections, black-box.

Each line of ``bench/memory/corpus/{dev,heldout}.jsonl`` is played into a fresh
``ContextEngine`` as a user would: the earlier messages, the message under test, then fact-free
small talk until none of those messages is still sent word for word (compactions forced, with
the loopback's fact-free summariser, so only the facts ledger can carry a value). Then the
request the client would send (``api_messages()``) and the facts panel (``facts_view()``) are
read with ``ledger_text``: which value is shown as current, which only as replaced.

``preserve_user_messages`` is off: with it on, the user's compacted messages are quoted word
for word and the ledger leaves their facts to the quotes, so a ledger could not be scored.
Each half (dev, held-out) is reported on its own; the held-out half is what no rule was written
against. ``dev-more.jsonl`` holds more dev phrasings (written after the held-out half's figure
was known, to widen the grammar without reading it); it is reported as its own row and is not
planted in the generated chats (``corpus_facts``), so the matrix stays comparable.
``dev-3.jsonl`` and ``heldout-2.jsonl`` are a second corpus written by someone who had not read
the engine (``corpus/README.md``): dev-3 may be fixed against, heldout-2 may not. Each is its own
row, and neither is planted in the generated chats either. ``dev-4.jsonl`` and ``heldout-3.jsonl``
are a third such corpus, by another writer who had read neither the engine nor the earlier
corpora: dev-4 may be fixed against, heldout-3 may not; each is its own row, neither is planted.
``dev-5.jsonl`` and ``heldout-4.jsonl`` are a fourth corpus, by a writer who had read neither the
engine nor any earlier corpus file, in new domains and styles (longer histories with several
values of one kind, chat, dictation, forwarded mail, lists): dev-5 may be fixed against;
heldout-4 is never read by anyone who writes or tunes the engine's rules. Each is its own row,
neither is planted.
``dev-real.jsonl`` and ``heldout-real.jsonl`` hold real sentences people wrote in public (GitHub
issues and pull requests, mailing lists, forums, news and club notices), each message verbatim,
with a short written history where the text does not state the old value itself; each case
names its ``source``. They were split at random (``random.Random(31)``, by polarity) by a
writer who had not read the engine. dev-real may be fixed against; heldout-real is never read by
anyone who writes or tunes the engine's rules. Each is its own row; neither is planted.
``dev-real-2.jsonl`` and ``heldout-real-2.jsonl`` are a second real corpus, collected the same way
from new sources (``random.Random(32)``, by polarity) by another writer who had read neither the
engine nor any earlier corpus file: dev-real-2 may be fixed against; heldout-real-2 is never read
by anyone who writes or tunes the engine's rules. Each is its own row; neither is planted.
``dev-real-3.jsonl`` and ``heldout-real-3.jsonl`` are a third real corpus, collected the same way
from sources neither earlier real corpus used (``random.Random(33)``, by polarity) by another
writer who had read neither the engine nor any earlier corpus file's cases; it leans on plain
statements of a change, "K is now X", "from Y to X" and a key named a sentence earlier. dev-real-3
may be fixed against; heldout-real-3 is never read by anyone who writes or tunes the engine's
rules. Each is its own row; neither is planted.
``dev-real-4.jsonl`` and ``heldout-real-4.jsonl`` are a fourth real corpus, collected the same way
from sources no earlier real corpus used (``random.Random(34)``, by polarity) by another writer who
had read neither the engine nor any earlier corpus file's cases; it draws on many kinds of public
text (issues and pull requests, sports, transport, school, club, festival, shopping and finance
pages, forums and mailing lists) and keeps about a third negatives. dev-real-4 may be fixed
against; heldout-real-4 is never read by anyone who writes or tunes the engine's rules. Each is its
own row; neither is planted.
``dev-real-5.jsonl`` and ``heldout-real-5.jsonl`` are a fifth real corpus, collected the same way
from sources no earlier real corpus used (``random.Random(35)``, by polarity) by another writer who
had read neither the engine nor any earlier corpus file's cases; it leans on how people correct
themselves and each other in a thread (a reply's "*1.0.4", "Changed to 8889", "ok i put it to
100", typo fixes, rescheduling notices and updates) and keeps about a third negatives. dev-real-5
may be fixed against; heldout-real-5 is never read by anyone who writes or tunes the engine's
rules. Each is its own row; neither is planted.
``dev-real-6.jsonl`` and ``heldout-real-6.jsonl`` are a sixth real corpus, collected the same way
from sources no earlier real corpus used (``random.Random(36)``, by polarity) by another writer who
had read neither the engine nor any earlier corpus file's cases; it leans on the everyday life of a
desktop-chat user beside code (appointments, opening hours, school calendars, races and club
nights, recipes and oven temperatures, prices and fees, knitting and woodworking errata, trains)
and keeps about 30 % negatives. dev-real-6 may be fixed against; heldout-real-6 is never read by
anyone who writes or tunes the engine's rules. Each is its own row; neither is planted.
``dev-real-7.jsonl`` and ``heldout-real-7.jsonl`` are a seventh real corpus, collected the same way
from sources no earlier real corpus used (``random.Random(37)``, by polarity) by another writer who
had read neither the engine nor any earlier corpus file's cases; it leans on what a desktop-chat
user types about their own plans and setup (self-corrections such as "its 16 gb (2x8gb) not 64
gb", recipe and knitting errata, appointments, weddings, runs and swim meets, opening hours and
prices, RAM, ports, versions and default models), mostly short messages, ten shared-word pairs and
about 30 % negatives. dev-real-7 may be fixed against; heldout-real-7 is never read by anyone who
writes or tunes the engine's rules. Each is its own row; neither is planted.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.memory import corrections_report
from bench.memory.ledger_text import (
    Entry,
    current_text,
    ledger_entries,
    mentioned,
    panel_rows,
    shown_current,
)
from bench.memory.loopback import CONTEXT, KEY, fact_free_reply

CORPUS = Path(__file__).resolve().parent / "corpus"
# dev-more, dev-3, dev-4, dev-5, dev-real, dev-real-2 … dev-real-7: more phrasings rules may be
# written against; heldout-2, heldout-3, heldout-4, heldout-real, heldout-real-2 …
# heldout-real-7: more held-out halves, which no rule is written against
HALVES = ("dev", "dev-more", "heldout", "dev-3", "heldout-2", "dev-4", "heldout-3", "dev-5",
          "heldout-4", "dev-real", "heldout-real", "dev-real-2", "heldout-real-2",
          "dev-real-3", "heldout-real-3", "dev-real-4", "heldout-real-4", "dev-real-5",
          "heldout-real-5", "dev-real-6", "heldout-real-6", "dev-real-7", "heldout-real-7")
SYSTEM = "You are a helpful assistant."
MAX_ROUNDS = 12  # small-talk rounds (each with a forced compaction) before giving up
SMALL_TALK_USER = [s for s in KEY[:40]]
SMALL_TALK_REPLY = CONTEXT


def load(half: str, folder: Path = CORPUS) -> list[dict[str, Any]]:
    lines = (folder / f"{half}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


async def _summarize(messages: list[dict[str, str]], *args: Any, **kwargs: Any) -> str:
    return fact_free_reply({"messages": messages})


def _small_talk(index: int, role: str) -> str:
    bank = SMALL_TALK_USER if role == "user" else SMALL_TALK_REPLY
    return f"{bank[index % len(bank)]} {bank[(index * 7 + 3) % len(bank)]}"


def _engine(ctx: int) -> Any:
    from ollm_desktop.engine import ContextEngine
    from ollm_desktop.engine.models import EngineConfig

    config = EngineConfig(context_size=ctx, preserve_user_messages=False)
    return ContextEngine(config, _summarize, SYSTEM)


async def play(case: dict[str, Any], ctx: int) -> dict[str, Any]:
    """One case through the engine: the request's ledger entries and the panel's rows."""
    engine = _engine(ctx)
    played = [*case["history"], case["message"]]
    previous = "assistant"
    for index, message in enumerate(played):
        if message["role"] == previous:  # keep turns alternating, as a chat does
            engine.add("assistant" if previous == "user" else "user",
                       _small_talk(index, "assistant" if previous == "user" else "user"))
        engine.add(message["role"], message["text"])
        previous = message["role"]
    texts = [m["text"] for m in played]
    rounds = 0
    while rounds < MAX_ROUNDS:
        if previous == "user":
            engine.add("assistant", _small_talk(rounds, "assistant"))
        for turn in range(2):
            engine.add("user", _small_talk(rounds * 2 + turn, "user"))
            engine.add("assistant", _small_talk(rounds * 2 + turn + 1, "assistant"))
        previous = "assistant"
        rounds += 1
        await engine.compact(force=True)
        if not _still_verbatim(engine.api_messages(), texts):
            break
    messages = engine.api_messages()
    return {"entries": ledger_entries(messages), "panel": panel_rows(engine),
            "verbatim": _still_verbatim(messages, texts), "rounds": rounds}


def _still_verbatim(messages: Sequence[dict[str, str]], texts: Sequence[str]) -> bool:
    return any(m.get("role") != "system" and any(t in str(m.get("content", "")) for t in texts)
               for m in messages)


def _panel_current(rows: Sequence[dict[str, Any]], value: str) -> bool:
    return any(r["shown"] and current_text(r["text"], value) for r in rows)


def _panel_replaced(rows: Sequence[dict[str, Any]], value: str) -> bool:
    return any(not r["shown"] and r["status"] != "forgotten" and mentioned(r["text"], value)
               for r in rows) and not _panel_current(rows, value)


def _ledger_replaced(entries: Sequence[Entry], value: str) -> bool:
    return any(mentioned(" ".join((e.text, *e.notes)), value) for e in entries) and \
        not shown_current(entries, value)


def score(case: dict[str, Any], entries: Sequence[Entry], panel: Sequence[dict[str, Any]],
          ) -> dict[str, Any]:
    """What the request and the panel state about each of the case's keys."""
    polarity = case["polarity"]
    keys = []
    for key in case["expect"]["keys"]:
        sibling = polarity == "correction" and case["shared_word"] and not key["replaced"]
        keys.append({
            "key": key["key"], "sibling": sibling,
            "current": shown_current(entries, key["current"], assistant=False),
            "current_replaced": _ledger_replaced(entries, key["current"]),
            "stale": [v for v in key["replaced"] if shown_current(entries, v)],
            "suggested_user": [v for v in key["not_current"]
                               if shown_current(entries, v, assistant=False)],
            "suggested_any": [v for v in key["not_current"] if shown_current(entries, v)],
            "panel_current": _panel_current(panel, key["current"]),
            "panel_current_replaced": _panel_replaced(panel, key["current"]),
            "panel_stale": [v for v in key["replaced"] if _panel_current(panel, v)],
            "panel_suggested": [v for v in key["not_current"] if _panel_current(panel, v)],
        })
    own = [k for k in keys if not k["sibling"]]
    row: dict[str, Any] = {
        "id": case["id"], "half": case["half"], "forms": case["forms"], "polarity": polarity,
        "shared_word": case["shared_word"], "keys": keys,
        "applied": all(k["current"] and not k["stale"] for k in own),
        "panel_applied": all(k["panel_current"] and not k["panel_stale"] for k in own),
        "false_supersessions": sum(k["sibling"] and k["current_replaced"] for k in keys),
        "panel_false_supersessions": sum(k["sibling"] and k["panel_current_replaced"]
                                         for k in keys),
        "stale_shown": sum(len(k["stale"]) for k in keys),
        "panel_stale_shown": sum(len(k["panel_stale"]) for k in keys),
    }
    if polarity == "negative":
        row["superseded"] = any(k["current_replaced"] or k["suggested_user"] for k in keys)
        row["panel_superseded"] = any(k["panel_current_replaced"] or k["panel_suggested"]
                                      for k in keys)
        row["suggestion_sent"] = any(k["suggested_any"] for k in keys)
    return row


async def run_corpus(ctx: int, halves: Sequence[str] = HALVES, folder: Path = CORPUS,
                     ) -> list[dict[str, Any]]:
    rows = []
    for half in halves:
        for case in load(half, folder):
            played = await play(case, ctx)
            row = score(case, played["entries"], played["panel"])
            row.update(ctx=ctx, verbatim=played["verbatim"], rounds=played["rounds"],
                       ledger=[{"section": e.section, "text": e.text, "notes": list(e.notes)}
                               for e in played["entries"]],
                       panel=[r["text"] + ("" if r["shown"] else f"  [{r['status']}]")
                              for r in played["panel"]])
            rows.append(row)
    return rows


def main(ctx_sizes: Sequence[int], out: Path, label: str, engine: dict[str, Any]) -> int:
    started = time.monotonic()
    rows: list[dict[str, Any]] = []
    for ctx in ctx_sizes:
        rows += asyncio.run(run_corpus(ctx))
    summary = corrections_report.summarise(rows)
    params = {"kind": "corrections", "ctx": list(ctx_sizes), "label": label,
              "wall_s": round(time.monotonic() - started, 1),
              "cases": {h: len(load(h)) for h in HALVES}, **engine}
    name = f"corrections-{label}" if label else "corrections"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps(
        {"params": params, "summary": summary, "cases": rows}, indent=1), encoding="utf-8")
    text = corrections_report.table(summary, params)
    (out / f"{name}.md").write_text(text + "\n", encoding="utf-8")
    print(text)
    print(f"results: {out / (name + '.json')}")
    return 0
