"""A correction that names its old value replaces only that value (issue 28).

"Pick-up not 2026-12-19 but 2026-12-18" and "from 10% to 20%" say which earlier value they
take back. The chat reads a correction as soon as it is said and the statements before it
only when they are compacted, so the earlier values arrive after it; a value of the same unit
read then (the tasting date 2026-12-05) is no value the correction named, and stays current
(``fact_supersession.replaced_by_later`` asks here).
"""

from __future__ import annotations

from ollm_desktop.engine.fact_types import Fact


def names_another_old(facts: list[Fact], correction: Fact, new: Fact) -> bool:
    """``correction`` named its old value in its own words ("pick-up not 2026-12-19 but
    2026-12-18", "from 10% to 20%") and ``new`` is not that value: a correction that names
    what it replaces replaces only that, never another value of its unit read later (the
    tasting date 2026-12-05 stays). A value the named one begins or ends is still it
    ("instead of MySQL": "MySQL 8.0"), and so is one of the same number ("Version 1.27 is
    wrong": "Kubernetes 1.27")."""
    named = [f.value.lower() for f in facts if f.replaced_by == correction.id
             and f.message_id == correction.message_id and f.value != correction.value]
    value = new.value.lower()
    return bool(named) and not any(
        value.startswith(old + " ") or value.endswith(" " + old) or
        (bool(_numerals(old)) and _numerals(old) == _numerals(value)) for old in named)


def _numerals(value: str) -> set[str]:
    """The words of a value that hold a digit ("1.27" of "Kubernetes 1.27")."""
    return {word for word in value.split() if any(c.isdigit() for c in word)}
