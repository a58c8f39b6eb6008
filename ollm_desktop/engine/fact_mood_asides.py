"""A verbless aside between dashes takes its host clause's mood (issue 28, ``fact_mood``).

A dash parts a sentence as a new sentence would (``fact_mood_words.STRONG``), so an aside set
off by dashes was read on its own, and a plain phrase asserts: "the bill would rise roughly
$7.72 — from about $153.40 to $161.12 — and ..." stated what the modal before it only
supposes. An aside with no verb and no subject of its own ("— from $150 to $165 —", "— to
$45 —") is a phrase of the clause it interrupts: it is as asserted as that clause. The
clause before the first dash decides: a modal's, a condition's, a report's, a question's or
a suggestion's mood goes on into the aside; a statement's leaves it a statement ("the bill
went up — from $150 to $165 — this month"). An aside that says a correction's shape
("— actually 9443 —", "— not 8443 —", "— now $45 —") or has a verb of its own ("— we
moved it to 10 —") keeps its own mood. A verbless phrase in brackets is such an aside too,
and one that only names what the host's change would replace ("it would be nice to make
gpt-4-turbo the default (instead of gpt-3.5-turbo)") goes with its host: the brackets set it
off from no other clause.

The words are closed classes: the dashes, the copulas, modals, subject pronouns and the
contrast words of a correction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ollm_desktop.engine import fact_mood_words as cues
from ollm_desktop.engine.fact_words import COPULAS, Tok, closed, is_change

DASHES = closed("— – -")
AsideMood = Literal["tentative", "conditional", "reported", "question", "suggestion"]
INHERITED: dict[str, AsideMood] = {"tentative": "tentative", "conditional": "conditional",
                                   "reported": "reported", "question": "question",
                                   "suggestion": "suggestion"}
_OWN = COPULAS | cues.MODAL | cues.SUBJECTS | cues.CONTRAST | cues.NEGATION | closed(
    "actually sorry correction wait")
LONGEST = 10  # words in an aside: more is a clause of its own


def _dash(tokens: Sequence[Tok], i: int) -> bool:
    return tokens[i].word in DASHES and not (
        i + 1 < len(tokens) and tokens[i + 1].word == ">")  # ("->": an arrow)


def _verbless(tokens: Sequence[Tok], a: int, b: int, own: frozenset[str] = _OWN) -> bool:
    words = [t.word for t in tokens[a:b] if t.word[:1].isalnum() or t.value]
    return 0 < len(words) <= LONGEST and any(t.value for t in tokens[a:b]) and not any(
        w in own or w.endswith("n't") or (is_change(w) and w not in ("up", "down"))
        for w in words)


_REPLACED = _OWN - closed("instead rather than")  # "(instead of Y)": what the host replaces


def _bracket_marks(tokens: Sequence[Tok], first: int, moods: Sequence[str],
                   ) -> list[tuple[int, int, AsideMood]]:
    out: list[tuple[int, int, AsideMood]] = []
    for i in range(first + 1, len(tokens)):
        if tokens[i].word != "(":
            continue
        close = next((j for j in range(i + 1, min(len(tokens), i + LONGEST + 2))
                      if tokens[j].word == ")"), None)
        host = moods[i - 1] if tokens[i - 1].word[:1].isalnum() or tokens[i - 1].value else ""
        if close is not None and host in INHERITED and _verbless(tokens, i + 1, close,
                                                                 _REPLACED):
            out.append((i + 1, close, INHERITED[host]))
    return out


def aside_marks(tokens: Sequence[Tok], first: int, moods: Sequence[str],
                ) -> list[tuple[int, int, AsideMood]]:
    """The token ranges of verbless dash asides whose host clause asserts nothing, with the
    host's mood: a pair of dashes, or one dash to the sentence's end."""
    out = _bracket_marks(tokens, first, moods)
    dashes = [i for i in range(first + 1, len(tokens)) if _dash(tokens, i)]
    used = -1
    for n, d in enumerate(dashes):
        if d <= used:
            continue
        host = next((k for k in range(d - 1, first - 1, -1) if tokens[k].word[:1].isalnum()
                     or tokens[k].value), None)
        if host is None or moods[host] not in INHERITED:
            continue
        end = dashes[n + 1] if n + 1 < len(dashes) else len(tokens)
        if _verbless(tokens, d + 1, end):
            out.append((d + 1, end, INHERITED[moods[host]]))
            used = end
    return out
