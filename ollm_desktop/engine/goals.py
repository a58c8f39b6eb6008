"""Goal markers in assistant output and the goal block sent in the system message (seed 001)."""

from __future__ import annotations

import re

from ollm_desktop.engine.models import (
    GoalArtifact,
    GoalCheckpoint,
    GoalDecision,
    GoalState,
    utcnow,
)

_MARKER = re.compile(
    r"^\s*(?:[-*]\s*)?\[(GOAL|CHECKPOINT|DECISION|ARTIFACT|NEXT)\]\s*(.+?)\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_STATUS = re.compile(
    r"\s*(?:[-–—:|]\s*)?\(?\b(COMPLETED|COMPLETE|DONE|IN[ _-]PROGRESS|PENDING|TODO)\b\)?\s*$",
    re.IGNORECASE,
)
_LOCKED = re.compile(r"\s*(?:[-–—:|]\s*)?\(?\bLOCKED\b\)?\s*$", re.IGNORECASE)
_ARTIFACT = re.compile(r"^(Created|Modified|Updated|Deleted|Removed|Renamed)\s*:?\s+(.+)$", re.I)

# Limits keep the never-compressed goal block small however chatty the model is.
MAX_CHECKPOINTS = 20
MAX_DECISIONS = 15
MAX_ARTIFACTS = 25
MAX_NEXT = 5


def _status(text: str) -> tuple[str, str]:
    match = _STATUS.search(text)
    if not match:
        return text.strip(), "pending"
    word = match.group(1).lower().replace("_", "-").replace(" ", "-")
    status = {"completed": "completed", "complete": "completed", "done": "completed",
              "in-progress": "in-progress", "todo": "pending", "pending": "pending"}[word]
    return text[: match.start()].strip(" -–—:|"), status


def apply_goal_markers(goal: GoalState, text: str) -> bool:
    """Update ``goal`` in place from the markers in ``text``; True when something changed."""
    changed = False
    for kind, body in _MARKER.findall(text):
        kind = kind.upper()
        body = body.strip()
        if not body:
            continue
        if kind == "GOAL":
            if goal.description != body:
                goal.description, goal.status = body, "active"
                changed = True
        elif kind == "CHECKPOINT":
            desc, status = _status(body)
            for item in goal.checkpoints:
                if item.description.lower() == desc.lower():
                    if item.status != status:
                        item.status, changed = status, True  # type: ignore[assignment]
                    break
            else:
                goal.checkpoints.append(GoalCheckpoint(description=desc, status=status))
                changed = True
        elif kind == "DECISION":
            locked = bool(_LOCKED.search(body))
            desc = _LOCKED.sub("", body).strip(" -–—:|")
            for item in goal.decisions:
                if item.description.lower() == desc.lower():
                    if locked and not item.locked:
                        item.locked, changed = True, True
                    break
            else:
                goal.decisions.append(GoalDecision(description=desc, locked=locked))
                changed = True
        elif kind == "ARTIFACT":
            match = _ARTIFACT.match(body)
            action, path = (match.group(1).capitalize(), match.group(2)) if match else (
                "Modified", body)
            if not any(a.path == path and a.action == action for a in goal.artifacts):
                goal.artifacts.append(GoalArtifact(action=action, path=path.strip()))
                changed = True
        elif kind == "NEXT" and (not goal.next_steps or goal.next_steps[-1] != body):
            goal.next_steps.append(body)
            changed = True
    if changed:
        _trim(goal)
        goal.updated_at = utcnow()
    return changed


def _trim(goal: GoalState) -> None:
    goal.checkpoints = goal.checkpoints[-MAX_CHECKPOINTS:]
    locked = [d for d in goal.decisions if d.locked]
    loose = [d for d in goal.decisions if not d.locked]
    goal.decisions = (locked + loose)[:MAX_DECISIONS] if len(locked) < MAX_DECISIONS else locked
    goal.artifacts = goal.artifacts[-MAX_ARTIFACTS:]
    goal.next_steps = goal.next_steps[-MAX_NEXT:]


_ICON = {"completed": "[done]", "in-progress": "[in progress]", "pending": "[pending]"}


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
        lines += [f"- {'[locked] ' if d.locked else ''}{d.description}" for d in goal.decisions]
    if goal.artifacts:
        lines.append("Artifacts:")
        lines += [f"- {a.action}: {a.path}" for a in goal.artifacts]
    if goal.next_steps:
        lines.append(f"Next: {goal.next_steps[-1]}")
    lines.append("</active_goal>")
    return "\n".join(lines)
