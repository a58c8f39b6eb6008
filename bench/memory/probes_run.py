"""Chat probes of the facts ledger (issue 28): play each probe of a JSONL file into a fresh
ContextEngine of the tree in the current directory (4K, compacted until no probe message is
sent word for word), read the ledger from ``api_messages()`` with ``bench.memory.ledger_text``
and judge it: each ``cur`` value shown as the user's current value, no ``stale`` value shown as
current, no ``sugg`` value shown as the user's.

  cd TREE && python bench/memory/probes_run.py --probes bench/memory/probes/review44.jsonl \
      --out X.json [--jobs 2] [--only ID..]

Probe sets (``bench/memory/probes/``): ``review44.jsonl`` (410, stop 44's reviewer; dev since
stop 45 fixed against it), ``blind45-a.jsonl`` (120, dev) and ``blind45-b.jsonl`` (120,
held-out: no rule is written against it), written at stop 45 by a session that read no
engine code, docs or earlier probe.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import traceback
from multiprocessing import Pool

sys.path.insert(0, os.getcwd())
HERE = os.path.dirname(os.path.abspath(__file__))
CTX = 4096


def _setup():
    import ollm_desktop
    assert os.path.abspath(ollm_desktop.__file__).startswith(os.getcwd() + os.sep), \
        (ollm_desktop.__file__, os.getcwd())
    return ollm_desktop.__file__


def _case(probe):
    msgs = []
    for m in probe["msgs"]:
        if m.startswith("A: "):
            msgs.append({"role": "assistant", "text": m[3:]})
        else:
            msgs.append({"role": "user", "text": m})
    return msgs


async def _play(msgs):
    """The chat through the corrections scorer's player (``corrections.play``: small talk
    between, a forced compaction a round, until no probe message is sent word for word)."""
    from bench.memory.corrections import play

    played = await play({"history": msgs[:-1], "message": msgs[-1]}, CTX)
    return played["entries"], played["verbatim"], played["rounds"]


def judge(probe, entries):
    from bench.memory.ledger_text import mentioned, shown_current
    # entries in sections that present questions/suggestions/candidates are not "stated as current"
    def non_proposal(es):
        return [e for e in es if not any(w in e.section for w in ("question", "suggest", "proposed",
                                                                 "candidate", "open", "tentative"))]
    user_entries = non_proposal(entries)
    problems, soft = [], []
    for v in probe["cur"]:
        if not shown_current(user_entries, v, assistant=False):
            problems.append(f"missing current {v!r}")
    for v in probe["stale"]:
        if shown_current(entries, v):
            shown = [e for e in entries if shown_current([e], v)]
            hedged = all("possibly replaced" in e.text.lower() for e in shown)
            problems.append(f"stale shown current {v!r}"
                            + (" (marked 'possibly replaced')" if hedged else ""))
    for v in probe["sugg"]:
        if shown_current(user_entries, v, assistant=False):
            problems.append(f"proposal shown as user's current {v!r}")
        elif any(mentioned(" ".join((e.text, *e.notes)), v) for e in entries):
            soft.append(f"proposal mentioned {v!r}")
    # a current value marked as (possibly) replaced somewhere
    for e in entries:
        full = " ".join((e.text, *e.notes)).lower()
        if "possibly replaced" in full:
            soft.append(f"possibly-replaced note: {e.text}")
    return problems, soft


def _failures():
    """Extractions that raised so far (an engine before stop 52 raised them instead)."""
    from ollm_desktop.engine import facts_extract
    return getattr(facts_extract, "extraction_failures", lambda: 0)()


def run_one(probe):
    try:
        msgs = _case(probe)
        failed = _failures()
        entries, verb, rounds = asyncio.run(_play(msgs))
        problems, soft = judge(probe, entries)
        if _failures() > failed:  # a reading raised; extract kept the chat going without it
            raise RuntimeError("a message's facts could not be read (facts_extract logged it)")
        lenient = not verb and not any(x.startswith(("missing", "stale")) for x in problems)
        return {"id": probe["id"], "ok": not problems and not verb, "lenient_ok": lenient,
                "problems": problems,
                "soft": soft, "verbatim": verb, "rounds": rounds,
                "ledger": [f"[{e.section}] {e.text}" + "".join(f" || {n}" for n in e.notes)
                           for e in entries]}
    except Exception:
        return {"id": probe["id"], "ok": False, "crash": traceback.format_exc(),
                "lenient_ok": False, "problems": ["crash"], "soft": [], "ledger": []}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--probes", default=os.path.join(HERE, "probes", "review44.jsonl"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    where = _setup()
    import subprocess
    head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    with open(a.probes, encoding="utf-8") as handle:
        probes = [json.loads(line) for line in handle if line.strip()]
    if a.only:
        probes = [p for p in probes if p["id"] in a.only or p["id"][:4] in a.only]
    t = time.time()
    with Pool(a.jobs, initializer=_setup) as pool:
        rows = pool.map(run_one, probes, chunksize=4)
    for p, r in zip(probes, rows, strict=True):
        r["probe"] = p
    ok = sum(r["ok"] for r in rows)
    crashes = sum("crash" in r for r in rows)
    lenient = sum(r["lenient_ok"] for r in rows)
    verbatim = sum(bool(r.get("verbatim")) for r in rows)
    print(f"{where} HEAD {head}: {ok}/{len(rows)} right (lenient {lenient}), "
          f"crashes {crashes}, verbatim {verbatim}, {time.time() - t:.0f}s")
    with open(a.out, "w", encoding="utf-8") as handle:
        json.dump({"tree": os.getcwd(), "module": where, "head": head, "rows": rows},
                  handle, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
