"""Y of "I thought / I was sure / I assumed … Y, but … X" (issue 28): the speaker's own
belief, told in the past and contrasted in the same sentence with a value of the same kind
that the contrast states, is the error the contrast points at ("I thought the meeting was on
Thursday, but it's on Wednesday", "i was sure the fee was 40 dollars but its 45", "We'd
assumed 8 GB, however the box has 16 GB"). Its own module because ``fact_old_values`` is
full; it is ``fact_old_values._reported_then_contrasted`` with the speaker's past belief in
place of a text's report.

Structure only: a first-person subject ("I", "we"), at most two adverbs or auxiliaries ("had",
"always", "originally"), then a past belief verb ("thought", "assumed", "figured") or "was
sure / certain / convinced"; the value after it in the same clause chain; then a contrast
("but", "however", "though", "whereas") whose clause states a value of the value's kind. The
contrast states nothing (Y stays) when it hedges, wishes, asks, supposes or looks back ("but
maybe it's Wednesday", "but it was Wednesday last year"), when it reports ("but Dana says
Wednesday"), or when it names another label ("I thought the tour was 3 hours, but the drive is
2 hours": two keys). Someone else's belief ("Dana thought") is ``fact_mood``'s report.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_mood_words import CONDITIONAL, HEARSAY, MODAL
from ollm_desktop.engine.fact_verbs import finite_verb, plain
from ollm_desktop.engine.fact_words import DETERMINERS, HEDGES, Tok, closed

_SUBJECTS = closed("i we i'd we'd")
_BETWEEN = closed("had always originally really honestly just genuinely was were")
_BELIEVED = closed("thought assumed believed figured reckoned supposed")
_SURE = closed("sure certain convinced positive")
_CONTRAST = closed("but however though whereas")
_STRONG = closed("; . ? ! : — –")
# What in the contrast clause leaves its value unasserted: a hedge, a modal, a condition, a
# wish, a report, a past state.
_UNASSERTED = MODAL | HEDGES | CONDITIONAL | HEARSAY | closed(
    "wish hope want prefer rather should was were had used yesterday ago says said thinks")
_PREDICATED = closed("is are was were 's")
_NOT_LABEL = closed("is are was were be been being to from of at on in as not now than it's "
                    "its it")


def believed_old(tokens: list[Tok], i: int) -> bool:
    """The value at ``i`` is the speaker's past belief that a contrast in its sentence
    corrects (see the module's docstring)."""
    value = tokens[i].value
    if value is None or not _believed_before(tokens, i):
        return False
    if i + 1 < len(tokens) and (tokens[i + 1].word in _PREDICATED or finite_verb(tokens[i + 1])):
        return False  # (the belief is of what the value does: "I thought seat 14C was taken")
    joined = next((m for m in range(i + 1, len(tokens)) if tokens[m].word in _CONTRAST
                   or tokens[m].word in _STRONG), -1)
    if joined < 0 or tokens[joined].word not in _CONTRAST:
        return False
    for q in range(joined + 1, len(tokens)):
        word = tokens[q].word
        if word in _STRONG or word in _CONTRAST or word in _UNASSERTED or word in _BELIEVED:
            return False
        right = tokens[q].value
        if right is not None and (right[3] == value[3] or (
                right[2].replace(".", "").isdigit() and value[2].replace(".", "").isdigit())):
            mine, theirs = _label(tokens, i), _label(tokens, q)
            return right[2] != value[2] and not (mine and theirs and mine != theirs)
    return False


def _believed_before(tokens: list[Tok], i: int) -> bool:
    """A first-person past belief opens the clause chain the value at ``i`` stands in."""
    for k in range(i - 1, -1, -1):
        word = tokens[k].word
        if word in _STRONG or word in _CONTRAST:
            return False
        if word in _BELIEVED or word in _SURE:
            j = k - 1
            while j >= 0 and k - j <= 2 and tokens[j].word in _BETWEEN:
                j -= 1
            was = tokens[k - 1].word in ("was", "were") if k else False
            if j >= 0 and tokens[j].word in _SUBJECTS and (word in _BELIEVED or was):
                return True
    return False


def _label(tokens: list[Tok], i: int) -> str:
    """The noun a value is said of, nearest before it past a copula or a preposition ("the
    fee is 45": "fee"); "" for a pronoun's value ("it's 45") or a verb's."""
    k = i - 1
    while k >= 0 and k > i - 5 and (tokens[k].word in _NOT_LABEL or tokens[k].word in DETERMINERS):
        k -= 1
    if k > 0 and finite_verb(tokens[k]):
        k -= 1  # (the noun that does it: "the train left at 9": "train")
    words: list[str] = []
    while k >= 0 and plain(tokens[k]) and tokens[k].word.isalpha() and \
            tokens[k].word not in DETERMINERS and tokens[k].word not in _CONTRAST and \
            not finite_verb(tokens[k]) and tokens[k].word not in _SUBJECTS and \
            tokens[k].word not in _BELIEVED:
        words.insert(0, tokens[k].word)
        k -= 1
    return " ".join(words[-1:])
