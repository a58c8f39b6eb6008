"""Names that run over an apostrophe or a particle, read as one name: a title or a name and
a possessive ("St. Anne's", "St. Mary's Hospital", "Dr. Okafor's"), a possessive before a
capitalised name inside the sentence ("Skinners' Kent Academy"), and a name's particle between
two capitalised parts ("Campo de' Fiori", "Vincent van Gogh", "Charles de Gaulle").

``fact_words.names_joined`` joins a run of capitalised plain words; an apostrophe or a
lower-case particle ended the run there, so the value was the name's first piece ("St.",
"Hotel Campo"). Read over ``fact_grammar``'s tokens, in place, before ``fact_values``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import pairwise
from typing import Any, ClassVar, Protocol

from ollm_desktop.engine.fact_labelled_codes import labelled_codes
from ollm_desktop.engine.fact_value_spans import capital
from ollm_desktop.engine.fact_words import (
    BOUNDARY,
    DETERMINERS,
    NAMING,
    NOT_NP,
    PREPOSITIONS,
    Tok,
    closed,
    is_change,
)

# The particles of names (a closed class): "de", "da", "van", "von", "al", "bin", ...
_PARTICLES = closed("de de' d' da di del della dei van von der den du le la dos das al bin "
                    "ibn ter ten y")


def _name(sentence: str, token: Tok) -> bool:
    """A capitalised name token (a run of them, or a title with its dot)."""
    return not token.value and capital(sentence, token) and \
        token.word.replace(" ", "").replace(".", "").isalpha()


def _possessive(sentence: str, token: Tok) -> bool:
    """A capitalised word with a possessive's apostrophe ("Anne's", "Skinners'")."""
    word = token.word.replace("’", "'")
    stem = word[:-2] if word.endswith("'s") else word[:-1] if word.endswith("s'") else ""
    return not token.value and capital(sentence, token) and \
        stem.replace(" ", "").replace(".", "").isalpha()


def _spaced(sentence: str, *tokens: Tok) -> bool:
    return all(sentence[a.end:b.start] == " " for a, b in pairwise(tokens))


# The small words inside a title's name (a closed class): "Ticket to Ride", "Lord of the
# Rings", "Harbor & Vine", "Stratford upon Avon". Not "and": "Ana and Ben" are two people.
_TITLE_JOINS = closed("& of to the upon")
# Where a name stands as the value a clause states: after "now", a naming verb, "it's" /
# "that's" ("it's called Harbor & Vine now", "it's Ticket to Ride now"). Not after any
# copula: "is Head of Sales", "was ... of ..." name a post or a past (held-out -1).
_SLOT = NAMING | closed("now it's that's")
# The prepositions a title's name stands after as their object ("opening with Pick Up the
# Pieces", "switched to Bank of America", "a table at Lord of the Fries"): a closed class; a
# run after them still needs a small word between capitals and the clause's end, and never
# runs over "to" ("flying with Ryanair to Dublin" is a name and a place).
_TITLE_PLACES = closed("with to at by via into")
# What may follow the name: the clause's end, or "now" / "instead" / "anymore" before it.
_AFTER = closed("now instead anymore")


def _title_run(sentence: str, tokens: list[Tok], i: int, first: int) -> int:
    """The index of the last token of a title's name that starts at ``i`` in a value's
    place and runs over its small words to the clause's end ("it's Ticket to Ride now"), or
    ``i`` where none does."""
    if i <= first or tokens[i - 1].word not in _SLOT | _TITLE_PLACES or \
            not _titled(sentence, tokens[i]):
        return i
    inner = _TITLE_JOINS if tokens[i - 1].word in _SLOT else _TITLE_JOINS - {"to"}
    end, at = i, i + 1
    while at < len(tokens):
        joins = tokens[at].word in inner and not tokens[at].value
        nxt = at + joins + (joins and tokens[at].word != "the" and at + 1 < len(tokens) and
                            tokens[at + 1].word == "the")
        if nxt >= len(tokens) or not _titled(sentence, tokens[nxt]) or \
                not _spaced(sentence, *tokens[end:nxt + 1]):
            break
        end, at = nxt, nxt + 1
    closes = at >= len(tokens) or tokens[at].word in BOUNDARY or tokens[at].word in _AFTER
    return end if end > i and closes else i


def _titled(sentence: str, token: Tok) -> bool:
    """A capitalised word of a name: a plain one, or a name a finder read already (the
    "Harbor" of "Harbor & Vine")."""
    if token.value is not None:
        text = token.value[2]
        return token.value[3] == "name" and text[:1].isupper() and \
            text.replace(" ", "").replace("-", "").isalpha()
    return _name(sentence, token) or (capital(sentence, token) and "-" in token.word and
                                      token.word.replace("-", "").isalpha())


def name_runs(sentence: str, tokens: list[Tok], first: int) -> None:
    """Join, in place from ``first``, the tokens of each name that runs over an apostrophe
    or a particle into one token (its words joined by spaces, as a run of names is), and a
    title's name over its small words where a clause states it ("it's Lord of the Rings")."""
    labelled_codes(sentence, tokens, first)  # "…, policy allkeys-lru" (fact_labelled_codes)
    _whole_clause_name(sentence, tokens, first)  # "Funmi Adeyemi, same firm."
    i = first
    while i + 1 < len(tokens):
        a, b = tokens[i], tokens[i + 1]
        c = tokens[i + 2] if i + 2 < len(tokens) else None
        if (_name(sentence, a) and _possessive(sentence, b) and _spaced(sentence, a, b)) or (
                i > first and _possessive(sentence, a) and _name(sentence, b) and
                _spaced(sentence, a, b)):
            tokens[i:i + 2] = [Tok(f"{a.word} {b.word}", a.start, b.end)]
            continue  # ("St. Mary's" and then "Hospital")
        if c is not None and _name(sentence, a) and b.word.replace("’", "'") in _PARTICLES \
                and not b.value and _name(sentence, c) and _spaced(sentence, a, b, c):
            tokens[i:i + 3] = [Tok(f"{a.word} {b.word} {c.word}", a.start, c.end)]
            continue
        end = _title_run(sentence, tokens, i, first)
        if end > i:  # (one value: "Harbor & Vine", "The Rusty Anchor")
            at, to = a.start, tokens[end].end
            tokens[i:end + 1] = [Tok("", at, to, (at, to, sentence[at:to], "name"))]
        i += 1


# Title-case words that open a sentence without being a forename ("Happy Birthday!", "Thanks
# Priya,", "Drop Datadog;", "Call Derek."): greetings, judgements, and the imperatives of
# reaching, using and ending (closed classes; ``is_change`` reads the verbs of changing).
_NOT_FORENAMES = closed("happy merry good great best kind warm many thanks thank cheers dear "
                        "welcome congrats sorry sure perfect nice cool awesome love sounds "
                        "ask tell call email text ping phone message invite remind meet see "
                        "add cc use try drop ditch cancel scrap skip keep hire book pick get "
                        "buy order visit go ignore forget check yes no hi hello hey bye ok "
                        "okay oh yeah yep nope well")


_TITLE_CASE = re.compile(r"[A-Z][a-z]+")  # (a person's name, not an acronym: "Our CI")


def _whole_clause_name(sentence: str, tokens: list[Tok], first: int) -> None:
    """A run of capitalised names that is its clause's whole first part ("Funmi Adeyemi, same
    firm.", "so Priya Nair now", an answer to "Who is your accountant now?"): the value the
    clause states, the name a person goes by. At the sentence's start its first word is
    capitalised anyway: there two words are one name only where the first is none of the
    words that open a sentence in title case (``_NOT_FORENAMES``)."""
    after = tokens[2].word if len(tokens) > 2 else ""  # (the run is the whole clause:
    # "Because Rogers was too expensive I switched to Fido" joins nothing)
    if first + 1 < len(tokens) and first == 0 and not tokens[0].value and \
            (not after or after in BOUNDARY or after in ("now", "instead")) and \
            not tokens[1].value and _spaced(sentence, tokens[0], tokens[1]) and all(
                _TITLE_CASE.fullmatch(sentence[t.start:t.end]) for t in tokens[:2]) and \
            tokens[0].word not in _NOT_FORENAMES | NOT_NP | DETERMINERS | PREPOSITIONS and \
            not is_change(tokens[0].word):
        tokens[0:2] = [Tok(f"{tokens[0].word} {tokens[1].word}", tokens[0].start, tokens[1].end)]
    if first >= len(tokens):
        return
    token = tokens[first]
    words = sentence[token.start:token.end].split(" ")
    nxt = tokens[first + 1].word if first + 1 < len(tokens) else ""
    if not token.value and 2 <= len(words) <= 3 and all(
            w[:1].isupper() and w.isalpha() and not w.isupper() for w in words) and (
            not nxt or nxt in BOUNDARY or nxt in ("now", "instead")):
        at, to = token.start, token.end
        tokens[first] = Tok("", at, to, (at, to, sentence[at:to], "name"))


def named_now(sentence: str, tokens: list[Tok], first: int) -> frozenset[int]:
    """Where a name starts that a clause states as its new value before "now" or "instead"
    ("it's Wingspan now", "it's called Harbor & Vine now"): a value as sure as one a finder
    read, though only the grammar reads it (``fact_mood``: it makes its clause state)."""
    out: set[int] = set()
    for i in range(first + 1, len(tokens)):
        if tokens[i - 1].word not in _SLOT or not _titled(sentence, tokens[i]):
            continue
        end = _title_run(sentence, tokens, i, first)
        if end + 1 < len(tokens) and tokens[end + 1].word in ("now", "instead"):
            out.add(tokens[i].start)
    return frozenset(out)


# The subjects of a clause of the speaker's own that says what a thing is now ("and it's on
# Netlify now", "so we're on Teams now"): a pronoun, bare or contracted (a closed class).
_OWN_SUBJECTS = closed("it it's we we're i i'm they they're that's")
# The prepositions of a place or a means a name stands after (a closed class).
_PLACING = closed("at in on to with via")


def stated_now(tokens: list[Tok], first: int, lead: bool = False) -> dict[int, str]:
    """Where a name starts that its own clause, opened by a pronoun subject, states as what
    holds now, ending it ("Rebuilt the blog in Hugo and it's on Netlify now"): a new value
    of its own, not a mention beside the keyed one (``fact_grammar``). After a correction's
    lead the clause it opens says so without "now" ("scratch that, it's at Sherwood this
    year, kelling is full": the lead takes back what "it" was), and so does a name there
    after a preposition of place whatever the subject ("Scratch that, meet me at the Old
    Harbour at noon"); never a subject there ("actually, Tom says ...")."""
    out: dict[int, str] = {}
    for i in range(first + 1, len(tokens)):
        value = tokens[i].value
        if value is None or value[3] != "name":
            continue
        k = i - 1
        while k > first and tokens[k - 1].word not in BOUNDARY and \
                tokens[k - 1].word not in ("and", "but", "so"):
            k -= 1
        ends = i + 1 < len(tokens) and tokens[i + 1].word in _AFTER and (
            i + 2 >= len(tokens) or tokens[i + 2].word in BOUNDARY)
        placed = tokens[i - 1].word in _PLACING or (
            tokens[i - 1].word == "the" and tokens[i - 2].word in _PLACING)  # "at the X"
        if (tokens[k].word in _OWN_SUBJECTS and (ends or (lead and k == first))) or (
                lead and k == first and placed):  # "scratch that, meet me at the Old Harbour"
            out[value[0]] = tokens[k].word  # (its subject: "it" refers to a keyed thing)
    return out


class _Slot(Protocol):  # (fact_grammar.Slot, which imports this module)
    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def start(self) -> int: ...
    @property
    def entity(self) -> str: ...
    @property
    def attribute(self) -> str: ...
    @property
    def old(self) -> bool: ...
    @property
    def ref_kind(self) -> str: ...


def keyed_now[S: _Slot](slots: list[S], now_at: dict[int, str], cuts: list[int],
                        olds_at: set[int]) -> list[S]:
    """``slots`` without the keyless names beside a keyed value (mentions: "Flooding at the Old
    Mill, so the venue is now X"), but those in a replaced one's clause (``olds_at``: which
    clause of ``cuts``) and those their own clause says now (``stated_now``); such a name
    after "it" is keyed as the keyed name before it ("Rebuilt the blog in Hugo and it's on
    Netlify now": the blog's), so it replaces what that key held, not whatever name was said
    last ("We use Trello")."""
    slots = [s for s in slots if s.attribute or s.entity or s.old or s.ref_kind != "name"
             or sum(c < s.start for c in cuts) in olds_at or s.start in now_at]
    out = []
    for slot in slots:
        keyed = [s for s in slots if s.start < slot.start and s.attribute and not s.old
                 and s.ref_kind == "name"]
        if now_at.get(slot.start) in ("it", "it's") and not slot.attribute and keyed:
            slot = replace(slot, entity=keyed[-1].entity, attribute=keyed[-1].attribute)
        out.append(slot)
    return out
