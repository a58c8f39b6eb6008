"""Per-group counters of fault trials, printed at the end of the run by ``conftest.py``.

A group's test either records each trial itself (``record``), or is marked
``@pytest.mark.faultgroup("name")`` and counted as one trial by the report hook.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field


@dataclass
class GroupTally:
    tried: int = 0
    passed: int = 0
    details: dict[str, int] = field(default_factory=lambda: defaultdict(int))


GROUPS: dict[str, GroupTally] = defaultdict(GroupTally)
ORDER = ["sigkill", "ollama", "hypothesis", "hostile", "bad-data"]


def record(group: str, ok: bool) -> None:
    tally = GROUPS[group]
    tally.tried += 1
    tally.passed += int(ok)


def note(group: str, key: str, amount: int = 1) -> None:
    """Extra figures shown next to the counts (e.g. requests checked on the wire)."""
    GROUPS[group].details[key] += amount


def summary_lines() -> list[str]:
    names = [g for g in ORDER if g in GROUPS] + sorted(set(GROUPS) - set(ORDER))
    lines = []
    for name in names:
        tally = GROUPS[name]
        extra = ", ".join(f"{k} {v}" for k, v in sorted(tally.details.items()))
        lines.append(f"faults: {name}: tried {tally.tried}, passed {tally.passed}"
                     + (f" ({extra})" if extra else ""))
    return lines
