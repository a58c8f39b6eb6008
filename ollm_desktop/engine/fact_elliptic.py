"""A list item with no verb: "…, bibliography with biber", "…, payment by letter of credit".

People list what they set up as a clause and then items that drop the verb: "I'm writing in
LaTeX with the classicthesis template, bibliography with biber", "Incoterm is FOB Busan,
payment by letter of credit". Each item is NOUN PHRASE, a preposition of means (with, by, via,
using, in, on), and what the noun is done with: the value of the noun's key, though it is a
plain lower-case word ("biber", "letter of credit") that no value finder takes on its own.

The passive says the same with its verb: "Figures are made in matplotlib", "invoices are sent
by email" (NP is/are PARTICIPLE PREP VALUE): the value is the subject's.

Structure only: the item follows a comma (or is such a passive clause), its noun phrase is
one to three plain words with no verb (no copula, auxiliary, pronoun or word in -ed/-ing), and
the value is one to four plain words after the preposition that end the clause. The
prepositions are a closed class.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_keys import noun_phrase, singular
from ollm_desktop.engine.fact_phrase_words import clauses_of, mark_value, participle, plain_word
from ollm_desktop.engine.fact_words import BOUNDARY, DETERMINERS, PREPOSITIONS, Tok, closed

# Prepositions of the means or medium a thing is done with (a closed class).
MEANS = closed("with by via using in on")
# The irregular past participles without "-ed" or "-en" that say how a thing is done (a
# closed class of English).
IRREGULAR = closed("made sent kept built done paid held led set put run read bought brought "
                   "found sold told spent won cut lent")
_NP_WORDS = 3
_ENDS = BOUNDARY | {"and", "but"}
_VALUE_WORDS = 4


def elliptic_values(sentence: str, tokens: list[Tok], first: int) -> dict[int, tuple[str, str]]:
    """Mark the value of each verbless list item "NP PREP VALUE" after a comma: the index of
    each value marked, with its key, the item's noun phrase (entity, attribute)."""
    keys: dict[int, tuple[str, str]] = {}
    for start, end in clauses_of(tokens, first):
        at = next((k for k in range(start, end) if tokens[k].word in MEANS), None)
        if at is None or not 0 < end - at - 1 <= _VALUE_WORDS:
            continue
        head = _passive_head(tokens, start, at)  # "figures are made in matplotlib"
        listed = start > 0 and tokens[start - 1].word == ","  # "…, bibliography with biber"
        if not (head or listed) or not 0 < (head or at) - start <= _NP_WORDS:
            continue
        if all(_noun(tokens[k]) for k in range(start, head or at)) and \
                all(_value_word(sentence, tokens[k]) for k in range(at + 1, end)):
            mark_value(sentence, tokens, at + 1, end)
            keys[end - 1] = noun_phrase([singular(t.word) for t in tokens[start:head or at]
                                         if t.word not in DETERMINERS])
    return keys


def _passive_head(tokens: list[Tok], start: int, at: int) -> int:
    """The index of the copula of a passive "NP is/are PARTICIPLE" before ``at`` (the
    preposition), else 0: "Figures are made in matplotlib", "invoices are sent by email"."""
    k = at - 2
    if k <= start or tokens[k].word not in ("is", "are") or not _participle(tokens[k + 1].word):
        return 0
    return k


def _participle(word: str) -> bool:
    """A past participle: "-ed", "-en" ("written", "chosen") or an irregular one."""
    return participle(word) or (word.endswith("en") and len(word) > 4) or word in IRREGULAR


def _noun(token: Tok) -> bool:
    return (plain_word(token) or token.word in DETERMINERS) and \
        not token.word.endswith(("ed", "ing"))


def _value_word(sentence: str, token: Tok) -> bool:
    """A plain word of a value, or "of" inside it ("letter of credit")."""
    return token.word == "of" or (plain_word(token) and sentence[token.start].isalpha())


def gapped_numbers(sentence: str, tokens: list[Tok], first: int) -> dict[int, tuple[str, int]]:
    """"The API runs on port 8080, the admin panel on 9090": an item after a comma or "and"
    that drops the verb of the clause before it, NP PREPOSITION NUMBER, where that clause put
    a value after the same preposition. The bare number is a value as the first one is (a
    number after "on" or "at" alone is not: "the exporter's on 9187" may be anything), of the
    item's NP and of the attribute the first value has: the index of each number marked, with
    the NP's words and the index of the first value."""
    out: dict[int, tuple[str, int]] = {}
    for k in range(first + 3, len(tokens)):
        token, prep = tokens[k], tokens[k - 1].word
        if token.value is not None or not token.word.isdigit() or prep not in PREPOSITIONS or \
                (k + 1 < len(tokens) and tokens[k + 1].word not in _ENDS):
            continue
        j = k - 2
        while j > first and (plain_word(tokens[j]) or tokens[j].word in DETERMINERS):
            j -= 1
        named = [singular(t.word) for t in tokens[j + 1:k - 1] if plain_word(t)]
        if not 0 < k - 2 - j <= _NP_WORDS + 1 or tokens[j].word not in (",", "and") or \
                not named:
            continue
        parallel = next((q for p in range(first, j) if tokens[p].word == prep
                         for q in (p + 1, p + 2) if q < j and tokens[q].value), None)
        if parallel is not None and tokens[parallel].value[3] != "name":  # type: ignore[index]
            token.value = (token.start, token.end, token.word, "number")
            token.word = ""
            out[k] = (" ".join(named), parallel)
    return out
