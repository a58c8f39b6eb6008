"""``python -m bench.memory --kind tools``: what a tool-heavy chat still knows at question time,
and how much tool output each request carries, for our engine beside the peers' strategies.

The conversation is ``tools_corpus`` (100 calls in 60 turns, five user facts). Each strategy
sees every message as a client would: the user's turn, the model's calls, each result, the
answer; it compacts when it would (``before_send`` before each request, ``after_reply``
after each answer). Strategies:

- ``truncate`` (``strategies.Truncate``): results kept whole, the oldest messages dropped to fit
  (what most clients do; a result larger than the window alone goes over it);
- ``rolling`` (``strategies.Rolling``): the same, with one rolling summary of what is dropped
  (results enter the summary as text);
- ``ollm``: our engine with the app's tool messages (calls on the reply, results cut, pruned
  and named in summaries) and recall over a word index that holds each result with its call,
  as the app's store does.

After the last turn every question (the user's facts; identifiers that only a tool's output
held: a file's ``BUILD_TAG``, a test run's error code) is put through the strategy, and the
value is looked for in the request that asks. The share of tool output sent is measured at
every request of the chat: for each earlier result, the part of its tokens that the request
carries word for word, by how many turns ago it was returned.

The summariser is the in-process loopback's (``loopback.REPLIES``: keep-facts by default, which
flatters every summarising strategy alike), so a run takes seconds and needs no model.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.memory import loopback
from bench.memory.strategies import Ollm, Strategy, make
from bench.memory.tokens import cl100k_text, peer_message_tokens
from bench.memory.tools_corpus import ToolChat, Turn, generate

STRATEGIES = ("truncate", "rolling", "ollm-no-recall", "ollm")
SYSTEM = "You are a coding assistant with tools. Answer briefly."
DEPTHS = ((0, 0), (1, 1), (2, 2), (3, 5), (6, 10), (11, 20), (21, 10**6))  # turns ago


def depth_label(low: int, high: int) -> str:
    return str(low) if low == high else (f"{low}+" if high >= 10**6 else f"{low}-{high}")


class Summariser:
    """The loopback model's summaries, in process, cut to what was asked for."""

    def __init__(self, kind: str) -> None:
        self.reply = loopback.REPLIES[kind]
        self.calls = 0

    async def __call__(self, prompt: list[dict[str, str]], max_tokens: int | None = None,
                       ) -> str:
        from ollm_desktop.engine.tokens import truncate_to_tokens

        self.calls += 1
        text = self.reply({"messages": prompt})
        return truncate_to_tokens(text, max_tokens) if max_tokens else text


class OllmTools(Ollm):
    """Our engine fed the app's tool messages, with recall over the app's word index."""

    def __init__(self, system_prompt: str, num_ctx: int, summarizer: Any,
                 recall: bool = True) -> None:
        import sqlite3

        from ollm_desktop.storage.recall_index import RecallIndex

        super().__init__(system_prompt, num_ctx, summarizer)
        self.recall = recall  # off: the request as assembled (ledger, placeholders) alone
        self.index = RecallIndex(sqlite3.connect(":memory:"), chat_id="tools")
        self.result_ids: dict[tuple[int, int], str] = {}  # (turn, call) -> message id

    def play_turn(self, turn: Turn) -> None:
        """The user's message only; ``play_call`` and ``play_answer`` follow."""
        self.add("user", turn.user, fact_bearing=False, user_pinned=False)
        self._user = (self.last_id, turn.user)

    def play_call(self, turn: Turn, number: int) -> None:
        from ollm_desktop.engine.models import Message
        from ollm_desktop.engine.tool_types import ToolCall

        call = turn.calls[number]
        made = ToolCall(id=f"t{turn.index}c{number}", name=call.name, arguments=call.arguments)
        self.engine.add_message(Message(role="assistant", content="", tool_calls=[made]))
        result = self.engine.add_message(Message(role="tool", content=call.output,
                                                 tool_name=call.name, tool_call_id=made.id))
        self.result_ids[(turn.index, number)] = result.id
        indexed = f"{call.name}({json.dumps(call.arguments, sort_keys=True)})\n{call.output}"
        user_id, user = self._user if number == 0 else ("", "")
        self.index.add_round(user, indexed, message_ids=(user_id, result.id) if user_id
                             else (result.id,))

    def play_answer(self, turn: Turn) -> None:
        reply = self.engine.add("assistant", turn.answer)
        self.last_id = reply.id
        self.index.add_round("", turn.answer, message_ids=(reply.id,))

    def question_messages(self) -> list[dict[str, str]]:
        if not self.recall:
            return self.messages()
        text = self.engine.display_messages()[-1].content
        messages, _ = self.engine.recall_request(self.index, text)
        return [dict(m) for m in messages]


def _peer_turn(strategy: Strategy, turn: Turn) -> None:
    strategy.add("user", turn.user, fact_bearing=False, user_pinned=False)


def _peer_call(strategy: Strategy, turn: Turn, number: int) -> None:
    call = turn.calls[number]
    strategy.add("assistant", call.text(), fact_bearing=False, user_pinned=False)
    strategy.add("tool", call.output, fact_bearing=False, user_pinned=False)


def _sent_shares(strategy: Strategy, request: list[dict[str, str]], chat: ToolChat,
                 upto: tuple[int, int], shares: dict[str, list[float]]) -> None:
    """For each result returned so far: the share of its tokens this request carries."""
    now_turn = upto[0]
    carried: dict[str, str] = {}
    for entry in request:
        if entry.get("role") == "tool":
            carried[entry.get("tool_call_id") or entry["content"]] = entry["content"]
    for turn in chat.turns[:now_turn + 1]:
        for number, call in enumerate(turn.calls):
            if (turn.index, number) > upto:
                break
            key = (f"t{turn.index}c{number}" if isinstance(strategy, OllmTools)
                   else call.output)
            sent = carried.get(key)
            whole = cl100k_text(call.output)
            share = 0.0 if sent is None else (1.0 if sent == call.output else min(
                1.0, cl100k_text(sent) / whole))
            ago = now_turn - turn.index
            label = next(depth_label(lo, hi) for lo, hi in DEPTHS if lo <= ago <= hi)
            shares[label].append(share)


def _request_tokens(request: list[dict[str, str]]) -> int:
    return sum(peer_message_tokens(m["content"] + m.get("tool_calls", "")) for m in request)


async def play(chat: ToolChat, name: str, num_ctx: int, summariser: str) -> dict[str, Any]:
    summarizer = Summariser(summariser)
    strategy: Strategy = (OllmTools(SYSTEM, num_ctx, summarizer, recall=name == "ollm")
                          if name.startswith("ollm") else make(name, SYSTEM, num_ctx,
                                                               summarizer))
    ours = isinstance(strategy, OllmTools)
    shares: dict[str, list[float]] = defaultdict(list)
    requests = over = 0
    largest = 0
    started = time.monotonic()
    for turn in chat.turns:
        strategy.play_turn(turn) if ours else _peer_turn(strategy, turn)  # type: ignore
        for number in range(len(turn.calls) + 1):  # a request before each call, and the answer
            await strategy.before_send()
            request = strategy.send_messages() if not ours else strategy.messages()
            requests += 1
            tokens = _request_tokens(request)
            largest = max(largest, tokens)
            over += tokens > strategy.usable
            _sent_shares(strategy, request, chat, (turn.index, number - 1), shares)
            if number < len(turn.calls):
                strategy.play_call(turn, number) if ours else _peer_call(  # type: ignore
                    strategy, turn, number)
        if ours:
            strategy.play_answer(turn)  # type: ignore[attr-defined]
        else:
            strategy.add("assistant", turn.answer, fact_bearing=False, user_pinned=False)
        await strategy.after_reply(0)
    answers: dict[str, list[bool]] = defaultdict(list)
    for question in chat.questions:
        saved = strategy.snapshot()
        strategy.add("user", question.text, fact_bearing=False, user_pinned=False)
        await strategy.before_send()
        request = strategy.question_messages()
        answers[question.kind].append(question.value in json.dumps(request))
        strategy.restore(saved)
    return {
        "strategy": name, "num_ctx": num_ctx, "turns": len(chat.turns),
        "calls": sum(len(t.calls) for t in chat.turns),
        "requests": requests, "requests_over_window": over, "largest_request": largest,
        "user_facts": _ratio(answers["user fact"]),
        "tool_identifiers": _ratio(answers["tool identifier"]),
        "asked": {kind: len(found) for kind, found in answers.items()},
        "tool_output_sent_by_depth": {label: round(sum(v) / len(v), 3)
                                      for label, v in shares.items() if v},
        "summary_calls": summarizer.calls,
        "compactions": len(strategy.compaction_seconds),
        "seconds": round(time.monotonic() - started, 1),
    }


def _ratio(found: list[bool]) -> float | None:
    return round(sum(found) / len(found), 3) if found else None


def averaged(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per context size and strategy: the seeds' mean."""
    groups: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    for run in runs:
        groups[(run["num_ctx"], run["strategy"])].append(run)
    rows = []
    for (size, name), group in groups.items():
        labels = {label for r in group for label in r["tool_output_sent_by_depth"]}
        rows.append({
            "num_ctx": size, "strategy": name, "seeds": len(group),
            "user_facts": _mean([r["user_facts"] for r in group]),
            "tool_identifiers": _mean([r["tool_identifiers"] for r in group]),
            "requests": sum(r["requests"] for r in group),
            "requests_over_window": sum(r["requests_over_window"] for r in group),
            "tool_output_sent_by_depth": {label: _mean([
                r["tool_output_sent_by_depth"].get(label) for r in group]) for label in labels},
        })
    return rows


def _mean(values: list[Any]) -> float:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else 0.0


def table(runs: list[dict[str, Any]]) -> str:
    rows = averaged(runs)
    lines = ["| num_ctx | strategy | user facts | tool identifiers | requests over the window "
             "| tool output sent, by turns ago (" + ", ".join(
                 depth_label(lo, hi) for lo, hi in DEPTHS) + ") |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        by = r["tool_output_sent_by_depth"]
        shares = " / ".join(f"{by[depth_label(lo, hi)]:.0%}" if depth_label(lo, hi) in by
                            else "-" for lo, hi in DEPTHS)
        lines.append(f"| {r['num_ctx']:,} | {r['strategy']} | {r['user_facts']:.0%} | "
                     f"{r['tool_identifiers']:.0%} | {r['requests_over_window']} of "
                     f"{r['requests']} | {shares} |")
    lines += ["", "Gain of ours (retention, ours / peer; a peer at 0 % gives no finite ratio):",
              ""]
    for size in sorted({r["num_ctx"] for r in rows}):
        at = {r["strategy"]: r for r in rows if r["num_ctx"] == size}
        if "ollm" not in at:
            continue
        for peer in ("truncate", "rolling"):
            if peer in at:
                ours, theirs = at["ollm"], at[peer]
                facts = _gain(ours["user_facts"], theirs["user_facts"])
                tools = _gain(ours["tool_identifiers"], theirs["tool_identifiers"])
                lines.append(f"- {size:,}, vs {peer}: user facts {facts}, tool identifiers "
                             f"{tools}")
    return "\n".join(lines)


def _gain(ours: float | None, peer: float | None) -> str:
    if ours is None or peer is None:
        return "-"
    if not peer:
        return f"{ours:.0%} vs 0 %" if ours else "both 0 %"
    return f"{ours / peer:.1f}x ({ours:.0%} vs {peer:.0%})"


def main(sizes: list[int], seeds: list[int], out: Path, label: str, summariser: str,
         info: dict[str, Any]) -> int:
    runs = []
    for size in sizes:
        for seed in seeds:
            chat = generate(seed)
            for name in STRATEGIES:
                run = asyncio.run(play(chat, name, size, summariser))
                run["seed"] = seed
                print(json.dumps(run), flush=True)
                runs.append(run)
    name = f"tools-{label}" if label else "tools"
    out.mkdir(parents=True, exist_ok=True)
    params = {"label": label, "ctx": sizes, "seeds": seeds, "summariser": summariser,
              "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"), **info}
    (out / f"{name}.json").write_text(json.dumps({"params": params, "runs": runs}, indent=1)
                                      + "\n", encoding="utf-8")
    text = table(runs)
    (out / f"{name}.md").write_text(text + "\n", encoding="utf-8")
    print(text)
    print(f"results: {out / (name + '.json')}")
    return 0
