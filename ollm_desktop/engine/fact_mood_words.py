"""The closed classes of words that mark a clause's mood (``fact_mood``): modals,
auxiliaries, subordinating conjunctions, belief and hearsay verbs, tentative verbs, negation
and doubt, time and tense markers.

Each is grammar, not a cue list: English has a fixed set of modals and subordinators, and the
verbs that report someone else's belief or a proposal are a small class a new phrasing of a
correction does not add to.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    COPULAS,
    DETERMINERS,
    HEDGES,
    MODALS,
    PREPOSITIONS,
    PRONOUNS,
    closed,
)

if TYPE_CHECKING:
    from ollm_desktop.engine.fact_words import Tok

STRONG = frozenset({";", "—", "–", ":"})  # a new sentence in all but name
MODAL = MODALS | closed("he'd she'd they'd that'd there'd who'd would've could've might've "
                        "couldn't wouldn't mightn't")
QUESTION_AUX = AUXILIARIES | closed("can could has have had am was were wasn't weren't didn't "
                                    "hasn't haven't hadn't can't couldn't")  # (their negatives
# open a question as well: "Wasn't the port changed to 9443 last week")
DO_PAST = closed("does did doesn't didn't")  # (never an imperative, unlike "do")
BE_ASKING = closed("is are was were isn't aren't wasn't weren't")
CONDITIONAL = closed("if unless provided providing assuming supposing suppose imagine assume")
# Conditional subordinators of several words (English's complex subordinators of condition).
CONDITIONAL_PHRASES = (("in", "case"), ("in", "the", "event"), ("as", "long", "as"),
                       ("so", "long", "as"), ("on", "condition"), ("on", "the", "condition"),
                       ("contingent", "on"), ("contingent", "upon"), ("worst", "case"),
                       ("best", "case"), ("worst-case",), ("best-case",))  # ("worst case we go
# to $650": a case supposed)
SUBORDINATE = closed("if unless whether though although because once provided providing "
                     "assuming supposing")
ALWAYS_CUT = closed("if unless whether though although whereas because")
LEAVES = closed("but anyway regardless either however")  # leave a leading conditional
# A condition of relevance, not of truth ("…, if that matters", "if it helps, …"): like one
# about the listener, it leaves its consequent asserted.
RELEVANT = closed("matters matter helps help counts relevant useful helpful important "
                  "interests")
LISTENER = closed("you anyone anybody someone somebody you're you've")
# Belief verbs: the complement is someone else's opinion, not the speaker's.
BELIEF = closed("think thinks thought reckon reckons reckoned believe believes believed "
                "guess guesses guessed suspect suspects suspected claim claims claimed "
                "insist insists insisted insisting argue argues argued arguing swear swears "
                "swore")  # ("swears by", "is insisting on")
# Hearsay and proposal verbs: not asserted whoever speaks ("I heard ...", "I suggested ...").
HEARSAY = closed("hear hears heard suggest suggests suggested suggesting propose proposes "
                 "proposed proposing floated recommend recommends recommended "
                 "recommending rumoured rumored hinted hinting pitching pitched floating")
# ("hinting at", "keeps pitching X"; "Hint: …" is a header, and the forms that may be
# adjectives are verbs only in their verb's place: ``reports``)
_AMBIGUOUS = closed("pitched floating")  # "the roof is pitched at", "the floating IP"
_ALONG = closed("keep keeps kept is are was were been be 're")  # "keeps floating X"
# Tentative verb phrases: a choice under way, not made.
TENTATIVE = closed("considering contemplating thinking leaning tempted inclined evaluating "
                   "exploring weighing debating deciding wondering undecided prototyping "
                   "trialling trialing piloting aiming eyeing eying mulling pondering")
DOUBTED = closed("sure certain decided final official confirmed settled")  # after a negation
NEGATION = closed("not no never nothing")
UNDECIDED = closed("tbd tbc tba")
EVIDENTIAL = closed("apparently reportedly allegedly supposedly seemingly hypothetically "
                    "theoretically tentatively pending")
SEEMING = closed("seems")  # a hedge of appearance: it doubts its own clause, never a bare one
ANTERIOR = closed("originally previously formerly ago")
ANTERIOR_ADJ = closed("previous former old original earlier prior")
PAST = closed("was were had did")
PRESENT = closed("is are am it's that's there's we're they're i'm he's she's")
BE = closed("am is are was were i'm we're they're she's he's it's")
# English base verbs in "-eed": "we'd need" is "would need", not a past participle
BASE_EED = closed("need feed proceed succeed exceed speed breed bleed heed")
PERFECT = closed("already been had just got done written given taken made sent told said put")
CONTRAST = closed("now not instead rather than anymore longer")  # a correction's shape
WH = closed("what why how when where who which whom whose")
SUBJECTS = PRONOUNS | closed("that's it's there's i'm i've i'll we're we've we'll they're "
                             "she's he's")
OPENERS = SUBJECTS | HEDGES | EVIDENTIAL | UNDECIDED | ALWAYS_CUT | LEAVES | MODAL | closed(
    "that this so yet now even which otherwise provided providing assuming supposing")
ONCE_NOT = closed("a again more per or twice in")  # "once a week": a frequency
QUANTIFIERS = closed("some any more much no little enough second")
FIRST_PERSON = closed("i we i'm we're i've we've i'll we'll i'd we'd")
PAST_CUES = ANTERIOR | ANTERIOR_ADJ | closed("used back last past time before")
RECALLED = closed("remember recall")  # "I remember being able to …": a state remembered
ANY_MOOD = MODAL | HEDGES | TENTATIVE | BELIEF | HEARSAY | SUBORDINATE | CONDITIONAL | \
    DOUBTED | UNDECIDED | EVIDENTIAL | SEEMING | PAST_CUES | RECALLED | closed(
        "? whether even case which say looking should ought let's yet how what why once when can "
        "can't cannot")
CLAUSE_EDGE = closed(", ; : ( ) — – - and or but so")  # where a clause may open
SKIPPED = closed(", and or but so then well just also still")  # before a clause's head


def conditional_phrase(words: Sequence[str]) -> int:
    """How many words a conditional subordinator of several words at the start of ``words``
    takes ("in case", "in the event", "as long as"; 0: none). "in case of rain" is none:
    a preposition's object, no clause."""
    for phrase in CONDITIONAL_PHRASES:
        after = words[len(phrase):len(phrase) + 1]
        if tuple(words[:len(phrase)]) == phrase and after != ["of"] and (
                phrase[-1][-4:] != "case" or phrase == ("in", "case") or not after or
                after[0] in SUBJECTS or not after[0].isalpha() or after[0] == "scenario"):
            return len(phrase)  # ("the best case study" is a noun phrase)
    return 0


def clause_head(words: list[str]) -> int:
    """Index of a clause's first word after a conjunction and a comma (the mood readers and
    ``fact_tense`` look for a clause's head word there)."""
    k = 0
    while k < len(words) and words[k] in SKIPPED:
        k += 1
    return k


def labelled(value: str) -> bool:
    """"age 10", "track 5": a label in lower case and its figure, which a clause asserts as
    it does a number ("Vitest 2", a capital's name, is a name)."""
    return value[:1].islower() and any(c.isdigit() for c in value)


def relevance(words: Sequence[str]) -> bool:
    """A clause that is only a condition of relevance: "if that matters", "in case it
    helps", "if that's relevant", "if it's useful to you" (not "if that helps the team")."""
    k = clause_head(list(words))
    k += conditional_phrase(words[k:]) or (words[k:k + 1] == ["if"])
    rest = [w for w in words[k:] if w != ","]
    at = next((i for i, w in enumerate(rest) if w in RELEVANT), 9)
    return (0 < at <= 2 and rest[0] in ("that", "it", "this", "that's", "it's") and
            set(rest[at + 1:]) <= {"at", "all", "to", "you", "any"}) or (  # "if the courier
        2 <= len(rest) <= 5 and rest[-1] in ("it", "them") and rest[-2] in _NEEDING)  # needs it"


# Someone needing the value stated, a condition of relevance ("in case the courier needs it").
_NEEDING = frozenset(("need", "needs", "needed", "require", "requires"))


# Adjectives that say which of a key's values is meant ("the correct claim reference", "the
# new claim number", "the original suggestion"): never a verb's subject (a closed class; not
# "old", a noun in "the 7 year old insists").
_WHICH_VALUE = closed("new correct actual updated revised corrected right proper real latest "
                      "final original previous earlier")


# Nouns of a record that head a compound after such a noun ("claim number", "report
# reference", "request id"): a closed class.
_RECORD_NOUNS = closed("number no reference ref id code amount form status deadline date")


def reports(word: str, before: list[str], after: str) -> bool:
    """A belief verb of someone else ("Dana thinks"), or a hearsay or proposal verb of anyone
    ("I heard", "my mum suggested"); not a noun ("expense claims are", "after some thought",
    "the recommended setting") nor an aside ("as suggested", "as Dana thinks")."""
    if not (word in BELIEF or word in HEARSAY) or "as" in before[-2:] or after in COPULAS or \
            (after in _RECORD_NOUNS and not word.endswith(("s", "ed"))):  # "the claim number"
        return False
    subject = before[-1] if before else ""
    if subject in DETERMINERS or subject in PREPOSITIONS or subject in QUANTIFIERS or \
            subject in _WHICH_VALUE:  # "the correct claim reference is": a noun's modifiers
        return False
    if word in _AMBIGUOUS and (not subject.isalpha() or (subject in _ALONG or subject in BE)
                               != (word == "floating")):
        return False  # "Dana pitched X", "they keep floating X"; not "is pitched at"
    return word in HEARSAY or (bool(subject) and subject not in FIRST_PERSON)


def hyphen(tokens: Sequence[Tok], i: int) -> bool:
    """A "-" at ``i`` inside a word ("2-bed", "re-run"): no dash, no clause's edge."""
    return tokens[i - 1].end == tokens[i].start and tokens[i].end == tokens[i + 1].start


# What opens the clause of a self-repair's value meant ("I mean Munich", "or rather 4A").
_REPAIR_LEADS = (("i", "mean"), ("i", "meant"), ("or", "rather"), ("rather",))
_REPAIR_WORDS = 3  # words of the value meant


def repair_only(words: Sequence[str]) -> bool:
    """The clause ``words`` (up to its first comma) only gives a self-repair's value meant
    ("I mean Munich,", "or rather the 9th,"): it ends at that comma, and what follows is a
    clause of its own ("…, I mean Munich, the other one was last year": the past clause
    says nothing of Munich). A repair's clause holds no verb of its own: no subject
    pronoun, copula or modal after its lead."""
    clause = list(words[:words.index(",")]) if "," in words else []
    lead = next((len(w) for w in _REPAIR_LEADS if tuple(clause[:len(w)]) == w), 0)
    rest = clause[lead:]
    return bool(lead) and 0 < len(rest) <= _REPAIR_WORDS and \
        not any(w in SUBJECTS or w in COPULAS or w in MODAL for w in rest)
# What a past copula after a value says of how it went, not that it is gone ("10 days was
# nicer last time", "the 9:30 one was better", "Hall B was fine"): a trial judged, which
# retires no value ("10% was underfitting", "8080 was wrong" retire theirs).
JUDGED = closed("better worse nicer nice easier harder tastier fizzier sweeter stronger weaker "
                "cheaper faster slower quicker smoother louder quieter bigger smaller too more "
                "less great fine lovely good ok okay alright decent")
