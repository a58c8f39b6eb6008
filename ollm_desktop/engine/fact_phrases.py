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

from ollm_desktop.engine.fact_leads import RETRACT, from_now
from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    BOUNDARY,
    CONJUNCTIONS,
    COPULAS,
    DEICTIC,
    DETERMINERS,
    MODALS,
    NOT_NP,
    PARTICLES,
    PREPOSITIONS,
    PRONOUNS,
    Tok,
    closed,
    is_change,
)

# Degree adverbs before an adjective ("too slow", "very late"): a closed class; a phrase
# with one is a state, not a value.
DEGREE = closed("too very so quite pretty rather really fairly extremely more less most least")
# Adjectives of identity ("the same", "a different one"): they point at another value, they
# are none.
IDENTITY = closed("same different other another own such")
# The words that end a value's phrase inside its clause besides a boundary and a preposition.
_PHRASE_END = closed("now instead not rather anymore")
# Times after a phrase ("… this week", "… next time"): the phrase ends, no value is read.
_TIMES = DEICTIC | closed("last next yesterday tonight")
# The prepositions that put the phrase's key after it ("puff pastry for the tart base").
_KEY_AFTER = closed("for in on at")
# The prepositions of a place a copula or a verb puts a thing in ("is at the taco place").
_PLACED = closed("at in on under behind beside near inside outside above below")
# A speaker's copula in one word, and the pronouns that count the speakers ("we're 8").
_SPEAKERS = closed("we're we they're they")
_PLURAL_COPULAS = closed("are were")
# A subject in one word with its verb's auxiliary ("I'm using", "we're laying", "I'll use").
_SUBJECT_AUX = closed("i'm we're i'll we'll they're you're")
MAX_PHRASE = 4


def _plain(token: Tok) -> bool:
    """A word that can be part of a noun phrase: no closed-class word, no value, no adverb."""
    word = token.word
    return bool(word) and not token.value and word[:1].isalpha() and word not in DETERMINERS \
        and word not in PREPOSITIONS and word not in NOT_NP and word not in COPULAS \
        and word not in CONJUNCTIONS and word not in AUXILIARIES and word not in DEGREE \
        and word not in _TIMES and word not in _PHRASE_END and not is_change(word) \
        and word not in IDENTITY and word not in PARTICLES \
        and not word.endswith("ly") and word != "·"


def _ends(tokens: list[Tok], at: int, *, prepositions: bool = True) -> bool:
    """The phrase's clause (or its noun phrase) ends at ``at``."""
    if at >= len(tokens):
        return True
    word = tokens[at].word
    return word in BOUNDARY or word in _PHRASE_END or (prepositions and word in PREPOSITIONS)


def _phrase(tokens: list[Tok], at: int, *, prepositions: bool = True) -> tuple[int, int] | None:
    """[start, end) of a noun phrase's words after its optional determiner, up to where it
    ends: None if there is none, it is longer than MAX_PHRASE words, or it runs into a
    word that is no noun's (a verb after it: "the shortcrust kept cracking")."""
    at += at < len(tokens) and tokens[at].word in DETERMINERS
    end = at
    while end < len(tokens) and end - at < MAX_PHRASE and (_plain(tokens[end]) or (
            not prepositions and end > at and tokens[end].word == "of" and
            end + 1 < len(tokens) and _plain(tokens[end + 1]))):
        end += 1  # (where the phrase runs to its clause's end, "of" inside it: "a bottle of
        # wine")
    if end == at or not _ends(tokens, end, prepositions=prepositions):
        return None
    if _participle(tokens[end - 1].word) or (tokens[at].word.endswith("ing") and
                                              _participle(tokens[at].word)):
        return None  # a participle: what happens to K ("is tagged", "is getting old")
    return at, end


def _participle(word: str) -> bool:
    return word.endswith(("ing", "ed")) and len(word) > 4


def _mark(sentence: str, tokens: list[Tok], a: int, b: int) -> None:
    """The words [a, b) as one name value on the last token, the others part of it (as a
    labelled name's noun is: "room B12"), where a key's reading looks back from it."""
    start, end = tokens[a].start, tokens[b - 1].end
    for token in tokens[a:b - 1]:
        token.word = "·"
    tokens[b - 1].value = (start, end, sentence[start:end], "name")
    tokens[b - 1].word = ""


def _clauses(tokens: list[Tok], first: int) -> list[tuple[int, int]]:
    """[start, end) of each clause from ``first``, cut at boundaries."""
    out, start = [], first
    for k in range(first, len(tokens) + 1):
        if k == len(tokens) or tokens[k].word in BOUNDARY:
            if k > start:
                out.append((start, k))
            start = k + 1
    return out


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
    _retracted(sentence, tokens, first)
    _not_but(sentence, tokens, first)
    for start, end in _clauses(tokens, first):
        if start > first and tokens[start].word in CONJUNCTIONS:
            start += 1  # "so we're 8 …", "and the starter will be …"
        if start >= end:
            continue
        if _copula_complement(sentence, tokens, start, end, shaped):
            continue
        if _object_with_key(sentence, tokens, start, end, first):
            continue
        if _place_after_verb(sentence, tokens, start, end, first,
                             led=lead and start == first):
            continue
        if _changed_to(sentence, tokens, start, end) or \
                _given_then_new(sentence, tokens, start, end):
            continue
        _speakers_count(tokens, start, end, units)
        _noun_numbers(sentence, tokens, start, end, first, implied.labels)
    _instead_of(sentence, tokens, first)
    return implied


def _not_but(sentence: str, tokens: list[Tok], first: int) -> None:
    """"Not beef stew but mushroom risotto for the main dish", "the main dish is not beef
    stew but risotto": the phrases of "not Y but X" (Y up to "but", X up to where its phrase
    ends; ``fact_grammar`` reads which is old), where the clause names a key: a noun before
    "not" or a definite phrase after X ("this is not a bug but a feature" names none)."""
    k = next((k for k in range(first, len(tokens) - 3) if tokens[k].word == "not"), None)
    if k is None:
        return
    a = k + 1 + (tokens[k + 1].word in DETERMINERS)
    but = a
    while but < len(tokens) and but - a < MAX_PHRASE and _plain(tokens[but]):
        but += 1
    if but == a or but >= len(tokens) or tokens[but].word != "but":
        return
    new = _phrase(tokens, but + 1)
    if new is None:
        return
    named = any(_plain(t) for t in tokens[first:k]) or (
        new[1] + 1 < len(tokens) and tokens[new[1]].word in _KEY_AFTER and
        tokens[new[1] + 1].word in _DEFINITE)
    if not named or any(t.value for t in tokens[a:new[1]]) or not all(
            sentence[tokens[k].start:tokens[k].start + 1].islower() for k in (a, new[0])):
        return  # (names are ``fact_values``': "not the Astoria but the Hotel Cubo")
    _mark(sentence, tokens, a, but)
    _mark(sentence, tokens, *new)


def _instead_of(sentence: str, tokens: list[Tok], first: int) -> None:
    """"… instead of a gift card", "rather than the shortcrust pastry": the phrase after it,
    up to its clause's end, is the replaced value (``fact_grammar`` reads it old)."""
    for k in range(first, len(tokens) - 2):
        pair = (tokens[k].word, tokens[k + 1].word)
        if pair not in (("instead", "of"), ("rather", "than")):
            continue
        span = _phrase(tokens, k + 2, prepositions=False)
        if span is not None and span[1] - span[0] >= 2 and (
                span[1] >= len(tokens) or tokens[span[1]].word in BOUNDARY):
            _mark(sentence, tokens, *span)  # (one word is ``fact_values``')
        return


def _retracted(sentence: str, tokens: list[Tok], first: int) -> None:
    """The object of a retraction verb opening the sentence ("Scratch the tiramisu, …",
    "Forget the pea soup, …"): the value it takes back (``fact_leads.retraction`` marks it
    old). "Scratch that" is a lead, read elsewhere."""
    if first + 2 >= len(tokens) or tokens[first].word not in RETRACT or \
            tokens[first + 1].word not in DETERMINERS - {"that", "this"}:
        return
    span = _phrase(tokens, first + 1, prepositions=False)
    if span is not None and (span[1] >= len(tokens) or tokens[span[1]].word in BOUNDARY):
        _mark(sentence, tokens, *span)


def _subject(tokens: list[Tok], start: int, end: int) -> int:
    """The index after a noun-phrase subject opening [start, end) ("the reading group",
    "dessert", "references"), or ``start`` if the clause opens otherwise."""
    at = start + (tokens[start].word in DETERMINERS)
    k = at
    while k < end and k - at < 3 and _plain(tokens[k]):
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
    for group in (["will", "be"], ["'ll", "be"], ["is", "going", "to", "be"],
                  ["are", "going", "to", "be"]):
        if words[:len(group)] == group:
            future = len(group)
            break
    size = future or (1 if words[:1] and words[0] in ("is", "are", "becomes", "remains")
                      else 0)
    if not size:
        return False
    at = verb + size
    at += at < end and tokens[at].word == "now"
    if at + 1 < end and (tokens[at].word in _PLACED or tokens[at].word == "with") and \
            tokens[at + 1].word in DETERMINERS:
        at += 1  # "the team lunch is at the taco place", "… is with the neighbour"
    span = _phrase(tokens, at, prepositions=False)
    if span is None or (span[1] != end and tokens[span[1]].word not in _PHRASE_END):
        return False
    if not future and not shaped and verb - start - (tokens[start].word in DETERMINERS) < 2 \
            and span[1] - span[0] < 2:
        return False
    _mark(sentence, tokens, *span)
    return True


def _verb_at(tokens: list[Tok], start: int, end: int) -> int | None:
    """Where the clause's verb is when its subject is the speaker or it opens with one
    ("I'm using", "we're laying", "we use", "going with", "laying"): the verb's index."""
    at = start
    if tokens[at].word in _SUBJECT_AUX:
        at += 1
    elif tokens[at].word in PRONOUNS and at + 1 < end:
        at += 1
        if tokens[at].word in AUXILIARIES or tokens[at].word in ("am", "'m"):
            at += 1
    if at >= end or not _plain(tokens[at]) or tokens[at].word in MODALS:
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
        while topic < end and topic - start <= 4 and _plain(tokens[topic]):
            topic += 1  # "For the tart base" with no comma: the speaker's clause goes on
        if topic == start + 1 or topic >= end or (tokens[topic].word not in _SUBJECT_AUX and
                                                  tokens[topic].word not in PRONOUNS):
            return False
    verb = _verb_at(tokens, topic, end)
    if verb is None:
        return False
    at = verb + 1
    if at < end and tokens[at].word in ("with", "to"):
        at += 1  # "going with X", "switching to X"
    span = _phrase(tokens, at)
    if span is None or span[1] - span[0] > 3:
        return False
    after = span[1]
    if tokens[at].word in _DEFINITE and (after >= end or tokens[after].word != "for"):
        return False  # "the photos on …": a thing already known is the key, not the value
    # (a purpose is the key whatever the object's article: "the new tablet for the slides")
    keyed = topic > start and after == end
    if after < end and tokens[after].word in _KEY_AFTER:
        key = _phrase(tokens, after + 1)
        keyed = key is not None and tokens[after + 1].word in _DEFINITE and (
            key[1] == end or tokens[key[1]].word in _PHRASE_END)
    if not keyed:
        return False
    _mark(sentence, tokens, *span)
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
    if to is None or to + 1 >= end or tokens[to + 1].word not in DETERMINERS:
        return False
    span = _phrase(tokens, to + 1, prepositions=False)
    if span is None or span[1] != end:
        return False
    _mark(sentence, tokens, *span)
    return True


# Determiners of a thing already known (the key) and of a new one (the value).
_DEFINITE = closed("the our my your their his her its this these those")
_INDEFINITE = closed("a an")


def _given_then_new(sentence: str, tokens: list[Tok], start: int, end: int) -> bool:
    """"I'm storing the photos on an external drive", "we keep the spare key under the
    doormat": after the speaker's verb, a definite object (the thing already known: the key)
    and a place (the new thing the clause ends on: the value), up to the clause's end."""
    verb = _verb_at(tokens, start, end)
    if verb is None or verb + 1 >= end or tokens[verb + 1].word not in _DEFINITE:
        return False
    known = _phrase(tokens, verb + 1)
    if known is None or known[1] + 2 >= end or tokens[known[1]].word not in _PLACED or \
            tokens[known[1] + 1].word not in _INDEFINITE | _DEFINITE:
        return False
    span = _phrase(tokens, known[1] + 1, prepositions=False)
    if span is None or span[1] != end or any(t.value for t in tokens[start:end]):
        return False
    _mark(sentence, tokens, *span)
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
    places = _PLACED | _KEY_AFTER if led else _PLACED
    place = next((k for k in range(at + 2, min(end, at + 5)) if tokens[k].word in places),
                 None)  # the subject's words, its verb, then the place's preposition
    words = [t for t in tokens[at:place] if t.word != "now"]  # "Hiking group now meets at"
    if place is None or place + 1 >= end or not all(_plain(t) for t in words):
        return False
    if not led and not _agrees(words[:-1], words[-1].word):
        return False
    if tokens[place + 1].word not in DETERMINERS:
        return False  # "meets in room X" is a labelled name, read by ``fact_values``
    span = _phrase(tokens, place + 1, prepositions=False)
    if span is None and place + 2 < end:  # "… at the public library from now on"
        k = place + 2 + (tokens[place + 2].word in DETERMINERS)
        while k < end and _plain(tokens[k]):
            k += 1
        span = (place + 2, k) if k > place + 2 and k + 3 <= end and \
            from_now(tokens, k) == end - k else None
        end = k
    if span is None or span[1] != end:
        return False
    _mark(sentence, tokens, *span)
    return True


def _agrees(subject: list[Tok], verb: str) -> bool:
    """A present verb that agrees with its subject's last noun: "the club meets", "the
    photos live" (not a past or a bare form after a singular: a story, or no verb at all)."""
    if not subject or not verb.isalpha() or _participle(verb):
        return False
    noun = subject[-1].word
    plural = noun.endswith("s") and not noun.endswith("ss")
    return (not verb.endswith("s")) if plural else (
        verb.endswith("s") and not verb.endswith(("ss", "us", "is")))


def _speakers_count(tokens: list[Tok], start: int, end: int, units: dict[int, str]) -> None:
    """"we're 8 for dinner now", "we are 3 for the trip": a bare number after the speakers'
    copula counts them (people), the phrase after it names what for."""
    words = [t.word for t in tokens[start:end]]
    if words[:1] == ["we're"] or words[:1] == ["they're"]:
        at = start + 1
    elif len(words) > 2 and words[0] in _SPEAKERS and words[1] in _PLURAL_COPULAS:
        at = start + 2
    else:
        return
    if at >= end or not tokens[at].word.isdigit() or at + 1 >= end or \
            tokens[at + 1].word not in ("for", "now"):
        return
    token = tokens[at]
    token.value = (token.start, token.end, token.word, "number")
    token.word = ""
    units[at] = "people"


def _noun_numbers(sentence: str, tokens: list[Tok], start: int, end: int, first: int,
                  labels: dict[int, str]) -> None:
    """"submit to track 3 of the workshop", "scratch that, track 5", "Track 3 is for demos":
    a lower-case noun and a number after it, where a noun phrase stands (opening its clause
    or after a preposition) and ends (the clause ends, or a preposition or copula follows),
    is one value, and the noun names its key's head. A capitalised name and its number
    inside a sentence is a version ("use Python 3"), read by ``fact_values``."""
    for k in range(start, end - 1):
        word, number = tokens[k], tokens[k + 1]
        after = tokens[k + 2].word if k + 2 < end else ""
        if not number.word.isdigit() or not _plain(word) or word.word.endswith("s") or not (
                k == start or (tokens[k - 1].word in PREPOSITIONS and len(number.word) == 1)
        ) or (  # (after a preposition, "in room 101" is ``fact_values``' labelled name)
                after and after not in PREPOSITIONS and after not in COPULAS):
            continue
        if k != first and not sentence[word.start:word.start + 1].islower():
            continue
        labels[k + 1] = word.word
        _mark(sentence, tokens, k, k + 2)


def _object_place(tokens: list[Tok], i: int, first: int) -> bool:
    """The name at ``i`` is a verb's object ("using Kerrygold salted butter in …"): the word
    before it (past a determiner) is a plain word, no preposition, copula or conjunction."""
    k = i - 1
    k -= k > first and tokens[k].word in DETERMINERS
    return k >= first and _plain(tokens[k])


def _in_value_place(tokens: list[Tok], i: int, first: int) -> bool:
    """The name at ``i`` follows a verb, a preposition, a copula or "now" (past a
    determiner): not a clause's subject ("Not Ana but Bea sings lead")."""
    k = i - 1
    k -= k > first and tokens[k].word in DETERMINERS
    return k >= first and (_plain(tokens[k]) or tokens[k].word in PREPOSITIONS or
                           tokens[k].word in COPULAS or tokens[k].word == "now")


def named_phrases(sentence: str, tokens: list[Tok], first: int, role: str) -> None:
    """A capitalised name with the lower-case words of its noun phrase after it, up to where
    the phrase ends ("references are Chicago author-date now", "using Kerrygold salted butter
    in the shortbread"): one value, as the user says it. The user's only, as above. The value
    stays on the name's token, the words after it are part of it (as a counted noun is)."""
    if role != "user":
        return
    for i in range(first, len(tokens) - 1):
        value = tokens[i].value
        if value is None or value[3] != "name" or not value[2][:1].isupper() or \
                not _in_value_place(tokens, i, first):
            continue
        end = i + 1
        while end < len(tokens) and end - i <= 3 and _plain(tokens[end]) and \
                sentence[tokens[end].start:tokens[end].start + 1].islower():
            end += 1
        if end == i + 1 or (not _ends(tokens, end, prepositions=False) and not (
                _ends(tokens, end) and _object_place(tokens, i, first) and
                not tokens[end - 1].word.endswith("s"))):
            continue  # ("The flight to Rome departs at": a verb, not the name's noun)
        if _participle(tokens[end - 1].word):
            continue
        for token in tokens[i + 1:end]:
            token.word = "·"
        tokens[i].value = (value[0], tokens[end - 1].end,
                           sentence[value[0]:tokens[end - 1].end], "name")
