"""A real model answering from an attached document through the app's session (issue 31):
``python -m bench.memory.documents_real --host URL --doc FILE --questions FILE [--count 20]
[--ctx 4096]``.

Each question (with its follow-ups, in one chat) is sent through ``ChatSession`` as the window
sends it: the document attached to a fresh chat, the passages chosen by the app, the request
streamed from the server at ``--host`` (Ollama, llama.cpp's server, any OpenAI-compatible
one). Reported per question: whether the answer string was in the passages the request carried
(from the reply's sources), and whether the reply contains it (case and spacing ignored). The
second is reported, not a goal: a 135M model often does not copy what it is given.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

from bench.memory.documents import read_questions
from ollm_desktop.backend.connection import Connection
from ollm_desktop.paths import app_paths
from ollm_desktop.session import ChatSession, ReplyFinished, SessionEvent
from ollm_desktop.session.settings import Settings
from ollm_desktop.storage import ChatStore
from ollm_desktop.storage.documents.preparing import prepare


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def groups(paths: list[Path], doc_text: str, count: int) -> list[list[tuple[str, str]]]:
    """Conversations (a question and its follow-ups) whose answers are in the document."""
    found: list[list[tuple[str, str]]] = []
    for path in paths:
        for question in read_questions(path):
            if question.follows is not None and found and found[-1][-1][0] == question.follows:
                found[-1].append((question.q, question.answer))
            elif question.follows is None:
                found.append([(question.q, question.answer)])
    text = _norm(doc_text)
    kept, total = [], 0
    for group in found:
        if all(_norm(a) in text for _q, a in group) and total + len(group) <= count:
            kept.append(group)
            total += len(group)
    return kept


async def run(args: argparse.Namespace) -> dict[str, object]:
    doc = Path(args.doc)
    with tempfile.TemporaryDirectory(prefix="documents-real-") as folder:
        store, _ = ChatStore.open(app_paths(Path(folder)))
        # The server as the user would add it in Preferences (its kind found by asking it).
        server = Connection(id="bench", name="bench server", url=args.host)
        settings = Settings(ollama_host=args.host, default_model=args.model or None,
                            context_size=args.ctx, connections=[server],
                            default_connection=server.id)
        session = ChatSession(store, settings)
        events: list[SessionEvent] = []
        session.publish = events.append
        await session.ollama.refresh()
        rows = []
        text = " ".join(p.text for p in prepare(doc.read_bytes(), doc.name).passages)
        for group in groups([Path(p) for p in args.questions], text, args.count):
            session.new_chat("documents")
            current = session.chat_settings.current()
            if current is not None and args.predict:  # a small model may ramble to the end
                session.chat_settings.apply(current.model_copy(update={
                    "num_predict": args.predict}))
            change = await session.documents.attach(doc)
            if change.problems:
                raise SystemExit(change.problems[0].text)
            key = session.documents.rows()[0].key
            passages = {p.ordinal: p.text for p in session.documents.passages(key)}
            for question, answer in group:
                started = time.monotonic()
                _change, reason = session.start_turn(question)
                if reason is not None:
                    raise SystemExit(reason)
                try:
                    await session.turns.run(question)
                finally:
                    session.turns.ended()
                finished = [e for e in events if isinstance(e, ReplyFinished)][-1]
                if finished.info.error:
                    print(f"  the server: {finished.info.error}", flush=True)
                record = finished.info.recalled
                sent = " ".join(passages.get(s.ordinal, "") for s in
                                (record.sources if record else []))
                reply = finished.message.content
                rows.append({"q": question, "answer": answer,
                             "in_request": _norm(answer) in _norm(sent),
                             "in_reply": _norm(answer) in _norm(reply),
                             "sources": [s.source for s in (record.sources if record else [])],
                             "reply": reply[:400], "seconds": round(time.monotonic() - started),
                             "prompt_tokens": finished.info.prompt_tokens})
                print(f"{'+' if rows[-1]['in_request'] else '-'}"
                      f"{'+' if rows[-1]['in_reply'] else '-'} {question}", flush=True)
        await session.drain()
        store.close()
    n = len(rows)
    return {"model": args.model, "host": args.host, "ctx": args.ctx, "document": doc.name,
            "questions": n,
            "in_request": sum(bool(r["in_request"]) for r in rows) / n if n else None,
            "in_reply": sum(bool(r["in_reply"]) for r in rows) / n if n else None,
            "rows": rows}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.memory.documents_real",
                                description=__doc__.splitlines()[0])
    p.add_argument("--host", required=True)
    p.add_argument("--model", default="")
    p.add_argument("--doc", required=True)
    p.add_argument("--questions", action="append", required=True)
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--ctx", type=int, default=4096)
    p.add_argument("--predict", type=int, default=200, help="reply tokens at most")
    p.add_argument("--json", type=Path)
    args = p.parse_args(argv)
    figures = asyncio.run(run(args))
    if not figures["questions"]:
        raise SystemExit("no question's answer is in that document")
    print(f"{figures['questions']} questions at {args.ctx}: answer in the request "
          f"{figures['in_request']:.0%}, in the reply {figures['in_reply']:.0%}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
