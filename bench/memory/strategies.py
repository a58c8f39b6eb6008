"""The same conversation played through five context strategies, same model, same num_ctx.

- ``truncate``: drop the oldest turns to fit (what Ollama and most Python clients do).
- ``rolling``: one rolling summary, re-summarising the previous summary plus the oldest turns
  when over 80 % of the usable context, keeping the recent 30 % verbatim (the usual web-client
  approach, LobeChat/Open WebUI style); the summary goes first, as a user message.
- ``ollm``: our engine with its defaults, driven the way the app drives it.
- ``ollm-pins``: ours, with every fact-bearing message pinned (the upper bound of user effort).
- ``full``: everything, with a num_ctx large enough: the ceiling.

Only the engine's stable public API is used (``ContextEngine``, ``EngineConfig(context_size=)``,
``add``, ``needs_compaction``, ``compact``, ``api_messages``), so this file runs unchanged on
the engine before and after issue 11.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from typing import Any

from bench.memory.host import Summarizer
from bench.memory.tokens import peer_message_tokens

USABLE_RATIO = 0.85  # the share of num_ctx a request may fill (the rest is for the reply)
STRATEGIES = ("truncate", "rolling", "ollm", "ollm-recall", "ollm-pins", "full")

ROLLING_SYSTEM = "You are a helpful assistant that summarizes conversations."
ROLLING_PROMPT = (
    "Summarize the conversation below into a concise summary of at most {words} words. Keep "
    "every important fact: names, identifiers, file paths, numbers with their units, decisions, "
    "corrections (keep only the latest value) and open tasks. If a previous summary is given, "
    "merge it with the new messages into one updated summary. Reply with the summary only.\n\n"
    "{previous}<conversation>\n{conversation}\n</conversation>"
)


class Strategy(ABC):
    """What a chat client keeps in front of the model, turn after turn."""

    name = ""
    sends_turns = True  # ``--send-turns`` applies (``full`` is the unsendable ceiling)
    # After a background compaction the app sends the new request with a one-token reply so
    # the server reads it while the user reads (issue 21; only our app since then).
    warms_cache = False

    def __init__(self, system_prompt: str, num_ctx: int, summarizer: Summarizer | None) -> None:
        self.system_prompt = system_prompt
        self.num_ctx = num_ctx
        self.usable = int(num_ctx * USABLE_RATIO)
        self.summarizer = summarizer
        self.compaction_seconds: list[float] = []
        # Engine CPU of each compaction (this thread's CPU time: the in-process loopback
        # server answers in its own thread and is not counted).
        self.compaction_cpu: list[float] = []
        self.compaction_failures = 0

    @abstractmethod
    def add(self, role: str, content: str, *, fact_bearing: bool, user_pinned: bool) -> None:
        """A message was sent or received."""

    async def after_reply(self, ahead: int) -> float | None:
        """A compaction started while the user reads; its wall time, or None if none ran."""
        return None

    def sends_when_fits(self) -> bool:
        """Does the app send at once, without waiting for compaction, when the request fits?"""
        return False

    async def before_send(self) -> float | None:
        """A compaction the send itself must wait for; its wall time, or None."""
        return None

    @abstractmethod
    def messages(self) -> list[dict[str, str]]:
        """The request this strategy would send now."""

    def request_num_ctx(self) -> int:
        return self.num_ctx

    # A probe question goes through the strategy, then leaves no trace (``scoring``):
    # ``take_back`` removes the message just added when nothing else changed; ``snapshot``
    # and ``restore`` cover a question that made the strategy compact.
    @abstractmethod
    def take_back(self) -> None:
        """Remove the message added last (nothing else changed since)."""

    def snapshot(self) -> Any:
        return (list(self.compaction_seconds), list(self.compaction_cpu),
                self.compaction_failures)

    def restore(self, snapshot: Any) -> None:
        seconds, cpu, failures = snapshot
        self.compaction_seconds, self.compaction_failures = list(seconds), failures
        self.compaction_cpu = list(cpu)

    def question_messages(self) -> list[dict[str, str]]:
        """The request that carries a question just added (recall strategies add to it)."""
        return self.messages()

    def send_messages(self) -> list[dict[str, str]]:
        """The request a send carries (recall strategies add to its newest user turn)."""
        return self.messages()

    def stats(self) -> dict[str, Any]:
        return {}

    async def _timed(self, work: Any) -> float | None:
        """Run a compaction; its wall time when it did any work (a summary call), else None."""
        started, cpu = time.monotonic(), time.thread_time()
        bookkeeping = getattr(self.summarizer, "bookkeeping_cpu", 0.0)
        worked = await work
        seconds = time.monotonic() - started
        if not worked:
            return None
        self.compaction_seconds.append(seconds)
        # The engine's CPU, and the HTTP client's: the bench's own counting of each summary
        # request (``host.Summarizer.bookkeeping_cpu``) runs on this thread but is not the app's.
        own = getattr(self.summarizer, "bookkeeping_cpu", 0.0) - bookkeeping
        self.compaction_cpu.append(time.thread_time() - cpu - own)
        return seconds


class _Peer(Strategy):
    """Shared by ``truncate``, ``rolling`` and ``full``: a plain list of messages."""

    def __init__(self, system_prompt: str, num_ctx: int, summarizer: Summarizer | None) -> None:
        super().__init__(system_prompt, num_ctx, summarizer)
        self.system = {"role": "system", "content": system_prompt}
        self.system_tokens = peer_message_tokens(system_prompt)
        self.live: list[tuple[dict[str, str], int]] = []

    def add(self, role: str, content: str, *, fact_bearing: bool, user_pinned: bool) -> None:
        self.live.append(({"role": role, "content": content}, peer_message_tokens(content)))

    def take_back(self) -> None:
        self.live.pop()

    def snapshot(self) -> Any:
        return (super().snapshot(), list(self.live), getattr(self, "summary", None))

    def restore(self, snapshot: Any) -> None:
        base, live, summary = snapshot
        super().restore(base)
        self.live = list(live)
        if hasattr(self, "summary"):
            self.summary = summary

    def _fit(self, head: list[dict[str, str]], head_tokens: int) -> list[dict[str, str]]:
        """``head`` then the newest messages that fit the usable context (always the last)."""
        kept: list[dict[str, str]] = []
        used = head_tokens
        for message, tokens in reversed(self.live):
            if kept and used + tokens > self.usable:
                break
            kept.append(message)
            used += tokens
        return head + kept[::-1]


class Truncate(_Peer):
    name = "truncate"

    def messages(self) -> list[dict[str, str]]:
        return self._fit([self.system], self.system_tokens)


class Full(_Peer):
    name = "full"
    sends_turns = False

    def __init__(self, system_prompt: str, num_ctx: int, summarizer: Summarizer | None,
                 model_context: int | None = None) -> None:
        super().__init__(system_prompt, num_ctx, summarizer)
        self.model_context = model_context

    def messages(self) -> list[dict[str, str]]:
        return [self.system] + [m for m, _ in self.live]

    def request_num_ctx(self) -> int:
        """Room for everything even with a tokenizer 1.5x hungrier than cl100k, in 1K steps."""
        need = (self.system_tokens + sum(t for _, t in self.live)) * 1.5 / USABLE_RATIO
        return max(self.num_ctx, -(-int(need) // 1024) * 1024)


class Rolling(_Peer):
    name = "rolling"
    THRESHOLD = 0.80  # of usable: summarise past this (after a reply, no look-ahead)
    KEEP_RECENT = 0.30  # of usable: recent messages kept verbatim after a summary
    SUMMARY_SHARE = 0.20  # of usable: the summary's length asked for

    def __init__(self, system_prompt: str, num_ctx: int, summarizer: Summarizer | None) -> None:
        super().__init__(system_prompt, num_ctx, summarizer)
        self.summary: str | None = None

    def _summary_message(self) -> list[dict[str, str]]:
        if not self.summary:
            return []
        return [{"role": "user",
                 "content": f"Summary of the earlier conversation:\n{self.summary}"}]

    def _head(self) -> tuple[list[dict[str, str]], int]:
        head = [self.system, *self._summary_message()]
        return head, sum(peer_message_tokens(m["content"]) for m in head)

    def _total(self) -> int:
        return self._head()[1] + sum(t for _, t in self.live)

    def messages(self) -> list[dict[str, str]]:
        return self._fit(*self._head())

    async def after_reply(self, ahead: int) -> float | None:
        if self._total() <= self.THRESHOLD * self.usable:
            return None
        return await self._timed(self._resummarise())

    async def before_send(self) -> float | None:
        if self._total() <= self.usable:
            return None
        return await self._timed(self._resummarise())

    async def _resummarise(self) -> bool:
        """Fold the oldest messages (all but the recent ~30 %) into the one summary."""
        assert self.summarizer is not None
        keep, tail = 0, 0
        for _, tokens in reversed(self.live):
            if keep >= 2 and tail + tokens > self.KEEP_RECENT * self.usable:
                break
            keep += 1
            tail += tokens
        older = self.live[: len(self.live) - keep]
        words = max(60, int(self.SUMMARY_SHARE * self.usable * 0.75))
        previous = (f"<previous_summary>\n{self.summary}\n</previous_summary>\n\n"
                    if self.summary else "")
        # The request itself must fit: fold fewer messages now, the rest next time.
        room = self.usable - peer_message_tokens(ROLLING_SYSTEM) - peer_message_tokens(
            ROLLING_PROMPT.format(words=words, previous=previous, conversation=""))
        chosen, used = 0, 0
        for _, tokens in older:
            if used + tokens > room:
                break
            chosen += 1
            used += tokens
        if chosen == 0:
            return False
        conversation = "\n\n".join(f"{m['role'].upper()}: {m['content']}"
                                   for m, _ in older[:chosen])
        prompt = [{"role": "system", "content": ROLLING_SYSTEM},
                  {"role": "user", "content": ROLLING_PROMPT.format(
                      words=words, previous=previous, conversation=conversation)}]
        try:
            text = await self.summarizer(prompt, max_tokens=int(words / 0.75))
        except Exception:
            self.compaction_failures += 1
            return True  # the request is then fitted by dropping the oldest messages
        if text.strip():
            self.summary = text.strip()
            del self.live[:chosen]
        else:
            self.compaction_failures += 1
        return True


class Ollm(Strategy):
    """Our engine, called after each reply and before each send as the app does."""

    name = "ollm"

    def __init__(self, system_prompt: str, num_ctx: int, summarizer: Summarizer | None,
                 pin_facts: bool = False) -> None:
        from ollm_desktop.engine import ContextEngine, EngineConfig

        super().__init__(system_prompt, num_ctx, summarizer)
        self.pin_facts = pin_facts
        self.name = "ollm-pins" if pin_facts else "ollm"
        self.engine = ContextEngine(EngineConfig(context_size=num_ctx), summarizer,
                                    system_prompt=system_prompt)
        self.reports: list[str] = []
        self.warms_cache = hasattr(self.engine, "facts_view")  # the engine of issue 21 on
        self.last_id = ""
        self.unpinned = 0  # pins given up because pins alone exceeded the context
        self.versions: set[tuple[str, str]] = set()  # message versions added (extractions)

    def add(self, role: str, content: str, *, fact_bearing: bool, user_pinned: bool) -> None:
        pinned = user_pinned or (self.pin_facts and fact_bearing)
        self.versions.add((role, content))
        self.last_id = self.engine.add(role, content, pinned=pinned).id

    def take_back(self) -> None:
        if not self.engine.remove_last(self.last_id):
            raise RuntimeError("the engine refused to take back the probe question")

    def snapshot(self) -> Any:
        return (super().snapshot(), self.engine.state(), list(self.reports), self.unpinned)

    def restore(self, snapshot: Any) -> None:
        base, state, reports, unpinned = snapshot
        super().restore(base)
        self.engine.load_state(state)
        self.reports, self.unpinned = list(reports), unpinned

    def _needs(self, ahead: int) -> bool:
        try:
            return bool(self.engine.needs_compaction(ahead_tokens=ahead))
        except TypeError:  # an engine without the look-ahead
            return bool(self.engine.needs_compaction())

    async def _compact(self, ahead: int) -> bool:
        try:
            report = await self.engine.compact(ahead_tokens=ahead)
        except TypeError:
            report = await self.engine.compact()
        status = str(getattr(report, "status", ""))
        self.reports.append(status)
        if status == "failed":
            self.compaction_failures += 1
        return status != "skipped"

    async def after_reply(self, ahead: int) -> float | None:
        if not self._needs(ahead):
            return None
        return await self._timed(self._compact(ahead))

    async def before_send(self) -> float | None:
        if not self._needs(0):
            return None
        return await self._timed(self._compact(0))

    def sends_when_fits(self) -> bool:
        """Since issue 11 the app sends a request that fits at once, even while a compaction
        runs or one is due (it runs after the reply). The engine of that release is the one
        with ``set_template_overhead``; an older engine's app waited."""
        if not hasattr(self.engine, "set_template_overhead"):
            return False
        usage = self.engine.usage()
        return not usage.over_budget and usage.dropped_messages == 0 \
            and usage.total <= usage.usable

    def messages(self) -> list[dict[str, str]]:
        """The request; when pins alone no longer fit, unpin the oldest, as a user told so would.

        The engine refuses to send over the context (``PinsOverBudget``, issue 11) and names
        the pins; older engines sent them anyway. Matched by name: the old engine lacks it.
        """
        while True:
            try:
                return [dict(m) for m in self.engine.api_messages()]
            except Exception as exc:
                if type(exc).__name__ != "PinsOverBudget":
                    raise
                oldest = next((m for m in self.engine.display_messages() if m.pinned), None)
                if oldest is None:
                    raise
                self.engine.set_pinned(oldest.id, False)
                self.unpinned += 1


def make(name: str, system_prompt: str, num_ctx: int, summarizer: Summarizer | None,
         model_context: int | None = None) -> Strategy:
    if name == "truncate":
        return Truncate(system_prompt, num_ctx, summarizer)
    if name == "rolling":
        return Rolling(system_prompt, num_ctx, summarizer)
    if name == "ollm":
        return Ollm(system_prompt, num_ctx, summarizer)
    if name == "ollm-recall":
        from bench.memory.recall_strategy import OllmRecall

        return OllmRecall(system_prompt, num_ctx, summarizer)
    if name == "ollm-pins":
        return Ollm(system_prompt, num_ctx, summarizer, pin_facts=True)
    if name == "full":
        return Full(system_prompt, num_ctx, summarizer, model_context)
    raise ValueError(f"unknown strategy {name!r} (choose from {', '.join(STRATEGIES)})")
