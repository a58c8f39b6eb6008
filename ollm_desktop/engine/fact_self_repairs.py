"""A self-repair in the middle of a sentence: a value, a word that takes it back, and the
value meant ("16 GB RAM, sorry, 32 GB", "at Pier 39, I mean Pier 45", "Kowalczyk—actually
Kowalska", "is 1500, ugh, 1800 I mean", "port 8080, no wait, 8088"). The first is the old
value, the second the new one with its key (``fact_grammar`` gives a new value without a key
its old value's). Speakers repair in the words they had just used: the two values have one
shape (letters, digits and signs in the same runs) or one unit class, and only the repair's
words stand between them. "16 GB or 32 GB" offers two, and repairs nothing. A hesitation
alone ("er", "uh", "um") repairs as well ("at 5, er, 5:30", "Jon, er, John"; review of stop
51), but never with a lower-case word that may qualify ("vegan — er, mostly vegan"); a hedged
value meant ("at 4 — er, maybe 5") states nothing, and the first is taken back all the same.
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_day_times import one_day
from ollm_desktop.engine.fact_keys import unit_class
from ollm_desktop.engine.fact_value_spans import ends_clause
from ollm_desktop.engine.fact_verbs import finite_verb
from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    BOUNDARY,
    COPULAS,
    DETERMINERS,
    FILLER,
    MODALS,
    NOT_NP,
    PREPOSITIONS,
    REPORTING,
    Tok,
    closed,
    open_class,
)

# Words that take back what was just said (a closed class); "i mean" after the value meant
# repairs as well ("1500, ugh, 1800 I mean").
_TAKING_BACK = closed("sorry sry soz mean meant wait hold actually err erm errr oops whoops "
                      "rather correction nvm no nope pardon")  # ("I beg your pardon, ...")
# Words that may stand beside them between the two values ("no hold on", "or rather", "my
# bad", "make that"): they repair nothing alone.
_BESIDE = FILLER | closed("i on or my bad make that ugh um uh er hold the .. ... … - – — · maybe "
                          "probably argh gah doh beg your")
# A hesitation between two values of one kind repairs the first ("at 5, er, 5:30", "Friday
# at 7 — uh, 8"): a speaker says "er" while finding the word meant, never to list a second.
_HESITATING = closed("er uh um ugh argh gah doh")  # (or an exasperated one)
_HEDGES = closed("maybe probably perhaps")
# (·: a word the value after it has taken in, "Pier" of "Pier 45")
_RUNS = re.compile(r"[A-Za-z]+|\d+|[^\sA-Za-z\d]")
_DOTS = closed(".. ... … -")
_DENIALS = closed("no nope")
# A hesitation before the value meant and "actually" after it ("Denver — er, Colorado Springs
# actually"): a repair, where "Denver, Colorado Springs actually" may list two.
_HESITANT = closed("er uh um — –")
_NOUN_AFTER = 3  # words of the old value's noun after it ("16 GB RAM, sorry, 32 GB")


def _shape(text: str) -> str:
    """The runs of a value's text: "AF 1234" and "AF 1243" are "A 9", "Pier 39" "Aa 9"."""
    return " ".join("9" if run[0].isdigit() else "A" if run.isupper() else "Aa" if
                    run[0].isupper() else "a" if run.isalpha() else run
                    for run in _RUNS.findall(text))


def _same_kind(old: str, old_kind: str, new: str, new_kind: str) -> bool:
    counted = _COUNTED.fullmatch(old), _COUNTED.fullmatch(new)
    if counted[0] and counted[1] and counted[0].group(1) != counted[1].group(1):
        return False  # "2 rooms, er, 3 nights": a count of another noun, a second fact
    if _BARE.fullmatch(old.split()[-1]) and len(old.split()) <= 2 and new[:1].isdigit() and \
            not _BARE.fullmatch(new):  # "at 37 — no, 30 degrees", "pressure 32, sorry, 35
        return True  # psi": the unit said once, with the value meant
    if _shape(old) == _shape(new) or (old_kind == new_kind == "name" and set(
            f"{_shape(old)} {_shape(new)}".split()) == {"Aa"}):  # (a name's words, capitalised)
        return old.lower() != new.lower()
    unit = unit_class(old, old_kind, "")
    return (unit not in ("number", "name") and unit == unit_class(new, new_kind, "")) or \
        one_day(old, old_kind, new, new_kind)  # ("Monday, sorry, Tuesday at 3pm")


def _bare(sentence: str, token: Tok, like: tuple[int, int, str, str]) -> bool:
    """A token that is no value yet but has the old value's shape: a bare number for a bare
    number ("1500, ugh, 1800"), a capitalised word for a one-word name ("Kowalska")."""
    text = sentence[token.start:token.end]
    if like[3] == "name" and _shape(like[2]) == "Aa" and text[:1].isupper() and \
            set(_shape(text).split()) == {"Aa"}:  # "Denver — er, Colorado Springs": a name's
        return True  # run of capitalised words for a capitalised word
    return " " not in like[2] and text[:1].isalnum() and _shape(text) == _shape(like[2])


def _spoken(tokens: list[Tok], at: int, j: int) -> bool:
    """A repair typed as spoken, with no comma ("lands at 14:50 no wait 15:40"): a word
    that takes back besides "no" ("no milk", "no later than" take nothing back)."""
    return any(t.word in _TAKING_BACK - _DENIALS for t in tokens[at:j]) or (
        j - at == 1 and tokens[at].word in _HESITATING and not _qualified(tokens, j))
    # ("4417 er 4471": one hesitation alone; "500 um 200 of that is spent", "£40 um £15 for
    # kids" give the second value a whole of its own or another key: no repair)


_QUALIFYING = closed("for of each per apiece except")  # ("£15 for kids", "200 of that")
_END = closed(". ! ? … ...")


def _qualified(tokens: list[Tok], j: int) -> bool:
    """The value at ``j`` (and the words it took in) goes on with a word that gives it
    another key or a whole ("£15 for kids", "200 of that is spent")."""
    k = j + 1
    while k < len(tokens) and tokens[k].word == "·":
        k += 1
    return k < len(tokens) and tokens[k].word in _QUALIFYING


def _ends(tokens: list[Tok], j: int) -> bool:
    """The value at ``j`` (and the words it took in) ends the sentence."""
    k = j + 1
    while k < len(tokens) and tokens[k].word == "·":
        k += 1
    return all(t.word in _END for t in tokens[k:])


_BARE = re.compile(r"\d+(?:[.,]\d+)?")
_COUNTED = re.compile(r"\d+(?:[.,]\d+)?\s+([a-z]+)")  # "40 bales": the noun it counts


def _bare_olds(sentence: str, tokens: list[Tok], first: int) -> None:
    """A bare number taken back for a number with its unit ("incubate at 37 — no, 30
    degrees", "set it to 8, sorry, 9 bar"): the speaker names the unit once, with the value
    meant, so the bare number becomes a value of the same kind (the repair then takes it).
    Only with a word that takes back, or a hesitation before a number of the same digits'
    shape: "37, 30 degrees" may list two."""
    for i in range(first, len(tokens) - 2):
        text = sentence[tokens[i].start:tokens[i].end]
        if tokens[i].value is not None or not _BARE.fullmatch(text) or \
                tokens[i + 1].word not in BOUNDARY | _DOTS:
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].value is None and j - i <= 6 and (
                tokens[j].word in BOUNDARY or tokens[j].word in _BESIDE or
                tokens[j].word in _TAKING_BACK):
            j += 1
        new = tokens[j].value or _counted(sentence, tokens, j) if j < len(tokens) else None
        if new is not None and new[2][:1].isdigit() and not _BARE.fullmatch(new[2]) and (any(
                t.word in _TAKING_BACK for t in tokens[i + 1:j]) or _hesitated_alike(
                sentence, tokens, i, j, new[2])):
            tokens[i].value = (tokens[i].start, tokens[i].end, text, new[3])
            if tokens[j].value is None:  # (the number meant and its noun: one value)
                tokens[j].value, tokens[j + 1].word = new, "·"


def _hesitated_alike(sentence: str, tokens: list[Tok], i: int, j: int, new: str) -> bool:
    """A hesitation between a bare number and a number of its digits' shape with its unit,
    not listed on ("on 7.185 — uh, 7.188 MHz", "about 20, um, 25 kg"): the speaker finds
    the number meant and names the unit once. "2, uh, 3 kg and 4 kg" lists."""
    number = new.split()[0]
    return any(t.word in _HESITATING for t in tokens[i + 1:j]) and _BARE.fullmatch(number) \
        is not None and _shape(number) == _shape(sentence[tokens[i].start:tokens[i].end]) and \
        not _listed_on(tokens, j)


def _counted(sentence: str, tokens: list[Tok], j: int) -> tuple[int, int, str, str] | None:
    """A bare number and the one plain word it counts, ending the clause ("30 degrees", "45
    bales."): the value meant of a repair, as a count after a correction's lead is."""
    if j + 1 >= len(tokens) or not _BARE.fullmatch(sentence[tokens[j].start:tokens[j].end]):
        return None
    noun = tokens[j + 1].word
    if not noun.isalpha() or not noun.islower() or noun in NOT_NP or noun in DETERMINERS or \
            noun in PREPOSITIONS or noun in COPULAS or not ends_clause(tokens, j + 1):
        return None
    return (tokens[j].start, tokens[j + 1].end, sentence[tokens[j].start:tokens[j + 1].end],
            "number")


def self_repaired(sentence: str, tokens: list[Tok], first: int) -> frozenset[int]:
    """The indices of values a later value of the same sentence repairs, in place: the value
    meant becomes a value (of the old one's kind) where it was a bare word."""
    _bare_olds(sentence, tokens, first)
    taken: set[int] = set()
    for i in range(first, len(tokens)):
        old = tokens[i].value
        if old is None:
            continue
        j, marked, hesitated = i + 1, False, False
        while j < len(tokens) and tokens[j].word == "·":
            j += 1  # (a word the value took in: "40 bales")
        while j < len(tokens) and j - i <= _NOUN_AFTER and tokens[j].word.isalpha() and \
                tokens[j].word not in _TAKING_BACK and tokens[j].word not in _BESIDE:
            j += 1  # (its noun)
        if j >= len(tokens) or (tokens[j].word not in BOUNDARY | _DOTS and
                                tokens[j].word not in _TAKING_BACK | _HESITATING):
            continue  # (the repair opens a clause: "Thursdays actually, Tuesday is gym"
            # confirms Thursdays)
        unpunctuated, at = tokens[j].word not in BOUNDARY | _DOTS, j
        while j < len(tokens) and tokens[j].value is None and (
                tokens[j].word in BOUNDARY or tokens[j].word in _BESIDE or
                tokens[j].word in _TAKING_BACK) and j - i <= 8:
            hesitated = hesitated or tokens[j].word in _HESITATING
            marked = marked or tokens[j].word in _TAKING_BACK or (
                tokens[j].word == "that" and tokens[j - 1].word == "make")  # "make that 3"
            j += 1
        if j >= len(tokens) or j == i + 1 or (unpunctuated and not _spoken(tokens, at, j)):
            continue
        new = tokens[j].value
        if j + 1 < len(tokens) and (tokens[j + 1].word in COPULAS - {":"} or
                                    tokens[j + 1].word in AUXILIARIES or
                                    tokens[j + 1].word in MODALS or finite_verb(tokens[j + 1])):
            continue  # the value opens a clause of its own ("1234, no 4321 is the shed code",
            # "Monday, actually, Tuesday works better for Tom": a second fact, a wish)
        after = [t.word for t in tokens[j + 1:j + 3]]
        marked = marked or after == ["i", "mean"] or after == ["i", "meant"] or (
            after[:1] == ["actually"] and any(t.word in _HESITANT for t in tokens[i + 1:j]))
        if not marked and (not hesitated or _listed_on(tokens, j)):
            continue  # ("we visited Denver, er, Boulder and Aspen": a list, hesitating)
        if new is None and tokens[j - 1].word in _DENIALS and tokens[j].word.isalpha() and \
                tokens[j].word.islower() and not any(
                    t.word in _TAKING_BACK - _DENIALS for t in tokens[i + 1:j + 3]):
            continue  # "vegetarian, so no meat": "no" is the noun's determiner
        if new is None and marked and (run := _lower_run(sentence, tokens, j, old)) > j:
            new = (tokens[j].start, tokens[run].end,  # "peanuts, I mean tree nuts"
                   sentence[tokens[j].start:tokens[run].end], old[3])
            tokens[j].value, tokens[j].word = new, ""
            for token in tokens[j + 1:run + 1]:
                token.word = "·"
            taken.add(i)
        if new is None and _bare(sentence, tokens[j], old) and (
                marked or not sentence[tokens[j].start].islower()):  # (hesitating, a word
            # may qualify: "vegan — er, mostly vegan", "by bus — er, mostly")
            new = (tokens[j].start, tokens[j].end, sentence[tokens[j].start:tokens[j].end],
                   old[3])
            tokens[j].value, tokens[j].word = new, ""
        meant = new[2] if new is not None else ""
        hedge, _, rest = meant.partition(" ")
        if hedge.lower() in _HEDGES and rest:  # "at 4 — er, maybe 5": the hedged value states
            meant = rest  # nothing (its mood), the first is taken back all the same
        if new is not None and _same_kind(old[2], old[3], meant, new[3]):
            taken.add(i)
            if new[3] != old[3] and _shape(old[2]) == _shape(new[2]):  # "AF 1234, no hold
                tokens[j].value = (*new[:3], old[3])  # on, AF 1243": one kind, the old one's
            for token in tokens[i + 1:j]:  # the repair's words name no key ("I mean Pier
                if token.word in _TAKING_BACK or token.word in _BESIDE - {"·"}:  # 45")
                    token.word = ","
    _reported(sentence, tokens, first, taken)
    return frozenset(taken)


_SOURCE_VERBS = REPORTING | closed("wrote writes confirms confirmed")
_SOURCE_WORDS = 3  # words of the source's name ("the nurse", "my GP's letter")


def _reported(sentence: str, tokens: list[Tok], first: int, taken: set[int]) -> None:
    """A repair whose value meant a source gives ("140/90, hold on, the nurse wrote 135/85 on
    the card", "Otter42, wait, the sticker says Otter24"): a value, a word that takes it back
    between commas, a short subject and a verb of saying or writing, then a value of the old
    one's kind. The speaker checks and finds the value meant; the source names no key."""
    for i in range(first, len(tokens)):
        old = tokens[i].value
        if old is None or i in taken or i + 1 >= len(tokens) or tokens[i + 1].word != ",":
            continue
        j = i + 2
        while j < len(tokens) and j - i <= 5 and tokens[j].value is None and (
                tokens[j].word in _TAKING_BACK or tokens[j].word in _BESIDE):
            j += 1
        if j >= len(tokens) or tokens[j].word != "," or not any(
                t.word in _TAKING_BACK - _DENIALS for t in tokens[i + 2:j]):
            continue
        k = j + 1 + (j + 1 < len(tokens) and tokens[j + 1].word in DETERMINERS)
        start = k
        while k < len(tokens) and k - start < _SOURCE_WORDS and tokens[k].value is None and \
                tokens[k].word.isalpha() and tokens[k].word not in _SOURCE_VERBS and \
                tokens[k].word not in NOT_NP and tokens[k].word not in COPULAS:
            k += 1
        if k == start or k + 1 >= len(tokens) or tokens[k].word not in _SOURCE_VERBS:
            continue
        new, after = tokens[k + 1].value, tokens[k + 2] if k + 2 < len(tokens) else None
        if new is None or not _same_kind(old[2], old[3], new[2], new[3]) or (
                after is not None and (after.word in COPULAS or after.word in AUXILIARIES or
                                       after.word in MODALS or after.word in _HEDGES or
                                       finite_verb(after))):
            continue  # ("…, sorry, Dana says 10:05 is better": her opinion, a clause's own)
        if not _ends(tokens, k + 1) and not _written_on(tokens, k + 1):
            continue  # words after the source's value may doubt it ("…, which can't be
            # right", "by mistake"), or give it another key or time ("for non-members",
            # "last year"): the user's value stands
        taken.add(i)
        for token in tokens[i + 1:k + 1]:  # (the source names no key: "the nurse wrote")
            token.word = ","


def _written_on(tokens: list[Tok], j: int) -> bool:
    """The source's value, then where it is written, ending the sentence ("135/85 on the
    card", "5 May in the contract")."""
    k = j + 1
    while k < len(tokens) and tokens[k].word == "·":
        k += 1
    if k + 1 >= len(tokens) or tokens[k].word not in ("on", "in"):
        return False
    k += 1 + (tokens[k + 1].word in DETERMINERS)
    start = k
    while k < len(tokens) and k - start < 2 and tokens[k].value is None and \
            tokens[k].word.isalpha() and tokens[k].word not in NOT_NP:
        k += 1
    return k > start and all(t.word in _END for t in tokens[k:])


_RUN_WORDS = 3  # words of a lower-case value meant


def _lower_run(sentence: str, tokens: list[Tok], j: int, old: tuple[int, int, str, str]) -> int:
    """The last index of a run of plain lower-case words at ``j`` that ends its clause, for
    an old value of lower-case words ("peanuts, I mean tree nuts,", "oat milk, sorry, soy
    milk"): the value meant, whole; ``j`` where there is none."""
    if old[3] != "name" or not all(w.isalpha() and w.islower() for w in old[2].split()):
        return j
    k = j
    while k < len(tokens) and k - j < _RUN_WORDS and tokens[k].value is None and \
            open_class(tokens[k].word) and sentence[tokens[k].start:tokens[k].end].islower():
        k += 1
    return k - 1 if k - j >= 2 and (k >= len(tokens) or tokens[k].word in BOUNDARY) else j


def _listed_on(tokens: list[Tok], j: int) -> bool:
    """The value at ``j`` goes on to another in a list ("Boulder and Aspen", "Boulder,
    Aspen")."""
    nxt = [t for t in tokens[j + 1:j + 3]]
    return bool(nxt) and (nxt[0].word in ("and", "or", "&") or (
        nxt[0].word == "," and len(nxt) > 1 and (_alike(tokens[j].value, nxt[1].value) or
                                                  nxt[1].word[:1].isdigit())))


def _alike(value: tuple[int, int, str, str] | None, other: tuple[int, int, str, str] | None) \
        -> bool:
    """The value after a comma goes on a list of the value meant: any value after a name or
    a bare number ("Boulder, Aspen"), one of its unit class after a measure ("7.188 MHz, 40 m
    SSB" names a band after a frequency, no second frequency)."""
    if other is None:
        return False
    unit = unit_class(value[2], value[3], "") if value is not None else "number"
    return unit in ("number", "name") or unit == unit_class(other[2], other[3], "")


def actually_after(tokens: list[Tok], first: int) -> bool:
    """A value closing its sentence with "actually" after it ("8:15 actually.", "it starts at
    8:15 actually", "Tuesday actually!"): the sentence corrects, as with a leading "Actually"."""
    words = [t for t in tokens[first:] if t.word not in BOUNDARY or t.value]
    return not any(t.word in REPORTING for t in words) and \
        len(words) >= 2 and words[-1].word == "actually" and words[-2].value is not None
