"""A value said of the old value a message takes back: the reason the old one went, not a
new value of a key ("From now on reports go to Imani, Greg is moving to the sales side", "not
nas01 but nas02. nas01 is getting decommissioned friday", "changing it to Cinder Pact, Ashen
Covenant is already taken"). The clause's subject is the replaced value itself, so the
reader made that value its key ("greg: sales side", "nas01: friday"): an entry that shows the
stale value as if it held, and says nothing of what is current. Read by the ledger's state
after the message: a value of this message keyed by exactly a value this message replaced,
that itself replaces nothing, is dropped.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_echoes import echoes_replaced
from ollm_desktop.engine.fact_transposed import transposed_olds
from ollm_desktop.engine.fact_types import Fact


def olds_named_after(facts: list[Fact], message_id: str) -> list[Fact]:
    """``facts`` (in place) without this message's values whose key is a value the message
    replaced (see the module's docstring)."""
    ids = {f.id for f in facts if f.message_id == message_id}
    olds = {f.value.lower() for f in facts if f.status == "replaced" and f.replaced_by in ids}
    if not olds:
        return facts
    replacing = {f.replaced_by for f in facts} | {f.possibly_replaced_by for f in facts}
    for fact in [f for f in facts if f.id in ids and f.status == "current"]:
        named = " ".join(w for w in fact.key.split("|")[:2] if w)
        if named in olds and fact.id not in replacing and fact.source == "user":
            facts.remove(fact)
    return facts


def olds_and_echoes(facts: list[Fact], message_id: str, content: str, turn: int) -> int:
    """The last reading of a message (``facts.absorb``): its values said of its own replaced
    values dropped (``olds_named_after``), then ``echoes_replaced``."""
    return echoes_replaced(olds_named_after(facts, message_id), message_id, content, turn) + \
        transposed_olds(facts, message_id)  # "CL-55102", then "CL-55120": a typo put right
