"""A value's key read from its clause as a whole: subject, verb, object and the phrase the
clause places the value on, where the noun phrase just before the value names no key.

``fact_keys.key_of`` reads the noun phrase a value attaches to ("the API port is 8443"). Two
clause shapes carry the key elsewhere, and there the words before the value are a pronoun and
a verb ("we run", "we now have"), which are no key:

- **The user's verb placing a value on a thing**: PRONOUN VERB [adverb] VALUE PREPOSITION NP.
  "We run Ubuntu 22.04 on the servers", "we now have 3,450 subscribers on the newsletter":
  the value is the servers' (the newsletter's); the verb only says the user does it.
- **A rate's subject**: K per N COPULA VALUE. "Disk quota per user is 5 GB" is the disk
  quota's (per user says what it counts in, as "per-user" does before the noun).
- **A value given to a pronoun**: VERB it/them VALUE ("give it 120 GB", "make it $650"):
  the pronoun refers back to what was said, so the clause names no key of its own (the value
  is keyless, and replaces the one earlier value of its unit, as "make that 12 people" does).
- **A definite subject's verb taking the value**: DETERMINER NP VERB [preposition] VALUE.
  "The analysis scripts use R 4.2.3", "the reporting replica runs 15.4": the subject's value
  (the verb, "use" or "run", is no part of the key).
- **"it's VALUE" after a clause with a subject**: "the meal allowance was raised; it's 55 EUR
  per day": the pronoun refers to the sentence's first subject, whose key the value takes.
- **A name's affiliation**: NAME from/at NAME ("Dominika from Talentbridge", "Ana at
  Acme"): the second is the first's (entity, "from"), not a second value of the clause's key.
- **A name as the subject of a verb with an object**: NAME VERB-s [adverb] DETERMINER NP.
  "Jonas triages the tickets" states who triages them: a value of the object ("the
  tickets"), as the passive "tickets are triaged by Amal" is (the passive's subject).

Both are structure over the grammar's tokens: the pronouns, determiners, prepositions and
adverbs are closed classes (``fact_words``); the verb and the nouns are any words.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_contact_relatives import changed_key, relative_key
from ollm_desktop.engine.fact_keys import noun_phrase, phrase_before
from ollm_desktop.engine.fact_measured_nouns import measured_noun, rate_held
from ollm_desktop.engine.fact_new_labels import new_label
from ollm_desktop.engine.fact_pro_verbs import pro_verb
from ollm_desktop.engine.fact_verbs import SUBORDINATORS, changes, finite_verb, plain, verb_group
from ollm_desktop.engine.fact_words import (
    BOUNDARY,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    PARTICLES,
    PREPOSITIONS,
    SPEAKING,
    Tok,
    closed,
    is_change,
)

# The pronouns a clause's subject is the user (or the user's team) in: "we run", "I use".
PERSONS = closed("we i you they")
# Adverbs of time and degree that stand between a subject and its verb (a closed class).
ADVERBS = closed("now also still currently already just only mostly usually")
# Prepositions that place a value on a thing ("on the servers", "in the newsletter"): the
# rest name a time, a direction or an owner, which other readings take.
PLACES = closed("on in at across inside within throughout")

MAX_NP = 3
# Prepositions of a place a thing is put in or kept at (a closed class), "with" as in "the
# key is with the neighbour".
PLACED = PLACES | closed("under behind beside near outside above below with")


def clause_key(tokens: list[Tok], i: int, first: int) -> tuple[str, str] | None:
    """(entity, attribute) of the value at ``i`` read from its clause, or None where the
    clause has neither shape (``key_of`` reads it)."""
    if (head := relative_key(tokens, i, first) or changed_key(tokens, i, first)) is not None:
        return head  # "the pin the bank gave me is"; "the plate's changed, new one: X"
    start = _clause_start(tokens, i, first)
    if _refers_back(tokens, i, start) or pro_verb(tokens, i, start):  # ("we're doing X")
        return "", ""
    if start > first and _it_is(tokens, i, start):  # "the allowance was raised; it's 55 EUR"
        subject = _object(tokens, first) if tokens[first].word in DETERMINERS else []
        entity, attribute = noun_phrase(subject)
        if attribute:
            return entity, attribute
    held = rate_held(tokens, i)  # "3 cups of coffee a day": coffee's, however said
    if held:
        return held
    renewed = has_new(tokens, i, first)  # "The clinic has a new phone number: X"
    if renewed:
        return renewed
    owner = _of_a_name(tokens, i, start)
    if owner:
        return owner
    return measured_noun(tokens, i, start) or _inverted_copula(tokens, i, start) or \
        _placed_on(tokens, i, start) or \
        _copula_place(tokens, i, start) or \
        _names_subject(tokens, i, start) or _possessed(tokens, i, start) or \
        _rate_subject(tokens, i, start) or _subject_verb(tokens, i, start, start == first)


def _clause_start(tokens: list[Tok], i: int, first: int) -> int:
    for k in range(i - 1, first - 1, -1):
        if tokens[k].word in BOUNDARY or (tokens[k].word in SUBORDINATORS | CONJUNCTIONS and (
                tokens[k + 1].word in DETERMINERS or (k > first and tokens[k - 1].word in
                                                      BOUNDARY))):
            return k + 1  # "..., so the scripts run on R 4.3.1", ", so Lena will": its own
    return first


def _object(tokens: list[Tok], at: int) -> list[str]:
    """The noun phrase from ``at`` (its determiner optional): its words, up to a boundary, a
    value, a preposition or a conjunction; none if longer than ``MAX_NP`` words."""
    if at < len(tokens) and tokens[at].word in DETERMINERS:
        at += 1
    words: list[str] = []
    for token in tokens[at:]:
        if not plain(token):
            break
        words.append(token.word)
    return words if 0 < len(words) <= MAX_NP else []


def _speaker_verb(before: list[Tok]) -> bool:
    """The words before a value are the speaker and a verb ("we run", "I'm using", "we're
    laying"), or a verb opening the clause ("going with", "laying"): no key of their own."""
    if before and before[-1].word in ("with", "to"):
        before = before[:-1]  # "going with X", "switching to X"
    if len(before) == 1:
        word = before[0].word
        return plain(before[0]) and word.endswith("ing") and not is_change(word)
    return len(before) == 2 and (before[0].word in PERSONS or before[0].word in SPEAKING) \
        and plain(before[1]) and not is_change(before[1].word)


def _placed_on(tokens: list[Tok], i: int, start: int) -> tuple[str, str] | None:
    """PRONOUN [adverb] VERB [adverb] VALUE PREPOSITION NP: the NP's key ("we run Ubuntu on
    the servers", "going with puff pastry for the tart base"); and after a leading "for the
    NP" without a comma ("For the tart base I'm using shortcrust pastry"), that NP's."""
    if tokens[start].word == "for" and start + 1 < i:
        topic = _object(tokens, start + 1)
        at = start + 1 + (tokens[start + 1].word in DETERMINERS) + len(topic)
        entity, attribute = noun_phrase(topic)
        after = i + 1
        while after < len(tokens) and tokens[after].word == "·":  # the value's own words
            after += 1
        if attribute and _speaker_verb([t for t in tokens[at:i] if t.word not in ADVERBS
                                            and t.word != "·"]) \
                and (after >= len(tokens) or tokens[after].word in BOUNDARY):
            return entity, attribute
    before = [t for t in tokens[start:i] if t.word not in ADVERBS and t.word != "·"]
    if not _speaker_verb(before):
        return _given_object(before) or _moved_object(before) or _changed_subject(before)
    after = i + 1
    while after < len(tokens) and tokens[after].word == "·":  # "3,450 subscribers"
        after += 1
    if after >= len(tokens) or tokens[after].word not in PLACES | {"for"}:
        return None
    words = _object(tokens, after + 1)
    entity, attribute = noun_phrase(words)
    return (entity, attribute) if attribute else None


def _inverted_copula(tokens: list[Tok], i: int, start: int) -> tuple[str, str] | None:
    """VALUE COPULA DETERMINER NP, the clause's end ("Friday is the deadline", "Thursday is
    the darts league"): the value opens its clause, the NP after the copula is its key."""
    if i != start:
        return None
    at = i + 1
    while at < len(tokens) and tokens[at].word == "·":
        at += 1
    if at + 2 >= len(tokens) or tokens[at].word not in ("is", "was", "are") or \
            tokens[at + 1].word not in DETERMINERS:
        return None
    words = _object(tokens, at + 1)
    end = at + 2 + len(words)
    if end < len(tokens) and tokens[end].word not in BOUNDARY and tokens[end].word not in (
            "for", "at", "in", "on"):  # ("Thursday is my carpool day for the twins")
        return None
    entity, attribute = noun_phrase(words)
    return (entity, attribute) if attribute and attribute != "one" else None  # ("the old
    # one": a pronoun, the value's own key)


def _moved_object(before: list[Tok]) -> tuple[str, str] | None:
    """[SPEAKER] CHANGE-VERB NP to VALUE without the NP's determiner ("we're moving payments
    to Adyen", "move payments to Adyen"): the NP's key ("the K to X" is ``key_of``'s)."""
    words = [t.word for t in before]
    verb = 1 if words[:1] and (words[0] in PERSONS or words[0] in SPEAKING) else 0
    if len(words) < verb + 3 or not changes(words[verb]) or words[-1] != "to" or \
            words[verb + 1] in DETERMINERS:
        return None
    noun = before[verb + 1:-1]
    if not 0 < len(noun) <= MAX_NP or not all(plain(t) for t in noun):
        return None
    entity, attribute = noun_phrase([t.word for t in noun])
    return (entity, attribute) if attribute else None


def _changed_subject(before: list[Tok]) -> tuple[str, str] | None:
    """[DETERMINER] NP [got/was/has been] CHANGE-VERB [particle] to VALUE ("Upload limit got
    bumped up to 50 MB", "the rent was raised to …"): the subject's key (a particle is no
    key: "up")."""
    words = [t.word for t in before]
    if len(words) < 3 or words[-1] != "to":
        return None
    at = len(words) - 2
    at -= words[at] in PARTICLES
    if at < 1 or not changes(words[at]):
        return None
    at -= words[at - 1] in _PASSIVE
    at -= at >= 2 and words[at - 1] == "been" and words[at - 2] in ("has", "have")
    at -= words[at - 1] == "been"
    start = int(words[0] in DETERMINERS)
    noun = before[start:at]
    if not 0 < len(noun) <= MAX_NP or not all(plain(t) for t in noun):
        return None
    entity, attribute = noun_phrase([t.word for t in noun])
    return (entity, attribute) if attribute else None


# The auxiliaries of a passive change ("got bumped", "was raised"): a closed class.
_PASSIVE = closed("got gets was were is are")


def _copula_place(tokens: list[Tok], i: int, start: int) -> tuple[str, str] | None:
    """DETERMINER NP COPULA [now] PLACE DETERMINER VALUE ("the spare key is with the
    neighbour", "the team lunch is under the oak"): the subject's key."""
    words = [t.word for t in tokens[start:i] if t.word != "now"]
    if len(words) < 5 or words[0] not in DETERMINERS or words[-1] not in DETERMINERS or \
            words[-2] not in PLACED or words[-3] not in ("is", "are"):
        return None
    noun = words[1:-3]
    if not 0 < len(noun) <= MAX_NP or not all(
            plain(t) for t in tokens[start + 1:start + 1 + len(noun)]):
        return None
    entity, attribute = noun_phrase(noun)
    return (entity, attribute) if attribute else None


def _given_object(before: list[Tok]) -> tuple[str, str] | None:
    """SPEAKER VERB the NP PLACE [determiner] VALUE ("I'm storing the photos on an external
    drive"): the definite object, a thing already known, is the key; the place the value."""
    words = [t.word for t in before]
    if words and words[-1] in DETERMINERS:
        words = words[:-1]
    if len(words) < 5 or words[-1] not in PLACED or words[2] not in DETERMINERS or \
            not _speaker_verb(before[:2]):
        return None
    noun = words[3:-1]
    if not 0 < len(noun) <= MAX_NP or not all(plain(t) for t in before[3:3 + len(noun)]):
        return None
    entity, attribute = noun_phrase(noun)
    return (entity, attribute) if attribute else None


def _names_subject(tokens: list[Tok], i: int, start: int) -> tuple[str, str] | None:
    """NAME [adverb] VERB-s DETERMINER NP, the name the clause's subject: the NP's key. An NP
    a copula follows is a clause's subject, not the verb's object ("Bob says the venue is X"):
    the name reports that clause and is no value of it."""
    value = tokens[i].value
    if i != start or value is None or value[3] != "name":
        return None
    at = i + 1
    while at < len(tokens) and tokens[at].word in ADVERBS:
        at += 1
    verb = verb_group(tokens, at)
    if verb is None or verb + 1 >= len(tokens):
        return None
    at = verb + (tokens[verb + 1].word in PARTICLES)  # "signs off the claims"
    if at + 1 >= len(tokens) or tokens[at + 1].word not in DETERMINERS:
        return None
    words = _object(tokens, at + 1)
    after = at + 2 + len(words)
    if after < len(tokens) and tokens[after].word in COPULAS:
        return None
    entity, attribute = noun_phrase(words)
    return (entity, attribute) if attribute else None


def has_new(tokens: list[Tok], i: int, first: int) -> tuple[str, str] | None:
    """SUBJECT has/got a new NP [: , of] VALUE: the subject's NP, whose value it replaces
    ("The clinic has a new phone number: 555-0199": clinic phone number); a clause that
    opens "new NP VALUE" too (``fact_new_labels``: "new date 2025-09-13")."""
    label = new_label(tokens, i, _clause_start(tokens, i, first))
    if label:
        return label
    at = first + (first < len(tokens) and tokens[first].word in DETERMINERS)
    verb = next((k for k in range(at, min(i, at + MAX_NP + 1)) if tokens[k].word in _HAVE), i)
    name = tokens[at].value if verb == at + 1 else None
    subject = [name[2].lower()] if name and name[3] == "name" else _object(tokens[:verb], first)
    words = [t.word for t in tokens[verb:verb + 3]]
    if verb >= i or not (name or at + len(subject) == verb) or (  # (not "doesn't have")
            words[1:3] != ["a", "new"] and words[1] != "new"):
        return None
    np_at = verb + (3 if words[1] == "a" else 2)
    named = _object(tokens, np_at)
    between = [t.word for t in tokens[np_at + len(named):i]]
    entity, attribute = noun_phrase([*subject, *named]) if named and between in (
        [], [":"], [","], ["of"], ["—"], ["-"]) else ("", "")
    return (entity, attribute) if attribute else None


_HAVE = closed("has have got")
POSSESSIVES = closed("his her their its")  # the subject's own ("Grandpa takes his pill")


def _possessed(tokens: list[Tok], i: int, start: int) -> tuple[str, str] | None:
    """NAME [adverb] VERB-s his/her/their NP [PREPOSITION] VALUE, with a bare subject ("Grandpa
    takes his pill at 8 am": grandpa|pill); "the nurse brings his pill" is no one's sure."""
    head = tokens[start] if start < len(tokens) else None
    if head is None or not (plain(head) or (head.value and head.value[3] == "name")):
        return None
    at = next((k for k in range(start + 1, i) if tokens[k].word not in ADVERBS), i)
    verb = verb_group(tokens, at)
    if verb is None or verb + 1 >= i or tokens[verb + 1].word not in POSSESSIVES:
        return None
    words = _object(tokens, verb + 2)
    between = tokens[verb + 2 + len(words):i]
    if not words or any(t.word not in PREPOSITIONS for t in between) or len(between) > 2:
        return None
    entity, attribute = noun_phrase(words)
    owner = head.value[2].lower() if head.value else head.word
    return (f"{owner} {entity}".strip(), attribute) if attribute else None


def _rate_subject(tokens: list[Tok], i: int, start: int) -> tuple[str, str] | None:
    """K per N COPULA [now] VALUE: K's key (the words before "per")."""
    j = i - 1
    while j > start and (tokens[j].word in ADVERBS or tokens[j].word in DETERMINERS):
        j -= 1
    if j <= start or tokens[j].word not in COPULAS:
        return None
    counted = phrase_before(tokens, j, start)
    per = j - len(counted) - 1
    if not counted or per <= start or tokens[per].word != "per":
        return None
    entity, attribute = noun_phrase(phrase_before(tokens, per, start))
    return (entity, attribute) if attribute else None



def _refers_back(tokens: list[Tok], i: int, start: int) -> bool:
    """[subject] VERB it/them VALUE, the clause ending there: the value's key is what the
    pronoun refers to."""
    ends = i + 1 >= len(tokens) or tokens[i + 1].word in BOUNDARY
    return ends and i - 2 >= start and tokens[i - 1].word in ("it", "them") and \
        plain(tokens[i - 2])


def _subject_verb(tokens: list[Tok], i: int, start: int, bare: bool = False,
                  ) -> tuple[str, str] | None:
    """DETERMINER NP VERB [preposition] VALUE: the NP's key, the verb a finite one (-s after a
    singular noun, any plain word after a plural one). ``bare``: the sentence opens with the
    NP without its determiner ("Book club meets at the public library")."""
    at = i - 1
    while at > start and tokens[at].word == "·":  # "R" of "R 4.2.3"
        at -= 1
    if at > start + 2 and tokens[at].word in DETERMINERS and tokens[at - 1].word in PLACES \
            and tokens[at - 2].word not in PARTICLES:
        at -= 1  # "the photos live on the NAS" (not "the release goes out on the …")
    if at > start and tokens[at].word in PLACES:
        at -= 1
    opened = tokens[start].word in DETERMINERS
    if at - 1 - opened < start or not (opened or bare):
        return None
    after = i + 1
    while after < len(tokens) and tokens[after].word == "·":
        after += 1
    if not opened and after < len(tokens) and tokens[after].word not in BOUNDARY and \
            tokens[after].word != "from":
        return None  # ("Doors open at 18:30 for the launch party": the party's)
    subject, verb = tokens[start + opened:at], tokens[at]
    if not subject or len(subject) > MAX_NP or not all(plain(t) for t in subject) or \
            not plain(verb) or is_change(verb.word):
        return None
    plural = subject[-1].word.endswith("s") and not subject[-1].word.endswith("ss")
    if not (finite_verb(verb) if not plural else not verb.word.endswith("s")):
        return None
    entity, attribute = noun_phrase([t.word for t in subject])
    return (entity, attribute) if attribute else None


def _of_a_name(tokens: list[Tok], i: int, start: int) -> tuple[str, str] | None:
    """NAME from/at NAME: (the first name, the preposition) for the second ("Dominika from
    Talentbridge"); where the first name is a copula's complement, the second is the
    subject's ("Mum's GP is Dr. Reyes at Elm Park surgery": the GP's, so a replaced GP's
    name is no key of a current line)."""
    value, before = tokens[i].value, tokens[i - 2].value if i >= 2 else None
    if value is None or before is None or value[3] != "name" or before[3] != "name" or \
            tokens[i - 1].word not in ("from", "at"):
        return None
    copula = i - 3
    if copula > start and tokens[copula].word in COPULAS:
        at = start + (tokens[start].word in DETERMINERS)
        subject = _object(tokens, start)
        entity, attribute = noun_phrase(subject)
        if attribute and at + len(subject) == copula:
            return f"{entity} {attribute}".strip(), tokens[i - 1].word
    return before[2].lower(), tokens[i - 1].word


def _it_is(tokens: list[Tok], i: int, start: int) -> bool:
    """A clause "it's VALUE" / "it is VALUE" (its pronoun refers to the sentence's subject)."""
    words = [t.word for t in tokens[start:i]]
    return words in (["it's"], ["it", "is"], ["it", "is", "now"], ["it's", "now"])
