"""``python -m bench.memory --kind documents --docs DIR --questions FILE``: is the answer in
the request that asks, at 2K, 4K and 8K, for three ways of sending attached documents?

Every file in DIR is attached (read and cut by the app's own code, ``storage.documents``).
FILE holds one JSON object per line: ``{"q": ..., "answer": "exact string", "follows": "the
question before it"}`` (``follows`` absent for a standalone question). ``--questions`` may be
given more than once (a tuning half and a held-out half): each file is reported on its own.

Each question is one request, in a chat that holds the turn before it: for a follow-up the
question it follows, with the reply "The answer is <its answer>."; for a standalone question
the line before it in the file (another subject), so the conversation around a question is
never empty and never a hint. Per window and strategy it reports: the share of questions whose
answer (an exact string, compared with whitespace collapsed) is in the document text the
request carries, standalone and follow-up apart; the document tokens sent per question; the
requests over num_ctx; and how long choosing the passages took. Dispatched from
``bench/memory/cli.py`` before its own options are read (this module has its own).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bench.common import percentile
from bench.memory import documents_strategies as strategies
from ollm_desktop.engine import ContextEngine, EngineConfig, Message
from ollm_desktop.storage.documents import DocumentError
from ollm_desktop.storage.documents.preparing import PreparedDocument, prepare

SYSTEM = "You are a helpful assistant."
GOALS = {2048: 0.80, 4096: 0.90, 8192: 0.90}


@dataclass(frozen=True, slots=True)
class Question:
    q: str
    answer: str
    follows: str | None
    before: tuple[str, str] | None  # the turn the chat holds before it (user, reply)


@dataclass
class Row:
    questions: str
    ctx: int
    strategy: str
    asked: int = 0
    found: int = 0
    follow_asked: int = 0
    follow_found: int = 0
    tokens: list[int] = field(default_factory=list)
    overflows: int = 0
    choose_ms: list[float] = field(default_factory=list)

    def share(self, found: int, asked: int) -> float | None:
        return found / asked if asked else None

    def summary(self) -> dict[str, object]:
        stand = self.asked - self.follow_asked
        return {"questions": self.questions, "ctx": self.ctx, "strategy": self.strategy,
                "asked": self.asked, "in_request": self.share(self.found, self.asked),
                "standalone": self.share(self.found - self.follow_found, stand),
                "follow_ups": self.share(self.follow_found, self.follow_asked),
                "follow_ups_asked": self.follow_asked,
                "tokens_mean": statistics.fmean(self.tokens) if self.tokens else 0.0,
                "tokens_max": max(self.tokens, default=0), "overflows": self.overflows,
                "choose_ms_p95": _p95(self.choose_ms)}


def _p95(values: Sequence[float]) -> float:
    return percentile(list(values), 0.95) if values else 0.0


def _norm(text: str) -> str:
    return " ".join(text.split())


def read_questions(path: Path) -> list[Question]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    answers = {row["q"]: row["answer"] for row in rows}
    found = []
    for i, row in enumerate(rows):
        follows = row.get("follows") or None
        if follows is not None:
            before: tuple[str, str] | None = (
                follows, f"The answer is {answers.get(follows, '')}.")
        elif i:
            before = (rows[i - 1]["q"], f"The answer is {rows[i - 1]['answer']}.")
        else:
            before = None
        found.append(Question(row["q"], row["answer"], follows, before))
    return found


def read_folder(folder: Path) -> tuple[list[tuple[str, PreparedDocument]], dict[str, float]]:
    """The folder's documents, read and cut; with the reading speed."""
    documents: list[tuple[str, PreparedDocument]] = []
    started = time.perf_counter()
    pages = 0
    for path in sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")):
        try:
            prepared = prepare(path.read_bytes(), path.name)
        except DocumentError as error:
            print(f"skipped: {error}", file=sys.stderr)
            continue
        documents.append((path.name, prepared))
        pages += prepared.text.pages
    seconds = time.perf_counter() - started
    return documents, {"pages": pages, "seconds": round(seconds, 3),
                       "pages_per_s": round(pages / seconds, 1) if seconds else 0.0,
                       "passages": sum(len(p.passages) for _, p in documents),
                       "tokens": sum(sum(x.tokens for x in p.passages) for _, p in documents)}


async def _nothing(*_args: object, **_kwargs: object) -> str:
    return ""


def _request_tokens(engine: ContextEngine, messages: list[dict[str, str]]) -> int:
    return sum(engine._data.message_tokens(m["content"]) for m in messages)


def ask(lib: strategies.Library, question: Question, ctx: int, strategy: str
        ) -> tuple[bool, int, bool, float]:
    """(answer in the request, document tokens sent, over num_ctx, ms choosing)."""
    engine = ContextEngine(EngineConfig(context_size=ctx), _nothing, SYSTEM)
    engine.set_documents_attached(True)
    if question.before is not None:
        engine.add_message(Message(role="user", content=question.before[0]))
        engine.add_message(Message(role="assistant", content=question.before[1]))
    engine.add_message(Message(role="user", content=question.q))
    started = time.perf_counter()
    if strategy == "ours":
        messages, added = strategies.ours(engine, lib)
    elif strategy == "top-3 x 512":
        messages, added = strategies.top3(engine, lib, question.q)
    else:
        messages, added = strategies.truncated(engine, lib)
    took = (time.perf_counter() - started) * 1000
    found = _norm(question.answer) in _norm(added)
    return found, engine._data.count(added) if added else 0, \
        _request_tokens(engine, messages) > ctx, took


def run(lib: strategies.Library, files: dict[str, list[Question]], windows: Sequence[int],
        chosen: Sequence[str]) -> list[Row]:
    rows = []
    for label, questions in files.items():
        for ctx in windows:
            for strategy in chosen:
                row = Row(label, ctx, strategy)
                for question in questions:
                    found, tokens, over, took = ask(lib, question, ctx, strategy)
                    row.asked += 1
                    row.found += found
                    row.follow_asked += question.follows is not None
                    row.follow_found += found and question.follows is not None
                    row.tokens.append(tokens)
                    row.overflows += over
                    row.choose_ms.append(took)
                rows.append(row)
    return rows


def _pct(value: object) -> str:
    return "   -" if value is None else f"{100 * float(value):3.0f}%"  # type: ignore[arg-type]


def table(rows: Sequence[Row]) -> str:
    lines = [f"{'questions':<22} {'ctx':>5} {'strategy':<12} {'n':>3} {'in req':>6} "
             f"{'alone':>5} {'follow':>6} {'tok/q':>6} {'max':>5} {'over':>4} {'p95 ms':>6}"]
    for row in rows:
        s = row.summary()
        lines.append(f"{row.questions:<22} {row.ctx:>5} {row.strategy:<12} {row.asked:>3} "
                     f"{_pct(s['in_request']):>6} {_pct(s['standalone']):>5} "
                     f"{_pct(s['follow_ups']):>6} {s['tokens_mean']:>6.0f} "
                     f"{s['tokens_max']:>5} {row.overflows:>4} {s['choose_ms_p95']:>6.1f}")
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bench.memory --kind documents",
                                description=__doc__.splitlines()[0])
    p.add_argument("--docs", type=Path, required=True, help="folder of documents to attach")
    p.add_argument("--questions", type=Path, action="append", required=True,
                   help="questions file (JSON lines); repeat for a held-out half")
    p.add_argument("--ctx", default="2048,4096,8192", help="num_ctx list")
    p.add_argument("--strategies", default=",".join(strategies.STRATEGIES))
    p.add_argument("--json", type=Path, help="write the figures here too")
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    chosen = [s.strip() for s in args.strategies.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in strategies.STRATEGIES]
    if unknown:
        raise SystemExit(f"unknown strategies {unknown}; choose from {strategies.STRATEGIES}")
    documents, reading = read_folder(args.docs)
    if not documents:
        raise SystemExit(f"no readable document in {args.docs}")
    lib = strategies.library(documents)
    files = {path.stem: read_questions(path) for path in args.questions}
    windows = [int(x) for x in args.ctx.split(",") if x.strip()]
    rows = run(lib, files, windows, chosen)
    print(f"{len(documents)} documents, {reading['pages']} pages, {reading['passages']} "
          f"passages, {reading['tokens']} tokens; read and cut at {reading['pages_per_s']} "
          f"pages/s")
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps({"reading": reading, "documents": lib.names,
                                         "rows": [r.summary() for r in rows],
                                         "goals": GOALS, "raw": [asdict(r) for r in rows]},
                                        indent=1), encoding="utf-8")
    return 0
