"""Feeds the reliability light's tooltip the facts panel's own count of the user's facts, so
"facts you stated" is one figure in both places: the same rows of the same ``FactsView``
(``FactsView.rows``, the panel's rows), the user's current values, and of those the ones the
next request sends (every one but those left out for want of room)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ollm_desktop.controller import ChatController, ContextSnapshot

if TYPE_CHECKING:
    from ollm_desktop.ui.status.host import ReliabilityHost

USER_SOURCES = ("user", "manual")  # said in a message, or typed into the panel


def stated_facts(controller: ChatController) -> tuple[int, int]:
    """(the facts panel's rows of the user's current facts, how many of them are sent)."""
    view = controller.facts_view()
    if view is None:
        return 0, 0
    mine = [r.fact for r in view.rows if r.shown_by_default and r.fact.status == "current"
            and r.fact.source in USER_SOURCES]
    sent = sum(1 for f in mine if f.id not in view.left_out)
    return len(mine), sent


def install(content: ReliabilityHost) -> None:
    def refresh(_snapshot: ContextSnapshot | None = None) -> None:
        content.reliability_indicator.set_stated_facts(*stated_facts(content.controller))

    content.controller.contextChanged.connect(refresh)
