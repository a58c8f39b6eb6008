"""A 40-turn tool-heavy chat through the real session at 2K and 4K (file reads, searches and
command output from the loopback MCP server over stdio; the loopback Ollama plays a model that
calls tools and writes summaries): no request over num_ctx, no result sent whole over its share,
the user's facts at the end, and questions about pruned results answered from the request.

Prints its figures (``-s``); docs/tools.md records them."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from ollm_desktop.backend.mcp_config import McpServer
from ollm_desktop.engine.tokens import count_tokens
from ollm_desktop.engine.tool_results import RESULT_SHARE
from ollm_desktop.paths import app_paths
from ollm_desktop.session import ChatSession
from ollm_desktop.session.tool_loop import ChatTools
from ollm_desktop.storage import ChatStore
from tests.controller_harness import (
    is_summary_request,
    is_turn,
    is_warmup,
    make_settings,
    scripted_model,
)
from tests.mcp_server import project_file
from tests.ollama_server import FakeModel, FakeOllama, Reply

ROOT = Path(__file__).resolve().parents[1]
TOOLS = McpServer(name="project", command=sys.executable,
                  args=["-m", "tests.mcp_server", "stdio"], cwd=str(ROOT),
                  env={"PYTHONPATH": str(ROOT)})
MODEL = "llama3.2:3b"
TURNS = 40
FACTS = ["The staging database is db-stage-17.", "Our release train is named Orca-4.",
         "The on-call pager code is 5521."]


def calls_for(turn: int) -> list[dict[str, Any]]:
    """1-2 calls a turn, 60 in 40 turns: a file read, a search, a test run."""
    calls = [{"name": "read_file", "arguments": {"path": f"src/app_{turn}.py"}}]
    if turn % 2 == 0:
        calls.append({"name": "search" if turn % 4 else "run",
                      "arguments": {"query": f"timeout_{turn}"} if turn % 4 else
                      {"command": f"pytest -k case_{turn}"}})
    return calls


def model(tools: bool = True) -> Any:
    summaries = scripted_model(reply_words=40)

    def answer(body: dict[str, Any]) -> str | Reply:
        if is_summary_request(body) or is_warmup(body):
            return summaries(body)
        last = body["messages"][-1]
        if tools and last["role"] == "user" and last["content"].startswith("Turn "):
            turn = int(last["content"].split()[1].rstrip(":"))
            return Reply(text="", tool_calls=calls_for(turn))
        return summaries(body)

    return answer


async def play(tmp_path: Path, size: int, tools: bool = True) -> dict[str, Any]:
    with FakeOllama([FakeModel(MODEL, capabilities=("completion", "tools"))]).running() \
            as server:
        server.reply_fn = model(tools)
        store, _ = ChatStore.open(app_paths(tmp_path / f"data-{size}-{tools}"))
        s = ChatSession(store, make_settings(server, context_size=size, mcp_servers=[TOOLS],
                                             preserve_recent_tokens=0))
        s.publish = lambda event: None
        figures: dict[str, Any] = {}
        try:
            s.new_chat()
            chosen = ["project/read_file", "project/search", "project/run"]  # 3 of its 11
            s.tools.draft = ChatTools(servers=["project"], tools=chosen, always=chosen)
            for turn in range(TURNS):
                fact = f" {FACTS[turn // 10]}" if turn % 10 == 0 and turn // 10 < 3 else ""
                await send(s, f"Turn {turn}: look at src/app_{turn}.py.{fact}")
            asked = [3, 11, 19]  # files read long ago: their results are pruned by now
            found = 0
            for turn in asked:
                path = f"src/app_{turn}.py"
                port = next(line for line in project_file(path).splitlines()
                            if line.startswith("SERVICE_PORT")).split()[2]
                await send(s, f"What SERVICE_PORT did {path} define?")
                asking = [b for b in server.chat_requests() if is_turn(b)][-1]
                assert asking["messages"][-1]["content"].startswith("What SERVICE_PORT")
                found += port in json.dumps(asking["messages"])
            turns = [b for b in server.chat_requests() if is_turn(b)]
            cap = int(int(size * 0.85) * RESULT_SHARE)
            whole_over = 0
            tool_tokens = 0
            for body in turns:
                for m in body["messages"]:
                    if m["role"] == "tool":
                        tool_tokens += count_tokens(m["content"])
                        whole_over += count_tokens(m["content"]) > cap + 8
            api = s.engine.api_messages() if s.engine else []
            figures = {
                "size": size, "requests": len(server.chat_requests()),
                "over_num_ctx": len(server.rejected),
                "max_prompt": max(r.prompt_eval_count or 0 for r in server.streams),
                "calls": sum(1 for m in s.store.messages(s.chat.id) if m.role == "tool"),
                "tool_tokens_stored": sum(count_tokens(m.content) for m in
                                          s.store.messages(s.chat.id) if m.role == "tool"),
                "whole_over_share": whole_over, "pruned_answered": f"{found}/{len(asked)}",
                "facts_kept": sum(f.split()[-1].rstrip(".") in json.dumps(api) for f in FACTS),
                "compactions": s.engine.compaction_count if s.engine else 0,
                "tool_tokens_sent": tool_tokens,
            }
        finally:
            await s.close()
            store.close()
    return figures


async def send(s: ChatSession, text: str) -> None:
    _change, reason = s.start_turn(text)
    assert reason is None, reason
    try:
        await s.turns.run(text)
    finally:
        s.turns.ended()
    await s.drain()


@pytest.mark.slow
@pytest.mark.asyncio
@pytest.mark.parametrize("size", [2048, 4096])
async def test_a_tool_heavy_chat_stays_in_the_window(tmp_path: Path, size: int) -> None:
    figures = await asyncio.wait_for(play(tmp_path, size), 600)
    print(json.dumps(figures))
    assert figures["calls"] >= 60
    assert figures["over_num_ctx"] == 0 and figures["max_prompt"] <= size
    assert figures["whole_over_share"] == 0
    baseline = await asyncio.wait_for(play(tmp_path, size, tools=False), 600)
    print(json.dumps({"without tools": baseline["facts_kept"], "with": figures["facts_kept"]}))
    assert figures["facts_kept"] >= baseline["facts_kept"]  # the bar for user facts

