"""A sentence that opens with a lead taking back what was said and states nothing new, before
the sentence that does ("scratch that, facilities gave B4 away. we're in C2", "my mistake,
I misread the form. It's 30x40 cm", "forget that, the client changed her mind. 4 kg"): the
lead carries to the next sentence, as a lead alone does ("Scratch that. We're in C2."), and
the sentence itself, which only says why, is no fact beside the value meant
(``provenance._only_taken_back``: it is paired with the next sentence's values, which replace).

Only a lead that takes back or admits an error ("scratch / forget / ignore / disregard
that", "never mind", "my mistake", "correction", "oops", "on second thought"); "actually",
"sorry", "wait" and "update" open many sentences that take nothing back ("Actually, I love
this idea."), and a question takes nothing back. A separate module: provenance is full.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ollm_desktop.engine.fact_leads import ERROR, RETRACT, strip_lead
from ollm_desktop.engine.fact_words import closed, tokens_of

if TYPE_CHECKING:
    from ollm_desktop.engine.provenance import Found

# The words of a lead that takes back or admits an error (with ``RETRACT`` and ``ERROR``).
_TAKING_BACK = RETRACT | ERROR | closed("mind correction oops whoops second")
# A clause after the lead that adds what was left out, or greets, takes nothing back: "My
# mistake, I forgot to mention my daughter. She is 12." adds a value of another key, and
# "Oops, I forgot to say hi. The API port is 8080." states one (review of stop 53).
_ADDING = closed("forgot forget mention mentioned add added hi hello hey thanks")


def leads_on(found: Sequence[Found]) -> bool:
    """``found`` is only the kept sentence of a lead that takes back, with a clause after
    the lead and no value in it: the next sentence's values are what the lead meant."""
    if len(found) != 1 or found[0].kind != "correction" or found[0].old:
        return False
    tokens = tokens_of(found[0].value, [])
    first, lead = strip_lead(tokens)
    return lead and first < len(tokens) and not any(t.word == "?" for t in tokens) and \
        bool({t.word for t in tokens[:first]} & _TAKING_BACK) and \
        not any(t.word in _ADDING for t in tokens[first:])
