"""The key of a value: the noun phrase it attaches to, as (entity, attribute), and its unit
class. "the API port is 8443", "the port of the API is 8443", "the API's port is 8443", "the
API listens on port 8443" and "8443 for the API" are all (api, port); "set the request timeout
to 60 s" is (request, timeout) with the unit class duration. One shared word never makes a key.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ollm_desktop.engine.fact_clause_openings import (
    after_connective,
    head_before_for,
    subject_start,
)
from ollm_desktop.engine.fact_label_heads import SPANS, label_colon, verb_before_value, with_opening
from ollm_desktop.engine.fact_named_owner import as_manner, named_owner
from ollm_desktop.engine.fact_purpose_clauses import beyond_change, reported_clause_start
from ollm_desktop.engine.fact_sibling_marks import marked_owner
from ollm_desktop.engine.fact_subject_ends import subject_end
from ollm_desktop.engine.fact_value_classes import counted_amount, shaped_class
from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    BOUNDARY,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    DURATION,
    LINKS,
    MEASURE_CLASS,
    NAMING,
    NO_HEAD,
    NO_NOUN,
    NOT_NP,
    PARTICLES,
    PREPOSITIONS,
    PRONOUNS,
    Tok,
    change_verb_at,
    is_change,
)
from ollm_desktop.engine.reference_patterns import CURRENCY_CODES, NUMBER_WORDS


def unit_class(value: str, ref_kind: str, attribute: str) -> str:
    """The kind of quantity a value is, what may replace it ("300 each payday": a count)."""
    if ref_kind in ("port", "version", "path", "url", "setting", "time", "hash", "ticket",
                    "address", "date", "weekday"):  # (their own; a weekday's is a date's)
        return "date" if ref_kind == "weekday" else ref_kind
    if ref_kind == "number" and (shaped := shaped_class(value)) is not None:
        return shaped  # ("1:500", "30x40 cm", "twice a day": their shape says what they are)
    if ref_kind == "number":
        unit = re.sub(r"^(?:every )?[-+~]?[\d.,_]+(?:[eE][-+]?\d+|\s?\d*/\d+)?\s*", "",
                      counted_amount(value).lower())  # ("every 2 weeks": a period's unit)
        spelled = unit.rstrip(".").replace("-", " ").split()  # ("2 1/2 cups": cups)
        while spelled and spelled[0] in NUMBER_WORDS:  # "two weeks"; "five" alone: a number
            spelled = spelled[1:]
        unit = re.split(r"\b(?:per|each|every)\b|^/|^an?\b", " ".join(spelled))[0].strip()
        if not unit:
            return attribute if attribute in ("port", "version") else "number"
        if unit in DURATION or _in_duration_units(unit):
            return "duration"
        if unit in MEASURE_CLASS:  # (one class each: "size", "bandwidth", "area", "percent")
            return MEASURE_CLASS[unit]
        if unit[0] in "€$£¥₹¢" or unit.split()[0] in CURRENCIES:  # "45 EUR", "75¢", "30 dollars"
            return "money"
        return singular(unit) if unit.endswith("ies") else \
            unit[:-1] if unit.endswith("s") and len(unit) > 3 else unit
    return "name"


# ISO 4217 codes no English word ("ISK 184,000", "45 EUR"), lower case, and money's words
# ("85 cents", "30 dollars"; not "c" or "p": "25c" outside, "720p" are no money).
CURRENCIES = frozenset(code.lower() for code in CURRENCY_CODES) | {
    "cent", "cents", "pence", "dollar", "dollars", "euro", "euros", "bucks", "quid"}


def singular(word: str) -> str:
    """A plural noun's singular ("retries", "replicas" -> retry, replica); a Latin "-ies" noun is
    its own ("series"), a short or "-ie" noun keeps its "ie" ("ties", "movies", "cookies")."""
    word = word.removesuffix("'s").removesuffix("'")
    if "_" in word:  # a code name ("timeout_ms", "max_retries") is written as it is
        return word
    if word.endswith("ies") and len(word) > 4 and word[-4] not in "aeiou":
        return word if word in _SAME_PLURAL else \
            word[:-1] if word[:-1] in _IE_NOUNS else word[:-3] + "y"
    return word[:-1] if word.endswith("s") and len(word) > 3 and \
        not word.endswith(("ss", "us", "is")) else word


# English nouns whose plural is their singular in "-ies" (Latin fifth declension), and the
# common nouns that end in "-ie" (diminutives and loans: their plural drops only the "s").
_SAME_PLURAL = frozenset({"series", "species", "congeries", "superficies"})
_IE_NOUNS = frozenset({"movie", "cookie", "calorie", "zombie", "rookie", "selfie", "hoodie",
                       "goalie", "brownie", "smoothie", "prairie", "freebie", "newbie",
                       "sortie", "auntie", "birdie", "bookie", "junkie", "veggie", "hippie",
                       "genie", "boogie", "collie", "coterie", "reverie", "menagerie",
                       "rotisserie", "lingerie", "eyrie", "talkie", "walkie", "pixie"})


# Derivational and inflectional endings, longest first: "retention" and "retained", "capped"
# and "cap", "sampling" and "sample" meet at one stem (a closed set of English suffixes); a
# noun in -ery meets its verb ("delivery" / "delivered", "recovery" / "recover").
_ENDINGS = ("ation", "ention", "tion", "sion", "ment", "ing", "ion", "ery", "ed", "es", "s",
            "e")
# An agent noun and its action noun ("supervisor" / "supervision", "operator" / "operation",
# "instructor" / "instruction", "compressor" / "compression"): the agent noun takes the
# action noun's stem when that stem still names something (four letters or more: not
# "curator" / "cure", "senator" / "sensor", "doctor" / "doc"). Other words in -or keep their
# own stem ("monitor" / "monitoring", "mentor" / "mentoring").
_AGENT_ACTION = (("ator", "ation"), ("ctor", "ction"), ("isor", "ision"), ("ssor", "ssion"))


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """A word's stem, so a key phrased as a verb meets the one phrased as its noun: "raw
    events are retained" / "raw event retention", "uploads are capped" / "the upload cap"."""
    word = singular(word)
    for agent, action in _AGENT_ACTION:
        if word.endswith(agent):
            acted = _stem(word[:-len(agent)] + action)
            if len(acted) >= 4:
                return acted
    stemmed = _stem(word)  # "retry" / "retries" ("retrie") / "retried": all meet at "retri"
    if len(stemmed) >= 4 and stemmed.endswith("y") and stemmed[-2] not in "aeiou":
        return stemmed[:-1] + "i"
    return stemmed


def _stem(word: str) -> str:
    if word.endswith("ly") and len(word) >= 6:  # "hourly" / "per hour", "weekly" / "week"
        return word[:-2]  # (not "apply", "reply": a stem of three letters names nothing)
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            word = word[:-len(ending)] + ("er" if ending == "ery" else "")
            break
    if word.endswith("ain") and len(word) > 5:
        word = word[:-3]  # retain / retention, detain / detention
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]  # capped -> capp -> cap, shipping -> shipp -> ship
    return word


def noun_phrase(words: list[str]) -> tuple[str, str]:
    """(entity, attribute) of a noun phrase's words: "port of the api" -> (api, port)."""
    dets = [k for k, w in enumerate(words) if w in DETERMINERS]
    if "of" not in words and dets and dets[-1] > 0:  # "remeasured the bedroom window": a
        words = words[dets[-1]:]  # noun phrase begins at its determiner (the verb is none)
    words = words[max((k + 1 for k, w in enumerate(words) if w in LINKS), default=0):]
    words = [w for k, w in enumerate(words) if w != "#" and w not in DETERMINERS and (
        w not in NO_NOUN or _modifier(words, k)) and (  # "Moved: Tuesday": a verb, no noun
        len(words) > 1 or not w.endswith("ed") or not is_change(w))]
    while words and words[-1] in NO_HEAD:  # "the budget has been (raised)": no head noun
        words = words[:-1]
    if "of" in words:
        at = words.index("of")
        head, owner = words[:at], words[at + 1:]
        return " ".join(singular(w) for w in owner[-2:]), singular(head[-1]) if head else ""
    if not words:
        return "", ""
    owner = marked_owner([w for w in words[:-1] if w not in PREPOSITIONS])
    return " ".join(singular(w) for w in owner), singular(words[-1])


def _modifier(words: list[str], k: int) -> bool:
    """A particle as an adjective between a determiner and a noun: "the away kit" (not "back")."""
    return words[k] in PARTICLES and 0 < k < len(words) - 1 and words[k - 1] in DETERMINERS \
        and words[k + 1].isalpha() and words[k + 1] not in NOT_NP


def phrase_before(tokens: list[Tok], end: int, floor: int) -> list[str]:
    """The words of the noun phrase ending just before ``end`` (back to a boundary)."""
    words: list[str] = []
    index = end - 1
    while index >= floor:
        token = tokens[index]
        if token.value or token.word in BOUNDARY or token.word in COPULAS or token.word == "·" \
                or (change_verb_at(tokens, index) and index > floor - 1 and words) or \
                token.word in AUXILIARIES or token.word in PRONOUNS or \
                (token.word in PREPOSITIONS and token.word != "of") or \
                token.word in CONJUNCTIONS or (token.word in NAMING and (
                    token.word not in ("name", "names") or index + 1 >= len(tokens) or
                    tokens[index + 1].word in DETERMINERS)):  # "the bucket name is": a noun
            break
        words.insert(0, token.word)
        index -= 1
    return words


def clause_subject(tokens: list[Tok], end: int, floor: int) -> list[str]:
    """The subject noun phrase of the clause before ``end`` ("the API listens on" -> api):
    after its last determiner, without the verb that precedes a preposition. A clause begins
    after punctuation, or a conjunction after a value ("runs on 4 GPUs and inference runs")."""
    floor = max([floor, *(k + 1 for k in range(floor, end) if tokens[k].word in CONJUNCTIONS
                          and k > floor and (tokens[k - 1].value or tokens[k - 1].word == "·"))])
    clause = [t for t in tokens[floor:end] if not t.value and t.word != "·"]
    start = max((i for i, t in enumerate(clause) if t.word in BOUNDARY), default=-1) + 1
    clause = subject_start(clause[start:])
    popped = False
    while clause and (clause[-1].word in DETERMINERS or clause[-1].word in PREPOSITIONS):
        popped = popped or (clause[-1].word in PREPOSITIONS and clause[-1].word != "of")
        clause.pop()  # "goes out on the" before "5th of May": the value's own preposition
    dets = [i for i, t in enumerate(clause) if t.word in DETERMINERS]
    begin = dets[-1] + 1 if dets else 0
    words: list[str] = []
    for token in clause[begin:]:
        if token.word in PREPOSITIONS or token.word in COPULAS:
            break
        words.append(token.word)
    words = (head_before_for(clause, dets[-1]) if dets else []) or words
    if not dets or dets[-1] == 0:  # "the release goes out", "the reading group meets": the
        words = _before_verb(words)  # subject ends where an inflected verb begins
    # after a verb the phrase is its object ("put the report template in"): no verb in it
    subject = not dets or dets[-1] == 0
    if words and subject and (len(words) >= 2 or not dets) and \
            ((begin + len(words) < len(clause) and
              clause[begin + len(words)].word in PREPOSITIONS and
              clause[begin + len(words)].word != "of") or
             (popped and begin + len(words) == len(clause))) and \
            not _subject_before(tokens, end, words[-1]) and \
            not (len(words) == 1 and _copula_gapped(tokens, end)):
        words = words[:-1]  # "the api listens on", "look at": the verb before a preposition
    return [w for w in words if w not in NOT_NP and (not is_change(w) or (  # "the scale said"
        bool(dets) and [t.word for t in clause[begin:begin + 1]] == [w]))]


def _subject_before(tokens: list[Tok], end: int, word: str) -> bool:
    """``word`` heads a subject earlier in the sentence (followed there by its verb, not a
    preposition): "the morning shuttle leaves at 7:15 and the evening shuttle at 18:30" has
    its verb left out, and "shuttle" is the noun, not a verb before "at"."""
    seen = [k for k in range(end) if tokens[k].word == word][:-1]  # (not this one)
    return any(not tokens[k + 1].value and tokens[k + 1].word not in PREPOSITIONS and
               tokens[k + 1].word not in BOUNDARY for k in seen)


def _copula_gapped(tokens: list[Tok], end: int) -> bool:
    """An earlier clause is "NOUN is at VALUE" and this one "NOUN at VALUE" (the copula left
    out: "Kickoff is at 9:00, lunch at 12:30"): the word before "at" is the subject."""
    prep = next((tokens[k].word for k in range(end - 1, -1, -1)
                 if tokens[k].word in PREPOSITIONS), None)
    here = max((k for k in range(end) if tokens[k].word == prep), default=0)
    return prep is not None and any(
        tokens[k].word in COPULAS and tokens[k + 1].word == prep and tokens[k + 2].value
        and k > 0 and not tokens[k - 1].value and tokens[k - 1].word not in PRONOUNS
        for k in range(here - 2) if k + 2 < here)


def _before_verb(words: list[str]) -> list[str]:
    """A subject's words up to its verb: after its first noun, a word inflected as a verb
    ("goes", "meets", "moved") that follows an uninflected noun ends it."""
    for k in range(1, len(words)):
        word, prev = words[k], words[k - 1]
        particles = all(w in PARTICLES for w in words[k + 1:])
        if (len(word) > 3 and word.endswith(("s", "ed")) and not prev.endswith("s") and
                "_" not in word and  # (a code name is no verb: "set max_retries 3")
                not word.endswith(("ss", "us", "is")) and particles) or \
                (k + 1 < len(words) and particles):  # "goes out", "go out"; not "tests run"
            return words[:k]
    return words


def key_of(tokens: list[Tok], i: int, first: int) -> tuple[str, str]:
    """(entity, attribute) of the value at ``i``: the noun phrase it attaches to."""
    words = [t.word for t in tokens]
    token = tokens[i]
    kind = token.value[3] if token.value else ""
    change = next((j for j in range(first, i) if is_change(words[j])), None)
    reported = reported_clause_start(tokens, change, i) if change is not None else None
    if reported is not None:  # "update the docs to say that the port is 5000": the port's
        return key_of(tokens, i, reported)
    if change is not None and beyond_change(tokens, change, i):
        change = None  # "bump K to X, which …, now that Y is …": Y is not K's
    if (change is not None and "to" in words[change + 1:i + 1]) or \
            (change is not None and "from" in words[change + 1:i]):
        stop = next(j for j in range(change + 1, i + 1) if words[j] in ("to", "from") or
                    tokens[j].value)
        moved, held = [w for w in words[change + 1:stop] if w], tokens[stop].value
        if len(moved) > 1 and moved[-1] in PREPOSITIONS and held is not None:  # "version of
            moved = [*moved, held[2].lower()] if moved[-1] == "of" else moved[:-1]  # Python";
        entity, attribute = noun_phrase(moved)  # "retention on orders.v1": the retention
        if attribute:
            return entity, attribute
    if change is None and i - 1 > first and words[i - 1] == "to":
        moved = object_before(tokens, i - 1, first)
        if moved:  # "we pinned the tool to v4.17": any verb's "the K to X" (a change verb's too)
            return noun_phrase(moved)
    j = label_colon(tokens, i, first)  # (past a phrase value's words: "loft insulation: …")
    while j >= first and (words[j] in ("now", "called", "named", "at", "on", "due", "set",
                                       "to", "not", "but", ",") or words[j] in DETERMINERS or
                          (tokens[j].value and j != i)):
        if words[j] in COPULAS or tokens[j].value:
            break
        j -= 1
    if j >= first and words[j] in COPULAS:
        end = j - 1 if words[j - 1:j] == ["now"] else j
        phrase = phrase_before(tokens, end, first)
        owned = [] if phrase or kind in ("date", "time") else named_owner(
            tokens, end, first)  # "log retention in Loki is": Loki's log retention (a
        if phrase or owned:  # date's or time's "the pickup in Reykjavik is": a place)
            head = owned[:-1] or _head_before(tokens, end - len(phrase), first)
            phrase = phrase or owned[-1:]
            if head:  # "our contact at the vendor is": the vendor's contact; "the dropout
                entity, attribute = noun_phrase([*head, "of", *phrase])  # rate in the blocks":
                kinds = [singular(w) for w in head[:-1]]  # the blocks' dropout rate
                return " ".join([*entity.split(), *kinds][-3:]), attribute
            return noun_phrase(phrase)
    # "return BA118 on 26 May": the date of what the name before it is the value of
    before = tokens[j].value if first < j == i - 2 else None
    if before is not None and words[j + 1] in ("on", "at") and before[3] != kind:
        entity, attribute = key_of(tokens, j, first)
        if attribute:
            return entity, attribute
    if i > first and words[i - 1] in ("port", "version", "release"):
        own = after_owner(tokens, i)
        subject = clause_subject(tokens, i - 1, first)
        return (own or " ".join(singular(w) for w in subject[-2:])), words[i - 1]
    if kind == "name" and after_owner(tokens, i):  # "use Jest for the unit tests"
        return noun_phrase(after_owner(tokens, i).split())
    if kind == "name" or (i > first and words[i - 1] in ("called", "named")):
        end = i - 1 if words[i - 1] in ("called", "named") else i
        phrase = phrase_before(tokens, end, first)
        if phrase:
            return noun_phrase(phrase)
    if own := after_owner(tokens, i):
        return noun_phrase(own.split())
    head = _head_of_located(tokens, i, first)
    if head:  # "our layover on the way to Tokyo is in Frankfurt": the layover's
        return noun_phrase(head)
    subject = clause_subject(tokens, i, first)
    if kind == "name":  # a name opening its clause: ", so Julia drives them" (no key "so")
        subject = after_connective(subject)
    if len(subject) >= 2 and i - 1 >= 0 and not tokens[i - 1].value and (change is None or (
            words[change - 1] in DETERMINERS and change + 1 < i)) and \
            words[i - 1] == subject[-1] and verb_before_value(subject):  # ("JVM heap 4g": a
        subject = subject[:-1]  # label's head) "the worker pool has 4 threads": the verb
    return noun_phrase(subject)


def after_owner(tokens: list[Tok], i: int) -> str:
    """"for the DB", "of the API" right after a value: its owner (no span: "for a month")."""
    rest = [t for t in tokens[i + 1:i + 8] if t.word != "·"][:4]  # past "4 parallel jobs"
    if not rest or rest[0].word not in ("for", "of", "as") or as_manner(rest):  # "use demo-2
        return ""  # as the demo server"; not "in Room 4 as planned"
    words: list[str] = []
    for token in rest[1:]:
        if token.value or token.word in BOUNDARY or token.word in PREPOSITIONS or \
                token.word in NO_NOUN:  # ("for a month because …")
            break
        if token.word not in DETERMINERS:
            words.append(singular(token.word))
    return "" if words in (["one"], ["ones"]) or set(words) - {"next", "last", "this"} <= \
        SPANS else " ".join(words[-2:])  # ("the 4th of next month": a date, no owner)


def object_before(tokens: list[Tok], end: int, first: int) -> list[str]:
    """The object of "V the K to X" (the words after its determiner), where a verb (no
    preposition, copula or pronoun) stands before the determiner: "pinned the tool to", not
    "went to" or "is close to"."""
    phrase = phrase_before(tokens, end, first)
    dets = [k for k, w in enumerate(phrase) if w in DETERMINERS]
    if not dets or dets[-1] == 0 or dets[-1] + 1 >= len(phrase):
        return []
    verb = phrase[dets[-1] - 1]
    if not verb.isalpha() or verb in NOT_NP or verb in PREPOSITIONS:
        return []
    return phrase[dets[-1] + 1:]


def _head_before(tokens: list[Tok], at: int, first: int) -> list[str]:
    """The head of a subject whose noun phrase goes on with a preposition before the copula:
    "our contact at the vendor is", "the deposit for the flat is" (the words before "at")."""
    if at - 1 <= first or tokens[at - 1].word not in PREPOSITIONS or \
            tokens[at - 1].word == "of":
        return []
    head = phrase_before(tokens, at - 1, first)
    words = [w for w in head if w not in DETERMINERS]
    if not words or len(words) > 3 or any(is_change(w) for w in words) or not (
            head[0] in DETERMINERS or with_opening(tokens, at - 1 - len(head), at - 1, first)):
        return []
    return words


def _head_of_located(tokens: list[Tok], i: int, first: int) -> list[str]:
    """The subject's head where the value is the copula's prepositional complement and the
    subject goes on with a prepositional phrase of a determiner and a noun ("our layover on
    the way to Tokyo is in Frankfurt": the layover, with the way as its owner): the words
    from the clause's start to its first preposition, then "of" and that phrase's noun."""
    end = subject_end(tokens, i, first)  # (a copula and a preposition, or a change's "to")
    if end < 0:
        return []
    start = max((k + 1 for k in range(first, end) if tokens[k].word in BOUNDARY),
                default=first)
    words = [t.word for t in tokens[start:end]]
    at = next((k for k, w in enumerate(words) if w in PREPOSITIONS), None)
    if at is None or at == 0 or words[at] == "of" or at + 2 >= len(words) or \
            words[at + 1] not in DETERMINERS or any(t.value for t in tokens[start:start + at]):
        return []
    head = [w for w in words[:at] if w not in DETERMINERS]
    owner: list[str] = []
    for k in range(at + 2, len(words)):
        if tokens[start + k].value or words[k] in PREPOSITIONS or words[k] in BOUNDARY:
            break
        owner.append(words[k])
    if not head or len(head) > 3 or not owner or any(
            w in NOT_NP or w in AUXILIARIES or w in CONJUNCTIONS or is_change(w)
            for w in [*head, *owner]):
        return []
    return [*head, "of", *owner]


def _in_duration_units(unit: str) -> bool:
    """What follows a duration's first number in several units ("2h15" leaves "h15", "2 h 15
    min" leaves "h 15 min", "2h45m" leaves "h45m", whose later "m" is minutes, not metres):
    only duration words, ASCII digits and spaces."""
    words = re.findall(r"[a-z]+", unit)
    return bool(words) and re.fullmatch(r"[a-z0-9 ]+", unit) is not None and \
        any(c.isdigit() for c in unit) and words[0] in DURATION and \
        all(w in DURATION or w == "m" for w in words[1:])
