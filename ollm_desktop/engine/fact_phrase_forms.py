"""Phrase values in forms of their own (``fact_phrases`` reads the places of a clause):
the two phrases of "not Y but X", "instead of Y", a retraction's object ("Scratch the
tiramisu"), a count of the speakers ("we're 8 for dinner"), "noun number" ("track 5"), and a
capitalised name with the words of its phrase ("Chicago author-date").

The user's messages only, as ``fact_phrases`` says why.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_leads import ENDING, RETRACT
from ollm_desktop.engine.fact_listed_pairs import listed_pair
from ollm_desktop.engine.fact_phrase_words import (
    DEFINITE,
    KEY_AFTER,
    MAX_PHRASE,
    PHRASE_END,
    USING,
    mark_value,
    participle,
    phrase_ends,
    phrase_span,
    plain_word,
)
from ollm_desktop.engine.fact_time_tails import time_tail
from ollm_desktop.engine.fact_value_spans import ends_clause
from ollm_desktop.engine.fact_words import (
    BOUNDARY,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    NOT_NP,
    PREPOSITIONS,
    PRONOUNS,
    Tok,
    cardinal,
    closed,
    is_change,
    numeric,
)

# A speaker's copula in one word, and the pronouns that count the speakers ("we're 8").
_SPEAKERS = closed("we're we they're they")
_PLURAL_COPULAS = closed("are were")


def not_but(sentence: str, tokens: list[Tok], first: int) -> None:
    """"Not beef stew but mushroom risotto for the main dish", "the main dish is not beef
    stew but risotto": the phrases of "not Y but X" (Y up to "but", X up to where its phrase
    ends; ``fact_grammar`` reads which is old), where the clause names a key: a noun before
    "not" or a definite phrase after X ("this is not a bug but a feature" names none)."""
    k = next((k for k in range(first, len(tokens) - 3) if tokens[k].word == "not"), None)
    if k is None:
        return
    a = k + 1 + (tokens[k + 1].word in DETERMINERS)
    but = a
    while but < len(tokens) and but - a < MAX_PHRASE and plain_word(tokens[but]):
        but += 1
    if but == a or but >= len(tokens) or tokens[but].word != "but":
        return
    new = phrase_span(tokens, but + 1)
    if new is None:
        return
    named = any(plain_word(t) for t in tokens[first:k]) or (
        new[1] + 1 < len(tokens) and tokens[new[1]].word in KEY_AFTER and
        tokens[new[1] + 1].word in DEFINITE)
    if not named or any(t.value for t in tokens[a:new[1]]) or not all(
            sentence[tokens[k].start:tokens[k].start + 1].islower() for k in (a, new[0])):
        return  # (names are ``fact_values``': "not the Astoria but the Hotel Cubo")
    mark_value(sentence, tokens, a, but)
    mark_value(sentence, tokens, *new)


def instead_of(sentence: str, tokens: list[Tok], first: int) -> None:
    """"… instead of a gift card", "rather than the shortcrust pastry": the phrase after it,
    up to its clause's end, is the replaced value (``fact_grammar`` reads it old)."""
    for k in range(first, len(tokens) - 2):
        pair = (tokens[k].word, tokens[k + 1].word)
        if pair not in (("instead", "of"), ("rather", "than")):
            continue
        joined = _joined_before(sentence, tokens, k, first)
        span = phrase_span(tokens, k + 2, prepositions=False)
        if span is not None and span[1] - span[0] >= 2 and (
                span[1] >= len(tokens) or tokens[span[1]].word in BOUNDARY):
            mark_value(sentence, tokens, *span)  # (one word is ``fact_values``')
        if joined is not None:
            mark_value(sentence, tokens, *joined)
        return


def _joined_before(sentence: str, tokens: list[Tok], k: int, first: int) -> tuple[int, int] | None:
    """X of "to X instead of Y" where X is two nouns joined by "and" ("switching to fish
    blood and bone instead of …"): one value, the phrase after a change verb's "to" (a phrase
    without "and" is ``fact_phrases``' or ``fact_values``')."""
    at = k
    while at > first and (plain_word(tokens[at - 1]) or tokens[at - 1].word == "and"):
        at -= 1
    words = [t.word for t in tokens[at:k]]
    if words.count("and") != 1 or words[0] == "and" or words[-1] == "and" or \
            len(words) > MAX_PHRASE + 1 or at < first + 2 or tokens[at - 1].word != "to" or \
            not is_change(tokens[at - 2].word) or \
            not all(sentence[t.start:t.start + 1].islower() for t in tokens[at:k]):
        return None
    return at, k


def retracted(sentence: str, tokens: list[Tok], first: int) -> None:
    """The object of a retraction verb opening the sentence ("Scratch the tiramisu, …",
    "Forget the pea soup, …", "We dropped Jira and …", "Cancelled PureGym, …"): the value
    it takes back (``fact_leads.retraction`` marks it old). "Scratch that" is a lead, read
    elsewhere; a retraction's object needs its determiner ("forget what I said" is none),
    an ending verb's does not."""
    at = first + (first < len(tokens) and tokens[first].word in ("we", "i"))
    if at + 2 >= len(tokens):
        return
    verb, det = tokens[at].word, tokens[at + 1].word
    if not ((verb in RETRACT and at == first and det in DETERMINERS - {"that", "this"}) or
            (verb in ENDING and det not in ("that", "this", "it"))):
        return
    span = phrase_span(tokens, at + 1, prepositions=False)
    if span is None and verb in ENDING:  # "… Jira and track issues in Linear"
        end = at + 1 + (det in DETERMINERS)
        while end < len(tokens) and end - at <= MAX_PHRASE and plain_word(tokens[end]) and \
                tokens[end].word != "and":
            end += 1
        span = (at + 1 + (det in DETERMINERS), end) if end < len(tokens) and \
            tokens[end].word == "and" and end > at + 1 + (det in DETERMINERS) else None
    if span is not None and cardinal(tokens[span[0]].word):
        return  # "Cancelled one room, so 4 rooms": by how much, no value taken back
    if span is not None and (span[1] >= len(tokens) or tokens[span[1]].word in BOUNDARY or
                             tokens[span[1]].word == "and"):
        mark_value(sentence, tokens, *span)


def speakers_count(tokens: list[Tok], start: int, end: int, units: dict[int, str]) -> None:
    """"we're 8 for dinner now", "we are 3 for the trip": a bare number after the speakers'
    copula counts them (people), the phrase after it names what for."""
    words = [t.word for t in tokens[start:end]]
    if words[:1] == ["we're"] or words[:1] == ["they're"]:
        at = start + 1
    elif len(words) > 2 and words[0] in _SPEAKERS and words[1] in _PLURAL_COPULAS:
        at = start + 2
    else:
        return
    if at >= end or not tokens[at].word.isdigit() or not (
            at + 1 >= end or tokens[at + 1].word in PREPOSITIONS or
            tokens[at + 1].word in BOUNDARY or tokens[at + 1].word in PHRASE_END):
        return  # the number ends its phrase ("we're 8 tonight" is no count of the speakers)
    token = tokens[at]
    token.value = (token.start, token.end, token.word, "number")
    token.word = ""
    units[at] = "people"


def noun_numbers(sentence: str, tokens: list[Tok], start: int, end: int, first: int,
                 labels: dict[int, str]) -> None:
    """"submit to track 3 of the workshop", "scratch that, track 5", "Track 3 is for demos",
    "it's row 9", "take bus 42 to work": a lower-case noun and a number after it, where a
    noun phrase stands (opening its clause, after a copula or a verb, or after a preposition:
    one digit there, more is ``fact_values``' labelled name) and ends (the clause ends, or a
    preposition, a copula, a conjunction, "instead" or "not" follows: "pitch 2 and the
    under-16s…"), is one value, and the noun names its
    key's head. A capitalised name and its number inside a sentence is a version ("use
    Python 3"), read by ``fact_values``."""
    for k in range(start, end - 1):
        word, number = tokens[k], tokens[k + 1]
        after = tokens[k + 2].word if k + 2 < end else ""
        before = tokens[k - 1].word if k > start else ""
        if not numeric(number.word) or not plain_word(word) or not (
                k == start or before in COPULAS or before in _SAID or _verb_before(tokens, k, start)
                or _now_after_copula(tokens, k, start)  # "it's now platform 12"
                or (before == "but" and "not" in [t.word for t in tokens[start:k]])
                or (k > start and tokens[k - 1].value is not None)  # "5.1.0 build 512"
                or _item_before(sentence, tokens, k, start)  # "coach B2 seat 33"
                or (
                    before in PREPOSITIONS and len(number.word) == 1)) or (
                after and after not in PREPOSITIONS and after not in COPULAS and
                after not in PHRASE_END and after not in CONJUNCTIONS and
                not time_tail(tokens, k + 2, end) and  # ("year 8 this year mostly")
                not ends_clause(tokens, k + 1)):  # ("keep week 1 because …")
            continue
        if k != first and not sentence[word.start:word.start + 1].islower():
            continue
        if word.word in _BE_FORMS:
            continue  # "it has been 8080", "should have been 8080": a copula, no noun
        if word.word in USING or listed_pair(tokens, k + 1, first):
            continue  # "…, use 443 as standard": the verb and its object, no "noun number";
            # "electric bill 94, water bill 41": each bill's number (``fact_listed_pairs``)
        if before in _LET or (before == "us" and k >= 2 and tokens[k - 2].word == "let"):
            continue  # "let's try 10": the word after "let's" is its verb, no noun
        if _item_before(sentence, tokens, k, start) and not tokens[k - 1].word.isalpha() and \
                not numeric(tokens[k - 2].word) and tokens[k - 2].value is None:
            labels[k - 1] = tokens[k - 2].word  # "coach B2" of "coach B2 seat 33": its own
            mark_value(sentence, tokens, k - 2, k)
        labels[k + 1] = word.word
        mark_value(sentence, tokens, k, k + 2)


def _now_after_copula(tokens: list[Tok], k: int, start: int) -> bool:
    """"it's now platform 12", "the exam is now room C04": "now" between a copula and the
    noun phrase keeps the noun's place after the copula. (So does "but" after "not": "not
    period 3 but period 5" gives both noun phrases one place.)"""
    return k - 2 >= start and tokens[k - 1].word == "now" and (
        tokens[k - 2].word in COPULAS or tokens[k - 2].word in _SAID)


# The copula's participles, which a noun's place never holds.
_BE_FORMS = frozenset({"been", "being"})
# The first-person imperative, whose next word is a bare verb ("let's try", "lets use").
_LET = frozenset({"let's", "lets"})


def _verb_before(tokens: list[Tok], k: int, start: int) -> bool:
    """The word before ``k`` is a verb opening its clause or after its subject pronoun
    ("take bus 42", "use seed 1234"), not a noun before a noun ("the rate limit 200")."""
    if k - 1 < start or not plain_word(tokens[k - 1]) or not tokens[k - 1].word.isalpha():
        return False
    two = tokens[k - 2].word if k - 2 >= start else ""
    return not two or two in PRONOUNS or two in NOT_NP or two in BOUNDARY


def _item_before(sentence: str, tokens: list[Tok], k: int, start: int) -> bool:
    """The two words before ``k`` are an item of their own, a label and its code ("coach b2")
    or a count and its noun ("12 chunks"), with no verb between: the noun at ``k`` and its
    number are the next item of a terse list ("coach B2 seat 33", "12 chunks fov 90"). A
    label is a common noun as written ("coach", "Coach"; "ThinkPad T14 gen 2" is a name)."""
    if k - 2 < start:
        return False
    one, two = tokens[k - 2], tokens[k - 1]
    coded = plain_word(one) and one.word.isalpha() and not two.value and \
        sentence[one.start + 1:one.end].islower() and two.word.isalnum() and \
        any(c.isdigit() for c in two.word) and any(c.isalpha() for c in two.word)
    counted = (one.value is not None or numeric(one.word)) and not two.value and \
        two.word.isalpha() and plain_word(two)
    return coded or counted


# A pronoun and its copula in one word before a value ("it's row 9").
_SAID = closed("it's that's")


def _object_place(tokens: list[Tok], i: int, first: int) -> bool:
    """The name at ``i`` is a verb's object ("using Kerrygold salted butter in …"): the word
    before it (past a determiner) is a plain word, no preposition, copula or conjunction."""
    k = i - 1
    k -= k > first and tokens[k].word in DETERMINERS
    return k >= first and plain_word(tokens[k])


def _in_value_place(tokens: list[Tok], i: int, first: int) -> bool:
    """The name at ``i`` follows a verb, a preposition, a copula or "now" (past a
    determiner): not a clause's subject ("Not Ana but Bea sings lead")."""
    k = i - 1
    k -= k > first and tokens[k].word in DETERMINERS
    return k >= first and (plain_word(tokens[k]) or tokens[k].word in PREPOSITIONS or
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
        while end < len(tokens) and end - i <= 3 and plain_word(tokens[end]) and \
                sentence[tokens[end].start:tokens[end].start + 1].islower():
            end += 1
        if end == i + 1 or (not phrase_ends(tokens, end, prepositions=False) and not (
                phrase_ends(tokens, end) and _object_place(tokens, i, first) and
                not tokens[end - 1].word.endswith("s"))):
            continue  # ("The flight to Rome departs at": a verb, not the name's noun)
        if participle(tokens[end - 1].word):
            continue
        for token in tokens[i + 1:end]:
            token.word = "·"
        tokens[i].value = (value[0], tokens[end - 1].end,
                           sentence[value[0]:tokens[end - 1].end], "name")


def sized_names(sentence: str, tokens: list[Tok]) -> None:
    """A name and the size code right after it ("Mistral 7B", "Llama 3 8B": a number and
    one letter, no space between) are one name, whoever writes it: the size is the name's
    variant, not a quantity of its own (a size value "8B" beside a version "Llama 3")."""
    for i in range(1, len(tokens)):
        size, head = tokens[i].value, tokens[i - 1]
        if size is None or size[3] != "number" or not _size_code(size[2]) or \
                sentence[head.end:size[0]] != " ":
            continue
        if head.value is not None and head.value[3] in ("version", "name"):
            start = head.value[0]
        elif not head.value and head.word.isalpha() and \
                sentence[head.start:head.start + 1].isupper() and i - 1 > 0:
            start = head.start
        else:
            continue
        head.value, head.word = (start, size[1], sentence[start:size[1]], "name"), ""
        tokens[i].value, tokens[i].word = None, "·"  # (the value stays where it begins:
        # "rather than Llama 3 8B" has "than" right before it)


def _size_code(text: str) -> bool:
    """"7B", "70B", "1.5B": digits, then one letter."""
    return len(text) >= 2 and text[-1].isalpha() and text[:-1].replace(".", "").isdigit()
