"""Verbs as the clause readers see them: a finite verb ("triages", "runs"), a verb group
("will take", "is writing"), a change verb in any form ("moving", "changing"), and the plain
word a verb or noun is (lower case, no value). Split from ``fact_clauses``, which reads keys
from a clause's subject, verb and object, and ``fact_values``, which reads counts after a
verb."""

from __future__ import annotations

from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    MOVED,
    NOT_NP,
    PREPOSITIONS,
    Tok,
    closed,
    is_change,
)

# Subordinating conjunctions: a new clause begins ("... the code reviews while Lena is away").
SUBORDINATORS = closed("while because since although though when whenever until unless if "
                       "whereas after before once")


def plain(token: Tok) -> bool:
    """A word of an open class (a verb or a noun): no value, no closed-class word."""
    word = token.word
    return bool(word) and not token.value and word[:1].isalpha() and word not in NOT_NP \
        and word not in DETERMINERS and word not in PREPOSITIONS and word not in COPULAS \
        and word not in CONJUNCTIONS and word not in AUXILIARIES and word not in SUBORDINATORS



# Words that date what a sentence tells in the past: an event then, no value of today's.
_DATED = closed("yesterday last ago previously originally formerly once")


def moved_to(tokens: list[Tok], first: int) -> bool:
    """A value that moved, told after the fact: a verb of movement in the past, "to" (after
    "up" or "down" at most) and a value ("my pay went to 91k", "the rent rose up to $1,350");
    not "we went to the store at 5pm" (no value after "to"), nor a dated event of the past
    ("last year the deposit went up to £650": today's deposit is not told)."""
    if any(t.word in _DATED for t in tokens[first:]):
        return False
    for k in range(first, len(tokens) - 2):
        if tokens[k].word in MOVED and _speakers_own(tokens[first:k]):
            at = k + 2 if tokens[k + 1].word in ("up", "down") else k + 1
            if at + 1 < len(tokens) and tokens[at].word == "to" and tokens[at + 1].value:
                return True
    return False


# Words before a moved value that make it another's or a past one's ("Sarah said her rent
# went to", "my rent in my old place went to").
_NOT_OWN = closed("her his their your its said says told mentioned heard old previous former")


def _speakers_own(before: list[Tok]) -> bool:
    """The thing that moved is the speaker's or the one in talk: its noun phrase opens with
    "my", "our" or "the", a few words before the verb, no preposition among them ("my pay",
    "the rent"); not another's ("my sister's rent", "her rent"), nor reported, nor a general
    one ("rents downtown", "prices in our area")."""
    words = [t.word for t in before]
    if any(w in _NOT_OWN or w.endswith(("'s", "’s")) for w in words):
        return False
    opened = [i for i, w in enumerate(words) if w in ("my", "our", "the")]
    return bool(opened) and len(words) - opened[-1] <= 4 and \
        not any(w in PREPOSITIONS for w in words[max(opened[-1] - 1, 0):])


def changes(word: str) -> bool:
    """A change verb in any form, "moving" and "changing" too (the "-e" a suffix drops)."""
    return is_change(word) or (word.endswith("ing") and is_change(word[:-3] + "e"))


# Auxiliaries that open a verb group before its main verb ("will take", "is writing").
VERB_AUXILIARIES = closed("will is was does did")


def verb_group(tokens: list[Tok], at: int) -> int | None:
    """The index of the main verb of a verb group starting at ``at``: a finite verb
    ("triages"), or an auxiliary and its verb ("will take", "is writing"); None if none."""
    if at >= len(tokens):
        return None
    if finite_verb(tokens[at]):
        return at
    if tokens[at].word in VERB_AUXILIARIES and at + 1 < len(tokens) and \
            plain(tokens[at + 1]) and not is_change(tokens[at + 1].word):
        return at + 1
    if tokens[at].word == "will" and at + 2 < len(tokens) and \
            tokens[at + 1].word in _DO_HAVE and tokens[at + 2].word in DETERMINERS:
        return at + 1  # "will do the reading", "will have the keynote": main verbs there
    return None


# The auxiliaries that are main verbs before an object ("Lena will do the second reading").
_DO_HAVE = closed("do have")


def finite_verb(token: Tok) -> bool:
    """A verb in the present's third person ("triages", "runs", "owns"): a plain lower-case
    word ending in -s (not -ss, -us, -is: "process", "status", "analysis"), and no code name
    (a word with "_" names a setting: "Set max_retries 3", "worker_counts 8")."""
    word = token.word
    return word in ("does", "has") or (plain(token) and len(word) > 3 and word.endswith("s")
                                       and not word.endswith(("ss", "us", "is"))
                                       and "_" not in word)


# The verbs that take an infinitive as their complement ("likes to swim", "needs to simmer",
# "refuses to print"): the grammar's catenative verbs, a closed class. "to" after one of them
# opens a verb, never a destination nor a setting ("defaults to debug", "writes to S3").
_CATENATIVES = closed(
    "want need like love hate prefer refuse try hope plan seem tend begin start continue "
    "forget remember learn manage fail agree decide expect intend promise offer choose ask "
    "appear happen deserve afford pretend threaten attempt arrange bother hesitate wish mean "
    "struggle strive aim claim prepare volunteer get have use")


def takes_infinitive(word: str) -> bool:
    """A catenative verb in any present form ("likes", "needs", "tries", "wishes"): what
    follows its "to" is a verb."""
    stems = (word, word[:-1], word[:-2], word[:-3] + "y") if word.endswith("s") else (word,)
    return any(stem in _CATENATIVES for stem in stems if stem)
