"""``chain_ends`` (every replacement chain's end at once) answers as ``chain_end`` does for
each fact: long chains, shared tails, a chain that goes round, a link to a deleted fact."""

from __future__ import annotations

from ollm_desktop.engine.fact_supersession import chain_end, chain_ends
from ollm_desktop.engine.fact_types import Fact


def _fact(value: str, replaced_by: str | None = None) -> Fact:
    fact = Fact(kind="number", value=value, subject="port", ref_kind="port", source="user",
                sequence=1, message_id="m")
    fact.id = value
    if replaced_by is not None:
        fact.status, fact.replaced_by = "replaced", replaced_by
    return fact


def test_every_end_is_the_one_chain_end_gives() -> None:
    facts = [_fact(f"v{n}", f"v{n + 1}") for n in range(300)] + [_fact("v300")]
    facts += [_fact("side", "v150"), _fact("gone", "deleted"), _fact("a", "b"), _fact("b", "c"),
              _fact("c", "a"), _fact("into-loop", "a"), _fact("self", "self"), _fact("lone")]
    by_id = {f.id: f for f in facts}
    ends = chain_ends(by_id)
    assert ends == {f.id: chain_end(by_id, f) for f in facts}
    assert ends["v0"] is by_id["v300"] and ends["side"] is by_id["v300"]
    assert ends["gone"] is by_id["gone"]  # its replacement was deleted: it is its own end
    assert ends["into-loop"] is None and ends["a"] is None and ends["self"] is None
