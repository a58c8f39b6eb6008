"""How one fact of the ledger reads in the facts panel: its value, kind, who stated it, the
turn, and where it stands (sent in the ledger, in the recent turns, left out, replaced,
forgotten). Plain data computed from the engine's ``FactsView``, so the panel only paints.

The panel shows what the user would write down (issue 28): one row per key (what a value is a
value of), its current value on top and its history beneath; the user's facts first, adopted
values next, the assistant's suggestions last (behind a filter, off by default)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from ollm_desktop.engine.conversation import LEGACY_MESSAGE
from ollm_desktop.engine.fact_types import SENTENCE_KINDS, Fact
from ollm_desktop.engine.facts import dispute_note
from ollm_desktop.engine.facts_front import FactsView
from ollm_desktop.engine.provenance import WEEKDAY  # the grammar's weekdays (English)

SHORT = 48  # characters of a value named in a sentence
LONG = 110  # characters of a sentence in the list (the tooltip has it all)


def _tr(text: str) -> str:
    return QCoreApplication.translate("FactsPanel", text)


def kind_name(fact: Fact) -> str:
    """What the value is, as the user would name it: its unit class where the key has one
    ("date" for "Monday (launch)", "port", "duration"), else the ledger's kind."""
    units = {"port": _tr("port"), "version": _tr("version"), "path": _tr("path"),
             "url": _tr("link"), "time": _tr("time"), "duration": _tr("duration"),
             "size": _tr("size"), "percent": _tr("percentage"), "money": _tr("amount"),
             "date": _tr("day") if WEEKDAY.fullmatch(fact.value) else _tr("date")}
    unit = fact.key.rsplit("|", 1)[-1] if fact.key.count("|") == 2 else ""
    if fact.kind in ("identifier", "number") and unit in units:
        return units[unit]
    names = {"identifier": _tr("identifier"), "number": _tr("number"),
             "setting": _tr("setting"), "name": _tr("name"), "decision": _tr("decision"),
             "correction": _tr("correction"), "note": _tr("note"),
             "question": _tr("open question")}
    return names.get(fact.kind, fact.kind)


def who(fact: Fact) -> str:
    if fact.source == "manual":
        return _tr("Typed by you")
    if fact.source == "user":
        return _tr("You")
    if fact.confirmed:
        return _tr("Assistant, you used it")
    if fact.pinned or fact.edited:
        return _tr("Assistant, kept by you")
    return _tr("Assistant")


def shown_value(fact: Fact) -> str:
    """The value first (a narrow column cuts the end), then what it is a value of; a
    sentence, or a NAME=value that names itself, as it is."""
    if fact.kind in SENTENCE_KINDS or fact.kind == "setting" or not fact.subject or \
            set(fact.subject.split()) <= set(fact.value.lower().split()):
        return fact.value  # "room osprey-beacon" says what it is
    return f"{fact.value} ({fact.subject})"


def short(text: str, limit: int = SHORT) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def has_message(fact: Fact) -> bool:
    """It was stated in a message of the chat (not typed here, not an old ledger's)."""
    return fact.message_id is not None and fact.message_id != LEGACY_MESSAGE


@dataclass(frozen=True)
class Entry:
    fact: Fact
    value: str
    kind: str
    who: str
    turn: str
    state: str
    tooltip: str
    sent: bool  # on the ledger's lines now
    blocking: bool  # a pin to take back: pinned facts alone exceed the ledger's budget

    @property
    def greyed(self) -> bool:
        return self.fact.status != "current"


def _state(fact: Fact, view: FactsView, by_id: dict[str, Fact]) -> str:
    """Short, for a narrow dock; the tooltip and the summary say more."""
    if fact.status == "forgotten":
        return _tr("forgotten")
    if fact.status == "replaced":
        newer = by_id.get(fact.replaced_by or "")
        if newer is None or newer.kind in SENTENCE_KINDS:
            return _tr("replaced")
        turn = f" (turn {fact.replaced_turn})" if fact.replaced_turn is not None else ""
        return _tr("replaced by {0}").format(short(newer.value, 20)) + turn
    if fact.kind == "question":
        return _tr("open question · not sent")
    if not fact.users:
        return _tr("suggested · not sent")
    possibly = by_id.get(fact.possibly_replaced_by or "")
    if possibly is not None and possibly.status == "current":
        return _tr("possibly replaced by {0} (turn {1})").format(short(possibly.value, 20),
                                                                 possibly.turn or 0)
    if fact.id in view.shown:
        state = _tr("sent with every message")
    elif fact.id in view.left_out:
        state = _tr("left out (no room for more facts)")
    elif fact.id in view.recent:
        state = _tr("in the recent turns")
    else:
        state = _tr("in its message")
    flags = [_tr("pinned")] * fact.pinned + [_tr("edited")] * fact.edited
    return " · ".join([state, *flags])


STATE_TIPS = {  # what each status means, in the tooltip
    "sent with every message": "Sent with every message, in the list of facts the model "
                               "reads before the conversation.",
    "left out (no room for more facts)": "Not sent: the room for facts in the context is "
                                         "full, and facts you stated, typed or pinned come "
                                         "first. Pin it to send it anyway.",
    "in the recent turns": "Sent word for word in its message, which is still among the "
                           "recent turns; it joins the list of facts when that turn is "
                           "compacted.",
    "in its message": "Sent word for word in its message, which the request keeps.",
    "forgotten": "Never sent again, not even where an earlier text quotes it.",
    "suggested": "The assistant's value: not sent until you use it in a message, pin it, or "
                 "pin its reply. Recall still finds it.",
    "open question": "Asked, supposed or suggested, never stated: it replaces nothing.",
    "possibly replaced by": "A later value may be of the same thing; both are kept.",
}


def _tooltip(fact: Fact, state: str, by_id: dict[str, Fact]) -> str:
    lines = [fact.value]
    tip = next((t for k, t in STATE_TIPS.items() if state.startswith(k)), None)
    if tip:
        lines.append(_tr(tip))
    if fact.subject and fact.kind not in SENTENCE_KINDS:
        lines.append(_tr("What it is: {0}").format(fact.subject))
    if fact.edited and fact.original:
        lines.append(_tr("Stated as: {0}").format(fact.original))
    if fact.status == "replaced" and fact.replaced_by in by_id:
        lines.append(_tr("Replaced by: {0}").format(by_id[fact.replaced_by].value))
    if (note := dispute_note(by_id, fact)) is not None:
        lines.append(_tr("Sent with a note: {0}.").format(note))
    if has_message(fact):
        lines.append(_tr("Double-click to go to the message it was stated in."))
    return "\n".join(lines)


def entries(view: FactsView) -> list[Entry]:
    """Every fact, current, replaced and forgotten, in the order they were stated."""
    by_id = {f.id: f for f in view.facts}
    blocking = set(view.blocking_pins)
    made = []
    for fact in sorted(view.facts, key=lambda f: f.sequence):
        state = _state(fact, view, by_id)
        made.append(Entry(fact, short(shown_value(fact), LONG), kind_name(fact), who(fact),
                          str(fact.turn) if fact.turn is not None else "", state,
                          _tooltip(fact, state, by_id), fact.id in view.shown,
                          fact.id in blocking))
    return made


@dataclass(frozen=True)
class Row:
    """One key: its current value (``entry``) and the values it held before (``history``,
    oldest first); grouping and ``shown_by_default`` are the engine's (``facts_rows``)."""

    entry: Entry
    history: tuple[Entry, ...]
    group: int  # 0: the user's, 1: adopted from the assistant, 2: the assistant's suggestion
    shown_by_default: bool  # listed with the "Suggested by the assistant" filter off


def rows(view: FactsView) -> list[Row]:
    """The engine's rows (``view.rows``) as the panel paints them."""
    made = {e.fact.id: e for e in entries(view)}
    return [Row(made[r.fact.id], tuple(made[f.id] for f in r.history), r.group,
                r.shown_by_default) for r in view.rows]


def summary(view: FactsView) -> str:
    """One line: how many are sent, recent, left out, replaced, forgotten."""
    if not view.facts:
        return _tr("No facts yet. Paths, ports, versions, settings, names and decisions that "
                   "you or the assistant state are kept here when their turns are compacted; "
                   "add one yourself below.")
    current = [f for f in view.facts if f.status == "current"]
    counts = ((sum(f.id in view.shown for f in current), _tr("{0} sent with every message")),
              (sum(f.id in view.recent and f.id not in view.shown for f in current),
               _tr("{0} in the recent turns")),
              (sum(f.id in view.left_out for f in current),
               _tr("{0} left out (no room for more facts)")),
              (sum(not {f.id} & (view.shown | view.recent | view.left_out) for f in current),
               _tr("{0} in messages sent word for word")),
              (sum(f.status == "replaced" for f in view.facts), _tr("{0} replaced")),
              (sum(f.status == "forgotten" for f in view.facts), _tr("{0} forgotten")))
    parts = [text.format(count) for count, text in counts if count]
    return _tr("{0} facts: {1}.").format(len(view.facts), ", ".join(parts))


def blocking_text(view: FactsView) -> str:
    """Which pins to take back when pinned facts alone fill the room for facts."""
    if not view.blocking_pins:
        return ""
    by_id = {f.id: f for f in view.facts}
    names = [f"“{short(by_id[i].value)}”" for i in view.blocking_pins if i in by_id][:3]
    return _tr("Pinned facts alone fill the room for facts in the context, so no other "
               "fact is sent: unpin some, for example {0}.").format(", ".join(names))
