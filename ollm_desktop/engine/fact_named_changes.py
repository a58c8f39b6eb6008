"""Old values a correcting message states for the first time, by the clause they stand in
(issue 28, stop 42): no earlier message holds them, so only the sentence says they go.

- ``should_be_subject``: the value is the subject of an obligation whose complement is a
  value of its own kind ("3.0.1 should be 3.0.2", "port 3000 should be 5000", "Tuesday must
  read Thursday"). A complement followed by when, for what or on what condition it holds
  ("$50 should be $40 after the discount") is a requirement, and the subject stays; so is a
  subject after a pronoun or a hedge ("I guess 1.5.3 should be 5.1.3": a guess, left to the
  readers of hedged claims).
- ``removed_object``: the value is the object of a verb that ends it ("remove port 3000, the
  server runs on 80 now", "drop the 2pm slot and use 4pm") and a later clause of the same
  sentence states a value of its kind: the removed one gives way to it. The verb opens its
  clause, as an imperative or after its speaker ("we dropped …"): after another subject it
  is another verb ("new episodes drop Tuesdays, bonus ones Fridays": they come out then).
  Negated ("don't remove port 3000, add 80") or asked, it ends nothing; alone ("remove the
  2pm slot"), there is nothing it gives way to, and it stays as the finder read it.
- ``reported_then_pointed``: the value is what a text or a person is reported to say ("the
  docs say 8080", "the menu says $12") and a contrast right after it points back to the
  same thing with a pronoun and states a value of its kind ("… but it is actually 9000",
  "… but it's $14"): the report is the error. (``fact_old_values`` reads the contrast that
  names the report's label again; here there is no label, only the pronoun.) A contrast
  that hedges, asks or looks back ("but it could be 9000", "but it was 9000 last year")
  asserts nothing of its own: the report stays.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_old_values import obligation_value_at
from ollm_desktop.engine.fact_words import (
    BOUNDARY,
    DETERMINERS,
    HEDGES,
    PREPOSITIONS,
    PRONOUNS,
    REPORTING,
    Tok,
    Value,
    closed,
    unitless,
)

# What after the right value says when, for what or on what condition it must hold.
_WHEN_HOLDS = closed("if from by for next when until till once after before unless starting as")
# The verbs that end a value the user had, in their forms (a closed class).
_REMOVING = closed("remove removes removed removing drop drops dropped dropping delete deletes "
                   "deleted deleting retire retires retired retiring ditch ditches ditched "
                   "ditching")
# What joins the later clause ("remove port 3000, use 80", "… and use 80", "… — 80 now").
_JOINS = BOUNDARY | closed("and as since because now")
_CONTRAST = closed("but while whereas however")
_NOW = closed("now really")
_NEGATION = closed("not never no don't dont didn't won't shouldn't can't")
# What may stand before the removing verb in its clause: nothing (an imperative), its speaker
# and auxiliaries ("we dropped", "I've removed", "let's drop", "please remove"). A noun there
# is another subject ("new episodes drop Tuesdays": they come out then).
_BEFORE_VERB = closed("we i let's please just so ok okay we've i've we'll i'll have has will "
                      "also then now finally")
# The words that may stand between the verb and its value, its object: a determiner and a
# label ("remove port 3000", "drop the old 2pm slot"), no preposition ("deleted the staging
# server at 10.0.0.5, prod at 10.0.0.6 stays": where the server was, not what went).
_LABEL_WORDS = 3


def should_be_subject(tokens: list[Tok], i: int) -> bool:
    """The value at ``i`` is the subject of "should/must (have) be(en)/read X" with X of its
    own kind and another value."""
    value = tokens[i].value
    if value is None or i + 1 >= len(tokens):
        return False
    words = [t.word for t in tokens]
    at = obligation_value_at(words, i + 1)
    if not at or at >= len(tokens):
        return False
    right = tokens[at].value
    return right is not None and right[2] != value[2] and _same_kind(right, value) and \
        not set(words[at + 1:at + 2]) & _WHEN_HOLDS and _clause_subject(tokens, i)


def removed_object(tokens: list[Tok], i: int) -> bool:
    """The value at ``i`` is the object of a removing verb, and a later clause of the
    sentence states a value of its kind."""
    value = tokens[i].value
    if value is None:
        return False
    words = [t.word for t in tokens]
    verb = i - 1
    while verb >= 0 and i - verb <= _LABEL_WORDS + 1 and words[verb] not in _REMOVING:
        if words[verb] in BOUNDARY or tokens[verb].value is not None or \
                not words[verb].isalpha() or words[verb] in PREPOSITIONS:
            return False
        verb -= 1
    if verb < 0 or words[verb] not in _REMOVING:
        return False
    start = verb
    while start > 0 and words[start - 1] not in BOUNDARY:
        start -= 1
    if any(w not in _BEFORE_VERB for w in words[start:verb]) or "?" in words:
        return False
    joined = False
    for k in range(i + 1, len(tokens)):
        joined = joined or words[k] in _JOINS
        later = tokens[k].value
        if joined and later is not None and later[2] != value[2] and _same_kind(later, value):
            return True
    return False


def _clause_subject(tokens: list[Tok], i: int) -> bool:
    """Nothing but a determiner and label words stand before the value in its clause."""
    k = i - 1
    while k >= 0 and tokens[k].word not in BOUNDARY:
        if tokens[k].value is not None or (tokens[k].word not in DETERMINERS and
                                           not tokens[k].word.isalpha()):
            return False
        if tokens[k].word in _NEGATION or tokens[k].word in PRONOUNS or \
                tokens[k].word in HEDGES or tokens[k].word in ("if", "when", "whether"):
            return False
        k -= 1
    return i - k - 1 <= _LABEL_WORDS


def _same_kind(a: Value, b: Value) -> bool:
    """Two values of one kind: the same finder's kind, or both bare numbers."""
    return a[3] == b[3] or (unitless(a[2]) and unitless(b[2]))


def reported_then_pointed(tokens: list[Tok], i: int) -> bool:
    """The value at ``i`` is reported ("the docs say Y") and the contrast after it says "it
    is (actually) X" with X of its kind."""
    value = tokens[i].value
    if value is None:
        return False
    words = [t.word for t in tokens]
    k = i - 1
    while k >= 0 and words[k] not in BOUNDARY and words[k] not in REPORTING:
        k -= 1
    if k < 0 or words[k] not in REPORTING or i - k > _LABEL_WORDS + 1:
        return False
    at = i + 1 + (words[i + 1:i + 2] == [","])
    if words[at:at + 1] == [] or words[at] not in _CONTRAST:
        return False
    at += 1
    if words[at:at + 1] in (["it's"], ["that's"]):
        at += 1
    elif words[at:at + 2] in (["it", "is"], ["that", "is"]):
        at += 2
    else:
        return False
    at += words[at:at + 1] != [] and words[at] in _NOW
    right = tokens[at].value if at < len(tokens) else None
    return right is not None and right[2] != value[2] and _same_kind(right, value) and \
        not set(words[at + 1:at + 2]) & _WHEN_HOLDS
