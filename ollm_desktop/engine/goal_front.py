"""The engine's goal calls (mixed into ``ContextEngine``).

The goal block sits near the front of every request. A marker in a reply changes the goal at
once (the panel shows it), but requests keep showing the goal as it was until the next
compaction (``Conversation.goal_shown``): the reply carries the marker word for word until
then, and the server does not re-read the whole prompt for it. The user's own change is shown
at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ollm_desktop.engine import goals
from ollm_desktop.engine.conversation import Conversation
from ollm_desktop.engine.models import GoalState, Message, utcnow


class GoalFront:
    _data: Conversation
    _invalidate: Callable[..., None]
    _emit: Callable[..., Any]

    @property
    def goal(self) -> GoalState:
        return self._data.goal

    @goal.setter
    def goal(self, value: GoalState) -> None:
        self._data.goal, self._data.goal_shown = value, None
        self._invalidate()

    def set_goal(self, goal: GoalState) -> None:
        self._data.goal = goal.model_copy(deep=True)
        self._data.goal.updated_at = utcnow()
        self._goal_changed()

    def _take_goal_markers(self, message: Message) -> bool:
        """True when the reply's markers changed the goal (the request's goal stays put)."""
        data = self._data
        before = data.goal.model_copy(deep=True) if data.goal_shown is None else None
        if not goals.apply_goal_markers(data.goal, message.content):
            return False
        if before is not None:
            data.goal_shown = before
        return True

    def _goal_changed(self) -> None:
        self._data.goal_shown = None  # the user's own change, or a compaction: shown at once
        self._invalidate()
        self._emit("goal-updated", data={"goal": self._data.goal.model_dump(mode="json")})
