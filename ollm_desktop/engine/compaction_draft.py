"""A compaction worked out on a copy of the chat, away from the caller's event loop, and
applied to the chat only while its result is still current.

The engine starts no thread: the caller hands it a ``Worker`` (the session's runs the job on a
thread of its own). The copy is taken and the result applied on the caller's loop, so the chat
itself is only ever touched there. What the user does meanwhile goes to the chat at once, and
the result is checked against it before it is applied (seed 004, "Messages added while
compacting: optimistic locking"):

- nothing changed: the result is the chat's new compaction state;
- messages were only appended: the result is applied and the new messages are read into it
  again (their corrections and goal markers meet the facts the compaction added);
- a message was edited, pinned, unpinned or deleted, or the prompt, settings or goal changed
  (or the job failed while they did):
  the result is stale and is dropped, and the compaction runs again from a new copy (at most
  ``ATTEMPTS`` times; then it is skipped, and the next reply schedules it again).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from ollm_desktop.engine.conversation import Conversation
from ollm_desktop.engine.models import CompactionReport, EngineEvent, EngineState, Message
from ollm_desktop.engine.summarizer import Summarize

if TYPE_CHECKING:
    from ollm_desktop.engine.context import ContextEngine

T = TypeVar("T")
Listener = Callable[[EngineEvent], None]
# The token calibration to count with after the summaries (estimate scale, or None to keep
# it; per-message and per-request template overhead), read on the caller's loop when the job
# asks: the summary requests teach it, and applied there it would recount the chat and build
# the request again on that loop.
Calibration = tuple[float | None, int, int]
ReadCalibration = Callable[[], Awaitable[Calibration | None]]
ATTEMPTS = 3  # runs from a fresh copy before a compaction that keeps going stale is skipped
STALE = ("The chat changed while it was being compacted (a message was edited, pinned or "
         "deleted), so that compaction was not applied; it runs again after the next reply.")


@dataclass(frozen=True)
class DraftStates:
    """The chat before and after the newest detached compaction, made by the worker (a
    restore point and a save cost the loop nothing then); ``after`` is None when the chat
    gained messages meanwhile (the chat's own state is newer)."""

    before: EngineState
    after: EngineState | None


class Worker(Protocol):
    """Where a detached compaction runs. ``run`` awaits ``job()`` run elsewhere; ``home`` wraps
    the summariser so that its requests still go out on the caller's loop (its connections
    live there); ``relay`` hands the copy's events back to the caller's loop."""

    async def run(self, job: Callable[[], Coroutine[Any, Any, T]]) -> T: ...

    def home(self, summarize: Summarize) -> Summarize: ...

    def relay(self, listener: Listener) -> Listener: ...


class InPlace:
    """A ``Worker`` that runs the job on the caller's own loop (tests, benchmarks' baseline)."""

    async def run(self, job: Callable[[], Coroutine[Any, Any, T]]) -> T:
        return await job()

    def home(self, summarize: Summarize) -> Summarize:
        return summarize

    def relay(self, listener: Listener) -> Listener:
        return listener


Row = tuple[str, str, bool, bool, int]  # id, content, pinned, partial, pictures


def _row(message: Message) -> Row:
    return message.id, message.content, message.pinned, message.partial, len(message.images)


@dataclass(frozen=True)
class Base:
    """What the chat looked like when the copy was taken: enough to tell, cheaply, whether a
    result worked out from the copy still fits the chat."""

    rows: tuple[Row, ...]
    system_prompt: str
    config: Any
    goal: Any
    generation: int
    groups: tuple[str, ...]

    @classmethod
    def of(cls, data: Conversation, generation: int) -> Base:
        return cls(rows=tuple(_row(m) for m in data.messages), system_prompt=data.system_prompt,
                   config=data.config.model_copy(), goal=data.goal.model_copy(deep=True),
                   generation=generation, groups=tuple(g.id for g in data.groups))

    def compare(self, data: Conversation, generation: int) -> Literal["same", "appended",
                                                                       "changed"]:
        messages = data.messages
        if (generation != self.generation or len(messages) < len(self.rows)
                or data.system_prompt != self.system_prompt or data.config != self.config
                or tuple(g.id for g in data.groups) != self.groups):
            return "changed"
        if any(_row(m) != row for m, row in zip(messages, self.rows, strict=False)):
            return "changed"
        if len(messages) == len(self.rows):
            return "same" if data.goal == self.goal else "changed"
        return "appended"  # the goal may follow an appended reply's markers: read again


def carry_derived(live: list[Message], copies: list[Message]) -> None:
    """What the copy derived from a message (private caches) goes to the chat's own message
    object, which the session may hold (a Continue streams into it)."""
    for message, copy in zip(live, copies, strict=False):
        private = getattr(copy, "__pydantic_private__", None)
        if message is not copy and private:
            message.__pydantic_private__ = dict(private)


async def compact_detached(engine: ContextEngine, worker: Worker, *, focus: str | None,
                           force: bool, ahead_tokens: int,
                           calibration: ReadCalibration | None = None) -> CompactionReport:
    """Run one compaction on a copy in ``worker``; apply it if it is still current, else run
    again from a new copy (see the module's docstring).

    The copy ends ready to be the chat: counted with ``calibration`` (what its summaries
    taught), its request's region and layout built. Applied, they are the chat's (the loop
    builds nothing again); dropped with a stale result, they are never seen."""
    report = CompactionReport(status="skipped", reason=STALE)
    for _ in range(ATTEMPTS):
        draft, base = engine.detached_copy(worker)

        async def job(copy: ContextEngine = draft) -> tuple[DraftStates, CompactionReport]:
            before = copy.state()  # the restore point, made there: the copy is the job's own
            report = await copy.compact(focus=focus, force=force, ahead_tokens=ahead_tokens)
            if report.status in ("compacted", "truncated"):
                target = await calibration() if calibration is not None else None
                if target is not None:
                    scale, per_message, per_request = target
                    copy.set_calibration(scale=scale, per_message=per_message,
                                         per_request=per_request)
                copy.usage()  # the region and the request, built here
            return DraftStates(before, copy.state()), report

        states, report = await worker.run(job)
        verdict = engine.take_draft(draft, base)
        if verdict != "changed":
            if verdict == "appended":  # read again into the result: the copy's is older
                states = DraftStates(states.before, None)
            engine.draft_states = states
            return report
        if report.status not in ("compacted", "truncated"):
            return report  # nothing to apply (its breaker and error were taken)
    return CompactionReport(status="skipped", reason=STALE, tier=report.tier)
