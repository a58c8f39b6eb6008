"""Store cost per turn at 100 and 10,000 existing messages in a chat.

``append_message`` is one small transaction; its median must not grow with the chat's length
(goal: ratio 10,000 / 100 <= 1.5). ``save_engine_state`` is what the controller runs after a
reply: it compares every message with its in-memory fingerprint and writes only what changed
(here: the goal, i.e. the small meta part of the state), so it grows with the chat in CPU, not
in SQL writes. The 10,000-message chat carries checkpoints over 95% of it and a full undo
stack, like a long compacted chat; both chats are built one append at a time, as the app does.

The two sizes are measured alternately, sample by sample, so load from other processes hits
both alike. Appends are timed in a loop of their own: right after a save has walked 10,000
messages in Python the next append runs with cold CPU caches (+0.1 ms at any chat length).

Run: ``.venv/bin/python bench/bench_store.py [--samples 400]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import Result, report
from ollm_desktop.engine.models import CompressedGroup, EngineState, Message, UndoEntry
from ollm_desktop.paths import AppPaths
from ollm_desktop.storage import ChatStore

SIZES = (100, 10_000)
GOAL_RATIO = 1.5
_TEXT = (
    "The team reviewed the design and agreed to keep the current approach while measuring "
    "latency again next week after the release candidate is tagged. "
)


def _message(index: int) -> Message:
    role = "user" if index % 2 == 0 else "assistant"
    return Message(role=role, content=f"{index}: " + _TEXT * (1 + index % 4), tokens=60 + index % 7)


def _state(messages: list[Message]) -> EngineState:
    covered = messages[: int(len(messages) * 0.95)]
    step = max(2, len(covered) // 10)
    groups = [
        CompressedGroup(
            summary="## Context\n" + _TEXT * 20, level=2,
            message_ids=[m.id for m in span if m.role == "assistant"],
            span_ids=[m.id for m in span], original_tokens=60 * len(span), current_tokens=400,
        )
        for span in (covered[start:start + step] for start in range(0, len(covered) - 1, step))
    ]
    undo = [UndoEntry(groups=groups[: max(0, len(groups) - 1 - i)], dropped_ids=[],
                      compaction_count=10 - i) for i in range(5)]
    return EngineState(system_prompt="You are helpful.", messages=list(messages), groups=groups,
                       undo_stack=undo, compaction_count=10)


class Chat:
    """One store holding one chat of ``size`` messages, opened as the controller opens it."""

    def __init__(self, size: int, root: Path) -> None:
        folder = root / f"chat-{size}"
        self.store, _ = ChatStore.open(AppPaths(folder, folder / "config", folder / "logs"))
        self.chat_id = self.store.create_chat("bench").id
        self.next = size
        built = [_message(i) for i in range(size)]
        for message in built:
            self.store.append_message(self.chat_id, message)
        self.store.save_engine_state(self.chat_id, _state(built))
        state = self.store.load_engine_state(self.chat_id)
        assert state is not None
        self.state = state
        self.messages = list(state.messages)

    def append(self) -> float:
        message = _message(self.next)
        self.next += 1
        started = time.perf_counter()
        self.store.append_message(self.chat_id, message)
        elapsed = time.perf_counter() - started
        self.messages.append(message)
        return elapsed

    def turn(self) -> float:
        self.append()
        self.state.messages = list(self.messages)
        self.state.goal.next_steps = [f"step {self.next}"]
        started = time.perf_counter()
        self.store.save_engine_state(self.chat_id, self.state)
        return time.perf_counter() - started


def measure(samples: int, sizes: tuple[int, ...] = SIZES,
            ) -> tuple[list[list[float]], list[list[float]]]:
    """Append and save samples (seconds) per size, taken alternately."""
    with tempfile.TemporaryDirectory() as tmp:
        chats = [Chat(size, Path(tmp)) for size in sizes]
        appends: list[list[float]] = [[] for _ in sizes]
        saves: list[list[float]] = [[] for _ in sizes]
        for _ in range(samples):
            for index, chat in enumerate(chats):
                appends[index].append(chat.append())
        for _ in range(max(1, samples // 4)):
            for index, chat in enumerate(chats):
                saves[index].append(chat.turn())
        for chat in chats:
            chat.store.close()
    return appends, saves


def run_p3(samples: int = 400, sizes: tuple[int, ...] = SIZES) -> Result:
    """P3 row: append at the largest size; baseline = append at the smallest."""
    appends, saves = measure(samples, sizes)
    append_ms = [statistics.median(a) * 1000 for a in appends]
    save_ms = [statistics.median(s) * 1000 for s in saves]
    ratio = append_ms[-1] / append_ms[0]
    details = [f"{size:,} msgs: append_message median {append:.3f} ms, save_engine_state "
               f"median {save:.3f} ms (informational)"
               for size, append, save in zip(sizes, append_ms, save_ms, strict=True)]
    return Result("P3", f"store append at {sizes[-1]:,} msgs", f"{append_ms[-1]:.3f} ms",
                  f"{append_ms[0]:.3f} ms at {sizes[0]:,} msgs", ratio, f"<= {GOAL_RATIO}",
                  ratio <= GOAL_RATIO, details)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=400)
    args = parser.parse_args()
    return report([run_p3(args.samples)])


if __name__ == "__main__":
    sys.exit(main())
