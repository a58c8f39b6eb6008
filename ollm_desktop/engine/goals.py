"""Goal markers in assistant output and checkpoint summaries, and the goal block (seed 001).

The goal block is never compressed and is sent in every request, so its size is bounded twice:
item caps when markers are applied, and :func:`render_goal_block_capped`, which fits the block
into a token cap by condensing, never by silently dropping, locked decisions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ollm_desktop.engine.models import (
    GoalArtifact,
    GoalCheckpoint,
    GoalDecision,
    GoalState,
    utcnow,
)
from ollm_desktop.engine.tokens import count_tokens

_MARKER = re.compile(
    r"^\s*(?:(?:[-*+]|\d{1,3}[.)])\s*)?\[(GOAL|CHECKPOINT|DECISION|ARTIFACT|NEXT)\]\s*(.+?)\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_STATUS = re.compile(
    r"\s*(?:[-–—:|]\s*)?\(?\b(COMPLETED|COMPLETE|DONE|IN[ _-]PROGRESS|PENDING|TODO)\b\)?\s*$",
    re.IGNORECASE,
)
_LOCKED = re.compile(r"\s*(?:[-–—:|]\s*)?\(?\bLOCKED\b\)?\s*$", re.IGNORECASE)
_ARTIFACT = re.compile(r"^(Created|Modified|Updated|Deleted|Removed|Renamed)\s*:?\s+(.+)$", re.I)
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_DROPPED = re.compile(r"^(\d+) older locked decisions dropped \(limit \d+\)$")

# Limits keep the never-compressed goal block small however chatty the model is. Locked
# decisions are not capped at MAX_DECISIONS (the capped render condenses them); past
# MAX_LOCKED the oldest are dropped and counted in one note entry (see dropped_locked).
MAX_CHECKPOINTS = 20
MAX_DECISIONS = 15  # unlocked decisions
MAX_LOCKED = 200
MAX_ARTIFACTS = 25
MAX_NEXT = 5
CONDENSED_WORDS = 12
# Words per decision in the merged line, tried in turn; fewer than 3 would say nothing.
MERGED_WORDS = (12, 8, 5, 3)
_PROGRESS = {"pending": 0, "in-progress": 1, "completed": 2}
Status = Literal["completed", "in-progress", "pending"]
_STATUS_WORDS: dict[str, Status] = {
    "completed": "completed", "complete": "completed", "done": "completed",
    "in-progress": "in-progress", "todo": "pending", "pending": "pending"}


def _status(text: str) -> tuple[str, Status]:
    match = _STATUS.search(text)
    if not match:
        return text.strip(), "pending"
    word = match.group(1).lower().replace("_", "-").replace(" ", "-")
    return text[: match.start()].strip(" -–—:|"), _STATUS_WORDS[word]


def outside_code(text: str) -> str:
    """``text`` with fenced code blocks (``` or ~~~) blanked.

    A message documenting the marker syntax inside a fence must not set goals. An unclosed
    fence runs to the end, as in CommonMark. Inline code needs no handling: a marker must
    start its line, so `` `[GOAL] x` `` never matches.
    """
    kept: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        match = _FENCE.match(line)
        if fence is None:
            if match:
                fence = match.group(1)
                kept.append("")
            else:
                kept.append(line)
        else:
            closing = line.strip()
            if closing and set(closing) == {fence[0]} and len(closing) >= len(fence):
                fence = None
            kept.append("")
    return "\n".join(kept)


def _markers(text: str) -> list[tuple[str, str]]:
    found = _MARKER.findall(outside_code(text))
    return [(kind.upper(), body.strip()) for kind, body in found if body.strip()]


def apply_goal_markers(goal: GoalState, text: str) -> bool:
    """Update ``goal`` in place from the markers in ``text``; True when something changed."""
    return _apply(goal, _markers(text), lossy=False)


def apply_summary_markers(goal: GoalState, summary: str) -> bool:
    """Apply the markers a checkpoint summary kept; True when something changed.

    Summaries are lossy rewrites of older turns, so they may only add or advance: a goal is
    set only when there is none, a decision is never unlocked, a checkpoint's status never
    goes back, and a next step is added only when there is none.
    """
    return _apply(goal, _markers(summary), lossy=True)


def _key(text: str) -> str:
    return " ".join(text.lower().split()).rstrip(".")


def _apply(goal: GoalState, markers: list[tuple[str, str]], *, lossy: bool) -> bool:
    changed = False
    for kind, body in markers:
        if kind == "GOAL":
            if goal.description != body and not (lossy and goal.description):
                goal.description, goal.status = body, "active"
                changed = True
        elif kind == "CHECKPOINT":
            desc, status = _status(body)
            for checkpoint in goal.checkpoints:
                if _key(checkpoint.description) == _key(desc):
                    backwards = _PROGRESS[status] < _PROGRESS[checkpoint.status]
                    if checkpoint.status != status and not (lossy and backwards):
                        checkpoint.status, changed = status, True
                    break
            else:
                goal.checkpoints.append(GoalCheckpoint(description=desc, status=status))
                changed = True
        elif kind == "DECISION":
            locked = bool(_LOCKED.search(body))
            desc = _LOCKED.sub("", body).strip(" -–—:|")
            for decision in goal.decisions:
                if _key(decision.description) == _key(desc):
                    if locked and not decision.locked:
                        decision.locked, changed = True, True
                    break
            else:
                goal.decisions.append(GoalDecision(description=desc, locked=locked))
                changed = True
        elif kind == "ARTIFACT":
            match = _ARTIFACT.match(body)
            action, path = (match.group(1).capitalize(), match.group(2)) if match else (
                "Modified", body)
            if not any(a.path == path.strip() and a.action == action for a in goal.artifacts):
                goal.artifacts.append(GoalArtifact(action=action, path=path.strip()))
                changed = True
        elif kind == "NEXT" and (not goal.next_steps
                                 or (goal.next_steps[-1] != body and not lossy)):
            goal.next_steps.append(body)
            changed = True
    if changed:
        _trim(goal)
        goal.updated_at = utcnow()
    return changed


def _is_note(decision: GoalDecision) -> bool:
    return decision.locked and bool(_DROPPED.match(decision.description))


def dropped_locked(goal: GoalState) -> int:
    """How many locked decisions were dropped past MAX_LOCKED (kept in a note entry).

    The count lives in the goal itself, as a first locked decision
    ``"N older locked decisions dropped (limit 200)"``, so it persists with the chat.
    """
    for decision in goal.decisions:
        match = _DROPPED.match(decision.description) if decision.locked else None
        if match:
            return int(match.group(1))
    return 0


def _trim(goal: GoalState) -> None:
    """Item caps: newest checkpoints, artifacts, next steps and unlocked decisions are kept.

    Locked decisions are never pushed out by unlocked ones; past MAX_LOCKED the oldest go and
    the note entry counts them.
    """
    goal.checkpoints = goal.checkpoints[-MAX_CHECKPOINTS:]
    decisions = [d for d in goal.decisions if not _is_note(d)]
    loose = [d for d in decisions if not d.locked]
    locked = [d for d in decisions if d.locked]
    keep = {id(d) for d in loose[-MAX_DECISIONS:]} | {id(d) for d in locked[-MAX_LOCKED:]}
    dropped = dropped_locked(goal) + max(0, len(locked) - MAX_LOCKED)
    goal.decisions = [d for d in decisions if id(d) in keep]
    if dropped:
        note = f"{dropped} older locked decisions dropped (limit {MAX_LOCKED})"
        goal.decisions.insert(0, GoalDecision(description=note, locked=True))
    goal.artifacts = goal.artifacts[-MAX_ARTIFACTS:]
    goal.next_steps = goal.next_steps[-MAX_NEXT:]


_ICON = {"completed": "[done]", "in-progress": "[in progress]", "pending": "[pending]"}


def _decision_line(decision: GoalDecision) -> str:
    if _is_note(decision):
        return f"- ({decision.description})"
    return f"- {'[locked] ' if decision.locked else ''}{decision.description}"


def render_goal_block(goal: GoalState) -> str:
    """The goal as it is sent inside the system message; empty when there is no goal."""
    if goal.is_empty:
        return ""
    lines = ["<active_goal>"]
    if goal.description:
        lines.append(f"Goal: {goal.description} (priority {goal.priority}, {goal.status})")
    if goal.checkpoints:
        lines.append("Checkpoints:")
        lines += [f"- {_ICON[c.status]} {c.description}" for c in goal.checkpoints]
    if goal.decisions:
        lines.append("Decisions:")
        lines += [_decision_line(d) for d in goal.decisions]
    if goal.artifacts:
        lines.append("Artifacts:")
        lines += [f"- {a.action}: {a.path}" for a in goal.artifacts]
    if goal.next_steps:
        lines.append(f"Next: {goal.next_steps[-1]}")
    lines.append("</active_goal>")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class GoalRender:
    text: str
    tokens: int
    condensed: int  # locked decisions condensed to fit (shortened or merged into one line)
    omitted: int  # items (non-locked) omitted to fit, said in the text
    locked_omitted: int = 0  # oldest locked decisions left out: only when condensing is not enough


@dataclass(slots=True)
class _Plan:
    """How much of each part is given up; every field grows in the order of sacrifice."""

    done: int = 0  # oldest completed checkpoints omitted
    artifacts: int = 0  # oldest artifacts omitted
    loose: int = 0  # oldest unlocked decisions omitted
    short: int = 0  # oldest locked decisions shortened to their first words
    merged: int = 0  # oldest locked decisions merged into one condensed line
    words: int = CONDENSED_WORDS  # words per decision in the merged line
    open: int = 0  # oldest pending / in-progress checkpoints omitted
    next: int = 0  # 1: the next step omitted
    locked_out: int = 0  # oldest locked decisions omitted
    description: str | None = None  # the description cut to fit


def condense(text: str, words: int = CONDENSED_WORDS) -> str:
    """The first ``words`` words of ``text`` with an ellipsis (also bounded in characters)."""
    parts = text.split()
    short = " ".join(parts[:words])
    limit = 10 * words + 10
    if len(short) > limit:
        short = short[:limit].rstrip()
    return short if short == " ".join(parts) else short + "…"


class _Capped:
    """Renders a goal under a plan; the stages of render_goal_block_capped search the plans."""

    def __init__(self, goal: GoalState, max_tokens: int, count: Callable[[str], int]) -> None:
        self.goal, self.max_tokens, self.count = goal, max_tokens, count
        self.locked = [d for d in goal.decisions if d.locked and not _is_note(d)]
        self.loose = [d for d in goal.decisions if not d.locked]
        self.done = [c for c in goal.checkpoints if c.status == "completed"]
        self.open = [c for c in goal.checkpoints if c.status != "completed"]

    def omitted(self, plan: _Plan) -> int:
        return plan.done + plan.artifacts + plan.loose + plan.open + plan.next

    def condensed(self, plan: _Plan) -> int:
        """Locked decisions shown in the merged line or actually shortened."""
        merged = max(0, plan.merged - plan.locked_out)
        rest = self.locked[max(plan.merged, plan.locked_out): plan.short]
        return merged + sum(1 for d in rest if condense(d.description) != d.description)

    def render(self, plan: _Plan) -> str:
        goal = self.goal
        gone = {id(c) for c in self.done[: plan.done]} | {id(c) for c in self.open[: plan.open]}
        gone |= {id(d) for d in self.loose[: plan.loose]}
        rank = {id(d): i for i, d in enumerate(self.locked)}
        lines = ["<active_goal>"]
        description = goal.description if plan.description is None else plan.description
        if description:
            lines.append(f"Goal: {description} (priority {goal.priority}, {goal.status})")
        checkpoints = [c for c in goal.checkpoints if id(c) not in gone]
        if checkpoints:
            lines.append("Checkpoints:")
            lines += [f"- {_ICON[c.status]} {c.description}" for c in checkpoints]
        decisions: list[str] = []
        merged = [condense(d.description, plan.words)
                  for d in self.locked[plan.locked_out: plan.merged]]
        if merged:
            decisions.append("- Earlier locked decisions (condensed): " + "; ".join(merged))
        for decision in goal.decisions:
            index = rank.get(id(decision))
            if id(decision) in gone or (index is not None and index < plan.merged):
                continue
            if index is not None and index < plan.short:
                decisions.append(f"- [locked] {condense(decision.description)}")
            else:
                decisions.append(_decision_line(decision))
        if decisions:
            lines += ["Decisions:", *decisions]
        artifacts = goal.artifacts[plan.artifacts:]
        if artifacts:
            lines.append("Artifacts:")
            lines += [f"- {a.action}: {a.path}" for a in artifacts]
        if goal.next_steps and not plan.next:
            lines.append(f"Next: {goal.next_steps[-1]}")
        if self.condensed(plan):
            lines.append(f"({self.condensed(plan)} older locked decisions condensed to fit)")
        if plan.locked_out:
            lines.append(f"({plan.locked_out} oldest locked decisions omitted to fit)")
        if self.omitted(plan):
            lines.append(f"({self.omitted(plan)} older goal items omitted to fit)")
        lines.append("</active_goal>")
        return "\n".join(lines)

    def fits(self, plan: _Plan) -> bool:
        return self.count(self.render(plan)) <= self.max_tokens

    def stage(self, plan: _Plan, field: str, upper: int) -> bool:
        """Set ``field`` to the least value in [0, upper] that fits; True when one does."""
        setattr(plan, field, upper)
        if not self.fits(plan):
            return False
        low, high = 0, upper
        while low < high:
            middle = (low + high) // 2
            setattr(plan, field, middle)
            if self.fits(plan):
                high = middle
            else:
                low = middle + 1
        setattr(plan, field, low)
        return True

    def cut_description(self, plan: _Plan, within: Callable[[_Plan], bool]) -> bool:
        """The longest description prefix (with a marker) for which ``within`` holds."""
        text = self.goal.description
        low, high = 0, len(text)
        while low < high:
            middle = (low + high + 1) // 2
            plan.description = text[:middle].rstrip() + " […cut to fit]"
            if within(plan):
                low = middle
            else:
                high = middle - 1
        plan.description = text[:low].rstrip() + " […cut to fit]" if low else ""
        return within(plan)


def render_goal_block_capped(goal: GoalState, max_tokens: int,
                             count: Callable[[str], int] = count_tokens) -> GoalRender:
    """The goal block within ``max_tokens`` (by ``count``), saying what it gave up.

    Order of sacrifice: oldest completed checkpoints, oldest artifacts, oldest unlocked
    decisions; then the oldest locked decisions are shortened to their first words, then
    merged into one condensed line with fewer words each; then open checkpoints and the next
    step; then a long description is cut to half the cap; only then are the oldest locked
    decisions left out (the text counts them), and finally the description is cut. A goal
    that fits is rendered exactly like :func:`render_goal_block`; when not even the tags fit,
    the text is empty (the counts still say what was given up).
    """
    full = render_goal_block(goal)
    tokens = count(full) if full else 0
    if tokens <= max_tokens:
        return GoalRender(full, tokens, 0, 0)
    capped = _Capped(goal, max_tokens, count)
    plan = _Plan()
    locked = len(capped.locked)
    stages: list[tuple[str, int]] = [
        ("done", len(capped.done)), ("artifacts", len(goal.artifacts)),
        ("loose", len(capped.loose)), ("short", locked)]
    fitted = any(capped.stage(plan, field, upper) for field, upper in stages)
    for words in MERGED_WORDS:
        if fitted:
            break
        plan.words = words
        fitted = capped.stage(plan, "merged", locked)
    if not fitted:
        fitted = any(capped.stage(plan, field, upper) for field, upper in
                     (("open", len(capped.open)), ("next", 1 if goal.next_steps else 0)))
    if not fitted and goal.description and count(goal.description) > max_tokens // 2:
        capped.cut_description(plan, lambda p: count(p.description or "") <= max_tokens // 2)
        fitted = capped.fits(plan)
    if not fitted:
        fitted = capped.stage(plan, "locked_out", locked)
    if not fitted and goal.description:
        fitted = capped.cut_description(plan, capped.fits)
    if not fitted:
        return GoalRender("", 0, 0, capped.omitted(plan), locked)
    text = capped.render(plan)
    return GoalRender(text, count(text), capped.condensed(plan), capped.omitted(plan),
                      plan.locked_out)
