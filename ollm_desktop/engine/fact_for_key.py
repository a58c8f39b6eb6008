"""A value given for a key: "it's Wessex Mill for flour", "that's Sentry for crash reporting".

A presentational clause, a pronoun and "be" (``it's``, ``that's``), names a value and then,
after "for", the thing it is the value of: "From now on it's Wessex Mill for flour" says the
flour's supplier is Wessex Mill, as "we use Wessex Mill for flour" does. The pronoun is no
key and the value no verb's object, so neither the key reader nor the value finders take it.

Structure only: IT'S/THAT'S [now] NAME "for" NOUN PHRASE, where the name is one to four
capitalised words (or one value found already) and the noun phrase one to three plain words
that end the clause.

A verb of naming with its object names a value for that object too: "we renamed the cat
Mochi", "we call him Mochi now" (NAMING OBJECT NAME, the object a personal pronoun or a
determiner and one to three plain words, the name capitalised). The object is the key; a
pronoun refers back, so its name is keyless (the one name said before it is what it renames).
"""

from __future__ import annotations

from ollm_desktop.engine.fact_keys import noun_phrase, singular
from ollm_desktop.engine.fact_phrase_words import mark_value, plain_word
from ollm_desktop.engine.fact_value_spans import capital
from ollm_desktop.engine.fact_words import BOUNDARY, DETERMINERS, NAMING, Tok, closed

# A pronoun and "be" in one token that present a value (a closed class).
PRESENTING = closed("it's that's")
_NAME_WORDS = 4
_NP_WORDS = 3
_ENDS = BOUNDARY | {"now", "from", "and", "but", "instead"}
# The verbs that give a thing its name, and the personal pronouns that can be their object.
_NAMING = NAMING | closed("rename renames renamed")
_OBJECTS = closed("him her it them")
# The forms of "rename": a name given again, which replaces the name the thing had.
RENAMING = closed("rename renames renamed renaming")


def values_for_keys(sentence: str, tokens: list[Tok], first: int) -> dict[int, tuple[str, str]]:
    """Mark each name of "it's NAME for NP": the index of the value, with the NP's key."""
    out: dict[int, tuple[str, str]] = {}
    for k in range(first, len(tokens) - 3):
        if tokens[k].word not in PRESENTING:
            continue
        a = k + 1 + (tokens[k + 1].word == "now")
        b = a
        while b < len(tokens) and b - a < _NAME_WORDS and _name_word(sentence, tokens[b]):
            b += 1
        if b == a or b >= len(tokens) or tokens[b].word != "for":
            continue
        c = b + 1
        while c < len(tokens) and tokens[c].word in DETERMINERS:
            c += 1
        end = c
        while end < len(tokens) and plain_word(tokens[end]) and end - c < _NP_WORDS:
            end += 1
        if end == c or (end < len(tokens) and tokens[end].word not in _ENDS):
            continue
        if b - a > 1 or tokens[a].value is None:
            mark_value(sentence, tokens, a, b)
        out[b - 1] = noun_phrase([singular(t.word) for t in tokens[c:end]])
    return out | _named_objects(sentence, tokens, first)


def _named_objects(sentence: str, tokens: list[Tok], first: int) -> dict[int, tuple[str, str]]:
    """Mark each name of "NAMING OBJECT NAME" ("renamed him Mochi", "named the cat Mochi")
    that ends its clause: the index of the value, with the object's key (none for a pronoun)."""
    out: dict[int, tuple[str, str]] = {}
    for k in range(first, len(tokens) - 2):
        if tokens[k].word not in _NAMING:
            continue
        c = k + 1
        if tokens[c].word in _OBJECTS:
            end = c + 1
        elif tokens[c].word in DETERMINERS:
            end = c + 1
            while end < len(tokens) and plain_word(tokens[end]) and end - c <= _NP_WORDS and \
                    not capital(sentence, tokens[end]) and not _coded(tokens[end].word):
                end += 1
            if end == c + 1:
                continue
        else:
            continue
        b = end + (end < len(tokens) and _coded(tokens[end].word))  # "renamed it web-01"
        while b < len(tokens) and b - end < _NAME_WORDS and _name_word(sentence, tokens[b]):
            b += 1
        if b == end or (b < len(tokens) and tokens[b].word not in _ENDS | {"though"}) or \
                any(t.value and t.value[3] != "name" for t in tokens[end:b]):
            continue  # ("I called him Tuesday": a day, no name)
        if b - end > 1 or tokens[end].value is None:
            mark_value(sentence, tokens, end, b)
        out[b - 1] = ("", "") if end == c + 1 else \
            noun_phrase([singular(t.word) for t in tokens[c + 1:end]])
    return out


def _coded(word: str) -> bool:
    """A lower-case identifier: letters first, then a hyphen or a digit ("payments-core")."""
    return word[:1].isalpha() and word.islower() and ("-" in word or any(
        c.isdigit() for c in word)) and all(c.isalnum() or c in "-_." for c in word)


def _name_word(sentence: str, token: Tok) -> bool:
    """A capitalised word of a name, or a value found already."""
    return token.value is not None or (
        token.word[:1].isalpha() and capital(sentence, token))
