"""A tool-heavy chat through the real controller: ``python -m bench.bench_tool_chat``.

The Qt controller over the session (offscreen, on a qasync loop as the app runs), the loopback
Ollama playing a model that calls tools on its wire (and writes summaries), and the tests'
MCP server over stdio. Each turn reads a file of about 2,400 tokens, every other turn also
searches or runs the tests: 40 turns make 60 calls. Three user facts are stated along the way.
Every call is approved from its ``asked`` event, as a user clicking "Always" would.

Then the user asks about files read long ago (their results are pruned by then), and about
their three facts. Figures, beside issue 30's goals:

- requests over num_ctx (goal 0), the largest prompt;
- results sent whole where they exceed their share (goal 0);
- pruned results answered: the asked value is in the request that asks (goal >= 90 %);
- user facts: their values in the final request and in the request that asks for each, beside
  the same chat without tools (goal: at least that figure).

Examples::

    python -m bench.bench_tool_chat                  # 2K and 4K, 40 turns
    python -m bench.bench_tool_chat --ctx 2048 --turns 24 --questions 4

Results go to bench/memory/results/tools/ (``tool-chat.json``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "memory" / "results" / "tools"
MODEL = "llama3.2:3b"
FACTS = [("The staging database is db-stage-17.", "What is the staging database?",
          "db-stage-17"),
         ("Our release train is named Orca-4.", "What is our release train named?", "Orca-4"),
         ("The on-call pager code is 5521.", "What is the on-call pager code?", "5521")]
CHOSEN = ["project/read_file", "project/search", "project/run"]  # 3 of the server's 11


def calls_for(turn: int) -> list[dict[str, Any]]:
    """1-2 calls a turn, 60 in 40 turns: a file read, a search or a test run."""
    calls = [{"name": "read_file", "arguments": {"path": f"src/app_{turn}.py"}}]
    if turn % 2 == 0:
        calls.append({"name": "search" if turn % 4 else "run",
                      "arguments": {"query": f"timeout_{turn}"} if turn % 4 else
                      {"command": f"pytest -k case_{turn}"}})
    return calls


def user_text(turn: int, turns: int) -> str:
    every = max(1, turns // len(FACTS))
    fact = f" {FACTS[turn // every][0]}" if turn % every == 0 and turn // every < len(
        FACTS) else ""
    return f"Turn {turn}: look at src/app_{turn}.py.{fact}"


def asked_turns(turns: int, questions: int) -> list[int]:
    """Files read long ago, spread over the older three quarters of the chat."""
    span = max(1, turns * 3 // 4)
    return sorted({1 + span * n // questions for n in range(questions)})


def model(tools: bool) -> Any:
    """The loopback model: calls tools for a turn's request, else writes text."""
    from tests.controller_harness import is_summary_request, is_warmup, scripted_model
    from tests.ollama_server import Reply

    text = scripted_model(reply_words=40)

    def answer(body: dict[str, Any]) -> str | Reply:
        if is_summary_request(body) or is_warmup(body):
            return text(body)
        last = body["messages"][-1]
        if tools and last["role"] == "user" and last["content"].startswith("Turn "):
            turn = int(last["content"].split()[1].rstrip(":"))
            return Reply(text="", tool_calls=calls_for(turn))
        return text(body)

    return answer


async def converse(controller: Any, server: Any, turns: int, questions: int,
                   tools: bool) -> dict[str, Any]:
    """One chat through the controller; its figures."""
    from ollm_desktop.engine import budget, tool_results
    from ollm_desktop.session.tool_loop import CallEvent, ChatTools
    from tests.controller_harness import is_turn, turn
    from tests.mcp_server import project_file

    loop = asyncio.get_running_loop()
    answered: list[str] = []

    def approve(event: CallEvent) -> None:  # the user's click, after the row shows
        if event.status == "asked":
            loop.call_soon(lambda: answered.append(event.call.name) if
                           controller.answer_tool_call(event.call.id, "always") else None)

    controller.toolCall.connect(approve)
    if tools:
        controller.set_tool_choice(ChatTools(servers=["project"], tools=CHOSEN))
    for number in range(turns):
        await turn(controller, user_text(number, turns))
    engine = controller.session.engine
    final = json.dumps(engine.api_messages())
    facts_final = sum(value in final for _, _, value in FACTS)

    def asking(question: str) -> str:
        body = [b for b in server.chat_requests() if is_turn(b)][-1]
        assert body["messages"][-1]["content"].startswith(question), "not the asking request"
        return json.dumps(body["messages"])

    pruned_asked = pruned_found = 0
    states = engine.tool_result_states()
    for number in asked_turns(turns, questions) if tools else []:
        path = f"src/app_{number}.py"
        port = next(line for line in project_file(path).splitlines()
                    if line.startswith("SERVICE_PORT")).split()[2]
        result = next(m for m in engine.display_messages() if m.role == "tool"
                      and m.content.startswith(f"# {path}\n"))
        pruned_asked += states.get(result.id) != "whole"
        question = f"What SERVICE_PORT did {path} define?"
        await turn(controller, question)
        pruned_found += port in asking(question)
    facts_asked = 0
    for _, question, value in FACTS:
        await turn(controller, question)
        facts_asked += value in asking(question)
    config = engine.config
    cap = tool_results.result_cap(config)
    stored = controller.session.store.messages(controller.chat.id)
    results = [m for m in stored if m.role == "tool"]
    over_share = {m.content for m in results
                  if m.tokens - config.message_overhead - len(m.tool_name or "") > cap}
    whole_over = tool_sent = 0
    for body in [b for b in server.chat_requests() if is_turn(b)]:
        for entry in body["messages"]:
            if entry["role"] == "tool":
                whole_over += entry["content"] in over_share
                tool_sent += len(entry["content"])
    return {
        "num_ctx": config.context_size, "tools": tools, "turns": turns,
        "usable": budget.usable_tokens(config),
        "requests": len(server.chat_requests()),
        "over_num_ctx": len(server.rejected),
        "largest_prompt": max((r.prompt_eval_count or 0 for r in server.streams), default=0),
        "calls": len(results),
        "calls_failed": sum(m.tool_error for m in results),
        "approved_always": len(answered),
        "results_over_share": len(over_share),
        "results_sent_whole_over_share": whole_over,
        "tool_chars_stored": sum(len(m.content) for m in results),
        "tool_chars_sent": tool_sent,
        "pruned_questions": len(asked_turns(turns, questions)) if tools else 0,
        "asked_results_not_sent_whole": pruned_asked,
        "pruned_answered_in_request": pruned_found,
        "facts_in_final_request": facts_final,
        "facts_answered_in_request": facts_asked,
        "facts": len(FACTS),
        "compactions": engine.compaction_count,
    }


def play(size: int, turns: int, questions: int, tools: bool, data: Path,
         loop: asyncio.AbstractEventLoop | None = None) -> dict[str, Any]:
    """One chat at ``size`` on a fresh store, the controller on a qasync loop (``loop``: the
    tests' own; else one made as the app makes it)."""
    import contextlib

    from bench.common import qasync_loop
    from ollm_desktop.backend.mcp_config import McpServer
    from ollm_desktop.controller import ChatController
    from ollm_desktop.paths import app_paths
    from ollm_desktop.storage import ChatStore
    from tests.controller_harness import make_settings
    from tests.ollama_server import FakeModel, FakeOllama

    server_config = McpServer(name="project", command=sys.executable,
                              args=["-m", "tests.mcp_server", "stdio"], cwd=str(ROOT),
                              env={"PYTHONPATH": str(ROOT)})
    with FakeOllama([FakeModel(MODEL, capabilities=("completion", "tools"))]).running() \
            as server:
        server.reply_fn = model(tools)
        paths = app_paths(data)
        paths.ensure()
        store, _ = ChatStore.open(paths)
        settings = make_settings(server, context_size=size, mcp_servers=[server_config],
                                 preserve_recent_tokens=0)
        controller = ChatController(store, settings)
        started = time.monotonic()
        try:
            with (contextlib.nullcontext(loop) if loop else qasync_loop()) as running:
                try:
                    figures = running.run_until_complete(
                        converse(controller, server, turns, questions, tools))
                finally:
                    running.run_until_complete(controller.shutdown())
        finally:
            store.close()
        figures["seconds"] = round(time.monotonic() - started, 1)
        return figures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.bench_tool_chat",
                                description=__doc__.splitlines()[0])
    p.add_argument("--ctx", default="2048,4096", help="num_ctx list")
    p.add_argument("--turns", type=int, default=40)
    p.add_argument("--questions", type=int, default=10, help="questions about pruned results")
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    runs = []
    for size in [int(s) for s in args.ctx.split(",")]:
        for tools in (True, False):
            with tempfile.TemporaryDirectory() as tmp:
                figures = play(size, args.turns, args.questions, tools, Path(tmp) / "data")
            print(json.dumps(figures), flush=True)
            runs.append(figures)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "tool-chat.json"
    path.write_text(json.dumps({"argv": sys.argv[1:] if argv is None else argv, "runs": runs},
                               indent=1) + "\n", encoding="utf-8")
    print(table(runs))
    print(f"results: {path}")
    return 0


def table(runs: list[dict[str, Any]]) -> str:
    """The Markdown table of docs/tools.md: with tools, beside the same chat without."""
    rows = ["| num_ctx | requests | over num_ctx | largest prompt | calls (failed) | results "
            "over their share / sent whole | pruned results answered in the request | user "
            "facts asked / in the final request (without tools) | compactions |",
            "|---|---|---|---|---|---|---|---|---|"]
    plain = {r["num_ctx"]: r for r in runs if not r["tools"]}
    for r in [r for r in runs if r["tools"]]:
        base = plain.get(r["num_ctx"], {})
        rows.append(
            f"| {r['num_ctx']:,} | {r['requests']} | {r['over_num_ctx']} | "
            f"{r['largest_prompt']:,} | {r['calls']} ({r['calls_failed']}) | "
            f"{r['results_over_share']} / {r['results_sent_whole_over_share']} | "
            f"{r['pruned_answered_in_request']} of {r['pruned_questions']} | "
            f"{r['facts_answered_in_request']} / {r['facts_in_final_request']} of {r['facts']} "
            f"({base.get('facts_answered_in_request', '-')} / "
            f"{base.get('facts_in_final_request', '-')}) | {r['compactions']} |")
    return "\n".join(rows)


if __name__ == "__main__":
    raise SystemExit(main())
