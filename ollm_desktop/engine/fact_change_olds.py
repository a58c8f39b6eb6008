"""The old value a change names inside the thing it changes (issue 28, real text).

``fact_old_values`` reads the old value of a change where a word points at it ("from Y",
"not Y", "instead of Y"). Real text as often names it inside the noun phrase that the change
moves, and two shapes cover most of it:

- **a value in the changed noun phrase**: the subject of a passive or intransitive change
  ("Ferry cargo operations for Friday, September 4th has been changed to Thursday, September
  3rd", "the 3pm rehearsal has moved to 5pm") or the object of an active one ("we moved the
  Tuesday book club to Thursday"). A value of the same kind as the change's "to X" inside
  that phrase is what X replaces; one of another kind ("the Monday meeting moved to 3pm")
  names which thing changed, and stays, as does a fronted adjunct's ("On Friday, the
  meeting moved to Monday", "yesterday at 3pm the call moved to 4pm": when it changed);
- **an anterior word before a value** (an adjective right before it: "the planned 3pm
  departure ... will instead leave at 4pm", "the original May date"; an adverb in its
  stretch: "originally set to leave at 7.15pm, will leave at 8pm"):
  the value is the one planned before, when a later value of the same kind in the sentence
  carries no such word.

The words are closed classes (auxiliaries, determiners, prepositions, and the anterior
adjectives and adverbs); the change verbs are ``fact_words.CHANGE``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ollm_desktop.engine.fact_keys import unit_class
from ollm_desktop.engine.fact_words import (
    DETERMINERS,
    PREPOSITIONS,
    TIMES,
    Tok,
    closed,
    is_change,
)

# The auxiliaries of a change's verb group ("has been changed", "was moved", "will be
# pushed", "got bumped").
AUXILIARY = closed("has have had been was were is are be being got gets will would")
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


def _unit(token: Tok) -> str:
    value = token.value
    return unit_class(value[2], value[3], "") if value is not None else ""


def _changed_to(tokens: Sequence[Tok], verb: int) -> int:
    """The value a change verb at ``verb`` goes "to" (past a particle and a determiner), or
    -1."""
    at = verb + 1
    while at < len(tokens) and tokens[at].word in ("back", "up", "down", "forward", "out"):
        at += 1
    if at >= len(tokens) or tokens[at].word not in ("to", "until", "till"):
        return -1
    at += 1
    while at < len(tokens) and tokens[at].word in DETERMINERS:
        at += 1
    return at if at < len(tokens) and tokens[at].value is not None else -1


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
            target = _changed_to(tokens, j)
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
        if tokens[k].word in ("to", "until", "till"):
            target = k + 1
            while target < len(tokens) and tokens[target].word in DETERMINERS:
                target += 1
            return target < len(tokens) and tokens[target].value is not None and \
                _unit(tokens[target]) == unit
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


def changed_old(tokens: Sequence[Tok], i: int) -> bool:
    """Whether the value at ``i`` is the old one of a change that names it in the thing it
    changes, or of a plan an anterior word marks."""
    if tokens[i].value is None:
        return False
    targeted = i > 0 and tokens[i - 1].word in _TARGETED  # "moved to 3pm, ...": a target
    return (not targeted and (_in_changed_phrase(tokens, i) or _object_of_change(tokens, i))
            ) or _planned_before(tokens, i)
