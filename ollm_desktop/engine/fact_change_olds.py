"""The old value a change names inside the thing it changes (issue 28, real text).

``fact_old_values`` reads the old value of a change where a word points at it ("from Y",
"not Y", "instead of Y"). Real text as often names it inside the noun phrase that the change
moves ("the 3pm rehearsal has moved to 5pm", "we pushed the 10:00 demo to 11:30"): the value
says which thing moved by where it stood, the change's "to X" where it goes, and read as two
values of one key both would stay current and the change would replace nothing. A value of
another kind ("the Monday meeting moved to 3pm"), a name ("the Berlin team moved to Paris":
who, not where), a fronted adjunct's ("On Friday, the meeting moved to Monday": when), or a
value in another clause names which thing changed, and stays.

The shape is read at three points of the pipeline, one reader each, and they catch cases the
others miss (the tests and the scorer's cases show it of all but ``renamed_subject``), so their
union is kept; one reading for all three would change which values count as one kind (a
scale, a unit class, a slot's kind) and which words end a phrase:

- ``moved_subject``, ``renamed_subject`` (in ``fact_old_values.is_old``): "Y [aux…] V
  [particle] to X" with Y and X on one scale and no negation between, a verb redone ("the
  meeting scheduled for Monday, November 28 was cancelled and was rescheduled to Wednesday");
  the renaming "Y[, which …,] is now X";
- ``changed_old`` (in ``fact_comparatives.replaced_value``, after ``is_old``; a negated change
  is ruled out there): Y in the changed phrase as its subject or its object ("we pushed the
  10:00 demo to 11:30"), the phrase's listed values ("for Friday, September 4th 2020"), and a
  value an anterior word marks as planned ("the planned 3pm departure ... will instead leave
  at 4pm", "originally set to leave at 7.15pm, will leave at 8pm");
- ``moved_olds``, ``restated_subject_olds`` (in ``provenance.sentence_facts``, over a
  correction's slots and their kinds): the moved thing's value, and a subject's value its
  predicate gives another of its kind ("our 2 GB plan is now 4 GB", "first booked to leave
  at 6.30pm, will now leave at 7pm").

The words are closed classes (auxiliaries, determiners, prepositions, particles, negations and
the anterior adjectives and adverbs); the change verbs are ``fact_words.CHANGE``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from ollm_desktop.engine.fact_keys import unit_class
from ollm_desktop.engine.fact_subject_ends import AUXILIARY
from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    BOUNDARY,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    PARTICLES,
    PREPOSITIONS,
    PRONOUNS,
    TIMES,
    Tok,
    Value,
    closed,
    is_change,
)

# A change said not to happen moves nothing ("has not been moved to Sunday", "won't sail");
# "neither Y nor …" also ends Y's subject in the token reader ("nor" leaves the slot reader's
# "neither the 3pm call nor the 4pm call moved" as it read it).
NEGATION = closed("not never no n't")
_NEGATION_NOR = NEGATION | {"nor"}
# The words that lead from a change verb to where its thing goes ("pushed back to Friday",
# "moved up to noon", "postponed until the 21st"): its particles, then "to" or "until". Each
# reader keeps the words it read before the readers were merged: the changed phrase's
# ("moved forward to", "until") and the moved subject's ("moved over to", "to" only).
_TO = closed("to until till")
_PHRASE_PARTICLES = closed("back up down forward out")
_SUBJECT_TO = closed("to")
# Words that say a value was planned before and is no longer: an adjective right before the
# value ("the planned 3pm departure", "the original May date"; "the old office opens at 9am"
# is another office's), an adverb anywhere in its stretch ("originally set to leave at 7.15pm").
# (Only the adjectives of a plan: "the old 8080 port", "the earlier 7pm screening", "the
# former 2.3 branch" as often name a sibling that still holds beside a new one.)
ANTERIOR_ADJECTIVE = closed("planned scheduled original initial")
ANTERIOR_ADVERB = closed("originally initially previously formerly")
_EDGE = closed(". ; : ! ? — – ( ) but and or so because while although though which that "
               "who when if")
_NOW = closed("instead now will won't")
_TARGETED = closed("to from until till than not instead of")
REACH = 10  # tokens from a value in the changed noun phrase to its change's verb
BACK = 7  # tokens from an anterior word to its value
_MOST_BETWEEN = 6  # words between Y and its verb in "Y [aux…] V to X": "for … has been"
_SCALAR = frozenset({"time", "date", "version"})
_UNIT = re.compile(r"([$€£¥]?)[\d.,]+\s*(.*)")
_RELATIVE = closed("which who that")


def _to_value(tokens: Sequence[Tok], at: int, particles: frozenset[str] = _PHRASE_PARTICLES,
              tos: frozenset[str] = _TO) -> int:
    """The value a change's "to X" names from ``at`` on: past ``particles``, a word of
    ``tos`` and determiners ("moved up to noon", "pushed to the 21st"); its index, or -1."""
    while at < len(tokens) and tokens[at].word in particles:
        at += 1
    if at >= len(tokens) or tokens[at].word not in tos:
        return -1
    at += 1
    while at < len(tokens) and tokens[at].word in DETERMINERS:
        at += 1
    return at if at < len(tokens) and tokens[at].value is not None else -1


# --- "Y [aux…] V to X", "Y, which …, is now X" (``fact_old_values.is_old``) ---

def moved_subject(tokens: list[Tok], i: int) -> bool:
    """Whether the value at ``i`` is Y of "Y [aux…] V to X": a few words with no value and no
    clause boundary between Y and a change verb, whose "to" leads to X on Y's scale."""
    value = tokens[i].value
    if value is None or _valued_before(tokens, i) or (i > 0 and tokens[i - 1].word == "to"):
        return False  # a change's target is new ("moved to 8100 and the UI moved to 8101")
    for k in range(i + 1, min(len(tokens), i + 2 + _MOST_BETWEEN)):
        token = tokens[k]
        if token.value is not None or token.word in BOUNDARY or token.word in _NEGATION_NOR or \
                token.word in ("to", "from"):
            return False
        if is_change(token.word) or _done_again(tokens, i, token.word):
            target = _to_value(tokens, k + 1, PARTICLES, _SUBJECT_TO)
            if target >= 0 and _same_scale(value, tokens[target].value):
                return True  # (past a change with no "to": "was cancelled and rescheduled")
    return False


def _valued_before(tokens: list[Tok], i: int) -> bool:
    """Another value before Y in its clause ("the 5k race on Sunday has been moved to
    Saturday"): the subject holds two values, and which one the change replaces is no longer
    the one value of the subject, so Y is left as it was read."""
    return any(token.value is not None for token in _clause_before(tokens, i))


def _clause_before(tokens: list[Tok], i: int) -> Iterator[Tok]:
    """The tokens of Y's clause before Y, nearest first (back to a clause boundary)."""
    for k in range(i - 1, -1, -1):
        if tokens[k].word in BOUNDARY:
            return
        yield tokens[k]


def renamed_subject(tokens: list[Tok], i: int) -> bool:
    """Whether the name at ``i`` is Y of "Y[, which …,] is now X" with X a name sharing a word
    with Y ("Maple Street Primary School, which opened in 1990, is now Maple Street Academy"):
    a new name of the same thing keeps part of the old; "Alice, who led QA, is now Head of
    Design" shares none and keeps Alice."""
    value = tokens[i].value
    opener = i - 1 if i == 1 and tokens[0].word.isalpha() and not tokens[0].value else i
    if value is None or value[3] != "name" or (  # (the sentence's capitalised first word
            opener > 0 and tokens[opener - 1].word not in BOUNDARY and  # stands apart:
            tokens[opener - 1].word not in DETERMINERS):  # "maple" + "Street Primary School")
        return False
    at = i + 1
    if at + 1 < len(tokens) and tokens[at].word == "," and tokens[at + 1].word in _RELATIVE:
        at = next((k + 1 for k in range(at + 2, len(tokens)) if tokens[k].word == ","), 0)
    if not 0 < at < len(tokens) - 2 or tokens[at].word not in ("is", "are") or \
            tokens[at + 1].word != "now":
        return False
    new = tokens[at + 2].value
    return new is not None and new[3] == "name" and bool(
        {w.lower() for w in value[2].split()} & {w.lower() for w in new[2].split()}) and \
        opener in (0, i)


def _done_again(tokens: list[Tok], i: int, word: str) -> bool:
    """A verb that redoes the one Y was the object of: "scheduled for Monday … rescheduled
    to Wednesday", "booked for the 3rd, rebooked for the 5th": "re" and a verb said before Y
    in its clause."""
    done = word.removeprefix("re").removeprefix("-")
    return done != word and len(done) >= 4 and any(
        token.word == done for token in _clause_before(tokens, i))


def _same_scale(old: Value, new: Value | None) -> bool:
    """Two values on one scale: both times, dates or versions, or numbers in one unit
    ("5 GB" and "10 GB", "$2.35" and "$2.45", "8080" and "8081"; not "5 servers" and
    "3 racks"); a name is never on a scale ("Alice's team moved to Berlin" keeps Alice)."""
    if new is None or old[3] != new[3] or old[3] not in (*_SCALAR, "number", "port"):
        return False
    if old[3] in _SCALAR:
        return True
    units = [_UNIT.fullmatch(text) for text in (old[2], new[2])]
    return units[0] is not None and units[1] is not None and \
        units[0].group(1, 2) == units[1].group(1, 2)


# --- the changed phrase's value, a plan's value (``fact_comparatives.replaced_value``) ---

def changed_old(tokens: Sequence[Tok], i: int) -> bool:
    """Whether the value at ``i`` is the old one of a change that names it in the thing it
    changes, or of a plan an anterior word marks."""
    if tokens[i].value is None:
        return False
    targeted = i > 0 and tokens[i - 1].word in _TARGETED  # "moved to 3pm, ...": a target
    return (not targeted and (_in_changed_phrase(tokens, i) or _object_of_change(tokens, i))
            ) or _planned_before(tokens, i)


def _unit(token: Tok) -> str:
    value = token.value
    return unit_class(value[2], value[3], "") if value is not None else ""


def _in_changed_phrase(tokens: Sequence[Tok], i: int) -> bool:
    """The value at ``i`` stands in the noun phrase a change moves to a value of its kind."""
    unit = _unit(tokens[i])
    fronted = all(t.word in PREPOSITIONS or t.word in TIMES for t in tokens[:i])
    for j in range(i + 1, min(len(tokens), i + 1 + REACH)):
        word = tokens[j].word
        if tokens[j].value is not None:
            if _unit(tokens[j]) != unit:
                return False
            continue  # "for Friday, September 4th 2020": the phrase's values, listed
        listed = word == "," and j + 1 < len(tokens) and tokens[j + 1].value is not None
        if word in _EDGE or (word == "," and not listed) or (fronted and word in DETERMINERS):
            return False  # "On Friday, the meeting moved", "At 3pm the meeting moved": when
        if is_change(word):
            target = _to_value(tokens, j + 1)
            return target > j and _unit(tokens[target]) == unit and _governs(tokens, i, j)
    return False


def _governs(tokens: Sequence[Tok], i: int, verb: int) -> bool:
    """Between the value and the verb: its noun phrase (nouns, prepositions, determiners,
    commas, values) and the verb's auxiliaries; no other verb."""
    for k in range(i + 1, verb):
        word = tokens[k].word
        if tokens[k].value is not None or word in (",", "·") or word in DETERMINERS or \
                word in PREPOSITIONS or word in AUXILIARY or word.isalpha() or "-" in word:
            continue
        return False
    return True


def _object_of_change(tokens: Sequence[Tok], i: int) -> bool:
    """"moved the Tuesday book club to Thursday": the value in the object noun phrase of a
    change verb before it, whose "to X" (of its kind) follows the phrase."""
    unit = _unit(tokens[i])
    verb = next((k for k in range(i - 1, max(-1, i - 5), -1)
                 if is_change(tokens[k].word)), -1)
    if verb < 0 or any(tokens[k].word in _EDGE or tokens[k].value is not None or
                       (tokens[k].word not in DETERMINERS and tokens[k].word != "·")
                       for k in range(verb + 1, i)):
        return False
    for k in range(i + 1, min(len(tokens), i + 6)):
        if tokens[k].word in _TO:
            target = _to_value(tokens, k)
            return target >= 0 and _unit(tokens[target]) == unit
        if tokens[k].value is not None or tokens[k].word in _EDGE or \
                not tokens[k].word.isalpha():
            return False
    return False


def _anterior(tokens: Sequence[Tok], i: int) -> bool:
    """An anterior word before the value at ``i``, within its stretch (no comma between)."""
    unit = _unit(tokens[i])
    if i > 0 and tokens[i - 1].word in ANTERIOR_ADJECTIVE and \
            any(t.word == "instead" for t in tokens[i:]):
        return True
    for k in range(i - 1, max(-1, i - 1 - BACK), -1):
        word = tokens[k].word
        if word in ANTERIOR_ADVERB:
            return True
        if word in _EDGE or word == "," or (tokens[k].value is not None and
                                             _unit(tokens[k]) == unit):
            return False
    return False


def _planned_before(tokens: Sequence[Tok], i: int) -> bool:
    """An anterior value with a later value of its kind that carries no anterior word."""
    if not _anterior(tokens, i):
        return False
    unit = _unit(tokens[i])
    return any(tokens[k].value is not None and _unit(tokens[k]) == unit and
               not _anterior(tokens, k) and _now_holds(tokens, i, k)
               for k in range(i + 2, len(tokens)))


def _now_holds(tokens: Sequence[Tok], i: int, k: int) -> bool:
    """Between the planned value at ``i`` and a later one at ``k``: a word that says what
    holds from now ("instead", "now", a change verb, the future "will"); "the scheduled 9am
    stand-up and the 2pm retro" lists two things, and changes neither."""
    return any(t.word in _NOW or is_change(t.word) for t in tokens[i + 1:k])


# --- the same shapes over a correction's slots (``provenance.sentence_facts``) ---

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_BREAK = re.compile(r"[;:.!?()—–]")
# what opens a clause inside a sentence: its words end a noun phrase too
_OPENERS = CONJUNCTIONS | closed("because since which that while when if unless after before "
                                 "until")
# kinds of value a thing's noun phrase names it by where it stood
_PLACED = closed("time date number port version money duration size percent")


def moved_olds(sentence: str, spans: Sequence[tuple[int, int, str]]) -> set[int]:
    """Indices of ``spans`` (start, end, ref_kind; in sentence order) that a change verb's
    "to X" in ``sentence`` moves away from (see the module's docstring)."""
    olds: set[int] = set()
    for verb in _WORD.finditer(sentence):
        if not is_change(verb.group(0).lower()):
            continue
        target = _target(sentence, verb.end(), spans)
        if target is None:
            continue
        kind = spans[target][2]
        for index, (start, end, ref_kind) in enumerate(spans[:target]):
            if ref_kind == kind and kind in _PLACED and \
                    _one_phrase(sentence, end, verb.start(), start, spans) and \
                    (end <= verb.start() or _object_of(sentence, verb.end(), start)):
                olds.add(index)
    return olds


def _target(sentence: str, after: int, spans: Sequence[tuple[int, int, str]]) -> int | None:
    """The value right after the verb's "to" (past a particle and a determiner): "moved up to
    noon", "pushed to the 21st"; or, for a verb with an object, after "to" in its clause."""
    words = [(m.group(0).lower(), m.end()) for m in _WORD.finditer(sentence, after)]
    at = 0
    while at < len(words) and words[at][0] in PARTICLES:
        at += 1
    if at >= len(words) or words[at][0] != "to":
        to = next((k for k, (w, _) in enumerate(words[:8]) if w == "to"), None)
        if to is None or _BREAK.search(sentence, after, words[to][1]) is not None:
            return None
        at = to
    end = words[at][1]
    rest = sentence[end:]
    skipped = len(rest) - len(rest.lstrip())
    for word in ("the ", "a "):
        if rest.lstrip().lower().startswith(word):
            skipped += len(word)
    return next((k for k, (start, _, _) in enumerate(spans) if start == end + skipped), None)


def _object_of(sentence: str, verb_end: int, start: int) -> bool:
    """A value between the verb and its "to" is in the verb's object ("moved the 3pm call
    to"): the words before it are determiners or other values only."""
    words = [w.lower() for w in _WORD.findall(sentence[verb_end:start])]
    return all(w in DETERMINERS or w in PARTICLES for w in words)


def _one_phrase(sentence: str, end: int, verb: int, start: int,
                spans: Sequence[tuple[int, int, str]]) -> bool:
    """One clause (``_one_clause``) from a value before the verb to the verb, with a comma
    only before another value (an apposition: "for Friday, September 4th")."""
    if end > verb:
        return True  # (in the object: "_object_of" reads it)
    between = sentence[end:verb]
    if not _one_clause(between):
        return False  # ("at 3pm we moved the call to 4pm": when, not which call)
    for comma in re.finditer(",", between):
        after = end + comma.end()
        after += len(sentence[after:]) - len(sentence[after:].lstrip())
        if not any(s == after for s, _, _ in spans):
            return False
    return start < end


def _one_clause(between: str) -> bool:
    """No clause break in ``between``: no sentence mark, no conjunction or subordinator, no
    negation (a change said not to happen) and no other subject (a pronoun)."""
    return _BREAK.search(between) is None and "n't" not in between.lower() and not any(
        w.lower() in _OPENERS or w.lower() in PRONOUNS or w.lower() in NEGATION
        for w in _WORD.findall(between))


# the words that end a subject and open its predicate (an auxiliary, a copula, "now")
_PREDICATE = AUXILIARIES | COPULAS | frozenset({"now", "has", "have", "had", "instead"})
# what stands right before a predicate's value that says where or what the thing is now
_PLACING = frozenset({"at", "on", "to", "by", "until", "now", "is", "be", "becomes", "become"})


def restated_subject_olds(sentence: str, spans: Sequence[tuple[int, int, str]]) -> set[int]:
    """Indices of ``spans`` that a correction's subject names its thing by, where its
    predicate gives that thing another value of the same kind: "the planned 3pm departure
    will instead leave at 4pm", "the return sailing, originally set to leave at 7.15pm, will
    leave at 8pm", "our 2 GB plan is now 4 GB". The value stands in the subject (no
    predicate word before it in its clause), a predicate word follows it (an auxiliary, a
    copula, "now"; after a comma only when that word opens what follows: the subject's
    parenthesis closed), and the new value follows "at"/"on"/"to"/"now" or a copula."""
    olds: set[int] = set()
    for index, (start, end, kind) in enumerate(spans):
        if kind not in _PLACED or index in olds:
            continue
        later = next((k for k in range(index + 1, len(spans)) if spans[k][2] == kind), None)
        if later is None or not _in_subject(sentence, start) or \
                not _predicate_between(sentence, end, spans[later][0]):
            continue
        before = _WORD.findall(sentence[:spans[later][0]])[-1:]
        if before and before[0].lower() in _PLACING:
            olds.add(index)
    return olds


def _in_subject(sentence: str, start: int) -> bool:
    """No predicate word, pronoun or clause opener between the clause's start and ``start``
    (the clause starts after the last mark of a break or a comma)."""
    head = sentence[:start]
    cut = max((m.end() for m in re.finditer(r"[,;:.!?()—–]", head)), default=0)
    words = [w.lower() for w in _WORD.findall(head[cut:])]
    return not any(w in _PREDICATE or w in PRONOUNS or w in _OPENERS for w in words)


def _predicate_between(sentence: str, end: int, start: int) -> bool:
    """Between the subject's value and the new one: a predicate word, no sentence break, no
    clause opener, negation or pronoun, and a comma only right before a predicate word."""
    between = sentence[end:start]
    if not _one_clause(between):
        return False
    words = [w.lower() for w in _WORD.findall(between)]
    for comma in re.finditer(",", between):
        after = _WORD.findall(between[comma.end():])[:1]
        if not after or after[0].lower() not in _PREDICATE:
            return False
    return any(w in _PREDICATE for w in words)
