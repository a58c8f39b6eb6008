""""The version of NAME" and "the NAME version" name the product whose version the sentence's
version value is: "bump the minimum version of Python to 3.10" and "the minimum Node.js version
is v20" are Python's and Node.js's versions.

The name after "version of" was read as a value of its own (the version's key said only
"version"), so the sentence's version met no earlier "Python 3.9". A capitalised name right
after "version(s) of", or right before "version", is the key's product, no value: the
sentence's bare version values keyed by "version" alone take it as their owner
(``fact_version_keys.product_of`` reads it).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from ollm_desktop.engine.fact_types import join_key

if TYPE_CHECKING:  # (provenance reads this module while it reads a sentence)
    from ollm_desktop.engine.provenance import Found

_VERSION_OF = re.compile(r"\bversions?\s+of\s+([A-Z][\w.+#-]*)")
# "the minimum Node.js version is v20": the name right before "version"
_NAME_VERSION = re.compile(r"\b([A-Z][\w.+#-]*?)\s+version\b")


def version_owners(sentence: str, found: list[Found]) -> list[Found]:
    """``found`` with a name after "version of" taken as its versions' product (see the
    module's docstring); unchanged where the sentence has no such name or no bare version."""
    names = {m.group(1) for m in _VERSION_OF.finditer(sentence)} | \
        {m.group(1) for m in _NAME_VERSION.finditer(sentence)}
    owner = next((f for f in found if f.kind == "name" and f.value in names), None)
    if owner is None:
        return found
    bare = [f for f in found if f.ref_kind == "version" and " " not in f.value and
            f.key.split("|")[1:2] == ["version"] and  # (or keyed by it already: "raise the
            f.key.split("|")[0] in ("", owner.value.lower())]  # version of Elixir to 1.15")
    if not bare:
        return found
    product = owner.value.lower()
    return [replace(f, key=join_key(product, "version", "version"), subject=f"{product} version")
            if f in bare else f for f in found if f is not owner]
