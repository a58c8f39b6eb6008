"""Moods that state nothing current besides questions and suggestions: someone else's word,
a plan still under discussion, and a value that held in the past.

Part of ``fact_grammar.mood_of``: a sentence in one of these moods replaces nothing, and its
values are kept as open questions. Each is read from the clause's structure over closed
classes of words:

- **Reported**: a clause whose subject is someone other than the user (not I / we / you) and
  whose verb reports a claim or a belief ("a guy on the forum claims ...", "my colleague heard
  ...", "the neighbour reckons ...", "my mum suggested ..."). An instruction the user follows
  ("Legal told us to drop the fee") is no report: ``REPORTING`` has no verb of directing.
- **Undecided**: the user's verb of deliberating ("we're evaluating X", "we're still deciding",
  "the chair floated moving ..."): a plan, not a decision.
- **Past**: "used to", a leading past time ("last time", "originally", "before X"), or a subject
  that names its former holder ("the previous owners", "our old sitter").
"""

from __future__ import annotations

from ollm_desktop.engine.fact_words import BOUNDARY, COPULAS, DETERMINERS, Tok, closed

# Verbs that report a claim or a belief (a closed class of reporting verbs, in their forms).
REPORTING = closed("claims claimed thinks thought reckons reckoned believes believed heard "
                   "hears suggested suggests says said mentioned mentions floated floats "
                   "guesses guessed rumoured rumored")
# Verbs of deliberating: what they take is weighed, not chosen.
DELIBERATING = closed("evaluating considering exploring deciding weighing trialling trialing "
                      "prototyping piloting debating floated floating pondering")
USERS = closed("i we you i'm we're you're i've we've")
SOMEONE = closed("someone somebody everyone everybody people they he she")
FORMER = closed("previous former old earlier")
PAST_LEADS = (("last", "time"), ("originally",), ("before",), ("back", "in"))


def unsure(tokens: list[Tok], first: int, upto: int) -> bool:
    """Whether the clause from ``first`` (its words up to ``upto``, the first value) reports
    someone else's word, weighs a plan, or states what held before."""
    words = [t.word for t in tokens[first:upto]]
    if not words:
        return False
    if any(w in DELIBERATING for w in words):
        return True
    if _used_to(words) or any(tuple(words[:len(lead)]) == lead for lead in PAST_LEADS):
        return True
    subject = _subject(words)
    if subject[:1] and subject[0] in DETERMINERS and any(w in FORMER for w in subject[1:3]):
        return True  # "the previous owners were with X", "our old sitter Hannes"
    verb = words[len(subject):len(subject) + 2]
    return bool(subject) and (subject[0] in DETERMINERS or subject[0] in SOMEONE) and \
        not any(w in USERS for w in subject) and any(w in REPORTING for w in verb[:1]) and \
        not any(w in COPULAS for w in verb[1:])  # "expense claims are ...": a noun


def _used_to(words: list[str]) -> bool:
    return "used" in words and any(words[k:k + 2] == ["used", "to"] for k in range(len(words) - 1))


def _subject(words: list[str]) -> list[str]:
    """The words before the clause's first verb-like word: up to a reporting verb, or the
    determiner-led phrase ("a guy on the forum", "my colleague")."""
    for k, word in enumerate(words):
        if word in REPORTING or word in BOUNDARY:
            return words[:k]
    if words[0] in DETERMINERS:
        return words[:3]
    return []
