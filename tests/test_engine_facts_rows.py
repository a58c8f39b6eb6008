"""Issue 28: the facts panel's rows are the engine's (``FactsView.rows``), each saying whether
the panel lists it by default, so the panel and a benchmark read one decision."""

from __future__ import annotations

from ollm_desktop.engine.facts_front import FactsView
from tests.engine_fakes import absorbed


def _view(*said: tuple[str, str]) -> FactsView:
    return FactsView(absorbed(*said), frozenset(), frozenset(), frozenset(), ())


def _shown(view: FactsView) -> dict[str, bool]:
    return {row.value: row.shown_by_default for row in view.rows}


def test_the_users_value_is_shown_and_a_replies_suggestion_is_not() -> None:
    shown = _shown(_view(("user", "The gateway listens on port 7443."),
                         ("assistant", "I'd put the metrics exporter on port 9187.")))
    assert shown["7443"] is True
    assert shown["9187"] is False


def test_an_open_question_is_not_shown_by_default() -> None:
    shown = _shown(_view(("user", "The gateway listens on port 7443."),
                         ("user", "Should we move the gateway to port 7444?")))
    assert shown["7443"] is True and shown.get("7444") is False, shown


def test_a_value_the_user_uses_is_adopted_and_shown() -> None:
    before = _view(("assistant", "The exporter runs on port 9187."))
    assert _shown(before)["9187"] is False
    view = _view(("assistant", "The exporter runs on port 9187."),
                 ("user", "Good, keep the exporter on port 9187."))
    assert [r.shown_by_default for r in view.rows if r.value == "9187"] == [True]


def test_one_row_per_key_with_the_replaced_value_beneath() -> None:
    view = _view(("user", "The gateway listens on port 7443."),
                 ("user", "The gateway port is now 7543, not 7443."))
    row = next(r for r in view.rows if r.value == "7543")
    assert row.shown_by_default and row.status == "current"
    assert [f.value for f in row.history] == ["7443"]
    assert not any(r.value == "7443" for r in view.rows)
