"""Where a noun phrase's last word is its head noun, not a verb: "Elasticsearch heap 8g"
(a terse label, the heap's size), not "the worker pool has 4 threads" (the verb "has"); and
a head noun that opens its clause without a determiner ("meeting with the contractor is at
2pm": the meeting's time, with the contractor as its owner).

And the colon of a label before a value of several words ("loft insulation: mineral wool",
"location: the old tram depot", read whole by ``fact_phrases``), where the key's reading
starts. Part of ``fact_keys``' reading, over ``fact_grammar``'s tokens.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_words import BOUNDARY, DETERMINERS, DURATION, Tok, closed

# The irregular past forms of the verbs that come before a count or a measure ("the trip
# took 3 hours", "the car cost 9000"): a verb without the "-ed" of a regular past.
_IRREGULAR_PAST = closed(
    "took got had made ran saw cost paid gave held kept left sent spent sold bought won lost "
    "set put hit cut read ate drank drove flew grew rose fell knew wrote did said told found "
    "brought caught thought meant came went became began drew froze hung led lent shot shut "
    "slept stood swam threw wore")
# The adjectives of a thing's time ("new deadline October 15"): no noun of a compound label,
# so the reading of a terse label's head (below) is left to the key's other rules.
_TIME_ADJECTIVES = closed("new old current previous former next last")
# The units of a span of time after a value ("cap it at 14 km for a month", "for two weeks"):
# how long it holds, never an owner of the value.
SPANS = DURATION | closed("month months year years fortnight fortnights")


def verb_before_value(subject: list[str]) -> bool:
    """The subject's last word is the verb before the value: inflected ("has", "runs",
    "moved"), an irregular past ("took"), or a plain form after a plural noun ("the servers
    need 8 GB"). A plain word after a singular noun or a name is the head of a terse label
    ("Elasticsearch heap 8g", "JVM heap 4g"), as "pants size 32" is; not after an adjective
    of time ("new deadline October 15")."""
    word, prev = subject[-1], subject[-2]
    return word.endswith(("s", "ed")) or word in _IRREGULAR_PAST or prev.endswith("s") or \
        not word.isalpha() or prev in _TIME_ADJECTIVES


def with_opening(tokens: list[Tok], start: int, at: int, first: int) -> bool:
    """"meeting with the contractor is at 2pm", "dinner with the team is at 7": a noun
    opening its clause without a determiner, followed by "with" and whom it is with (the
    head's owner), where the noun phrase at ``start`` ends at ``at``."""
    return tokens[at].word == "with" and (
        start == first or (start > first and tokens[start - 1].word in BOUNDARY))


def label_colon(tokens: list[Tok], i: int, first: int) -> int:
    """Where the key's reading of the value at ``i`` starts looking back: the label's colon
    before a value of several words (its other words marked "·", a determiner before them:
    "location: the old tram depot"), else the word before the value (a label and its number
    after a colon keeps its label: "Print settings: infill 20")."""
    words = [t.word for t in tokens]
    value = tokens[i].value
    if value is None or any(c.isdigit() for c in value[2]):
        return i - 1
    at = i - 1
    while at > first and words[at] == "·":
        at -= 1
    if at > first and words[at] in DETERMINERS and words[i] == "" and at < i - 1:
        at -= 1
    return at if at < i - 1 and words[at] == ":" else i - 1
