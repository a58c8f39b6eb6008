"""What each code-built checkpoint kept of the user's decisions it was built from (issue 28).

The request shows only the newest checkpoint, rolled many times: a decision it lost at a roll
is gone from it, but was it ever kept? This records every call of the engine's
``extractive.extractive_checkpoint`` during a run (the messages it summarised and what it
wrote) and scores each build against the generator's ground truth: of the user's decisions
stated in the messages it summarised, the share its "Decisions & Conclusions" section holds
("at least 90 % of the user's decisions that it summarised"; kept by that build, or by a later
build that folds it), and the lines there that are a reply's own sentences (filler; a line
with the app's [DECISION] or [GOAL] marker is the goal's decision, which the engine takes from
a reply by design, not filler). The request-level figure (``precision.checkpoint_decisions``)
stays beside it: what is still there at each reported turn (no goal: a 2K-4K rolling
checkpoint holds about four decision lines).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.memory.generator import Conversation
from bench.memory.ledger_text import mentioned
from bench.memory.retention import normalise

_SECTION = re.compile(r"^##\s*decisions", re.I)
# The app's own goal markers: a reply's line with one is the goal's decision, not filler.
_MARKER = re.compile(r"\[(?:DECISION|GOAL)\]")


@dataclass
class Build:
    messages: list[tuple[str, str]]
    text: str
    previous: str | None = None  # the checkpoint this build folded (rolled into it)


@dataclass
class Recorder:
    """Installed for one run; ``stop`` puts the engine's function back."""

    builds: list[Build] = field(default_factory=list)
    original: Callable[..., str] | None = None

    def stop(self) -> None:
        if self.original is not None:
            from ollm_desktop.engine import extractive

            extractive.extractive_checkpoint = self.original  # type: ignore[assignment]
            self.original = None


def start() -> Recorder:
    """Record every code-built checkpoint from now on (none when the engine has no such
    function: an older engine)."""
    recorder = Recorder()
    try:
        from ollm_desktop.engine import extractive
    except ImportError:
        return recorder
    original = getattr(extractive, "extractive_checkpoint", None)
    if original is None:
        return recorder

    def recorded(messages: Sequence[tuple[str, str]], **kwargs: Any) -> str:
        text = original(messages, **kwargs)
        recorder.builds.append(Build([(r, c or "") for r, c in messages], text,
                                     kwargs.get("previous")))
        return text

    recorder.original = original
    extractive.extractive_checkpoint = recorded  # type: ignore[assignment]
    return recorder


def decision_lines(text: str) -> list[str]:
    inside, out = False, []
    for line in text.splitlines():
        if line.startswith("#"):
            inside = bool(_SECTION.match(line))
        elif inside and line.strip().startswith("-"):
            out.append(line.strip()[1:].strip())
    return out


def folded_by(builds: Sequence[Build]) -> list[list[int]]:
    """For each build, the later builds that fold it: the one whose ``previous`` is its text
    (a roll, or the next chunk of the same compaction), and on, transitively."""
    later: list[list[int]] = [[] for _ in builds]
    latest: dict[str, int] = {}
    parent: list[int | None] = []
    for index, build in enumerate(builds):
        parent.append(latest.get(build.previous) if build.previous else None)
        latest[build.text] = index
    for index in range(len(builds)):
        up = parent[index]
        while up is not None:
            later[up].append(index)
            up = parent[up]
    return later


def figures(conversation: Conversation, recorder: Recorder) -> dict[str, Any]:
    """Over the run's builds, the issue's measure: a user's decision counts as summarised by a
    build when the messages that build folded state it, and as kept when that build's
    decisions section carries it, or a later build that folds that build does; and the lines
    there that are a reply's sentences (filler)."""
    decisions = [f for f in conversation.facts if f.type == "decision" and f.speaker == "user"]
    in_span = found = filler = lines_total = 0
    missing: list[str] = []
    sections = [decision_lines(build.text) for build in recorder.builds]
    later = folded_by(recorder.builds)
    for index, build in enumerate(recorder.builds):
        lines = sections[index]
        lines_total += len(lines)
        users = normalise("\n".join(c for r, c in build.messages if r == "user"))
        replies = normalise("\n".join(c for r, c in build.messages if r == "assistant"))
        filler += sum(1 for line in lines if len(normalise(line)) > 12
                      and not _MARKER.search(line)
                      and normalise(line).rstrip(".") in replies
                      and normalise(line).rstrip(".") not in users)
        for fact in decisions:
            if normalise(fact.sentence).rstrip(".") in users:
                in_span += 1
                if any(mentioned(line, fact.answer)
                       for at in (index, *later[index]) for line in sections[at]):
                    found += 1
                elif len(missing) < 3:
                    missing.append(fact.answer)
    return {"builds": len(recorder.builds), "decision_lines": lines_total,
            "filler_lines": filler, "user_decisions_in_span": in_span,
            "user_decisions_kept": found, "missing_examples": missing}
