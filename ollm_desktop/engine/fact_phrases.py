"""Values that are noun phrases: lower-case words in a value's place ("Dessert will be panna
cotta", "going with puff pastry for the tart base instead"), a name with the words of its
phrase ("Chicago author-date"), a count of the speakers ("we're 8 for dinner") and "noun
number" after a correction's lead ("scratch that, track 5").

Part of ``fact_grammar``'s reading, over its tokens, in place (a phrase becomes one value
token, its other words are marked part of it). The places are read by the shape of the
clause with closed word classes only (determiners, prepositions, copulas, pronouns, the
change verbs); the nouns and the verb are any words.

A lower-case phrase is a value **only in the user's messages**: a reply's prose is full of
noun phrases in these places ("the build is going to be slow"), and the panel and the junk
share count every value a reply gains, while the ledger sends only the user's. And only
where the clause names a key that is not the phrase itself: a copula's subject, the
prepositional phrase after the object ("… for the tart base"), a leading topic ("For the
tart base I'm using …"), or a correction's lead before a verb's place ("From next week
onward the reading group meets in …").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ollm_desktop.engine.fact_labelled_values import labelled_phrase
from ollm_desktop.engine.fact_leads import from_now
from ollm_desktop.engine.fact_phrase_forms import (
    instead_of,
    not_but,
    noun_numbers,
    retracted,
    speakers_count,
)
from ollm_desktop.engine.fact_phrase_words import (
    DEFINITE,
    INDEFINITE,
    KEY_AFTER,
    PHRASE_END,
    PLACED,
    clauses_of,
    mark_value,
    participle,
    phrase_span,
    plain_word,
)
from ollm_desktop.engine.fact_time_tails import from_then
from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    MODALS,
    NAMING,
    PRONOUNS,
    SPEAKING,
    Tok,
    is_change,
)


@dataclass(slots=True)
class Implied:
    """What a clause implies of its phrase values, by the value token's index: the unit a
    count has without its word ("we're 8": people), the label noun that names a "noun
    number" value's key ("track 5": the track)."""

    units: dict[int, str] = field(default_factory=dict)
    labels: dict[int, str] = field(default_factory=dict)


def phrase_values(sentence: str, tokens: list[Tok], first: int, role: str, *,
                  shaped: bool, lead: bool) -> Implied:
    """Mark the user's noun-phrase values in place; what their clauses imply of them."""
    implied = Implied()
    units = implied.units
    if role != "user":
        return implied
    retracted(sentence, tokens, first)
    not_but(sentence, tokens, first)
    for start, end in clauses_of(tokens, first):
        if start > first and tokens[start].word in CONJUNCTIONS:
            start += 1  # "so we're 8 …", "and the starter will be …"
        if start >= end:
            continue
        if _copula_complement(sentence, tokens, start, end, shaped) or \
                _after_label(sentence, tokens, start, end, first):
            continue
        if _object_with_key(sentence, tokens, start, end, first):
            continue
        if _place_after_verb(sentence, tokens, start, end, first,
                             led=lead and start == first):
            continue
        if _changed_to(sentence, tokens, start, end) or \
                _given_then_new(sentence, tokens, start, end):
            continue
        speakers_count(tokens, start, end, units)
        noun_numbers(sentence, tokens, start, end, first, implied.labels)
    instead_of(sentence, tokens, first)
    return implied


def _subject(tokens: list[Tok], start: int, end: int) -> int:
    """The index after a noun-phrase subject opening [start, end) ("the reading group",
    "dessert", "references"), or ``start`` if the clause opens otherwise."""
    at = start + (tokens[start].word in DETERMINERS)
    k = at
    while k < end and k - at < 3 and plain_word(tokens[k]):
        k += 1
    return k if k > at else start


def _copula_complement(sentence: str, tokens: list[Tok], start: int, end: int,
                       shaped: bool) -> bool:
    """"Dessert will be panna cotta", "the starter is going to be melon salad", "references
    are X now": the complement of a copula after a noun-phrase subject, up to the clause's
    end. A present copula with a one-word subject and a one-word complement outside a
    correction is a state ("the API is ready"), as ``fact_values`` reads it."""
    verb = _subject(tokens, start, end)
    if verb == start or verb >= end or any(t.value for t in tokens[start:end]):
        return False
    words = [t.word for t in tokens[verb:end]]
    future = 0
    if words[:2] in (["will", "be"], ["'ll", "be"]):
        future = 2
    elif words[1:4] == ["going", "to", "be"] and words[0] in COPULAS | {"'re", "'s", "am"}:
        future = 4  # "is / are / was / 're going to be"
    size = future or (1 if words[:1] and words[0] in ("is", "are", "becomes", "remains")
                      else 0)
    if not size:
        return False
    at = verb + size
    at += at < end and tokens[at].word == "now"
    at += at + 1 < end and tokens[at].word in NAMING  # "is called new-gui": the verb's
    if at + 1 < end and (tokens[at].word in PLACED or tokens[at].word == "with") and \
            tokens[at + 1].word in DETERMINERS:
        at += 1  # "the team lunch is at the taco place", "… is with the neighbour"
    span = phrase_span(tokens, at, prepositions=False)
    if span is None or (span[1] != end and tokens[span[1]].word not in PHRASE_END):
        return False
    if not future and not shaped and verb - start - (tokens[start].word in DETERMINERS) < 2 \
            and span[1] - span[0] < 2:
        return False
    mark_value(sentence, tokens, *span)
    return True


def _after_label(sentence: str, tokens: list[Tok], start: int, end: int, first: int) -> bool:
    """"loft insulation: mineral wool", "venue: the old tram depot": a noun phrase of two
    words or more that is the whole clause after a label's colon is the label's value (one
    word there is ``fact_values``' reading; a verb, an adverb or a participle in it is no
    noun phrase: "next step: call the plumber", "tests: still failing")."""
    if not labelled_phrase(tokens, start, first):
        return False
    span = phrase_span(tokens, start)
    ends = span is not None and (span[1] == end or (  # ("…: sheep wool now", "… instead")
        span[1] + 1 == end and tokens[span[1]].word in ("now", "instead")))
    if span is None or not ends or not 2 <= span[1] - span[0] <= 3 or not all(
            sentence[t.start:t.end].isalpha() and sentence[t.start:t.end].islower()
            for t in tokens[span[0]:end]):
        return False  # (a capital or a digit: a name or a code, read as one elsewhere)
    mark_value(sentence, tokens, *span)
    return True


def _verb_at(tokens: list[Tok], start: int, end: int) -> int | None:
    """Where the clause's verb is when its subject is the speaker or it opens with one
    ("I'm using", "we're laying", "we use", "going with", "laying"): the verb's index."""
    at = start
    if tokens[at].word in SPEAKING:
        at += 1
    elif tokens[at].word in PRONOUNS and at + 1 < end:
        at += 1
        if tokens[at].word in AUXILIARIES or tokens[at].word in ("am", "'m"):
            at += 1
    if at >= end or not plain_word(tokens[at]) or tokens[at].word in MODALS:
        return None
    instead = any(t.word == "instead" for t in tokens[at:end])
    if at == start and not tokens[at].word.endswith("ing") and not instead:
        return None  # an imperative only in a correction's shape ("Lay brick … instead")
    if tokens[at].word.endswith("ed") and not instead:
        return None  # a past action is a story ("we hand-picked three examples for …")
    return at


def _object_with_key(sentence: str, tokens: list[Tok], start: int, end: int,
                     first: int) -> bool:
    """A verb's object with its key named around it: "going with puff pastry for the tart
    base instead", "we're laying crushed gravel for the garden path", and after a leading
    topic "For the tart base I'm using shortcrust pastry". The object is the value; the
    phrase after its preposition (or the topic) is the key, which ``fact_keys`` reads."""
    topic = start
    if tokens[start].word == "for" and start == first:
        topic = start + 1 + (start + 1 < end and tokens[start + 1].word in DETERMINERS)
        while topic < end and topic - start <= 4 and plain_word(tokens[topic]):
            topic += 1  # "For the tart base" with no comma: the speaker's clause goes on
        if topic == start + 1 or topic >= end or (tokens[topic].word not in SPEAKING and
                                                  tokens[topic].word not in PRONOUNS):
            return False
    verb = _verb_at(tokens, topic, end)
    if verb is None:
        return False
    at = verb + 1
    if at < end and tokens[at].word in ("with", "to"):
        at += 1  # "going with X", "switching to X"
    span = phrase_span(tokens, at)
    if span is None or span[1] - span[0] > 3:
        return False
    after = span[1]
    if tokens[at].word in DEFINITE and (after >= end or tokens[after].word != "for"):
        return False  # "the photos on …": a thing already known is the key, not the value
    # (a purpose is the key whatever the object's article: "the new tablet for the slides")
    keyed = topic > start and after == end
    if after < end and tokens[after].word in KEY_AFTER:
        key = phrase_span(tokens, after + 1)
        keyed = key is not None and tokens[after + 1].word in DEFINITE and (
            key[1] == end or tokens[key[1]].word in PHRASE_END)
    if not keyed:
        return False
    mark_value(sentence, tokens, *span)
    return True


def _changed_to(sentence: str, tokens: list[Tok], start: int, end: int) -> bool:
    """"Team lunch moved to the noodle bar", "switch the venue to the old town hall": the
    phrase after a change verb's "to", up to the clause's end (its determiner, which says
    the phrase is a thing, is needed: "switch the log level to info" is ``fact_values``')."""
    change = next((k for k in range(start, end) if is_change(tokens[k].word)), None)
    if change is None or any(t.value for t in tokens[start:end]):
        return False
    to = next((k for k in range(change + 1, min(end, change + 6))
               if tokens[k].word == "to"), None)
    if to is None or to + 1 >= end or tokens[to + 1].word not in DETERMINERS or \
            tokens[to + 1].word in _BACK_POSSESSIVE:
        return False  # ("switch it over to its actual name": the object's own, unnamed yet)
    span = phrase_span(tokens, to + 1, prepositions=False)
    if span is None or span[1] != end:
        span = phrase_span(tokens, to + 1)  # ("… to the Northgate leisure centre from next
        if span is None or not from_then(tokens, span[1], end):  # term": when, after it)
            return False
    mark_value(sentence, tokens, *span)
    return True


# A possessive that points back to the changed thing itself: "to its actual name", "to their
# usual slot" names an attribute of that thing, not a value the sentence gives.
_BACK_POSSESSIVE = frozenset({"its", "their"})


def _given_then_new(sentence: str, tokens: list[Tok], start: int, end: int) -> bool:
    """"I'm storing the photos on an external drive", "we keep the spare key under the
    doormat": after the speaker's verb, a definite object (the thing already known: the key)
    and a place (the new thing the clause ends on: the value), up to the clause's end."""
    verb = _verb_at(tokens, start, end)
    if verb is None or verb + 1 >= end or tokens[verb + 1].word not in DEFINITE:
        return False
    known = phrase_span(tokens, verb + 1)
    if known is None or known[1] + 2 >= end or tokens[known[1]].word not in PLACED or \
            tokens[known[1] + 1].word not in INDEFINITE | DEFINITE:
        return False
    span = phrase_span(tokens, known[1] + 1, prepositions=False)
    if span is None or span[1] != end or any(t.value for t in tokens[start:end]):
        return False
    mark_value(sentence, tokens, *span)
    return True


def _place_after_verb(sentence: str, tokens: list[Tok], start: int, end: int, first: int,
                      *, led: bool) -> bool:
    """"The book club meets at the corner cafe", and in a clause a correction's lead opens
    "From next week onward the reading group meets in the library seminar room": the place
    after a definite subject's verb and its preposition, up to the clause's end (or a
    trailing "from now on"), is the subject's value. Without a lead the verb is a present
    one that agrees with its subject ("meets", "the photos live") and the preposition one
    of place; after a lead, "for" too ("… meets for the late slot")."""
    if tokens[start].word in DETERMINERS:
        if tokens[start].word in ("this", "that", "these", "those"):
            return False
        at = start + 1  # a definite subject ("the reading group meets in …")
    elif start == first:
        at = start  # a bare one opening the sentence ("Book club meets at …")
    else:
        return False
    places = PLACED | KEY_AFTER if led else PLACED
    place = next((k for k in range(at + 2, min(end, at + 5)) if tokens[k].word in places),
                 None)  # the subject's words, its verb, then the place's preposition
    words = [t for t in tokens[at:place] if t.word != "now"]  # "Hiking group now meets at"
    if place is None or place + 1 >= end or not words or not all(plain_word(t) for t in words):
        return False
    if not led and not _agrees(words[:-1], words[-1].word):
        return False
    if tokens[place + 1].word not in DETERMINERS:
        return False  # "meets in room X" is a labelled name, read by ``fact_values``
    span = phrase_span(tokens, place + 1, prepositions=False)
    if span is None and place + 2 < end:  # "… at the public library from now on"
        k = place + 2 + (tokens[place + 2].word in DETERMINERS)
        while k < end and plain_word(tokens[k]):
            k += 1
        span = (place + 2, k) if k > place + 2 and k + 3 <= end and \
            from_now(tokens, k) == end - k else None
        end = k
    if span is None or (span[1] != end and tokens[span[1]].word not in PHRASE_END):
        return False  # (up to "instead", "now": "… in the main hall instead of …")
    mark_value(sentence, tokens, *span)
    return True


def _agrees(subject: list[Tok], verb: str) -> bool:
    """A present verb that agrees with its subject's last noun: "the club meets", "the
    photos live" (not a past or a bare form after a singular: a story, or no verb at all)."""
    if not subject or not verb.isalpha() or participle(verb):
        return False
    noun = subject[-1].word
    plural = noun.endswith("s") and not noun.endswith("ss")
    return (not verb.endswith("s")) if plural else (
        verb.endswith("s") and not verb.endswith(("ss", "us", "is")))
