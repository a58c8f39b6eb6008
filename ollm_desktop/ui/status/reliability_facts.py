"""Feeds the reliability light's tooltip the facts panel's own count of the user's facts, so
"facts you stated" is one figure in both places (read from the same FactsView)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ollm_desktop.controller import ContextSnapshot

if TYPE_CHECKING:
    from ollm_desktop.ui.window_content import WindowContent

USER_SOURCES = ("user", "manual")  # said in a message, or typed into the panel


def stated_facts(content: WindowContent) -> tuple[int, int]:
    """(current facts the user stated, how many of them the next request sends)."""
    view = content.controller.facts_view()
    if view is None:
        return 0, 0
    mine = [f for f in view.facts if f.source in USER_SOURCES and f.status == "current"]
    sent = sum(1 for f in mine if f.id in view.shown or f.id in view.recent)
    return len(mine), sent


def install(content: WindowContent) -> None:
    def refresh(_snapshot: ContextSnapshot | None = None) -> None:
        content.reliability_indicator.set_stated_facts(*stated_facts(content))

    content.controller.contextChanged.connect(refresh)
