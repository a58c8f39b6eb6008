""""The X one": a pro-form whose modifier names an earlier key.

"grafana admin port 3001, loki api port 3100", then "oh the admin one is 3002": "one" stands
for the noun said before ("port"), and "admin" says which of its keys; the key read was
"admin one", which meets no earlier key, so 3001 stayed current beside 3002. Where exactly
one current key of the ledger (of the value's unit class, or a port for a bare number) holds
every word of the modifier ("admin" in "grafana admin port"), the value is of that key; with
none or several ("the blue one" beside the blue mug's and the blue cup's prices), the key
stays as read. "The correct one", "the right one" name no key (``fact_grammar``: they refer
back); "the one in Porto" has no modifier before "one".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ollm_desktop.engine.fact_keys import singular
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.provenance import Found

_ONE = ("one", "ones")
# Unit classes a bare number stands in for ("the admin one is 3002" after "admin port 3001").
_LOOSE = {"number": frozenset({"number", "port"})}


def keyed_by_one(found: Sequence[Found], facts: Sequence[Fact]) -> list[Found]:
    """``found`` with each value keyed "X one" keyed as the one current key that holds the
    words X (see the module's docstring)."""
    out = list(found)
    for index, item in enumerate(found):
        parts = item.key.split("|")
        if item.old or len(parts) != 3 or parts[1] not in _ONE or not parts[0]:
            continue
        words = {singular(w) for w in parts[0].split()}
        units = _LOOSE.get(parts[2], frozenset({parts[2]}))
        held = [f for f in facts if f.status == "current" and f.key.count("|") == 2
                and f.key.split("|")[2] in units and f.key.split("|")[1] not in _ONE
                and words <= {singular(w) for w in " ".join(f.key.split("|")[:2]).split()}]
        keys = {f.key for f in held}
        if len(keys) != 1:
            continue
        old = held[0]  # (a bare number for a port is a port: "the admin one is 3002")
        kind, ref_kind = (old.kind, old.ref_kind) if old.key.split("|")[2] != parts[2] else \
            (item.kind, item.ref_kind)
        out[index] = replace(item, key=old.key, subject=old.subject or item.subject,
                             kind=kind, ref_kind=ref_kind)
    return out
