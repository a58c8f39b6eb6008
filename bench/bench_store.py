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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        chats = [Chat(size, Path(tmp)) for size in SIZES]
        appends: list[list[float]] = [[] for _ in SIZES]
        saves: list[list[float]] = [[] for _ in SIZES]
        for _ in range(args.samples):
            for index, chat in enumerate(chats):
                appends[index].append(chat.append())
        for _ in range(args.samples // 4):
            for index, chat in enumerate(chats):
                saves[index].append(chat.turn())
        for chat in chats:
            chat.store.close()
    append_ms = [statistics.median(a) * 1000 for a in appends]
    save_ms = [statistics.median(s) * 1000 for s in saves]
    for size, append, save in zip(SIZES, append_ms, save_ms, strict=True):
        print(f"{size:>6} messages: append_message median {append:.3f} ms, "
              f"save_engine_state median {save:.3f} ms")
    ratio = append_ms[1] / append_ms[0]
    verdict = "ok" if ratio <= GOAL_RATIO else "OVER GOAL"
    print(f"append ratio {SIZES[1]}/{SIZES[0]}: {ratio:.2f} (goal <= {GOAL_RATIO}) {verdict}")
    print(f"save ratio {SIZES[1]}/{SIZES[0]}: {save_ms[1] / save_ms[0]:.2f}")
    return 0 if ratio <= GOAL_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
