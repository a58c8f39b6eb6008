"""A version's product is its key: "Node 18", "Node is now 20" and "the minimum Node version
requirement to 20" are the versions of Node (``fact_supersession`` asks here), whichever
owner each sentence names, unless each names a thing of its own that runs it ("the web app
runs Node 18", "the worker is on Node 20": two keys). ``fact_product_versions`` reads a
sentence's number as a product's version and keys it (node|version) when the sentence is
read; this module only compares the keys and values it gave, and reads no text again.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_keys import stem
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.provenance import Found


def product_of(fact: Fact | Found) -> str:
    """The product a version value names ("node" of "Node 18"), or the entity of a bare
    version stated of the product ("Node is now 20": node|version), or the word its key
    names the version of ("the minimum Python version requirement to 3.10": python)."""
    name, _, number = fact.value.partition(" ")
    if number and name[:1].isalpha():
        return name.lower()
    entity, attribute, _ = fact.key.split("|")
    if attribute == "version" and " " not in entity:
        return entity
    words = f"{entity} {attribute}".split()
    at = words.index("version") if "version" in words else 0
    return words[at - 1] if at and words[at - 1].isalpha() else ""


def two_runners(a: Fact | Found, b: Fact | Found, product: str) -> bool:
    """Each key names a thing of its own besides the product ("the web app runs Node 18",
    "the worker is on Node 20"; "staging db" and "prod db"): two things' versions of one
    product, two keys. Of a key that names the product itself, only the words before it
    name a thing ("the Python version requirement": none; "the worker's Node version": the
    worker)."""
    def named(fact: Fact | Found) -> set[str]:
        entity, attribute, _ = fact.key.split("|")
        words = f"{entity} {attribute}".split()
        if product in words:
            words = words[:words.index(product)]
        return {stem(w) for w in words} - {stem(product), stem("version")}
    mine, theirs = named(a), named(b)  # "the staging db" and "the prod db": each names one
    # word the other does not (a shared head noun makes no one thing of them)
    return bool(mine and theirs) and not (mine <= theirs or theirs <= mine)
