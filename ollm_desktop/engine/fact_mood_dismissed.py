"""Refusals said as an idiom (issue 28: an offer or a push turned down never replaces the
user's value; ``fact_mood_refused`` reads "…, and we refused" in the offer's sentence and
``fact_refused_after`` "I said no." in the next one, and both ask this module for the
refusals that carry no verb of refusing).

- **A dismissal**: a clause that is only a negated light verb pointing back or a set phrase
  of refusal (said flatly too: "said absolutely not", "told them hell no"; or the speaker's
  "pass" with a will: "we'll pass", "gonna pass on that"), with at most its subject ("not
  doing it", "I'm not doing that", "not happening", "not gonna happen", "no way", "no
  chance", "not a chance", "hard pass", "nope", "nah", "nice try", "yeah right", "haven't
  bothered", "never got round to it"), or the speaker's bare verb of scorn or passing ("I
  laughed", "I passed", "I balked", "we scoffed"). It turns down only an offer, a push,
  advice or another's wish before it (``fact_mood_refused._dismissed`` for its own sentence,
  the offer verbs of ``fact_refused_after`` for the sentence before): "They moved it to
  Friday, no way" is surprise at a change made, and is read as before.

The words are closed classes: the light verbs, the pointing-back pronouns, the set phrases
of refusal, the verbs of scorn.
"""

from __future__ import annotations

from collections.abc import Sequence

from ollm_desktop.engine.fact_words import closed

_SUBJECT = closed("i'm we're i we that's it's that it")
_LIGHT = closed("doing taking buying paying going")  # "not doing it", "not paying that"
_BACK = closed("it that this them")
_HAPPEN = closed("happening happen")
_PHRASES = (("no", "way"), ("no", "chance"), ("not", "a", "chance"), ("hard", "pass"),
            ("fat", "chance"), ("nope",), ("nah",), ("not", "happening"),
            ("not", "gonna", "happen"), ("not", "going", "to", "happen"), ("nice", "try"),
            ("yeah", "right"), ("dream", "on"), ("lol", "no"), ("haven't", "bothered"),
            ("have", "not", "bothered"), ("didn't", "bother"), ("did", "not", "bother"),
            ("never", "bothered"), ("never", "did"),
            ("never", "got", "round", "to", "it"), ("never", "got", "around", "to", "it"),
            ("over", "my", "dead", "body"), ("no", "dice"),
            ("not", "in", "a", "million", "years"), ("not", "on", "your", "life"))
SCORN = closed("laughed passed balked scoffed")  # "I laughed.": the offer turned down
_ENDS = closed(". ! , ; : … ) — – - and but so because lol haha")


def dismissal(words: Sequence[str], k: int) -> int:
    """How many words a dismissal takes from ``k`` (0: none), when only a break, the end or a
    new clause follows it."""
    j = k + (k < len(words) and words[k] in _SUBJECT)
    if (n := said_flatly(words, j) or passing(words, k)) > 0:
        end = n
        return end - k if end >= len(words) or words[end] in _ENDS else 0
    n = 0
    for phrase in _PHRASES:
        if tuple(words[j:j + len(phrase)]) == phrase:
            n = len(phrase)
            break
    if not n and words[j:j + 1] == ["not"] and j + 1 < len(words) and \
            words[j + 1] in _LIGHT and words[j + 2:j + 3] and words[j + 2] in _BACK:
        n = 3  # "not doing it", "not paying that"
    if not n and j > k and words[j - 1] in ("i", "we") and words[j:j + 1] and \
            words[j] in SCORN:
        n = 1  # "I laughed", "we passed"
    if not n:
        return 0
    end = j + n
    return end - k if end >= len(words) or words[end] in _ENDS else 0


_INTENSE = closed("absolutely hell heck flat flatly firmly straight just definitely")
_SAYING = closed("said say told tell")
_WHOM = closed("him her them us")
_WILL = closed("will would shall gonna 'll 'd")
_WILLING = closed("we'll i'll we'd i'd gonna")


def said_flatly(words: Sequence[str], j: int) -> int:
    """Where "said / told them" with an intensifier and a refusal ends ("said absolutely
    not", "told them hell no", "I said no chance"; 0: none). A bare "said no" is
    ``fact_mood_refused``'s; "said not Tuesday" with a value is a correction."""
    if words[j:j + 1] == [] or words[j] not in _SAYING:
        return 0
    j += 1 + (words[j + 1:j + 2] != [] and words[j + 1] in _WHOM)
    start = j
    while j < len(words) and words[j] in _INTENSE:
        j += 1
    for phrase in (("no", "chance"), ("no", "way"), ("nope",), ("no",), ("not",)):
        if tuple(words[j:j + len(phrase)]) == phrase and (j > start or len(phrase) > 1 or
                                                          phrase == ("nope",)):
            return j + len(phrase)
    return 0


def passing(words: Sequence[str], k: int) -> int:
    """Where the speaker's "pass" with a will ends ("we'll pass", "we will pass", "gonna pass
    on that", "I'd pass on it"; 0: none): a choice not to take what was offered."""
    j = k
    if words[j:j + 1] and words[j] in ("i", "we") and words[j + 1:j + 2] and \
            words[j + 1] in _WILL:
        j += 2
    elif words[j:j + 1] and words[j] in _WILLING:
        j += 1
    else:
        return 0
    if words[j:j + 1] == ["gonna"]:
        j += 1
    if words[j:j + 1] != ["pass"]:
        return 0
    j += 1
    if words[j:j + 1] == ["on"] and words[j + 1:j + 2] and words[j + 1] in _BACK:
        j += 2
    return j


def may_dismiss(words: set[str]) -> bool:
    """The words a dismissal needs (a cheap pre-check)."""
    return bool(words & (SCORN | _HAPPEN | {"nope", "nah", "pass", "try", "right", "dream",
                                            "bothered", "bother", "never"}) or (
        words & _SAYING and words & _INTENSE and words & {"no", "not"}) or (
        "not" in words and words & (_LIGHT | {"chance", "gonna"})) or (
        "no" in words and words & {"way", "chance"}))
