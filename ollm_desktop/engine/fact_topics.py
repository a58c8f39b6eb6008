"""Keys that meet when two statements name one thing in other words.

A value's key is read from the noun phrase it attaches to, and two phrasings of one thing
("the gym closes at 22:00" / "set the closing time to 23:00"; "the exporter runs on port
9100" / "the exporter's on 9200 now") give two keys that never meet: the old value stayed
current beside its correction. Each value therefore keeps its *topic*: the stems of the
content words of the statement around it (its clause, the clause before it if that holds no
value, the sentence before it when that holds none and the value has no noun phrase or that
sentence takes a word back, and its key's words), never the values
themselves nor closed-class words. A user's value whose key meets no earlier value is
compared with the earlier current user values of a compatible unit class by topic: an
earlier value is the same key when the two share a word that *tells it apart*, one the other
candidates' statements do not have ("frontend" and not "review date" between the frontend's
and the backend's review date), and when they do not name two owners (the API's port and the
admin console's never meet on "port"). ``fact_supersession`` replaces it (a correction) or
marks it "possibly replaced" (a plain restatement).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence

from ollm_desktop.engine import fact_leads, fact_mood_words
from ollm_desktop.engine import fact_words as W
from ollm_desktop.engine.fact_key_labels import two_labels
from ollm_desktop.engine.fact_key_synonyms import key_stem
from ollm_desktop.engine.fact_keys import noun_phrase, stem
from ollm_desktop.engine.fact_message_lines import said_sentences_once
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.provenance import Found

# Closed-class words (and the grammar's own closed verb classes): never a topic's word.
_CLOSED = (W.DETERMINERS | W.PREPOSITIONS | W.COPULAS | W.AUXILIARIES | W.PRONOUNS |
           W.MODALS | W.HEDGES | W.CHANGE | W.DEICTIC | W.REPLACE | W.FILLER | W.NOT_NP |
           W.CONJUNCTIONS | W.PARTICLES | W.NAMING | fact_mood_words.QUESTION_AUX |
           fact_mood_words.SUBJECTS | fact_mood_words.PRESENT | fact_mood_words.BE |
           fact_mood_words.PERFECT | fact_mood_words.CONTRAST | fact_mood_words.WH |
           fact_mood_words.QUANTIFIERS | fact_mood_words.FIRST_PERSON |
           fact_mood_words.NEGATION | fact_mood_words.ANTERIOR | fact_mood_words.SUBORDINATE |
           fact_mood_words.ANY_MOOD | fact_leads.RETRACT | fact_leads.ERROR |
           W.closed("every each all both either neither other another same new one ones "
                    "what which who about than thing things"))
# Where a clause ends inside a sentence: punctuation, a conjunction, a subordinator.
_CUTS = W.CONJUNCTIONS | fact_mood_words.ALWAYS_CUT | W.closed("since because while")
_TOKEN = re.compile(r"\x00[\ue000-\uf8ff]\x00|[^\W\d_][\w'’-]*|[,;:()—–!?]| - ")
# Unit classes a value of another may stand for: a port stated as a bare number.
_LOOSE = {frozenset({"port", "number"})}
# Unit classes that are lists of values: two of them are two entries, never one key.
_LISTS = W.MANY
# Kinds of fact that are a sentence kept whole, not a value.
_WHOLE = ("decision", "correction", "note", "question")


def topics(content: str, found: Sequence[Found]) -> list[str]:
    """For each of ``found`` (a message's facts, in order), its topic: the space-joined stems
    of the content words of the statement around it ("" for sentences and questions)."""
    sentences = said_sentences_once(content)
    # (a sentence kept whole holds no value: "The portfolio address I gave you was wrong."
    valued = {item.sentence for item in found if item.kind not in _WHOLE}  # names the key)
    out: list[str] = []
    for item in found:
        if item.kind in _WHOLE or item.old or \
                not 0 <= item.sentence < len(sentences):
            out.append("")
            continue
        values = [f.value for f in found if f.sentence == item.sentence]
        words = _around(sentences[item.sentence], values, item.value)
        _, per, rate = item.value.lower().partition(" per ")  # "95 EUR per hour": what
        if per:  # a rate is a rate of names its key as the value's own words do not
            words |= _content(rate.split())
        entity, attribute, _ = (item.key or "||").split("|")[:3]
        before = item.sentence - 1
        if before >= 0 and before not in valued and "?" not in sentences[before] and (
                not attribute or _takes_back(sentences[before])):  # (a question names none)
            words |= _content(_TOKEN.findall(sentences[before]))
        words |= _content(f"{entity} {attribute}".split())
        out.append(" ".join(sorted(words)))
    return out


def _takes_back(sentence: str) -> bool:
    """A sentence that says the user's word was wrong or takes it back ("The portfolio
    address I gave you was wrong."): it names the key the next sentence's value corrects,
    as the lead before a value of no noun phrase does ("About the junior's start. It's...")."""
    words = {w.lower() for w in _TOKEN.findall(sentence)}
    return bool(words & (fact_leads.ERROR | fact_leads.RETRACT))


def _around(sentence: str, values: Sequence[str], value: str) -> set[str]:
    """The content words of the clause that holds ``value`` and of the clause before it
    when that holds no value ("Dashboard refresh: I've cranked it down to ...")."""
    marked = sentence
    for index, other in sorted(enumerate(dict.fromkeys(values)), key=lambda p: -len(p[1])):
        marked = re.sub(rf"(?<!\w){re.escape(other)}(?!\w)", f" {_slot(index)} ", marked)
        # (whole words only: the value "Go" is no part of "Google")
    mine = _slot(list(dict.fromkeys(values)).index(value))
    clauses: list[list[str]] = [[]]
    for token in _TOKEN.findall(marked):
        word = token.strip().lower()
        if word == "?":  # a question before the value names no key: no lead
            clauses += [["\x00?"], []]
        elif word in W.BOUNDARY or word in ("-", "!") or word in _CUTS:
            clauses.append([])
        else:
            clauses[-1].append(token)
    lead: list[str] = []
    for k, clause in enumerate(clauses):  # the clause before it names the key ("Dashboard
        if mine in clause:  # refresh: ...", "scratch what I said about the junior's start —
            return _content([*lead, *clause, *_participle_subject(clauses, clause),  # it's")
                             *gapped_attribute(clauses[k - 1] if k else [], clause)])
        holds = any(t.startswith("\x00") for t in clause)  # (a trailing clause is an aside)
        lead = [] if holds else clause or lead
    return set()


def _participle_subject(clauses: list[list[str]], clause: list[str]) -> list[str]:
    """The owner words of the sentence's subject when ``clause`` is a participle clause,
    which has no subject of its own ("The loft insulation order is 27 rolls, covering 48 m²
    of floor": the loft's floor; "The exporter runs as a sidecar, listening on 9100"): the
    modifiers of the first clause's noun phrase before its first value, never its head
    noun ("the office lease ..., covering 180 m²" shares no word with "the warehouse lease
    covers 900 m²")."""
    first = clauses[0]
    if clause is first or not clause or not first or clause[0].startswith("\x00") or \
            not (clause[0].lower().endswith("ing") and len(clause[0]) > 5):
        return []
    words = [t.lower() for t in itertools.takewhile(lambda t: not t.startswith("\x00"), first)]
    entity, _ = noun_phrase(clause_subject_words(words))
    return entity.split()


def gapped_attribute(before: list[str], clause: list[str]) -> list[str]:
    """The attribute a coordinated clause leaves out ("Job time limit on the cluster is 48h
    and the eval job is 2h": the eval job's time limit): where the clause's subject ends in
    a noun that the clause before it names as a modifier of its own subject, the words
    after that modifier there ("job" of "job time limit": time limit)."""
    if not before or not any(t.startswith("\x00") for t in before):
        return []
    mine = clause_subject_words([t.lower() for t in clause])
    theirs = clause_subject_words([t.lower() for t in before])
    if not mine or len(theirs) < 2:
        return []
    head = stem(mine[-1])
    at = next((i for i, w in enumerate(theirs[:-1]) if stem(w) == head), None)
    if at is None:
        return []
    return list(itertools.takewhile(lambda w: w not in W.PREPOSITIONS, theirs[at + 1:]))


def clause_subject_words(words: list[str]) -> list[str]:
    """The words of a clause's subject: those before its first copula or auxiliary, past
    its determiners ("the loft insulation order is" -> loft insulation order)."""
    verbs = W.COPULAS | W.AUXILIARIES
    subject = list(itertools.takewhile(lambda w: w not in verbs, words))
    if len(subject) == len(words):  # no copula: the words before the last one (its verb)
        subject = subject[:-1]
    return [w for w in subject if w not in W.DETERMINERS and w.isalpha()]


def _slot(index: int) -> str:
    """A value's place in a sentence: a token no word or value can contain."""
    return f"\x00{chr(0xE000 + index % 6000)}\x00"


def _content(tokens: Sequence[str]) -> set[str]:
    """The stems of the content words; a verb and its particle are also the noun they make
    ("guests check out by 11:00": "checkout", as "the checkout time" says it; "kicks off":
    "kickoff"), and a hyphenated word is also the word it joins ("check-in": "checkin")."""
    out: set[str] = set()
    for k, token in enumerate(tokens):
        word = token.lower().replace("’", "'")
        if token.startswith("\x00") or not word[:1].isalpha() or len(word) < 3:
            continue
        word = word.removesuffix("'s").strip("'-")
        following = tokens[k + 1].lower() if k + 1 < len(tokens) else ""
        if following in W.PARTICLES and word.isalpha() and word not in _CLOSED:
            out.add(stem(stem(word) + following))
        if "-" in word and word.replace("-", "").isalpha():
            out.add(stem(word.replace("-", "")))
        if word in _CLOSED or len(word) < 3:
            continue
        out.add(stem(word))
    return out


def unit(fact: Fact) -> str:
    parts = fact.key.split("|")
    return parts[2] if len(parts) == 3 else ""


def compatible(new: Fact, old: Fact, *, single: bool = False) -> bool:
    """Units one key may hold: the same class, a port and a bare number, a name and a
    product's version ("moved the thesis to Overleaf" after "Word 2019"); never a list,
    unless the new value is the one value of a definite key (``single``: "the service
    address is now X", a link or path of the same kind as the old one)."""
    a, b = unit(new), unit(old)
    if single and a == b and a in _LISTS and new.ref_kind == old.ref_kind:
        return True
    if not a or not b or a in _LISTS or b in _LISTS or _code(new) or _code(old):
        return False
    if a == b or frozenset({a, b}) in _LOOSE:
        return True
    if {a, b} == {"name", "version"}:
        version = old if b == "version" else new
        name, _, number = version.value.partition(" ")
        return bool(number) and name[:1].isalpha()
    return False


def unrelated(new: Fact, old: Fact) -> bool:
    """Two statements that share no content word at all ("The kids go to bed at 20:00",
    "Dinner is at 18:30 now"): nothing says one value may be the other's key."""
    return bool(new.topic and old.topic) and not set(new.topic.split()) & set(
        old.topic.split())


def two_owners(new: Fact, old: Fact) -> bool:
    """Each key names an owner the other's key does not ("the API port" / "the admin
    console's port", "the request timeout" / "the statement timeout"): two keys, never
    possibly one."""
    return bool(_owners(new, old, later=True) - key_words(old) and
                _owners(old, new) - key_words(new))


def _code(fact: Fact) -> bool:
    """An identifier of code (a function, a path...), not a name a person says: a
    capitalised product name the finder reads as a class ("GoodTime") is a name."""
    return fact.ref_kind in _LISTS and not (
        fact.ref_kind == "class" and fact.value.isalnum())


def same_topic(new: Fact, earlier: Sequence[Fact], *, single: bool = False) -> list[Fact]:
    """The earlier values (``earlier``: current user values stated before ``new``) that are
    ``new``'s key named in other words: a word of both statements that tells the value from
    the other candidates, one of them a key's word, and no two owners (``single``: ``new``
    is the one value of a definite key, see ``compatible``)."""
    if not new.topic:
        return []
    pool = [f for f in earlier if f.topic and compatible(new, f, single=single)
            and not two_labels(new.key, f.key)]  # "Hall A" is never "Hall B"
    by_value: dict[str, set[str]] = {}
    for fact in pool:  # one value stated twice is one candidate
        by_value.setdefault(fact.value, set()).update(fact.topic.split())
    said = Counter(word for words in by_value.values() for word in words)
    mine = set(new.topic.split())
    out: list[Fact] = []
    for old in pool:
        owners = _owners(new, old, later=True)
        words = set(old.topic.split())
        # a word that tells it apart: no other candidate's statement has it
        telling = {w for w in mine & words if said[w] == 1}
        if not telling & (key_words(new) | key_words(old)):
            continue  # the key's own words, never only a verb both use ("we use ...")
        if owners - words and _owners(old, new) - mine:
            continue  # each names an owner the other does not: "api port" / "admin port"
        if telling <= owners & _owners(old, new) and not (
                _attribute(new) <= words or _attribute(old) <= mine or
                (single and unit(new) in _LISTS)):  # (the one address a definite key names)
            continue  # one owner's two attributes, alike only in the owner both name: "the
            # ablation table's budget line" and "the ablation table's quote" (not "the
            # junior dev starts on" and "junior start": its statement names the attribute)
        out.append(old)
    if len(out) > 1:  # "move the frontend deploy to 15:00, ahead of the backend deploy":
        named = [old for old in out  # the one its own key names
                 if key_words(new) & set(old.topic.split()) - _shared(out, old)]
        out = named or out
    return out


def _shared(found: Sequence[Fact], old: Fact) -> set[str]:
    """The topic words ``old`` shares with another of ``found``."""
    words: set[str] = set()
    for other in found:
        if other is not old:
            words |= set(other.topic.split())
    return words


# The adjectives that name another time of one thing ("the old server", "our current office",
# "my previous laptop"): against one of them "new" names an owner too, the other thing.
_TIMES_OF_A_THING = frozenset({"old", "current", "previous", "former", "existing", "present",
                               "original", "prior", "earlier", "older", "newer"})


def _owners(fact: Fact, other: Fact | None = None, *, later: bool = False) -> set[str]:
    """The stems of a key's owner words. "new" names no owner: "the new episodes", "the new
    seal number" are the key's current value ("old" does: "our old sitter" is another), but
    against ``other``'s "old", "current", "previous"... it does ("the new server" is not "the
    old server", "the new office" not "our current office"), and so it does in the ``later``
    statement against any owner ``other`` names: "the new server" after "the staging
    server" is another server (the earlier "new episodes" are the "main episodes")."""
    words = fact.key.split("|")[0].split()
    theirs = set(other.key.split("|")[0].split()) if other is not None else set()
    keep_new = bool(_TIMES_OF_A_THING & theirs) or (later and bool(theirs - {"new"}))
    return {key_stem(w) for w in words if w != "new" or keep_new}


def _attribute(fact: Fact) -> set[str]:
    return {key_stem(w) for w in fact.key.split("|")[1].split()} if fact.key.count("|") == 2 \
        else set()


def key_words(fact: Fact) -> set[str]:
    """The stems of a key's owner and attribute words (one for two names of one thing,
    ``fact_key_synonyms``: "db" and "database")."""
    entity, attribute, _ = (fact.key or "||").split("|")[:3]  # (and as said: topics are)
    return {f(w) for w in f"{entity} {attribute}".split() for f in (key_stem, stem)}
