""""Never mind Y, ..." with an object: a retraction of Y, read as "ignore Y, ...".

"never mind the merino, I'm going with the alpaca blend", "nevermind Hertz — we booked
Sixt", "nvm the blue one, the green one is ours": the negated imperative of "mind" with a
noun phrase after it takes that noun phrase back, as "forget" / "ignore" do
(``fact_leads.RETRACT``, read by ``fact_leads.retraction`` and
``fact_phrase_forms.retracted``). Alone or with a pronoun ("never mind,", "never mind that")
it is a lead, read by ``fact_leads``; "nvm, 4 am" / "nvm 4 am" is a hesitation before the
value meant, so the object here must open with a determiner or a capitalised word, hold a
value ("Hertz", "room 6B"; "never mind the rain" is a concession, no retraction) and end at a
boundary with more of the sentence after it (what took it back). A
question ("never mind the cost?") or a clause of "mind" with a subject ("I never mind the
rain") is no imperative. A separate module: fact_surface, which applies it, is full.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    BOUNDARY,
    COPULAS,
    DETERMINERS,
    FILLER,
    MODALS,
    Tok,
    closed,
)

_OBJECT_DETERMINERS = DETERMINERS - {"that", "this", "its"}  # ("never mind that": a lead)
_MAX_OBJECT = 5  # words of the object
# What says the clause after holds in spite of the object ("never mind the rain, we're still
# going", "never mind Hertz's fees, we'll book them anyway"): "never mind" of a concession.
# A verb or a predicate in the object makes it a clause that keeps its value ("nvm Monday
# works", "never mind Friday is fine"): only a noun phrase is taken back.
_CLAUSAL = COPULAS | AUXILIARIES | MODALS | closed(
    "'s works work worked suits suit fine ok okay good great better perfect stays stands")
_CONCESSIVE = frozenset({"still", "anyway", "anyways", "regardless", "nonetheless"})


def _opening(tokens: list[Tok]) -> int:
    """The index where the sentence's clause opens, after interjections and commas."""
    k = 0
    while k < len(tokens) and tokens[k].value is None and (
            tokens[k].word in FILLER or tokens[k].word == ","):
        k += 1
    return k


def _valued(sentence: str, token: Tok) -> bool:
    """A value, or a word that will be one: a capitalised name, a word with a digit."""
    text = sentence[token.start:token.end]
    return token.value is not None or text[:1].isupper() or any(c.isdigit() for c in text)


def never_minded(sentence: str, tokens: list[Tok]) -> list[Tok]:
    """The tokens with an opening "never mind / nevermind / nvm" that takes an object read
    as the retraction verb "ignore" (one token in place of the words)."""
    at = _opening(tokens)
    words = [t.word for t in tokens[at:at + 2]]
    if words[:2] == ["never", "mind"]:
        size = 2
    elif words[:1] in (["nevermind"], ["nvm"]):
        size = 1
    else:
        return tokens
    obj = at + size
    if obj >= len(tokens) or tokens[obj].word in BOUNDARY:
        return tokens
    head = tokens[obj]
    if not (head.word in _OBJECT_DETERMINERS or sentence[head.start:head.start + 1].isupper()):
        return tokens
    end = next((k for k in range(obj, len(tokens)) if tokens[k].word in BOUNDARY), len(tokens))
    if end - obj > _MAX_OBJECT or end + 1 >= len(tokens) or \
            not any(_valued(sentence, t) for t in tokens[obj:end]) or \
            any(t.word in _CLAUSAL for t in tokens[obj:end]) or \
            any(t.word == "?" or t.word in _CONCESSIVE for t in tokens[end:]):
        return tokens
    verb = Tok("ignore", tokens[at].start, tokens[at + size - 1].end)
    return [*tokens[:at], verb, *tokens[at + size:]]
