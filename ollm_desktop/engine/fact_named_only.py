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
    named = _named(facts, correction)
    return bool(named) and not any(_is_named(new.value.lower(), old) for old in named)


def names_its_old(facts: list[Fact], correction: Fact, new: Fact) -> bool:
    """``new``, read after ``correction``, is the old value it named, in other words: "grad
    accum is 32 not 16" named "16", and "gradient accumulation 16" is read later. It is
    replaced whatever its key's words ("grad accum" beside "gradient accumulation")."""
    value = new.value.lower()
    return any(_is_named(value, old) and value != old for old in _named(facts, correction))


def _named(facts: list[Fact], correction: Fact) -> list[str]:
    """The old values ``correction`` named in its own message (lower case)."""
    return [f.value.lower() for f in facts if f.replaced_by == correction.id
            and f.message_id == correction.message_id and f.value != correction.value]


def _is_named(value: str, old: str) -> bool:
    """``value`` is ``old`` in other words: it begins or ends with it ("MySQL 8.0" of
    "MySQL", "accumulation 16" of "16"), or both hold one dotted number ("Kubernetes 1.27" of
    "Version 1.27"; not "30 September" of "30 June": a day is no version)."""
    return value.startswith(old + " ") or value.endswith(" " + old) or \
        (bool(_dotted(old)) and _dotted(old) == _dotted(value))


def _dotted(value: str) -> set[str]:
    """The dotted numbers of a value ("1.27" of "Kubernetes 1.27")."""
    return {word for word in value.split() if "." in word.strip(".")
            and any(c.isdigit() for c in word)}
