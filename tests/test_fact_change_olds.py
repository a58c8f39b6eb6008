"""The old value a change names inside the thing it changes (``fact_change_olds``, issue 28):
a value in the changed noun phrase (passive, intransitive or object), and a plan's value an
anterior word marks. New words across domains; each correction failed on 61b75f0, and the
statements beside them (same words, no change) keep both values.
"""

from __future__ import annotations

from tests.fact_ledger import by_form, current_after_exchanges

# (form, the correction, the new value, the old value)
CORRECTIONS = [
    ("passive, has been changed to", "Our Tuesday book club has been changed to Thursday.",
     "Thursday", "Tuesday"),
    ("intransitive, has moved to", "The 3pm rehearsal has moved to 5pm.", "5pm", "3pm"),
    ("passive, dates with weekdays and years",
     "The recital on Saturday, May 2nd 2026 has been postponed to Sunday, May 3rd, 2026.",
     "Sunday, May 3rd, 2026", "Saturday, May 2nd 2026"),  # (a weekday joins its date)
    ("object of an active change", "We pushed the 10:00 demo to 11:30.", "11:30", "10:00"),
    ("a planned value, then instead", "The planned 6am shuttle will instead depart at 7am.",
     "7am", "6am"),
    ("originally, then will", "The lecture, originally set to start at 9:15, will start at "
     "9:45.", "9:45", "9:15"),
]


@by_form(("form", "message", "new", "old"), CORRECTIONS)
def test_the_changed_phrase_names_the_old_value(form: str, message: str, new: str,
                                                old: str) -> None:
    now = current_after_exchanges(message)
    assert new in now, (form, now)
    assert old not in now, (form, now)


# (form, the statement, the values it keeps)
STATEMENTS = [
    ("a value of another kind names the changed thing", "The Monday meeting moved to 3pm.",
     ("3pm",)),
    ("a fronted adjunct's value is when it changed", "On Friday, the Monday meeting moved "
     "to Tuesday.", ("Friday", "Tuesday")),
    ("a plan's value listed beside another, no change",
     "The scheduled 9am stand-up and the 2pm retro are both in Room 4.", ("9am", "2pm")),
    ("an old thing's value is a sibling's", "The old office opens at 8am and the new office "
     "opens at 9am.", ("8am", "9am")),
]


@by_form(("form", "message", "kept"), STATEMENTS)
def test_a_value_beside_no_change_stays(form: str, message: str, kept: tuple[str, ...]) -> None:
    now = current_after_exchanges(message)
    assert all(value in now for value in kept), (form, now)
