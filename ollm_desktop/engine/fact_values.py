"""Where a sentence's bare words are values: a number or a plain word in the places a value
goes ("is now 9443, not 8443", "use Postgres instead of MySQL", "switch the log level to
info", "in room B12", "need 2 approvals"), beside the values ``provenance`` found. Part of
``fact_grammar``'s reading, over its tokens in place (a value's words are marked).
"""

from __future__ import annotations

from ollm_desktop.engine import fact_labelled_values as labelled
from ollm_desktop.engine.fact_assignments import assigned, labelled_number, made_to
from ollm_desktop.engine.fact_clauses import ADVERBS
from ollm_desktop.engine.fact_counted import counted, result_counts
from ollm_desktop.engine.fact_hour_places import age_at, hour_at
from ollm_desktop.engine.fact_keys import phrase_before
from ollm_desktop.engine.fact_listed_counts import listed_count
from ollm_desktop.engine.fact_listed_pairs import listed_pair
from ollm_desktop.engine.fact_name_runs import name_runs
from ollm_desktop.engine.fact_no_values import KEY_CAPITALS, NOT_BARE, titled_verb
from ollm_desktop.engine.fact_now_codes import IT_IS, coded_now
from ollm_desktop.engine.fact_phrase_words import USING
from ollm_desktop.engine.fact_repair_counts import counted_opening
from ollm_desktop.engine.fact_spelled_moves import spelled_changes
from ollm_desktop.engine.fact_time_tails import timed_end
from ollm_desktop.engine.fact_value_spans import (
    addresses,
    capital,
    changed_ranges,
    changed_to_next,
    dimensions,
    ends_clause,
    firm_end,
    listed_name,
    noun_place,
    replaced_objects,
    spelled_counts,
    subject_verb_count,
    subject_verb_to,
)
from ollm_desktop.engine.fact_value_spans import compound_numbers as compound_numbers
from ollm_desktop.engine.fact_verb_places import copula_count, placed, verb_like
from ollm_desktop.engine.fact_verbs import verb_group
from ollm_desktop.engine.fact_words import (
    ARROWS,
    AUXILIARIES,
    BOUNDARY,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    NAMING,
    NOT_NP,
    PAIRED,
    PARTICLES,
    PREPOSITIONS,
    PRONOUNS,
    REPORTING,
    Tok,
    closed,
    is_change,
    numeric,
)
from ollm_desktop.engine.reference_words import NUMBER_WORDS


def _eligible(token: Tok) -> bool:
    """A plain word that can be a bare value ("Postgres", "heron", "info")."""
    word = token.word
    return bool(word) and not token.value and word[0].isalnum() and word not in DETERMINERS \
        and word not in PREPOSITIONS and word not in NOT_NP and word not in COPULAS \
        and word not in BOUNDARY and not is_change(word) and word not in NOT_BARE


def _promote(sentence: str, tokens: list[Tok], index: int, kind: str = "name",
             floor: int = 0) -> None:
    token, start = tokens[index], tokens[index].start
    noun = tokens[index - 1] if index - 2 >= floor else None  # (a lead's "on" is no label's)
    if kind == "name" and noun is not None and not noun.value and noun.word.isalpha() and \
            tokens[index - 2].word in PREPOSITIONS and noun.word not in DETERMINERS and \
            noun.word not in NOT_NP and noun.word not in PREPOSITIONS:  # ("over to Bun")
        start = noun.start  # "in room X": the value is "room X", as the user says it
        noun.word = "·"  # part of the value now (its key is the clause's, not "room")
    end = firm_end(sentence, tokens, index) if kind == "name" and capital(sentence, token) \
        else token.end  # "is now Kessler & Moens": one name
    token.value = (start, end, sentence[start:end], kind)
    token.word = ""


def bare_values(sentence: str, tokens: list[Tok], first: int, correction: bool,
                 lead: bool = False) -> None:
    """Bare numbers and nouns in the places a value goes ("is now 9443, not 8443", "use
    Postgres instead of MySQL", "switch the log level to info", "the log level is debug")."""
    name_runs(sentence, tokens, first)  # "St. Anne's", "Campo de' Fiori": one name each
    replaced_objects(sentence, tokens, first)
    dimensions(sentence, tokens, first)
    changed_ranges(tokens, first)  # "from 10 to 30 seconds" after a change verb: two values
    spelled_changes(sentence, tokens, first)  # "from seven to eight", "five (up from four)"
    result_counts(sentence, tokens, first)  # "…, so 11 engineers now", "…, 3 left"
    if correction:
        spelled_counts(sentence, tokens, first)  # "two cups, not three": as "2 cups" is
    words = [t.word for t in tokens]
    for i in range(first, len(tokens)):
        token = tokens[i]
        if token.value and token.value[3] == "number":
            counted(sentence, tokens, i)  # "5,908 participants", "4 parallel jobs"
            continue
        if at := labelled_number(sentence, tokens, i):  # "versionCode 4120", "tabSize=4"
            token.word, token.value = token.value[2].lower(), None  # type: ignore[index]
            _promote(sentence, tokens, at, "number")
            continue
        if token.value or not token.word:
            continue
        if listed_name(sentence, tokens, i) or labelled.apposed_title(tokens, i):  # ", Dr. Okafor"
            _promote(sentence, tokens, i)
            continue
        prev = words[i - 1] if i > first else ""
        nxt_value = tokens[i + 1].value if i + 1 < len(tokens) else None
        if (capital(sentence, token) or (noun_place(tokens, i, first) and prev != "to")) and \
                i > first and _eligible(token) and nxt_value is not None and \
                nxt_value[3] == "version" and sentence[token.end:nxt_value[0]] == " " and \
                nxt_value[2].lstrip("vV")[:1].isdigit():
            start = token.start  # "R 4.2.3", "Gitea v1.21": a name and its version, one value
            # (a plain word after "to" is a verb: "to list 18.x", "to pin 2.1")
            tokens[i + 1].value = (start, nxt_value[1], sentence[start:nxt_value[1]], "version")
            token.word = "·"
            continue
        if capital(sentence, token) and i > first and _eligible(token) and \
                i + 1 < len(tokens) and numeric(tokens[i + 1].word) and \
                ends_clause(tokens, i + 1):
            _versioned(sentence, tokens, i)  # "Postgres 16", "Xcode 15.4"
            continue
        if prev == "the" and _ordinal_day(tokens, i) and (
                ends_clause(tokens, i + 1) or words[i + 2:i + 3] == ["of"]):
            suffix = tokens[i + 1]  # "on the 18th", "the 3rd of each month": one date
            token.value = (token.start, suffix.end, sentence[token.start:suffix.end], "date")
            token.word, suffix.word = "", "·"
            continue
        if token.word.isdigit() and i > first and _titled(sentence, tokens, i - 1, first):
            continue  # "Year 8 reports", "Room 4 keys": a title and its number name a thing
        if numeric(token.word) and prev in USING and words[i + 1:i + 2] == ["as"]:
            _promote(sentence, tokens, i, "number")  # "use 443 as the port": X of "use X as K"
            continue
        if token.word.isdigit() and (prev in ("with", *USING, "has", "have", "had",
                                              "do", "does", "did", *CONTRACTED)
                                     or prev in PREPOSITIONS or (
                                         verb_like(prev) and i + 1 < len(words) and
                                         (words[i + 1].endswith("s") or  # "need 2 approvals"
                                          ends_clause(tokens, i + 1) or  # "seats 8 people."
                                          subject_verb_count(words, i, first)))
                                     or words[i + 2:i + 4] == [",", "not"]) and \
                i + 1 < len(tokens) and tokens[i + 1].word.isalpha() and \
                tokens[i + 1].word not in PREPOSITIONS and tokens[i + 1].word not in DETERMINERS:
            _promote(sentence, tokens, i, "number")  # "with 4 parallel jobs"
            counted(sentence, tokens, i)
            continue
        if token.word.isdigit() and (prev in DETERMINERS or prev == "it") and i >= 2 and \
                is_change(words[i - 2]) and (ends_clause(tokens, i) or (words[i + 1].isalpha() and (
                prev != "it" or (words[i - 2] == "make" and ends_clause(tokens, i + 1))))):
            _promote(sentence, tokens, i, "number")  # "make that 12 people", "make it 3 rooms."
            counted(sentence, tokens, i)
            continue
        if (hour := hour_at(tokens, i, first)) or age_at(tokens, i, first) or \
                counted_opening(tokens, i, first, lead):  # "opens at 7", "she's turning 7";
            _promote(sentence, tokens, i, "time" if hour else "number")  # "And 2 people on
            None if hour else counted(sentence, tokens, i)  # the front desk." (an hour: a time)
            continue
        if numeric(token.word) and listed_pair(tokens, i, first):
            _promote(sentence, tokens, i, "number")  # "primary max connections 200, ..."
            continue
        if token.word.isdigit() and listed_count(tokens, i, first):
            _promote(sentence, tokens, i, "number")  # "11 starters, 5 subs, 2 coaches"
            counted(sentence, tokens, i)
            continue
        if numeric(token.word) and (changed_to_next(tokens, i, first) or made_to(tokens, i, first)):
            _promote(sentence, tokens, i, "number")  # "updated the port 8080 to 8090"
            continue
        if i == first and len(token.word) >= 2 and numeric(token.word) and (
                ends_clause(tokens, i) or tokens[i + 1].word in COPULAS):
            _promote(sentence, tokens, i, "number")  # "8766, sorry.", "8765 is the old one"
            continue
        if numeric(token.word) and (len(token.word) > 1 or prev in PAIRED or copula_count(
                tokens, i) or assigned(tokens, i, first)) and (prev in (  # ("is 9 engineers")
                "now", "not", "but", "from", "to", "is", "are", "be", "=", ":", "of", "was",
                "being", "been", *ARROWS, *REPORTING, *CONTRACTED) or  # ("… as being 2014")
                placed(tokens, i, first)):  # "Postgres runs on 5432", "is now on 3100"
            _promote(sentence, tokens, i, "number")
            if "." not in sentence[token.start:token.end]:  # a version ("3.12") counts nothing
                counted(sentence, tokens, i)  # "the max PR size is 400 lines"
            continue
        if not _eligible(token):
            continue
        if lead and (i == first or (i == first + 1 and prev in DETERMINERS and not any(
                w[:1].isalnum() for w in words[i + 1:]))) and first > 0 and \
                (i + 1 == len(tokens) or words[i + 1] in PREPOSITIONS or words[i + 1] in
                 BOUNDARY - {":"}):  # "I meant acme-logs-prod for the K" ("worktop: X": K)
            _promote(sentence, tokens, i, floor=first)
            continue
        if (i == first or (prev == "but" and "not" in words[first:i]) or (  # ", so Lena will"
                prev in CONJUNCTIONS and i - 2 >= first and words[i - 2] in BOUNDARY)) and \
                _subject_name(sentence, tokens, i, lead or correction or prev == "but"):
            _promote(sentence, tokens, i, floor=first)  # "From now on Jonas triages the K"
            continue
        if i + 2 < len(tokens) and tokens[i + 1].word.isdigit() and \
                tokens[i + 2].word.isalpha() and _titled(sentence, tokens, i, first):
            continue  # "for Year 10 students": the title opens a noun phrase, no value
        if _proper_name(sentence, tokens, i, first):
            _promote(sentence, tokens, i, floor=first)
            continue
        nxt = words[i + 1] if i + 1 < len(tokens) else ""
        if _replacement_slot(words, i, first, prev, nxt, tokens, sentence) or (
                (ends_clause(tokens, i) or (prev == "to" and timed_end(tokens, i))) and
                _statement_slot(sentence, tokens, i, first, prev, correction)):
            _promote(sentence, tokens, i, "number" if token.word.isdigit() else "name")
    addresses(sentence, tokens, first)  # "at The Office, Home Farm House, …, DT11 8LT"


def _proper_name(sentence: str, tokens: list[Tok], i: int, first: int) -> bool:
    """A capitalised name (a run is one token: "Hotel Flandria") as the object of a preposition
    or a copula ("in Ghent", "is Ingrid"): the user's name for a place, a person, a product."""
    if i - 1 > first and tokens[i].word.isdigit() and len(tokens[i].word) >= 2 and \
            _labelled(tokens, i, first):
        return True  # "in room 101", "at gate 12"
    if i <= first or not tokens[i].word[:1].isalpha() or labelled.in_label(sentence, tokens, i):
        return False  # ("client ID for prod: web-prod-07": a word of the label)
    word = tokens[i].word
    if not capital(sentence, tokens[i]):
        coded = ("-" in word or ends_clause(tokens, i)) and any(c.isdigit() for c in word)
        head = tokens[i - 1].word
        return (i >= 2 and "-" in word and _labelled(tokens, i, first)) or (
            coded and (head in PREPOSITIONS or head in COPULAS or head == "now" or (
                head in ("it's", "that's") and ends_clause(tokens, i)) or (  # "it's web-2 now"
                verb_like(head) and tokens[i - 2].word not in DETERMINERS)))
    before = i - 1
    if tokens[before].word in DETERMINERS and i + 2 < len(tokens) and \
            tokens[i + 1].word.isalpha() and tokens[i + 1].word not in NOT_NP and \
            tokens[i + 2].word in COPULAS:
        return False  # "the HTTP client is": a name modifying the subject's noun
    if tokens[before].word in DETERMINERS and before > first:
        before -= 1
    if tokens[before].word == "now" and before > first and tokens[before - 1].word in COPULAS:
        before -= 1  # "is now the Grand Hotel"
    head, nxt = tokens[before].word, tokens[i + 1].word if i + 1 < len(tokens) else ""
    if head in PREPOSITIONS or head in COPULAS or (head in CONTRACTED - {"they're"} and
                                                   "'" not in word and (ends_clause(tokens, i)
                                                                        or nxt in _FOCUS)):
        return True  # ("it's Dan.", not "it's Sarah's birthday"; "they're X now": another's)
    if before == i - 1 and _labelled(tokens, i, first):
        return True
    # the object of a verb, where its clause ends or goes on ("use Vitest for the tests")
    return before == i - 1 and head.isalpha() and head not in NOT_NP and \
        (before == first or tokens[before - 1].word not in DETERMINERS) and \
        head not in DETERMINERS and head not in CONJUNCTIONS and \
        head not in AUXILIARIES and head not in NAMING and not is_change(head) and \
        (not nxt or nxt in BOUNDARY or nxt in PREPOSITIONS or nxt in (
            "instead", "rather", "and", "now")) and (before == first or head in KEY_CAPITALS
                                              or not capital(sentence, tokens[before]))


def _subject_name(sentence: str, tokens: list[Tok], i: int, lead: bool) -> bool:
    """A capitalised name as the clause's subject before a verb and its object ("Jonas
    [now] triages the tickets"), after a correction's lead or before "now" (a sentence's
    first word is capitalised anyway: a name only where the clause says it changed)."""
    at = i + 1
    while at < len(tokens) and tokens[at].word in ADVERBS:
        at += 1
    verb = verb_group(tokens, at)
    if not capital(sentence, tokens[i]) or not (lead or at > i + 1) or verb is None or \
            verb + 1 >= len(tokens) or not tokens[i].word.isalpha():
        return False
    at = verb + (tokens[verb + 1].word in PARTICLES)  # "Birgit signs off the claims"
    return at + 1 < len(tokens) and (tokens[at + 1].word in DETERMINERS or (  # "sings lead."
        _eligible(tokens[at + 1]) and ends_clause(tokens, at + 1)))


def _ordinal_day(tokens: list[Tok], i: int) -> bool:
    """A day of the month as an ordinal ("1st", "22nd", "18th": the number and its suffix,
    two tokens side by side)."""
    if i + 1 >= len(tokens) or tokens[i + 1].start != tokens[i].end:
        return False
    number, suffix = tokens[i].word, tokens[i + 1].word
    return number.isdecimal() and 1 <= int(number) <= 31 and suffix == (
        "st" if number[-1] == "1" and number != "11" else
        "nd" if number[-1] == "2" and number != "12" else
        "rd" if number[-1] == "3" and number != "13" else "th")


def _titled(sentence: str, tokens: list[Tok], at: int, first: int) -> bool:
    """A capitalised noun that opens a noun phrase (the clause's start, or after a determiner
    or a preposition) before a number: with it, a name ("Year 8", "Ward 3"), not a verb
    counting what follows."""
    word = tokens[at].word
    before = tokens[at - 1].word if at > first else ""
    if not (capital(sentence, tokens[at]) and word.isalpha() and len(word) > 1 and
            word not in NOT_NP and word not in DETERMINERS and word not in PRONOUNS and
            word not in PREPOSITIONS and not is_change(word)):
        return False
    if at > first and before not in BOUNDARY:
        return before in DETERMINERS or before in PREPOSITIONS
    # a clause's first word is capitalised anyway: a name only as the subject ("Year 8
    # reports are"), not a verb counting its object ("Need 2 approvals")
    after = tokens[at + 3].word if at + 3 < len(tokens) else ""
    return after in COPULAS or after in AUXILIARIES or titled_verb(tokens, at)  # "Act 1 runs"


def _labelled(tokens: list[Tok], i: int, first: int) -> bool:
    """A labelled name: a preposition, a plain noun, then an identifier with a digit or a
    hyphen that ends its clause ("in room B12", "at gate A4", "in room kestrel-bay")."""
    head = tokens[i - 1].word
    word = tokens[i].word
    return i - 1 > first and head.isalpha() and head not in NOT_NP and \
        head not in DETERMINERS and tokens[i - 2].word in PREPOSITIONS and \
        (any(c.isdigit() for c in word) or ("-" in word and ends_clause(tokens, i)))


def _versioned(sentence: str, tokens: list[Tok], i: int) -> None:
    number = tokens[i + 1]
    start = tokens[i].start
    tokens[i + 1].value = (start, number.end, sentence[start:number.end], "version")
    tokens[i + 1].word, tokens[i].word = "", "·"


def _replacement_slot(words: list[str], i: int, first: int, prev: str, nxt: str,
                      tokens: list[Tok], sentence: str) -> bool:
    """"instead of Y", "rather than Y", "X instead", "use X", "not Y,", "not ... but X"."""
    after_of = prev == "of" and i >= 2 and words[i - 2] in ("instead", "place")
    x_not = _x_of_not(words, i, tokens, sentence) if i > first else False
    ends = ends_clause(tokens, i)
    clause = max((k + 1 for k in range(first, i) if tokens[k].word in BOUNDARY), default=first)
    held = any(t.value for t in tokens[clause:i])  # "use Vitest for the unit tests instead"
    return ((after_of or prev == "than") and ends) or (nxt == "instead" and not held) or \
        x_not or \
        (nxt == "rather" and words[i + 2:i + 3] == ["than"]) or _after_not(words, i) \
        or (prev in USING and nxt in ("instead", "rather", ",", "not", "now", "", "as")) \
        or (prev == "not" and nxt in (",", "but", ";")  # not a verb: "we did not control,"
            and not (i >= 2 and words[i - 2] in AUXILIARIES)) \
        or (prev == "but" and "not" in words[first:i] and ends_clause(tokens, i)) \
        or (prev == "not" and i >= 3 and words[i - 2] == "," and tokens[i - 3].value  # "use
            is not None and ends) \
        or _apposed_after_but(sentence, tokens, i, first)  # DeepL, not Google."


def _named_mover(sentence: str, tokens: list[Tok], verb: int, to: int) -> bool:
    """A name that is the subject of a change verb without an object ("…, Gareth moved over
    to audit"): the person went somewhere; no key of the sentence takes a value there. Only
    inside a sentence, where a capital marks a name (its first word is capitalised anyway)."""
    subject = tokens[verb - 1] if verb > 0 else None
    return subject is not None and subject.start > 0 and subject.word.isalpha() and \
        capital(sentence, subject) and \
        all(t.word in PARTICLES for t in tokens[verb + 1:to])


def _apposed_after_but(sentence: str, tokens: list[Tok], i: int, first: int) -> bool:
    """X of "not Y but DET NOUN X" ("not Priya Mehta but her colleague Daniel Osei"): a name
    after the noun it stands beside (one to three words from a determiner), ending the
    clause, is what "but" names."""
    if not capital(sentence, tokens[i]) or not ends_clause(tokens, i):
        return False
    at = i - 1
    while at > first and i - at <= 3 and tokens[at].word.isalpha() and \
            not capital(sentence, tokens[at]) and tokens[at].word not in DETERMINERS and \
            tokens[at].word not in NOT_NP and tokens[at].word not in PREPOSITIONS:
        at -= 1
    return at < i - 1 and at > first and tokens[at].word in DETERMINERS and \
        tokens[at - 1].word == "but" and "not" in [t.word for t in tokens[first:at - 1]]


def _x_of_not(words: list[str], i: int, tokens: list[Tok], sentence: str) -> bool:
    """X of "X, not Y": the word before ", not" ("in room X, not in room Y"), or, where Y is
    a capitalised name, the clause's one capitalised word ("It's Ingrid on call, not Tom")."""
    if "not" not in words[i + 1:]:
        return False
    at = words.index("not", i + 1)
    if words[at - 1] != "," or at + 1 >= len(tokens):
        return False
    named = capital(sentence, tokens[at + 1])
    if at == i + 2:
        return capital(sentence, tokens[i]) == named or not named
    return named and capital(sentence, tokens[i]) and not any(
        capital(sentence, t) for t in tokens[i + 1:at - 1])


def _after_not(words: list[str], i: int) -> bool:
    """The last word of "not [in room] Y" before the clause ends (or "any more")."""
    back = words[max(0, i - 4):i]
    if "not" not in back or any(not w for w in back):
        return False
    at = i - len(back) + back.index("not")
    if words[at - 1:at] != [","] and "but" not in words[i:]:
        return False  # "X, not Y" and "not Y but X" only: "this is not a bug" states nothing
    between = back[back.index("not") + 1:]
    return all(w in PREPOSITIONS or w in DETERMINERS or w.isalpha() for w in between) and (
        i + 1 >= len(words) or words[i + 1] in BOUNDARY or words[i + 1] in (
            "any", "anymore", "but"))


def _statement_slot(sentence: str, tokens: list[Tok], i: int, first: int, prev: str,
                    correction: bool) -> bool:
    """"called X", "(change) K to X", "K is X" at a clause's end (K of two words or more, or
    any K in a correction: "the log level is debug", not "the API is ready")."""
    words = [t.word for t in tokens]
    if prev in ("called", "named"):
        return True
    if prev == "to":
        verbs = [k for k in range(first, i - 1) if is_change(words[k])]
        # ("the kitchen timer goes to zero": after a plain verb's "to", a number in words says
        # what the thing does, as prose does; a change verb's "to" names a setting)
        return (bool(verbs) and not _named_mover(sentence, tokens, verbs[-1], i - 1)) or \
            (subject_verb_to(tokens, i - 1, first) and words[i] not in _SPELLED)
    if prev in ("is", "are") and not correction and labelled.participle(words[i]):
        return False  # "the release candidate is tagged": a state of K, not a value of it
    if prev in (":", "="):  # "north bed: basil.", "share = media" ("x=4": a formula's)
        return (prev == ":" or len(words[i - 2]) > 1) and labelled.labelled_value(tokens, i, first)
    if prev in ("now", "is", "are"):
        phrase = phrase_before(tokens, i - (2 if prev == "now" else 1), first)
        return len(phrase) >= (1 if correction or prev == "now" or coded_now(words, i) else 2)
    return prev in IT_IS and coded_now(words, i)  # "its sunflower99 now" (fact_now_codes)


_SPELLED = NUMBER_WORDS | {"zero"}  # the cardinals in words
_FOCUS = ("now", "i", "we", "who")  # "it's Mrs. Costa I should talk to": a cleft's focus
# A pronoun and its copula in one word ("it's 2 rounds now", "we're 8 for dinner").
CONTRACTED = closed("it's we're they're that's there's")
