""""The right one" as a side: "right" beside "left" in the ledger's keys.

"The right one is X" names a value by its correctness ("the correct one"), so the grammar
reads it keyless (``fact_grammar``, ``fact_surface.RIGHT_ONE``). But "right" is as often a
side: after "the left monitor speaker is on input 3 and the right monitor speaker is on
input 4", "the right one is on input 6" names the right speaker's input, and read keyless
it only possibly replaced both inputs. The ledger decides which: where it holds a pair of
sibling keys told apart by their sides, one with "right" and one with "left" among its owner
words (the same head and unit class), "the right one" (or "the right side") is the one
current key with "right" of the value's unit; without such a pair, "right" stays a word of
correctness and the value keyless, as before. "The left one" needs no help: "left" is no
word of correctness (``fact_one_named`` reads it as "left"'s key).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.fact_unit_alone import sentence_at
from ollm_desktop.engine.provenance import Found

# (after a copula, "36 psi is the right one" says the value is correct: no side)
_RIGHT_ONE = re.compile(r"(?<!\bis )(?<!'s )(?<!\bwas )(?<!\bare )(?<!\bsounds )"
                        r"\b(?:the|that|this)\s+right\s+(?:one|side|hand\s+one)\b", re.I)
_SIDES = ("right", "left")


def keyed_by_side(found: Sequence[Found], facts: Sequence[Fact], content: str) -> list[Found]:
    """``found`` with a value of no owner, whose sentence says "the right one", keyed as the
    one current "right" key of a left/right pair of its unit (see the module's docstring)."""
    out = list(found)
    for index, item in enumerate(found):
        parts = item.key.split("|")
        if item.old or len(parts) != 3 or parts[0] or (
                parts[1] not in ("", "one", "ones") and not _labelled(item, parts[1])):
            continue
        if len(_RIGHT_ONE.findall(sentence_at(content, item.sentence))) != 1:
            continue
        keys = {f.key for f in _sided(facts, "right", parts[2])}
        if len(keys) != 1:
            continue
        key = keys.pop()
        head = key.split("|")[1]
        if not any(f.key.split("|")[1] == head for f in _sided(facts, "left", parts[2])):
            continue  # (no left beside it: "right" says the value is correct)
        old = next(f for f in facts if f.key == key and f.status == "current")
        out[index] = replace(item, key=key, subject=old.subject or item.subject)
    return out


def _labelled(item: Found, attribute: str) -> bool:
    """The key's head is the label the value itself begins with ("input" of "input 6")."""
    return bool(attribute) and item.value.lower().startswith(f"{attribute} ")


def _sided(facts: Sequence[Fact], side: str, unit: str) -> list[Fact]:
    """The user's current values of ``unit`` whose key's owner holds the word ``side``."""
    return [f for f in facts if f.status == "current" and f.users and f.key.count("|") == 2
            and f.key.split("|")[2] == unit and side in f.key.split("|")[0].split()]
