"""A value named as a key's new holder: "VALUE is / will be the new K (for/of OWNER)".

"Newark Showground will be the new venue for The Big Weekend 2024", "Jane Doe is our new
treasurer", "18 is the new minimum Node version". The value is the clause's subject and the
predicate's noun phrase is its key (its head noun the attribute, the words before it and the
owner after "for"/"of" the entity); "new" says the value takes the key over from whatever held
it, so the sentence restates the key with another value: a correction of it, whatever words
the earlier statement used (``fact_supersession`` decides which earlier value has that key).
Only the statement's own structure reads so: a question ("Is Jane the new treasurer?"), a
modal ("Oakwood could be the new venue") or a condition ("if ... is the new venue") has no
subject-copula-"the new" order or no statement mood, and replaces nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ollm_desktop.engine.fact_mood_words import SUBORDINATE
from ollm_desktop.engine.fact_words import (
    DETERMINERS,
    FILLER,
    LEADS,
    NOT_NP,
    PREPOSITIONS,
    PRONOUNS,
    TIMES,
)

# The definite determiners and possessives before "new K" ("the", "our"): an indefinite or
# a demonstrative ("a new lead", "that new lead") names no key's one holder.
_DEF = "(?:" + "|".join(sorted(DETERMINERS - {"a", "an", "this", "that", "these", "those"})) \
    + ")"
# The copula of a present or future statement, then a determiner and "new" (a closed class:
# the verbs that say what the subject is, not what it might be).
_NEW_ROLE = re.compile(
    rf"\s+(?:is|are|will\s+be|becomes|has\s+become|is\s+now)\s+{_DEF}"
    r"\s+new\s+(?P<phrase>[^,;:.!?()]+?)\s*(?=[,;:.!?()]|$)", re.IGNORECASE)
# "X is now the K", "X takes over (from Y) as K", "X replaces Y as K": the subject takes the
# role over (the verbs of taking a role, a closed class; "as" marks the role's noun).
_TAKES_ROLE = re.compile(
    rf"\s+(?:(?:is|'s|will\s+now\s+be)\s+now\s+{_DEF}"
    r"|(?:takes|took|has\s+taken|will\s+take)\s+over(?:\s+from\s+(?P<from>[A-Z][^,;:.!?()]*?))?"
    rf"\s+as(?:\s+{_DEF})?"
    r"|(?:replaces|replaced|has\s+replaced|will\s+replace)\s+(?P<old>[A-Z][^,;:.!?()]*?)"
    rf"\s+as(?:\s+{_DEF})?)"
    r"(?:\s+new)?\s+(?P<phrase>(?:[A-Z]{2,5}s?\b|[a-z])[A-Za-z0-9 -]*?)\s*(?=[,;:.!?()]|$)")
# "Priya took over from Tom (last month)": no post named, so the holder takes whatever the
# one it took over from held (no key of its own: it refers back, ``fact_keyless``).
_TAKES_FROM = re.compile(
    r"\s+(?:takes|took|has\s+taken)\s+over\s+from\s+(?P<from>[A-Z][\w'’-]*"
    r"(?:\.(?=\s+[A-Z]))?(?:\s+[A-Z][\w'’-]*){0,2})(?P<phrase>(?:\s+(?:(?:last|this|yesterday"
    r"|today)\b|(?:on|in)\s+(?:\d|[A-Z]))[^,;:.!?()]*)?)\s*(?=[,;:.!?()]|$)")
# ("on the night shift", "in March only": a part of the post, no whole taking over)
# "X is the K", "X is our K now": the subject holds the role (a present copula and a definite
# determiner; "now" after the role says it took the role over). No adjective, no indefinite:
# "Dana is happy", "Dana is a reviewer" name no one holder of a key.
_HOLDS_ROLE = re.compile(
    rf"\s+(?:is|'s)\s+{_DEF}\s+(?P<phrase>[a-z][a-z0-9 -]*?)(?P<now>\s+now)?"
    r"\s*(?=[,;:.!?()]|$)")
# "Bea leads the altos now", "Sam now coaches the U12s": a verb of holding a post (a closed
# class) whose object is what the post is over, with "now" (the post changed hands); the
# key's attribute is the verb's agent noun (leads: leader), its entity the object.
_AGENTS = {"leads": "leader", "manages": "manager", "coaches": "coach", "chairs": "chair",
           "heads": "head", "captains": "captain", "hosts": "host", "teaches": "teacher",
           "coordinates": "coordinator", "directs": "director", "conducts": "conductor",
           "supervises": "supervisor", "organises": "organiser", "organizes": "organizer"}
_AGENTS |= {"leading": "leader", "managing": "manager", "coaching": "coach",
            "chairing": "chair", "heading": "head", "captaining": "captain", "hosting": "host",
            "teaching": "teacher", "coordinating": "coordinator", "directing": "director",
            "conducting": "conductor", "supervising": "supervisor", "organising": "organiser",
            "organizing": "organizer"}  # ("Bea is leading the altos now")
_HOLDS_POST = re.compile(
    r"\s+(?:(?P<before>now\s+)|is\s+(?P<isnow>now\s+)?)?(?P<verb>" + "|".join(sorted(_AGENTS))
    + rf")\s+(?:{_DEF}\s+)?"
    r"(?P<phrase>[A-Za-z0-9][A-Za-z0-9 -]*?)(?P<now>\s+now)?\s*(?=[,;:.!?()]|$)")
# A capitalised name ending where the copula starts ("Newark Showground", "Jane Doe").
_NAME_BEFORE = re.compile(r"(?:\b[A-Z][\w&'.-]*(?:\s+(?:of|de|la|the|&)?\s*[A-Z0-9][\w&'.-]*)*)$")
_OWNER = re.compile(r"\s+(?:for|of|on)\s+", re.IGNORECASE)  # ("lead on the migration")
# An adjunct that dates or conditions the taking over ("once Dana retires", "in 2027", "next
# month", "from March"): a subordinator, a time word, or a preposition before a number or a
# capitalised date; the role's noun phrase ends before it.
_ADJUNCT = re.compile(
    r"\s+(?:(?:" + "|".join(sorted(SUBORDINATE | TIMES | {"when", "after", "until", "before"}))
    + r")\b|(?:in|from|by|starting|as\s+of)\s+(?:\d|[A-Z])|on\s+(?:\d|(?-i:[A-Z])))",
    re.IGNORECASE)  # ("on Monday" dates it; "lead on the migration" names the owner)
# A verb of a taking over still to come ("will be", "takes over in March"): with a dated or
# conditional adjunct it is a plan; a present copula or a past one states it ("is the new
# lead as of Monday", "took over in March").
_PLANNED = re.compile(r"\s+(?:will|takes|replaces)\b", re.IGNORECASE)
MAX_KEY_WORDS = 5


@dataclass(frozen=True)
class NewRole:
    """A value the sentence names as a key's new holder: where it is, and the key's words."""

    start: int
    end: int
    entity: str
    attribute: str
    phrase_start: int
    phrase_end: int
    old: tuple[int, int] | None = None  # the holder it takes over from, where it names one
    takes_over: bool = True  # False: "X is the K" states who holds it, no change


def new_role(sentence: str, values: list[tuple[int, int]],
             unasserted: tuple[tuple[int, int], ...] = ()) -> NewRole | None:
    """The value "VALUE is the new K (for OWNER)" names as K's new holder: a value read
    (``values``: where each starts and ends) that ends where the copula starts, else the
    capitalised name there; never one in a span the sentence layer found asserting nothing
    (``unasserted``), nor one a dated or conditional adjunct makes a plan."""
    matches = sorted([*_NEW_ROLE.finditer(sentence), *_TAKES_ROLE.finditer(sentence),
                      *_TAKES_FROM.finditer(sentence),
                      *(m for m in _HOLDS_POST.finditer(sentence)
                        if (m.group("before") or m.group("isnow") or m.group("now")) and
                        (m.group("verb").endswith("ing") == m.group(0).lstrip().startswith("is"))
                        and _a_role(m.group("phrase"))),
                      *(m for m in _HOLDS_ROLE.finditer(sentence) if _a_role(m.group("phrase")))],
                     key=lambda m: m.start())
    for match in matches:
        head = sentence[:match.start()].rstrip()
        span = next(((a, b) for a, b in values if b == len(head)), None) or _name_before(head)
        if span is None or any(a <= at < b for a, b in unasserted
                               for at in (span[0], match.start() + 1)):
            continue  # (fact_mood) someone else's word, a wish, a condition: no holder
        plain = match.re is _HOLDS_ROLE and not match.group("now")
        if plain and not _a_holder(sentence, span):
            continue  # "Today is the deadline", "Ctrl+C is the shortcut": no one's name
        phrase = match.group("phrase")
        if plain and _BOUNDED.search(phrase):
            continue  # "Sam is the release manager next sprint": not the one holding it now
        dated = _ADJUNCT.search(phrase)
        if dated is not None:  # "will be the new lead once Dana retires": a plan, not a holder
            if _PLANNED.match(sentence, match.start()):
                continue
            phrase = phrase[:dated.start()]
        if match.re is _TAKES_FROM and re.search(r"\bonly\b", match.group("phrase")):
            continue  # "took over from Sam on Mondays only": a part of the post
        key = _key_words(phrase) if match.re is not _TAKES_FROM else ("", "")
        if key is not None and match.re is _HOLDS_POST:  # (the object is the post's owner)
            key = " ".join(filter(None, key)), _AGENTS[match.group("verb")]
        if key is None:
            continue
        found = match.groupdict().get("old") or match.groupdict().get("from")
        old = (match.start("old"), match.end("old")) if match.groupdict().get("old") else (
            (match.start("from"), match.end("from")) if found else None)
        # (the phrase's end includes a dated adjunct: its date is the change's, no value)
        return NewRole(*span, *key, match.start("phrase"), match.end("phrase"), old,
                       takes_over=not plain)
    return None


def _a_role(phrase: str) -> bool:
    """A noun phrase that names a role ("release manager", "venue for the offsite"): no
    pronoun, verb word, relative pronoun or preposition but its owner's "for"/"of" ("the
    language we use", "the way to go", "the one who decides" name none), no superlative ("the
    best", "the tallest player": a ranking, no post), and not "new" (``_NEW_ROLE`` reads that)."""
    words = phrase.lower().split()  # ("the K for now": "for" is no role's last word)
    return bool(words) and words[0] != "new" and words[-1] not in ("one", "ones", "for", "of") \
        and not _SUPERLATIVE.match(words[0]) and \
        not any(w in NOT_NP or w in _RELATIVES or (w in PREPOSITIONS and w not in ("for", "of"))
                for w in words)


# A superlative's word shape ("best", "tallest", "most", "least"): a ranking, no role.
_SUPERLATIVE = re.compile(r"(?:best|worst|most|least|\w{2,}est)$")
_RELATIVES = frozenset({"who", "whom", "whose", "which", "that", "where"})
# A time-bounded predicate ("the release manager next sprint", "the top scorer this week"):
# a time word that starts a time adjunct; the holder is not the one holding it now.
# "this"/"that" date only a unit of time ("this week", not "this repo"): a closed class.
_BOUNDED = re.compile(
    r"\s+(?:(?:" + "|".join(sorted(TIMES - {"now", "here", "there", "point", "this", "that"}))
    + r")\b|(?:this|that)\s+(?:day|week|weekend|month|quarter|year|season|sprint|term|"
    r"semester|morning|afternoon|evening|night|time|round)\b)", re.IGNORECASE)


def _a_holder(sentence: str, span: tuple[int, int]) -> bool:
    """A subject that can hold a role: not a time or place word ("Today", "Here", "Tomorrow":
    deictic words point, they name no one), and a whole word, not the end of a key chord or an
    expression ("Ctrl+C")."""
    if span[0] > 0 and not sentence[span[0] - 1].isspace():
        return False
    return sentence[span[0]:span[1]].lower() not in TIMES


def _name_before(head: str) -> tuple[int, int] | None:
    """The capitalised name ``head`` ends with, past an opening determiner or pronoun ("The
    Grand Hotel": Grand Hotel; "It": none)."""
    name = _NAME_BEFORE.search(head)
    if name is None:
        return None
    start = name.start()
    for word in name.group(0).split():
        if word not in _OPENERS:
            break
        start = head.find(word, start) + len(word) + 1
    return (start, name.end()) if start < name.end() else None


# A capitalised first word that is no name's: a clause's opener (a pronoun, a determiner, an
# interjection or a correction's lead: "Actually Sam", "Yes Sam", "Also Sam").
_OPENERS = frozenset({w.capitalize() for w in PRONOUNS | DETERMINERS | FILLER}
                     | {w.capitalize() for w in LEADS if " " not in w}
                     | {"There", "Yes", "Yeah", "Thanks", "Please"})


def _key_words(phrase: str) -> tuple[str, str] | None:
    """(entity, attribute) of "minimum Node version" (minimum node, version) or "venue for
    The Big Weekend 2024" (big weekend 2024, venue)."""
    phrase = re.sub(r"\s+(?:for|of)\s*$", "", phrase, flags=re.IGNORECASE)  # ("the code
    # name for this project": an adjunct's time word cut the owner, "for" stays no key word)
    noun, _, owner = (p.strip() for p in _split_owner(phrase))
    words = [w.lower() for w in noun.split() if w.lower() not in DETERMINERS]
    owner_words = [w.lower() for w in owner.split() if w.lower() not in DETERMINERS]
    if not words or len(words) + len(owner_words) > MAX_KEY_WORDS or \
            not all(w.replace("-", "").isalnum() for w in words + owner_words):
        return None
    return " ".join([*owner_words, *words[:-1]]), words[-1]


def _split_owner(phrase: str) -> tuple[str, str, str]:
    found = _OWNER.search(phrase)
    if found is None:
        return phrase, "", ""
    return phrase[:found.start()], found.group(0), phrase[found.end():]
