"""A key restated with its owner in the noun phrase, where the first statement named that
owner elsewhere in its clause ("alarm's set for 6:10 on weekdays", then "my weekday alarm is
5:50"): one key, the attribute and unit class alike and every owner word of the new phrase a
word of the old statement (its topic), where it is the only such earlier key
(``fact_restatement`` applies it to a plain restatement). An owner the old statement never
named may be another thing ("the alarm is 6:10", then "the weekday alarm is 5:50"): that is
left to the rules of keys, which do not replace it.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_owner_dropped import one_owner_key
from ollm_desktop.engine.fact_types import Fact


def owner_named_before(facts: list[Fact], new: Fact) -> Fact | None:
    """The one earlier current value of the user's whose key is ``new``'s attribute and unit
    with fewer owner words, and whose statement names ``new``'s other owner words; None when
    there is none or more than one such key."""
    return one_owner_key(facts, new, lambda had, owner, old: set(had) < set(owner) and
                         set(owner) - set(had) <= set(old.topic.split()))
