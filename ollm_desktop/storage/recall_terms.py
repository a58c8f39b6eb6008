"""The words recall searches with: a new message's query terms and a round's fact keys.

A raw question is an FTS5 syntax error and FTS5's default AND matches nothing for a question,
so each term is quoted and the terms are OR'ed; stop words and the framing of a question
("where did … end up", "remind me") are left out. Identifiers and numbers are what a user
asks back most ("which port…"), so they are weighted: a phrase repeated in the query counts
again in BM25.

A round's keys are its values with the words that name them ("gateway port 9443"), found by
a few regular expressions (the engine's ``provenance.message_facts`` finds the same kind of
facts but costs about 1 ms per message, too slow for a 10,000-message rebuild). They are
indexed in a column of their own with a higher weight: a round that states a value about the
subject outranks rounds that merely mention it (LongMemEval's fact-augmented keys).
"""

from __future__ import annotations

import itertools
import re

IDENTIFIER_WEIGHT = 3  # times an identifier (a path, a name with digits) is repeated
NUMBER_WEIGHT = 2
MAX_TERMS = 24
SUBJECT_WORDS = 3  # words before a value that name it

_STOP_TEXT = """
a about above after again against all almost also am an and any anything are aren as ask asked
at be because been before being below between both but by can cannot could couldn did didn do
does doesn doing don done down during each either else end ended ending ever every few for from
further get got had hadn has hasn have haven having he her here hers herself him himself his how
i if in into is isn it its itself just know let lets like me mean meant mention mentioned might
more most much must my myself need no nor not now of off ok okay on once one only or other our
ours ourselves out over own please previously quick quickly really recall remember remind said
same say see settle settled shall she should shouldn so some something still such sure tell
than thank thanks that the their theirs them themselves then there these they thing things this
those though through to told too under until up us use used very want was wasn way we well were
weren what whatever when where which while who whom whose why will with won would wouldn yes yet
you your yours yourself yourselves earlier again back
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())

# Values: `code`, tokens with a digit, names joined by - _ . / : (paths, hosts), camelCase.
_VALUE = re.compile(
    r"`[^`\n]{1,80}`"
    r"|[A-Za-z_][\w-]*(?:[./:][\w-]+)+/?|/[\w.-]+(?:/[\w.-]+)*"
    r"|[\w.:/-]*\d[\w.:/,-]*"
    r"|[A-Za-z]+(?:[_-][A-Za-z0-9]+)+"
    r"|[a-z]+[A-Z][A-Za-z0-9]*"
)
_WORD = re.compile(r"[^\W\d_]{2,}")
# _VALUE rescans a run of word characters from each of its positions: a 20 KB word (a blob, a
# hash, minified code) cost 17 s a call, on the event loop, at every save of its message. A
# run is read up to its first LONGEST_TERM characters; no one recalls a longer value by name.
LONGEST_TERM = 200
_LONG_RUN = re.compile(rf"[\w.:/,`-]{{{LONGEST_TERM}}}[\w.:/,`-]+")


def _bounded(text: str) -> str:
    return _LONG_RUN.sub(lambda m: m.group(0)[:LONGEST_TERM] + " ", text)
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")


def _clean_value(value: str) -> str:
    return value.strip("`").strip(".,:;/-")


def _is_number(value: str) -> bool:
    return bool(re.fullmatch(r"[\d.,:]+", value))


def quote(term: str) -> str:
    """One FTS5 string (a phrase once tokenized): never an operator or a syntax error."""
    return '"' + term.replace('"', '""') + '"'


def query_terms(text: str) -> list[tuple[str, int]]:
    """(term, weight) of a message: values first, then content words; deduplicated."""
    terms: dict[str, int] = {}
    text = _bounded(text)
    rest = text
    for match in _VALUE.finditer(text):
        value = _clean_value(match.group(0))
        if len(value) < 2 or not re.search(r"\w", value):
            continue
        key = value.casefold()
        terms.setdefault(key, NUMBER_WEIGHT if _is_number(value) else IDENTIFIER_WEIGHT)
        rest = rest.replace(match.group(0), " ")
    for word in _WORD.findall(rest):
        key = word.casefold()
        if key not in STOP_WORDS:
            terms.setdefault(key, 1)
    return list(terms.items())[:MAX_TERMS]


def match_expression(terms: list[tuple[str, int]]) -> str:
    """The OR of the quoted terms, each repeated by its weight."""
    return " OR ".join(" OR ".join([quote(term)] * weight) for term, weight in terms)


def round_keys(text: str) -> str:
    """The values of ``text`` with the words before them that name them."""
    keys: list[str] = []
    for sentence in _SENTENCE.split(_bounded(text)):
        values = [m for m in _VALUE.finditer(sentence) if len(_clean_value(m.group(0))) >= 2]
        if not values:
            continue
        before = sentence[:values[0].start()]
        subject = [w for w in _WORD.findall(before) if w.casefold() not in STOP_WORDS]
        keys.extend(subject[-SUBJECT_WORDS:])
        keys.extend(_clean_value(m.group(0)) for m in values)
    return " ".join(keys)


# A modal or a hedge in a sentence: a suggestion, which states no value (the engine's mood
# rule, ``fact_grammar``); a closed class of words. A question states none either.
_SUGGESTING = frozenset(["could", "might", "would", "may", "maybe", "perhaps", "should"])
NAMING_WORDS = 8  # words before a value that may name it


def naming_hits(terms: list[tuple[str, int]], text: str) -> tuple[int, bool]:
    """How many of a query's words (``query_terms`` of weight 1) name a value stated in
    ``text``: the most, over its sentences that state a value (not ask about one or suggest
    one: a question, or a modal anywhere in the sentence, "make X could also work"), of
    those words among the words before the sentence's first value ("For the webhook
    handler: the helper that does this is X" names X by "webhook handler helper"); and
    whether two of them stand side by side there as in the query (a noun phrase of the
    question, "the ablation table", is the value's subject). Structure, not a word list: the
    question names the key (what the value is a value of), the round states it."""
    words = {term for term, weight in terms if weight == 1}
    if not words:
        return 0, False
    pairs = {(a, b) for (a, wa), (b, wb) in itertools.pairwise(terms) if wa == wb == 1}
    best, phrase = 0, False
    for sentence in _SENTENCE.split(_bounded(text)):
        if sentence.rstrip().endswith("?"):
            continue
        value = next((m for m in _VALUE.finditer(sentence)
                      if len(_clean_value(m.group(0))) >= 2), None)
        if value is None or _SUGGESTING & {w.casefold() for w in _WORD.findall(sentence)}:
            continue
        before = [w.casefold() for w in _WORD.findall(sentence[:value.start()])]
        naming = [w for w in before if w not in STOP_WORDS][-NAMING_WORDS:]
        hits = len(words & set(naming))
        paired = hits >= 2 and any(pair in pairs for pair in itertools.pairwise(naming))
        best, phrase = max((best, phrase), (hits, paired))
    return best, phrase


def one_question(text: str) -> bool:
    """The message is a single question: what it asks about is its noun phrase (a message of
    several sentences that mentions a subject says much besides, and asks nothing back)."""
    pieces = [p for p in _SENTENCE.split(text.strip()) if p.strip()]
    return len(pieces) == 1 and pieces[0].rstrip().endswith("?")
