"""``python -m bench.memory``: what a long chat still knows, strategy by strategy.

Examples::

    python -m bench.memory --smoke                      # seconds, in-process loopback server
    python -m bench.memory --host http://127.0.0.1:11435 --ctx 2048,4096,8192 --label before
    python -m bench.memory --kind corrections --ctx 2048,4096 --label before
    python -m bench.memory --kind corrections --perturb  # dev cases as people vary them
    python -m bench.memory --kind tools                 # 2K, 4K, 8K; seconds, no model
    python -m bench.memory --compare results/before/memory-before.json results/after/...json
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as _dt
import os
import platform
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bench.memory import loopback, noisy, report
from bench.memory.generator import KINDS, Conversation, generate, verify
from bench.memory.host import Host
from bench.memory.loopback import SMOKE_MODEL, SUMMARISERS
from bench.memory.runner import Options, RunResult, log, play
from bench.memory.strategies import STRATEGIES

# ``--kind``: what a run measures (more kinds, e.g. documents, join this tuple).
KINDS_OF_RUN = ("memory", "corrections", "chat", "tools")
DEFAULT_OUT = Path(__file__).resolve().parent / "results"
__all__ = ["SMOKE_MODEL", "engine_info", "main", "parser"]


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def _names(text: str, allowed: tuple[str, ...]) -> list[str]:
    names = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [n for n in names if n not in allowed]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown {unknown}; choose from {', '.join(allowed)}")
    return names


def _cap(text: str) -> int:
    return 0 if text == "auto" else int(text)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bench.memory", description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="See docs/memory.md for how to read the figures.")
    p.add_argument("--kind", choices=KINDS_OF_RUN, default="memory",
                   help="what is measured: memory (a long chat's retention, the default), "
                        "corrections (the correction corpus, bench/memory/corpus, read "
                        "black-box through the engine; per half, dev and held-out) or chat "
                        "(the hand-written 60-turn chat, corpus/chat60.json, held out) or "
                        "tools (100 tool calls: user facts and tool identifiers at question "
                        "time, tool output sent by turn depth; truncate, rolling and ours)")
    p.add_argument("--host", default=os.environ.get("OLLAMA_HOST", "http://127.0.0.1:11434"),
                   help="Ollama or OpenAI-compatible server (llama-server, vLLM, LM Studio; "
                        "with or without /v1), found by asking it (default: $OLLAMA_HOST)")
    p.add_argument("--model", help="model name (default: the first the server lists)")
    p.add_argument("--ctx", type=_ints, default=[2048, 4096, 8192], help="num_ctx list")
    p.add_argument("--turns", type=int, default=150, help="exchanges per conversation")
    p.add_argument("--seeds", type=_ints, default=[1], help="conversation seeds, e.g. 1,2")
    p.add_argument("--kinds", type=lambda t: _names(t, KINDS), default=list(KINDS))
    p.add_argument("--strategies", type=lambda t: _names(t, STRATEGIES),
                   default=list(STRATEGIES))
    p.add_argument("--filler", choices=("long", "short", "xl"), default="long",
                   help="filler length: long (user 15-80 words, assistant 60-250), short "
                        "(15-40, 40-110: half the tokens per turn, for slow CPU models) or xl "
                        "(55-65, 850-950: long replies, for a 32K window's compaction CPU)")
    p.add_argument("--replies", choices=("scripted", "noisy", "model"), default="scripted",
                   help="assistant turns: scripted filler, noisy (filler that invents "
                        "identifiers, as small models do), or written by the model under test; "
                        "the assistant's planted sentences are appended to noisy and model ones")
    p.add_argument("--qa", action="store_true",
                   help="question-time retention: at every probe point each fact is asked "
                        "(directly and paraphrased) through the strategy; with a real host the "
                        "model's answers are checked at the end too")
    p.add_argument("--summariser", choices=SUMMARISERS, default="keep-facts",
                   help="the loopback model's summaries (--smoke, --loopback): keep-facts "
                        "keeps every sentence with a digit or a name; fact-free holds no "
                        "planted value (what is retained is then what the engine keeps by code)")
    p.add_argument("--loopback", action="store_true",
                   help="the in-process loopback model instead of --host, with the run's own "
                        "sizes (the loopback matrix of docs/memory.md)")
    p.add_argument("--app", action="store_true",
                   help="drive the real ChatController (strategy ollm only)")
    p.add_argument("--no-recall", action="store_true",
                   help="--app: the chat's recall switched off (the app's default is on)")
    p.add_argument("--think-s", type=float, default=20.0,
                   help="seconds the user reads and types between turns (background work)")
    p.add_argument("--send-turns", choices=("all", "probes", "final", "off"), default=None,
                   help="send each turn's request (all), only those at the probe points "
                        "(probes) or the last one (final), with num_predict 1, to learn the "
                        "server's prompt_eval_count (default: all with a real host, off with "
                        "--smoke)")
    p.add_argument("--probe-every", type=int, default=25, help="turns between probe points")
    p.add_argument("--summary-predict-cap", type=_cap, default=1024,
                   help="guard: num_predict of every summary request is at most this; 'auto' "
                        "is num_ctx/8 (256 at 2K, 1024 at 8K), for slow CPU models")
    p.add_argument("--perturb", action="store_true",
                   help="--kind corrections: play the dev cases that pass as variants people "
                        "write (lower case, fillers, arrows, parentheses...), per variant kind "
                        "(bench/memory/perturb.py; never the held-out halves)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    p.add_argument("--label", default="", help="e.g. before / after")
    p.add_argument("--smoke", action="store_true",
                   help="in-process loopback server, tiny context, ~40 turns: seconds, no model")
    p.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"),
                   help="print a side-by-side Markdown table of two result JSON files")
    p.add_argument("--merge", nargs="+", type=Path, metavar="FILE",
                   help="OUT IN1 IN2...: one result file from runs made in parallel (e.g. one "
                        "process per context size)")
    return p


def engine_info() -> dict[str, Any]:
    """Which engine was imported, and its git commit (the before/after runs differ here)."""
    import ollm_desktop

    source = Path(ollm_desktop.__file__).resolve().parent
    info: dict[str, Any] = {"engine_file": ollm_desktop.__file__, "engine_dir": str(source)}
    try:
        commit = subprocess.run(["git", "-C", str(source), "rev-parse", "HEAD"],
                                capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(source), "status", "--porcelain", "--", "."],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        info["engine_commit"] = commit[:12] + ("+dirty" if dirty else "") if commit else None
        # The newest commit that changed the engine's own files (a bench-only branch's HEAD
        # is not the engine it measures).
        info["engine_last_change"] = subprocess.run(
            ["git", "-C", str(source), "log", "-1", "--format=%h", "--", "."],
            capture_output=True, text=True, timeout=10).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        info["engine_commit"] = None
    return info


async def _run_all(args: argparse.Namespace, host: Host, options: Options, params: dict[str, Any],
                   out_dir: Path, name: str) -> list[RunResult]:
    model_context = None
    try:
        model_context = await host.context_length()
    except Exception as exc:  # a host that cannot say still runs
        log(f"no context length from the host: {exc}")
    params["model_context"] = model_context
    results: list[RunResult] = []
    for ctx in args.ctx:
        for kind in args.kinds:
            for seed in args.seeds:
                conversation = checked(kind, args.turns, seed, args.filler, args.replies)
                host.predict_cap = args.summary_predict_cap or ctx // 8
                for strategy in args.strategies:
                    host.seed, host.tag = seed, f"{kind} s{seed} {ctx} {strategy}"
                    log(f"start {kind} seed {seed} ctx {ctx} {strategy}")
                    options.on_probe = lambda run: _save(params, [*results, run], out_dir,
                                                         name, partial=True)
                    result = await play(conversation, strategy, ctx, host, options,
                                        model_context)
                    results.append(result)
                    params["server"] = await host.describe()
                    _save(params, results, out_dir, name, partial=True)
    return results


def checked(kind: str, turns: int, seed: int, filler: str, replies: str) -> Conversation:
    """The conversation, refused when an answer could be found outside its own turns."""
    conversation = generate(kind, turns, seed, filler)
    problems = verify(conversation)
    if replies == "noisy":  # raises when a fair noisy reply cannot be made
        noisy.replies(conversation)
    if problems:
        raise SystemExit(f"generator problem: {problems[:3]}")
    return conversation


def _save(params: dict[str, Any], results: list[RunResult], out_dir: Path, name: str,
          partial: bool) -> Path:
    runs = [asdict(r) for r in results]
    payload = {"params": {**params, "partial": partial}, "summary": report.aggregate(runs),
               "runs": runs}
    return report.write(payload, out_dir, name)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--kind=documents" in argv or " ".join(argv).find("--kind documents") >= 0:
        # The document benchmark has options of its own (bench/memory/documents.py).
        from bench.memory import documents

        return documents.main([a for a in argv if a not in ("--kind=documents", "documents")
                               and a != "--kind"])
    if argv[:1] == ["compare"]:
        argv = ["--compare", *argv[1:]]
    if argv[:1] == ["merge"]:
        argv = ["--merge", *argv[1:]]
    if argv[:1] == ["precision"]:  # the precision tables of result files: FILE...
        from bench.memory import precision_report

        print(precision_report.from_files([Path(a) for a in argv[1:]]))
        return 0
    if argv[:1] == ["headline"]:  # the table docs/memory.md leads with: BEFORE_DIR AFTER_DIR
        from bench.memory import headline

        if len(argv) != 3 or not all(Path(a).is_dir() for a in argv[1:]):
            raise SystemExit("usage: python -m bench.memory headline BEFORE_DIR AFTER_DIR "
                             "(folders of results, e.g. bench/memory/results/before-v2)")
        print(headline.table(Path(argv[1]), Path(argv[2])))
        print()
        print(headline.cache_table(Path(argv[1]), Path(argv[2])))
        return 0
    args = parser().parse_args(argv)
    if args.compare:
        print(report.compare(*args.compare))
        return 0
    if args.merge:
        path = report.merge(args.merge[0], args.merge[1:])
        import json

        from bench.memory import precision_report

        text = report.table(json.loads(path.read_text(encoding="utf-8"))["summary"])
        text += "\n\n" + precision_report.from_files([path])
        path.with_suffix(".md").write_text(text + "\n", encoding="utf-8")
        print(text)
        print(f"merged into {path}")
        return 0
    if args.kind == "corrections":
        from bench.memory import corrections

        sizes = args.ctx if "--ctx" in argv else [4096]
        if args.perturb:
            from bench.memory import perturb

            return perturb.main(sizes[0], args.out, args.label)
        return corrections.main(sizes, args.out, args.label, engine_info())
    if args.kind == "tools":
        from bench.memory import tools

        return tools.main(args.ctx, args.seeds, args.out / "tools", args.label,
                          args.summariser, engine_info())
    if args.kind == "chat":
        from bench.memory import chat_corpus

        sizes = args.ctx if "--ctx" in argv else [2048, 4096]
        return chat_corpus.main(sizes, args.out, args.label, engine_info())
    if args.smoke:
        if argv.count("--ctx") == 0:
            args.ctx = [2048]
        if argv.count("--turns") == 0:
            args.turns = 40
        if argv.count("--kinds") == 0:
            args.kinds = ["coding"]
        if argv.count("--probe-every") == 0:
            args.probe_every = 10
        args.label = args.label or "smoke"
    if args.app:
        from bench.memory.app_mode import run_app

        return run_app(args)
    fake = None
    if args.smoke or args.loopback:
        fake = loopback.server(args.summariser)
        args.host, args.model = fake.url, SMOKE_MODEL
    send_turns = args.send_turns or ("off" if fake is not None else "all")
    try:
        return asyncio.run(_main(args, send_turns))
    finally:
        if fake is not None:
            fake.stop()


async def _main(args: argparse.Namespace, send_turns: str) -> int:
    started = time.monotonic()
    host = Host(args.host, args.model or "", predict_cap=args.summary_predict_cap)
    try:
        if not args.model:
            models = await host.models()
            if not models:
                raise SystemExit(f"no model at {args.host}")
            host.model = models[0]
        loop_model = args.smoke or args.loopback
        options = Options(think_s=args.think_s, send_turns=send_turns, replies=args.replies,
                          qa=args.qa, ask_model=not loop_model, probe_every=args.probe_every,
                          label=args.label)
        name = f"memory-{args.label}" if args.label else "memory"
        params: dict[str, Any] = {
            "label": args.label, "model": host.model, "host": args.host, "ctx": args.ctx,
            "turns": args.turns, "seeds": args.seeds, "kinds": args.kinds,
            "filler": args.filler,
            "strategies": args.strategies, "replies": args.replies, "qa": args.qa,
            "summariser": args.summariser if (args.smoke or args.loopback) else "host",
            "loopback": bool(args.smoke or args.loopback),
            "think_s": args.think_s, "send_turns": send_turns,
            "probe_every": args.probe_every,
            "summary_predict_cap": args.summary_predict_cap or "auto (num_ctx/8)",
            "smoke": args.smoke, "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            "python": platform.python_version(), "machine": platform.machine(),
            "cpus": os.cpu_count(), **engine_info(),
        }
        log(f"engine: {params['engine_file']} (commit {params['engine_commit']}); model "
            f"{host.model} at {args.host} ({await host.connect()})")
        results = await _run_all(args, host, options, params, args.out, name)
    finally:
        await host.close()
    params["wall_s"] = round(time.monotonic() - started, 1)
    params["facts"] = report.conversation_facts(args.kinds, args.seeds, args.turns,
                                                args.filler)
    path = _save(params, results, args.out, name, partial=False)
    summary = report.aggregate([asdict(r) for r in results])
    text = report.table(summary)
    from bench.memory import precision_report

    text += "\n\n" + precision_report.table(precision_report.aggregate(
        [asdict(r) for r in results]), f"{args.replies} replies")
    print(text)
    (args.out / f"{name}.md").write_text(text + "\n", encoding="utf-8")
    title = (f"{host.model}, {args.turns} turns, engine {params['engine_commit']}, "
             f"{params['date'][:10]} ({args.label or 'run'})")
    print(report.chart(summary, args.out / f"{name}.png", title))
    print(f"results: {path} ({params['wall_s'] / 60:.1f} min)")
    return 0
