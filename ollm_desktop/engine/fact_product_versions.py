"""A bare number stated of a product's name is that product's version ("Node is now 20",
"python 3.12"), so ``key_match`` meets "Node 18" with "Node is now 20"; a budget's or a
ratio's number is not (moved out of ``fact_grammar``, whose clause reading calls it). A
figure set for a command-line flag ("we raised -Xmx to 6g") is that option's value, of the
class "-Xmx4g" has, so the two meet (the key read was the flag's letters, "- xmx")."""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_keys import singular
from ollm_desktop.engine.fact_values import capital
from ollm_desktop.engine.fact_verb_places import port_place
from ollm_desktop.engine.fact_words import DETERMINERS, Tok
from ollm_desktop.engine.references import find_references


def product_version(sentence: str, tokens: list[Tok], i: int, entity: str, attribute: str,
                    unit: str, first: int = 0) -> tuple[str, str, str]:
    """A bare number stated of a proper name alone ("Node is now 20", "Python is now 3.12")
    is that product's version: (node, version), which ``key_match`` meets with "Node 18".
    At a clause's start, where case says nothing, only a word the references read as a
    product with a version ("node 20") is one: "budget is now 3.5" is the budget's number,
    "Retries are set to 3" the retries' and "Platform changed to 9" the platform's."""
    token = tokens[i]
    text = token.value[2] if token.value else ""
    if entity == "-" and _FLAG.fullmatch(attribute) and _FIGURE.fullmatch(text.lower()):
        return "", "", f"option -{attribute}"  # "we raised -Xmx to 6g": -Xmx's, as "-Xmx4g"
    if unit == "number" and port_place(tokens, i):  # "Redis listens on 6379": its port
        return entity, attribute, "port"
    if unit == "number" and not entity and attribute and text.replace(".", "").isdigit():
        named = [t for k, t in enumerate(tokens[:i]) if singular(t.word) == attribute and
                 (_product(t.word, text) if k in (0, first) else capital(sentence, t)) and
                 tokens[k + 1].word != ":" and  # ("Retries: 5": a label)
                 (k == 0 or tokens[k - 1].word not in DETERMINERS)]  # ("the API": a thing)
        if named:
            return named[0].word, "version", "version"
    return entity, attribute, unit


def _product(word: str, number: str) -> bool:
    """``word`` before ``number`` is a product's version to the references ("node 20")."""
    return any(kind == "version" for _, kind in find_references(f"{word} {number}"))


# A command-line option's flag ("-Xmx", "-j") and the figure set for it ("6g", "512m", "8"):
# the value of that option, of the class "-Xmx4g" has (``fact_value_classes``).
_FLAG = re.compile(r"[a-z]{1,4}")
_FIGURE = re.compile(r"\d+[kmg]?")
