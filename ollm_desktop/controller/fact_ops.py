"""The facts panel's changes (issue 22): the controller's side; the session does the work."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ollm_desktop.controller.ops_base import OpsBase
from ollm_desktop.engine.facts_front import FactsView
from ollm_desktop.session import Change


class FactOps(OpsBase):
    def facts_view(self) -> FactsView | None:
        """The open chat's facts: every entry, which are sent, recent, left out, blocking."""
        return self.session.facts.view()

    def _fact_op(self, operation: Callable[..., Change], *args: Any) -> str | None:
        """Through ``_op``; returns what to say beside the change's Undo (the window shows it
        there, not also in the status bar), or None when it was refused (why: ``error``)."""
        said: list[str] = []

        def run() -> Change:
            change = operation(*args)
            said.extend(change.notices)
            return replace(change, notices=())

        return " ".join(said) if self._op(run) else None

    def add_fact(self, text: str, pinned: bool = False) -> str | None:
        return self._fact_op(self.session.facts.add, text, pinned)

    def edit_fact(self, fact_id: str, value: str) -> str | None:
        return self._fact_op(self.session.facts.edit, fact_id, value)

    def forget_fact(self, fact_id: str) -> str | None:
        return self._fact_op(self.session.facts.forget, fact_id)

    def set_fact_pinned(self, fact_id: str, pinned: bool) -> str | None:
        return self._fact_op(self.session.facts.set_pinned, fact_id, pinned)

    def undo_fact_change(self) -> bool:
        """The newest change of a fact in the open chat undone; False (and why, through
        ``error``) when there is none or the chat is busy."""
        return self._op(self.session.facts.undo)

    def can_undo_fact_change(self) -> bool:
        return self.session.facts.can_undo()
