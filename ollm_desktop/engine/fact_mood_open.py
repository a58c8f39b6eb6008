"""Clauses that leave a choice open or tell of others' practice (issue 28, mood in real text).

``fact_mood`` reads questions, conditionals, modals, hedges, reports and past states. Real text
has more structures that state no current value of the user's:

- a **choice under deliberation**: a proposal whose decision is still to come, said by the
  passive of a deliberation verb ("still being discussed in committee"), "under review", "up
  for a vote", or an existential proposal or choice ("there's talk of Dr. Ndlovu joining",
  "there is a proposal to move it to Friday", "there are discussions about alternative sites",
  "there are several options"), or an objection to one ("there was a light push back on having
  the releases out in 8 weeks rather than 12"; "there were no objections" grants it). A bare
  one (no subject of its own: ", still being discussed") leaves its whole segment open; one
  with its own subject ("the budget is under review") only its clause; an existential one its
  clause and what follows in its segment;
- a **choice not made**, said by the idioms "on the fence" and "up in the air" ("on the fence
  about going to 11s"): their own clause only ("I was on the fence, but we switched the strings
  to 10s" states the change);
- a **history up to now**: "from $15 for our first show to now" names a past value and no new
  one (the value after "to" is the present itself), so the value after "from" is past;
- a **future time clause**: a leading "when" whose segment says "will" ("when we upgrade to
  bookworm we will be using Python 3.11") is a plan for then, like a leading "once";
- a **change under way**: an inceptive verb before a change verb ("I've begun to transition to
  PostgreSQL", "we started moving to Gradle") has not changed anything yet;
- an **alternative left open**: two values joined by "or" ("the retro moves to Wednesday or
  Thursday", "19:30 or to 20:00") name a choice, not its outcome;
- **others' practice**: a generic subject, a quantifier and a bare plural ("most projects moved
  to pnpm", "many teams use Bazel"), or "everyone"/"people", reports what others do, not the
  user's setting. "Most of our meetings" (a possessive) is the user's own;
- a **habit of action**: "we typically start with 50", "we usually bump it to 32" tell a rule
  of thumb, not a value set; a routine at a time or place ("the stand-up is usually at 9:30",
  "the bus usually leaves at 7:40", "we usually order from Luigi's") states;
- a **negated change** ("we won't switch to Postgres", ``fact_mood_unmade``) sets nothing;
- a **comparison or an excess** ("15 seconds is too much", ``fact_comparatives``) sets none.

The words named are closed classes (deliberation, quantifiers, "now", "today", "date").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from ollm_desktop.engine.fact_comparatives import compared_values, judged_values
from ollm_desktop.engine.fact_mood_pending import may_pend, pending_marks
from ollm_desktop.engine.fact_mood_torn import may_tear, torn_marks
from ollm_desktop.engine.fact_mood_unmade import NEGATORS, unmade_changes
from ollm_desktop.engine.fact_mood_words import SUBJECTS
from ollm_desktop.engine.fact_words import (
    COPULAS,
    DETERMINERS,
    MODALS,
    PREPOSITIONS,
    PRONOUNS,
    Tok,
    closed,
    is_change,
)

OpenMark = tuple[int, int, Literal["tentative", "past", "reported", "conditional", "negated"]]

# The participles and nouns of deliberating: a decision not yet taken.
DELIBERATED = closed("discussed debated considered reviewed negotiated decided evaluated "
                     "weighed voted argued")
DELIBERATION = closed("discussion debate consideration review negotiation evaluation vote "
                      "votes")
PROPOSAL = closed("talk proposal idea suggestion motion rumour rumor")  # "there's talk of"
# A proposal's and a deliberation's nouns in the plural, and the nouns of a choice left open:
# "there are discussions about", "there are talks of", "there are options".
PROPOSALS = closed("talks proposals ideas suggestions motions rumours rumors discussions "
                   "debates negotiations option options alternative alternatives "
                   "possibility possibilities contingencies")
# The nouns of an objection to a proposal: "there was (a light) pushback on moving it".
OBJECTION = closed("pushback push objection objections opposition resistance")
EXISTENTIAL = closed("there's there")
BE_THERE = closed("is was are were")
PRESENT_DEIXIS = closed("now today date present")  # "to now", "to date"
# The places a plan waits in before it is carried out ("on the roadmap", "in the backlog").
PLANNED_PLACES = closed("roadmap table pipeline backlog wishlist radar list agenda")
INCEPTIVE = closed("begin begins began begun beginning start starts started starting")
# Adverbs of indefinite frequency: a habit, not a standing rule ("always", "never" set one).
HABITUAL = closed("typically usually normally generally often commonly")
QUANTIFIER = closed("most many several lots plenty few some other")
GENERIC = closed("everyone everybody people others folks")
_FILLER = closed(", and but so still currently now it's that's is are was were it that "
                 "this which being also yet")


def _words(tokens: Sequence[Tok], a: int, b: int) -> list[str]:
    return [t.word for t in tokens[a:b]]


def _deliberation(words: list[str]) -> int:
    """Where a deliberation opens in a clause's words (-1: none)."""
    for i, word in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        after = words[i + 2] if i + 2 < len(words) else ""
        if word == "being" and nxt in DELIBERATED:
            return i  # "still being discussed"
        if word == "under" and nxt in DELIBERATION:
            return i  # "under review"
        if word == "up" and nxt == "for" and (after in DELIBERATION or (
                after in ("a", "another") and i + 3 < len(words) and
                words[i + 3] in DELIBERATION)):
            return i  # "up for a vote"
    return -1


def _undecided(words: list[str]) -> bool:
    """An idiom of a choice not made: "on the fence about going to 11s", "up in the air"."""
    return any(words[i:i + 3] == ["on", "the", "fence"] or
               words[i:i + 4] == ["up", "in", "the", "air"] for i in range(len(words)))


def _waiting(tokens: Sequence[Tok], a: int, b: int) -> list[OpenMark]:
    """A subject said to wait where plans wait ("Upgrade to Postgres 16 is on the roadmap",
    "the move to 5TB is still in the backlog"): a copula before "on / in the" and a place of
    plans; the subject, from the clause's last comma to the copula, is a plan not carried
    out ("We moved to 16, the rest is on the roadmap": only "the rest")."""
    for k in range(a + 1, b - 2):
        at = next((x for x in range(k + 2, min(b, k + 5)) if tokens[x].word in PLANNED_PLACES
                   or tokens[x].word in (",", ".", ";") or tokens[x].value), b)  # "to-do list"
        if tokens[k].word in ("on", "in") and tokens[k + 1].word in ("the", "our", "my") and \
                at < b and tokens[at].word in PLANNED_PLACES:
            cop = k - 1 - (tokens[k - 1].word in ("still", "already", "now", "also"))
            if cop > a and tokens[cop].word in COPULAS:
                opens = max((x + 1 for x in range(a, cop) if tokens[x].word == ","), default=a)
                return [(opens, at + 1, "tentative")]
    return []


def _existential(words: list[str]) -> int:
    """Where "there's talk of", "there is a proposal to" opens (-1: none)."""
    for i, word in enumerate(words):
        if word not in EXISTENTIAL:
            continue
        k = i + 1 + (word == "there" and i + 1 < len(words) and words[i + 1] in BE_THERE)
        while k < len(words) and words[k] in ("has", "been"):  # "there's been talk of"
            k += 1
        k += k < len(words) and words[k] in ("a", "an", "some", "several", "many", "other")
        if k < len(words) and words[k] in PROPOSAL | PROPOSALS | DELIBERATION:
            return i
        k += words[k:k + 2] in (["has", "been"], ["have", "been"], ["had", "been"])
        if words[k:k + 1] != ["no"] and OBJECTION & set(words[k:k + 2]):
            return i  # (an adjective before it: "a light push back"; "no objections" grants)
    return -1


def _history(tokens: Sequence[Tok], a: int, b: int) -> list[OpenMark]:
    """"from Y ... to now": Y is a value of the past, and nothing new is stated."""
    out: list[OpenMark] = []
    for i in range(a, b - 1):
        if tokens[i].word != "from" or tokens[i + 1].value is None:
            continue
        for j in range(i + 2, b - 1):
            if tokens[j].value is not None:
                break  # "from $15 to $20": a change
            if tokens[j].word == "to" and tokens[j + 1].word in PRESENT_DEIXIS:
                out.append((i, j + 2, "past"))
                break
    return out


def _generic_subject(words: list[str]) -> bool:
    """The clause opens with others as its subject: "most projects", "everyone"."""
    rest = [w for w in words if w not in (",", "and", "but", "so")]
    if not rest:
        return False
    if rest[0] in GENERIC:
        return len(rest) > 1 and _acts(rest[1])
    if rest[0] not in QUANTIFIER or len(rest) < 3:
        return False
    at = 2 if rest[1] == "of" else 1
    noun = rest[at]
    if at == 2 and (noun in DETERMINERS or noun in PRONOUNS or noun.endswith("'s")):
        return False  # "most of our meetings": the user's own
    return noun.endswith("s") and noun.isalpha() and noun not in ("is", "was", "has") and \
        at + 1 < len(rest) and _acts(rest[at + 1])


def _acts(verb: str) -> bool:
    """A verb of doing ("moved", "use"), not a state ("everyone was still hungry")."""
    return verb.isalpha() and verb not in COPULAS and verb not in BE_PAST


BE_PAST = closed("was were been be being had has have")


def open_marks(tokens: Sequence[Tok], segment: Sequence[tuple[int, int, bool]],
               ) -> list[OpenMark]:
    """The ranges of a segment that a deliberation, a history or others' practice leaves
    unasserted. Each mark covers its own structure only: a correction beside it in the same
    clause ("moved to 4pm, not 3pm or 5pm") stays asserted."""
    start, end = segment[0][0], segment[-1][1]
    out: list[OpenMark] = []
    words = [w for w in _words(tokens, start, end) if w not in (",", "so", "and", "but")]
    if words[:1] == ["when"] and not _past_clause(tokens, start, end) and any(
            w in ("will", "won't") or w.endswith("'ll") for w in words):
        out.append((start, end, "conditional"))  # "when we upgrade we will be on 3.11"
    out += pending_marks(tokens, segment)  # (fact_mood_pending) "…, still deciding"
    for a, b, _ in segment:
        words = _words(tokens, a, b)
        at = _deliberation(words)
        if at >= 0:
            own = [w for w in words[:at] if w not in _FILLER and w not in PRONOUNS]
            out.append((a, b, "tentative") if own else (start, end, "tentative"))
        if _undecided(words):  # its clause only ("I was on the fence, but we switched")
            out.append((a, b, "tentative"))
        out += _waiting(tokens, a, b)  # "Upgrade to Postgres 16 is on the roadmap"
        there = _existential(words)
        if there >= 0:  # up to a contrast: "there's talk of it, but the meeting is at 4pm"
            stop = next((i for i in range(a + there, end) if tokens[i].word in CONTRAST or
                         _clause_after_comma(tokens, i, end)), end)
            out.append((a + there, stop, "tentative"))
        at = next((x for x in _heads(tokens, a, b)
                   if _generic_subject(_words(tokens, x, b))), -1)
        if at >= 0:  # "I know that others start with 25", "Hall C, but most teams use D"
            stop = next((i for i in range(at + 1, b) if _clause_after_comma(tokens, i, b)), b)
            out.append((at, stop, "reported"))  # (not "people voted, it's Wingspan now")
        out += _history(tokens, a, b)
        out += _inceptive(tokens, a, b, end)
        out += _alternative(tokens, a, b)  # "the retro moves to Wednesday or Thursday"
        out += torn_marks(tokens, a, b)  # (fact_mood_torn) "torn between 2200 and 2400"
        out += compared_values(tokens, a, b)  # "MySQL is faster than Postgres"
        out += judged_values(tokens, a, b)  # "15 seconds is too much"
        out += _habitual(tokens, a, b)  # "we typically start with 50"
        out += unmade_changes(tokens, a, b)  # (fact_mood_unmade) "no plans to move it to X"
    return out


def _clause_after_comma(tokens: Sequence[Tok], i: int, end: int) -> bool:
    """A clause of its own opens at ``i`` after a comma: a subject (a pronoun, a determiner)
    with its verb a few words on ("there are several ideas, the trip is now 7 days")."""
    if tokens[i - 1].word != "," or not (tokens[i].word in SUBJECTS or
                                         tokens[i].word in DETERMINERS):
        return False
    return tokens[i].word.endswith(("'s", "'re")) or any(
        tokens[j].word in COPULAS or is_change(tokens[j].word)
        for j in range(i + 1, min(end, i + 5)))


CONTRAST = closed("but however though although yet whereas")
COMPLETIVE = closed("finished completed done complete now")
_HEAD_EDGE = closed(", and but so ; that")


def _heads(tokens: Sequence[Tok], a: int, b: int) -> list[int]:
    """Where a clause of ``(a, b)`` may open its own subject: its start, and after a comma,
    a conjunction or a complementiser."""
    return [a] + [i + 1 for i in range(a, b - 1) if tokens[i].word in _HEAD_EDGE]


def _past_clause(tokens: Sequence[Tok], start: int, end: int) -> bool:
    """The leading "when" clause (up to its comma) tells of the past ("when I checked
    yesterday,"): a time of the past, no plan."""
    stop = next((i for i in range(start, end) if tokens[i].word == ","), end)
    return any(w in ("was", "were", "had", "did", "yesterday", "last", "ago") or (
        w.endswith("ed") and w.isalpha() and len(w) > 3) for w in _words(tokens, start, stop))


def _inceptive(tokens: Sequence[Tok], a: int, b: int, end: int) -> list[OpenMark]:
    """"started moving to Gradle": from the clause's inceptive verb (in ``(a, b)``) to the
    change's first value; nothing when the segment (to ``end``) goes on to say the change
    is done ("finished", "now"). Each clause reads its own verb: a later clause's is its
    own clause's mark."""
    words = _words(tokens, a, end)
    for k, word in enumerate(words[:b - a]):
        if word in INCEPTIVE and _under_way(words[k + 1:k + 3]):
            if any(w in COMPLETIVE for w in words[k + 1:]):
                return []
            stop = next((i + 1 for i in range(a + k, end) if tokens[i].value is not None), end)
            return [(a + k, stop, "tentative")]
    return []


def _under_way(after: list[str]) -> bool:
    """A change verb after an inceptive one ("begun to migrate", "started moving"): the
    change is under way, not done ("started using" is use, and states)."""
    verb = after[1] if after[:1] == ["to"] and len(after) > 1 else after[0] if after else ""
    if after[:1] != ["to"] and not verb.endswith("ing"):
        return False  # "Junior start moved to 10 June": the noun, and a done change
    return is_change(verb) or is_change(verb.removesuffix("ing") + "e") or \
        verb.startswith("transition")  # ("moving": move)


def _alternative(tokens: Sequence[Tok], a: int, b: int) -> list[OpenMark]:
    """Two values joined by "or" ("Wednesday or Thursday", "Hall B or in Hall D"): a choice
    left open, so neither value is stated; only the pair is marked. A negated pair ("not 3pm
    or 5pm") names old values, no choice."""
    out: list[OpenMark] = []
    for i in range(a, b - 2):
        if tokens[i].value is None or tokens[i + 1].word != "or":
            continue
        if i > 0 and tokens[i - 1].word in ("not", "neither", "nor"):
            continue
        j = i + 2
        while j < min(b, i + 4) and tokens[j].value is None and (
                tokens[j].word in PREPOSITIONS or tokens[j].word in DETERMINERS):
            j += 1
        if j < b and tokens[j].value is not None and not _rates_apart(tokens[i], tokens[j]):
            out.append((i, j + 1, "tentative"))
    return out


_PERIOD = re.compile(r"(?:\s(?:an?|per)\s+|/)([a-z]+)$", re.I)


def _rates_apart(one: Tok, other: Tok) -> bool:
    """Two rates of different periods ("$2 an hour or $10 a day") are both offered, no
    choice left open between them: each is the price of its own period."""
    x = _PERIOD.search(one.value[2]) if one.value else None
    y = _PERIOD.search(other.value[2]) if other.value else None
    return bool(x and y and x.group(1).lower() != y.group(1).lower())


def _habitual(tokens: Sequence[Tok], a: int, b: int) -> list[OpenMark]:
    """A habit of action ("we typically start with 50", "people often set it to 10"): what is
    done as a rule of thumb, not a value set. A habitual state keeps its value ("the stand-up
    is usually at 9:30": the copula before the adverb), as does a change ("we usually
    move it to Friday" moves nothing yet, but "now" or "instead" would)."""
    for i in range(a, b - 1):
        if tokens[i].word not in HABITUAL:
            continue
        before, after = tokens[i - 1].word if i > a else "", tokens[i + 1].word
        if before in COPULAS or before in BE_PAST or after in COPULAS or after in BE_PAST or \
                not after.isalpha() or after in DETERMINERS or after in PRONOUNS or \
                any(t.word in ("now", "instead") for t in tokens[a:b]) or \
                not _applied(tokens, i + 2, b):
            continue
        return [(a, b, "reported")]
    return []


APPLIED = closed("to with")  # "bump it to 32", "start with 50": a value applied by a habit


def _applied(tokens: Sequence[Tok], a: int, b: int) -> bool:
    """The habit's verb takes its value as what it applies ("bump it to 32", "start with a
    batch of 64"): the last preposition before the clause's first value (past "of") is
    "to" or "with". A time, a place or a plain object ("leaves at 7:40", "order pizza from
    Luigi's", "take 2 sugars") is a routine, a habitual state: it states its value."""
    prep = ""
    for k in range(a, b):
        if tokens[k].value is not None or tokens[k].word[:1].isdigit():
            return prep in APPLIED
        if tokens[k].word in PREPOSITIONS and tokens[k].word != "of":
            prep = tokens[k].word
    return False


def may_open(tokens: Sequence[Tok], first: int) -> bool:
    """Any of these structures in the sentence (a cheap word test before cutting clauses)."""
    words = {t.word for t in tokens[first:]}
    negated = any(w.endswith("n't") for w in words)  # (a leading "Don't" is one token)
    if not negated and not words & (DELIBERATED | DELIBERATION | PROPOSAL | PROPOSALS | OBJECTION |
                                    PRESENT_DEIXIS | QUANTIFIER | GENERIC | INCEPTIVE |
                                    HABITUAL | NEGATORS | PLANNED_PLACES |
                                    {"when", "or", "fence", "air"}) and not may_tear(words) and \
            not may_pend(words):
        # only a comparison or an excess can open it: read those two alone (the other
        # structures need one of the words above)
        end = len(tokens)
        return bool(words & {"than", "too"}) and bool(
            compared_values(tokens, first, end) or judged_values(tokens, first, end))
    return bool(open_marks(tokens, [(first, len(tokens), True)]))


def opening_mood(marked: Sequence[str], moods: Sequence[str], tokens: Sequence[Tok],
                 first: int, sentence: str = "") -> str:
    """The mood of a sentence with no value found yet: its first marked clause's, except that
    others' practice, an open clause or a past one after the user's own asserted clause ("The
    office is in Hall C, but most teams use Hall D", "…to Milan, it's cheaper than Rome")
    leaves it a statement, as does the user's own clause after a contrast ("There are
    options, but we booked the Novotel instead")."""
    if not marked:
        return "statement"
    if set(marked) == {"negated"} and any(  # a negated change, then the user's own words
            moods[i] == "statement" and tokens[i].word[:1].isalnum()
            for i in range(max(i for i in range(first, len(tokens))
                               if moods[i] != "statement"), len(tokens))):
        return "statement"
    if set(marked) == {"past"} and moods[first] == "statement" and _named(
            sentence, tokens, first, moods):  # "the meeting is in Munich, the other one was
        return "statement"  # last year": a past clause after the user's own, naming a value
    if set(marked) == {"tentative"}:  # "There are options, but we booked the Novotel"
        last = max(i for i in range(first, len(tokens)) if moods[i] != "statement")
        after = next((t.word for t in tokens[last + 1:] if t.word[:1].isalnum()), "")
        if after in ("but", "however"):  # (not a concession: "…, though it needs X")
            return "statement"
    head = next((i for i in range(first, len(tokens)) if tokens[i].word[:1].isalnum()), None)
    opened = next((i for i in range(first, len(tokens)) if moods[i] != "statement"), 0)
    if head is not None and moods[head] == "statement" and tokens[opened - 1].word in \
            _HEAD_EDGE and (set(marked) == {"reported"} or (
                set(marked) == {"tentative"} and _copular(tokens, head, opened) and
                _comparison(tokens, moods, opened))):
        return "statement"  # (a clause of others', not "Tom thinks"; a trailing comparison:
        # "We're going to Milan, it's cheaper than Rome" states Milan)
    return marked[0]


def _named(sentence: str, tokens: Sequence[Tok], first: int, moods: Sequence[str]) -> bool:
    """The user's clause holds a name or number ("is Hall C"), not only praise ("is great")."""
    opened = next(i for i in range(first, len(tokens)) if moods[i] != "statement")
    return any(any(c.isdigit() for c in sentence[t.start:t.end]) or (
        sentence[t.start:t.start + 1].isupper() and t.word.split("'")[0] != "i" and
        any(c.isalnum() for c in sentence[:t.start])) for t in tokens[first:opened])


def _copular(tokens: Sequence[Tok], a: int, b: int) -> bool:
    """The clause states with a copula ("is", "we're") and no modal of its own."""
    words = _words(tokens, a, b)
    return any(w in COPULAS or w.endswith(("'re", "'s", "'m")) for w in words) and \
        not any(w in MODALS for w in words)


def _comparison(tokens: Sequence[Tok], moods: Sequence[str], opened: int) -> bool:
    """The marked clause from ``opened`` is a comparison ("it's cheaper than Rome")."""
    stop = next((i for i in range(opened, len(tokens)) if moods[i] == "statement"),
                len(tokens))
    return "than" in _words(tokens, opened, stop)
