"""Attached documents: indexing speed and the cost of choosing passages (issue 31; goals:
at least 20 pages a second, and choosing passages p95 <= 50 ms at 10,000 passages).

Indexing is what attaching does, end to end: read the file (pypdfium2 for the PDFs), cut it
into passages, store its bytes and text and index its passages in a ``ChatStore`` on disk.
The benchmark corpus (bench/memory/documents_corpus/docs: two PDFs and two reST texts, 93
pages) is attached ``--copies`` times, each copy with a changed last byte so that none is
deduplicated. Choosing is ``ContextEngine.document_request`` at 4K: both searches, the fusion,
the neighbours and the composition, over the corpus's passages copied under 20 document ids
(10,220 passages), for every question of the corpus in the chat that holds the turn before it.

Run: ``.venv/bin/python bench/bench_documents.py [--copies 3]``.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import Result, percentile, report
from bench.memory.documents import read_questions
from ollm_desktop.engine import ContextEngine, EngineConfig, Message
from ollm_desktop.engine.document_context import AttachedText
from ollm_desktop.paths import app_paths
from ollm_desktop.storage import ChatStore
from ollm_desktop.storage.documents.passage_index import PassageIndex, add_passages
from ollm_desktop.storage.documents.preparing import prepare

CORPUS = Path(__file__).resolve().parent / "memory" / "documents_corpus"
PAGES_GOAL = 20.0
CHOOSE_GOAL_MS = 50.0


def index_speed(copies: int) -> dict[str, float]:
    files = sorted((CORPUS / "docs").iterdir())
    pages = 0
    with tempfile.TemporaryDirectory(prefix="bench-documents-") as folder:
        store, _ = ChatStore.open(app_paths(Path(folder)))
        try:
            chat = store.create_chat("documents")
            started = time.perf_counter()
            for copy in range(copies):
                for path in files:
                    data = path.read_bytes()
                    data = data + b" " * (copy + 1)  # another content each copy
                    prepared = prepare(data, path.name)
                    store.put_document(prepared)
                    store.attach_document(chat.id, prepared.document_id, path.name)
                    pages += prepared.text.pages
            seconds = time.perf_counter() - started
        finally:
            store.close()
    return {"pages": pages, "seconds": seconds, "pages_per_s": pages / seconds}


async def _nothing(*_args: object, **_kwargs: object) -> str:
    return ""


def choose_speed(copies: int = 20, ctx: int = 4096) -> dict[str, object]:
    conn = sqlite3.connect(":memory:")
    index = PassageIndex(conn)
    attached: list[AttachedText] = []
    for path in sorted((CORPUS / "docs").iterdir()):
        prepared = prepare(path.read_bytes(), path.name)
        passages = prepared.passages
        for copy in range(copies):
            key = f"{prepared.document_id}-{copy}"
            add_passages(conn, key, passages)
            attached.append(AttachedText(key, f"{copy}-{path.name}",
                                         sum(p.tokens for p in passages),
                                         lambda passages=passages: passages))
    index.document_ids = tuple(d.document_id for d in attached)
    questions = [*read_questions(CORPUS / "questions-dev.jsonl"),
                 *read_questions(CORPUS / "questions-heldout.jsonl")]
    times: list[float] = []
    cpu: list[float] = []
    for question in questions:
        engine = ContextEngine(EngineConfig(context_size=ctx), _nothing, "You are helpful.")
        engine.set_documents_attached(True)
        if question.before is not None:
            engine.add_message(Message(role="user", content=question.before[0]))
            engine.add_message(Message(role="assistant", content=question.before[1]))
        engine.add_message(Message(role="user", content=question.q))
        engine.api_messages()  # the request's own assembly is not the documents' cost
        started, thread = time.perf_counter(), time.thread_time()
        engine.document_request(attached, index)
        times.append(time.perf_counter() - started)
        cpu.append(time.thread_time() - thread)
    return {"passages": len(index), "questions": len(questions), "times": times, "cpu": cpu}


def run_documents(copies: int = 3, choose_copies: int = 20) -> list[Result]:
    indexed = index_speed(copies)
    chosen = choose_speed(choose_copies)
    times = [t * 1000 for t in chosen["times"]]  # type: ignore[union-attr]
    p50, p95 = percentile(times, 0.5), percentile(times, 0.95)
    cpu = [t * 1000 for t in chosen["cpu"]]  # type: ignore[union-attr]
    load = os.getloadavg()[0]
    return [
        Result("D1", "attaching documents (read, cut, store, index)",
               f"{indexed['pages_per_s']:.0f} pages/s", "-", None,
               f">= {PAGES_GOAL:.0f} pages/s", indexed["pages_per_s"] >= PAGES_GOAL,
               [f"{indexed['pages']:.0f} pages in {indexed['seconds']:.1f} s "
                f"(the corpus {copies} times, no copy deduplicated)"]),
        Result("D2", f"choosing passages, {chosen['passages']:,} passages",
               f"p50 {p50:.1f} / p95 {p95:.1f} ms", "-", None, f"p95 <= {CHOOSE_GOAL_MS:.0f} ms",
               p95 <= CHOOSE_GOAL_MS,
               [f"{chosen['questions']} questions at 4K, each in a chat holding the turn "
                "before it (two searches, fusion, neighbours, composition)",
                f"CPU time of the choosing thread p50 {percentile(cpu, 0.5):.1f} / p95 "
                f"{percentile(cpu, 0.95):.1f} ms; load average {load:.0f} on "
                f"{os.cpu_count()} cores during the run"]),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=3)
    args = parser.parse_args()
    return report(run_documents(args.copies))


if __name__ == "__main__":
    sys.exit(main())
