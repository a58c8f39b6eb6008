"""Paraphrased probe questions: what a user asks forty turns later, in their own words.

A user rarely repeats the words of the sentence that stated a fact. Each fact therefore gets a
second question that shares no word with its planted sentence (or the earlier statement it
corrects) but the subject's noun: "Where did the gateway end up?" for "Correction: the gateway
moved to port 48211". Derived from the fact alone (no random draws), so adding it changes no
conversation.
"""

from __future__ import annotations

import re
from typing import Protocol

_FOR = re.compile(r"^For (?P<subject>[^:]+): ")
_WORD = re.compile(r"[\w']+")

# Templates by (type, subtype); ``{s}`` is the subject phrase. Checked by the tests against
# every planted sentence: no shared word but the subject's.
ABOUT: dict[str, str] = {
    "path": "Where does {s} live on disk?",
    "url": "Any link about {s}?",
    "function": "Which routine drives {s}?",
    "class": "Which type owns {s}?",
    "version": "Which release does {s} stay on?",
    "product": "What software hosts {s}?",
    "hash": "Which revision of {s} worked?",
    "ticket": "Where is {s} tracked?",
    "env": "Which env var configures {s}?",
    "port": "How do I connect to {s}?",
    "money_eu": "What price did {s} get?",
    "money_us": "How much money goes to {s}?",
    "rate": "How busy did {s} get at its worst?",
    "seconds": "How long does {s} need per run?",
    "memory": "How much RAM does {s} want?",
    "count": "How many people signed up around {s}?",
}
CORRECTIONS: dict[str, tuple[str, str]] = {  # subtype -> (subject, question)
    "port": ("the gateway", "Where did the gateway end up?"),
    "version": ("target", "Which target ended up current?"),
    "meeting": ("the meeting", "Where does the meeting happen now?"),
    "amount": ("deposit", "How big a deposit do we owe?"),
}


class FactLike(Protocol):
    type: str
    subtype: str
    sentence: str
    question: str


def subject(fact: FactLike) -> str:
    """The phrase the fact is about ("the importer", "the queue backend", "the gateway")."""
    if fact.type in ("identifier", "number"):
        match = _FOR.match(fact.sentence)
        return match.group("subject") if match else fact.subtype
    if fact.type == "correction":
        return CORRECTIONS[fact.subtype][0]
    if fact.type == "defined_name":
        return fact.subtype
    if fact.type == "decision":
        return f"the {fact.subtype}"
    if fact.type == "goal":
        if fact.subtype == "goal":
            return "goal"
        topic = fact.question.rsplit(" for the ", 1)[-1].rstrip("?")
        return f"the {topic}"
    return "requirement"  # pinned


def paraphrase(fact: FactLike) -> str:
    """The fact's question in other words, sharing only the subject's noun."""
    about = subject(fact)
    if fact.type in ("identifier", "number"):
        return ABOUT[fact.subtype].format(s=about)
    if fact.type == "correction":
        return CORRECTIONS[fact.subtype][1]
    if fact.type == "defined_name":
        return f"What do we refer to {about} as?"
    if fact.type == "decision":
        return f"What became of {about}?"
    if fact.type == "goal":
        return "What's our overarching goal?" if fact.subtype == "goal" else \
            f"Anything fixed about {about}?"
    return "Which requirement must always hold?"


def words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}
