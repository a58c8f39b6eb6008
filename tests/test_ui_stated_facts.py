"""The reliability light's "You stated N facts … sends M of them" is the facts panel's own
count (issue 32 point 6): the panel's rows of the user's current values, and of those the ones
not left out, read from the panel itself after a chat with the user's facts, the assistant's
values and a correction."""

from __future__ import annotations

from ollm_desktop.ui.side_panel.facts.panel import STATE, WHO
from tests.test_ui_facts import app, server, talked

__all__ = ["app", "server"]


def test_facts_you_stated_is_the_facts_panel_s_count(app, qtbot):
    panel = talked(app, qtbot, 12)
    rows = [panel.list.topLevelItem(i) for i in range(panel.list.topLevelItemCount())]
    yours = [r for r in rows if r.text(WHO) in ("You", "Typed by you")
             and not r.text(STATE).startswith(("replaced", "forgotten"))]
    sent = [r for r in yours if not r.text(STATE).startswith("left out")]
    assert len(yours) >= 3, [(r.text(WHO), r.text(STATE)) for r in rows]
    assert len(rows) > len(yours) or panel.suggested.isChecked() is False
    indicator = app.window.content.reliability_indicator
    qtbot.waitUntil(lambda: indicator.stated_facts is not None)
    assert indicator.stated_facts == (len(yours), len(sent))
    tip = indicator.toolTip()
    assert f"You stated {len(yours)} facts" in tip and f"sends {len(sent)} of them" in tip


def test_every_state_counts_as_the_panel_says_it(qtbot):
    """A fact in its message (kept word for word) is sent; one left out is not; a replaced
    value and the assistant's are not the user's: the tooltip's pair follows the panel's
    rows in each of those states."""
    from types import SimpleNamespace

    from ollm_desktop.engine import facts
    from ollm_desktop.engine.facts_front import FactsView
    from ollm_desktop.engine.models import Message
    from ollm_desktop.ui.side_panel.facts.panel import FactActions, FactsPanel
    from ollm_desktop.ui.status.reliability_facts import stated_facts

    ledger: list = []
    for turn, (role, text) in enumerate((
            ("user", "The gateway listens on port 7443."),
            ("user", "The database runs on port 5432."),
            ("user", "The cache listens on port 6379."),
            ("assistant", "The metrics exporter runs on port 9187."),
            ("user", "Correction: the gateway moved to port 9443.")), start=1):
        facts.absorb(ledger, Message(role=role, content=text), turn)
    mine = [f for f in ledger if f.source == "user" and f.status == "current"]
    assert len(mine) == 3, [(f.value, f.status) for f in ledger]
    # one sent in the facts list, one left out, one only in its (kept) message
    view = FactsView(ledger, frozenset({mine[0].id}), frozenset({mine[1].id}), frozenset(), ())
    panel = FactsPanel(FactActions(*(lambda *a: False for _ in range(5))))
    qtbot.addWidget(panel)
    panel.set_view(view)
    rows = [panel.list.topLevelItem(i) for i in range(panel.list.topLevelItemCount())]
    yours = [r for r in rows if r.text(WHO) == "You" and not r.text(STATE).startswith("replaced")]
    sent = [r for r in yours if not r.text(STATE).startswith("left out")]
    assert {r.text(STATE).split(" · ")[0] for r in yours} == {
        "sent with every message", "left out (no room for more facts)", "in its message"}
    assert stated_facts(SimpleNamespace(facts_view=lambda: view)) == (len(yours), len(sent))
