"""Whether a clause asks or supposes (``fact_mood``, issue 28).

- An **auxiliary before its subject** opens a question: "should we", "isn't the port", "is
  Tuesday too late", "does term end on ..."; a dropped subject's "is now 9443" states, and
  so does a diary's "did a ramp test today, …", "had a scan, …" (a past "did" or "had"
  before "a" / "an" with no "?" in the sentence: a question about some indefinite thing is
  asked with its mark).
- A **wh-word before an inverted auxiliary** asks whether or not a "?" ends the sentence
  (a title, a search typed in haste): "How do I raise the quota from 20GB to 50GB", "when
  did we move it". A wh-word before its subject ("when we moved it to 10, ...") is a
  subordinate clause, and states.
- A leading **"say"** before a comma, a noun phrase or a subject ("Say, the 7th", "Say the 7th
  and the 21st", "say 40 people", "say we push it to 5") is the imperative of supposing: it
  offers an example, not a value.

The words are closed classes (auxiliaries, wh-words, pronouns, determiners).
"""

from __future__ import annotations

from collections.abc import Sequence

from ollm_desktop.engine import fact_mood_words as cues
from ollm_desktop.engine.fact_surface import names_then_value
from ollm_desktop.engine.fact_verbs import SUBORDINATORS
from ollm_desktop.engine.fact_words import (
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    NOT_NP,
    PREPOSITIONS,
    PRONOUNS,
    Tok,
    cardinal,
    closed,
)


def word_at(tokens: Sequence[Tok], i: int) -> str:
    """The word at ``i``; "" outside the sentence (``fact_mood`` reads its neighbours so)."""
    return tokens[i].word if 0 <= i < len(tokens) else ""


def interrogative(tokens: list[Tok], a: int, b: int) -> bool:
    """An auxiliary before its subject opens the clause: "should we", "isn't the port", "is
    Tuesday too late", "does term end on …" (a dropped subject's "is now 9443" states)."""
    k = a + cues.clause_head([t.word for t in tokens[a:b]])
    head, nxt = word_at(tokens, k), word_at(tokens, k + 1)
    nxt = word_at(tokens, k + 2) if nxt == "not" else nxt
    after = tokens[k + 1] if k + 1 < b else None  # ("does", "did": never an imperative)
    aux, *rest = nxt.split(" ")  # (a title's capitals join "Do I Change" as one name)
    if head in ("did", "had") and nxt in ("a", "an") and not any(t.word == "?" for t in tokens) \
            and not _bare_verb_after(tokens, k + 2, b):
        return False  # "did a ramp test today, FTP went …": a dropped "I", no "?": it states
    if head in cues.WH - {"which", "whose"} and aux in cues.QUESTION_AUX:
        # a wh-word before an inverted auxiliary asks, "?" or not: "How do I raise it to 5"
        subject = rest[0] if rest else word_at(tokens, k + 2)
        return subject in cues.SUBJECTS or subject in DETERMINERS or subject == "not"
    return k < b and head in cues.QUESTION_AUX and (nxt in cues.SUBJECTS or (
        nxt in DETERMINERS | {"there"} and head not in ("do", "will", "have")) or (
        after is not None and nxt != "now" and (head in cues.DO_PAST or (
            head in cues.BE_ASKING and names_then_value(tokens, k + 1, b)))))


def supposed(tokens: list[Tok], i: int) -> bool:
    """After a clause's leading "say": a comma, or a noun phrase with no subject before it
    ("Say the 7th and the 21st", "say 40 people"): the imperative of supposing, which
    offers an example, not a value set."""
    word = word_at(tokens, i)  # ("say we move it to 4pm": a supposed clause, its subject first)
    return word == "," or word in DETERMINERS or word in cues.SUBJECTS or (
        i < len(tokens) and (tokens[i].value is not None or word[:1].isdigit()))


def asked_end(tokens: Sequence[Tok], start: int, end: int) -> int:
    """Where a question opening a segment ends: a wh-question with no "?" at its first comma
    before a clause ("When do we leave, dinner is now at 8pm"), not before an answer it
    offers ("When do we leave, 8pm or 9pm"); a yes/no question at the segment's end."""
    words = [t.word for t in tokens[start:end]]
    if words[cues.clause_head(words):cues.clause_head(words) + 1] not in [[w] for w in cues.WH]:
        return end
    return next((i for i in range(start + 1, end - 1) if tokens[i].word == "," and
                 tokens[i + 1].value is None and tokens[i + 1].word != "or"), end)


_ASSERTING = closed("am is are was were 's 're it's that's we're they're i'm becomes remains")
# What may end a stated clause before a question: a comma, and a dash or a semicolon between
# two clauses ("the flight is at 9:40 - should I leave at 7?", "I'm 70kg, 175cm — what's my
# BMI?"); the tests after it are the comma's (a dash aside inside one clause asks nothing).
_BETWEEN = closed(", — – ;")


_CLOSED_WORDS = NOT_NP | DETERMINERS | PREPOSITIONS | COPULAS | CONJUNCTIONS | PRONOUNS
_WISHING = closed("want wants prefer prefers need needs like likes hope hopes wish wishes "
                  "ask asks say says")  # (a wish or a word of another's: "The client wants
# Monday, would that work?" asks about Monday)


def _asserts(tokens: Sequence[Tok], j: int) -> bool:
    """A copula, a verb in the past ("Rescheduled the dentist to 2pm") or in the present
    before its object ("the hamster gets a tablespoon a day", "I use 10-46 strings", "we
    bill 85 an hour"): a clause that states its value before a question that follows it."""
    word, before, after = tokens[j].word, word_at(tokens, j - 1), word_at(tokens, j + 1)
    if word in _ASSERTING or (len(word) > 4 and word.endswith("ed")):
        return True
    if not word.isalpha() or word in _WISHING or word in cues.BELIEF or word in cues.HEARSAY \
            or word in _CLOSED_WORDS or not (j + 1 < len(tokens) and (
                tokens[j + 1].value or after[:1].isdecimal() or after in DETERMINERS or
                after in PREPOSITIONS)):
        return False
    if before in ("i", "we", "they"):
        return True  # "I use 10-46 strings on the strat, …"
    return len(word) > 3 and word.endswith("s") and not word.endswith("ss") and \
        before.isalpha() and before not in _CLOSED_WORDS and not cardinal(before) and \
        j > 0 and not tokens[j - 1].value  # "the hamster gets …" (not "two rooms at 80")


# A subject that is nobody in particular ("someone on reddit pays 1300 a month, is that
# normal?", "a friend pays …"): the clause is what the question weighs, not the user's fact.
_INDEFINITE = closed("someone somebody anyone anybody everyone everybody people others a an")
_TAG = 4  # words of a tag question with no value ("…, right?", "…, isn't it?")
_CONFIRMING = closed("right correct true so wrong")  # "…, is that right?" doubts the value


def _judged(tokens: Sequence[Tok], k: int) -> bool:
    """A short question after a stated clause that asks for a judgement of it ("my landlord
    charges 1200 a month, is that fair?", "…, is that enough?"): an auxiliary, a pronoun that
    points back and a word of judgement, the clause stated; "…, isn't it?" is a tag, and "…,
    is that right?" asks whether the value is so."""
    words = [t.word for t in tokens[k:] if t.word not in ("?", "not", "!", ".")]
    return len(words) == 3 and words[1] in ("that", "this", "it") and words[2].isalpha() and \
        words[2] not in _CONFIRMING


def asked_from(tokens: Sequence[Tok], first: int) -> int:
    """Where a sentence's "?" starts to ask: at a question that follows a stated clause after
    its comma, dash or semicolon ("The port is 8443, can you write the nginx config?", "my
    salary is £52,000, how much goes into my pension?": the first clause states); else at
    ``first`` (a question asks about all of its sentence, and so does a tag: "The port is
    8443, right?")."""
    for i in range(first + 1, len(tokens) - 1):
        if tokens[i].word not in _BETWEEN:
            continue
        if not any(t.value or t.word[:1].isdigit() for t in tokens[first:i]) or \
                tokens[first].word in cues.WH:
            return first  # (a question before its comma: "how much is it, 5 or 6?")
        opening = word_at(tokens, first + cues.clause_head([t.word for t in tokens[first:i]]))
        if opening in PREPOSITIONS or opening in SUBORDINATORS or opening.endswith("ing") or \
                opening in _INDEFINITE or not any(_asserts(tokens, j) for j in range(first, i)):
            return first  # (a fronted phrase or clause, "In a world where we allowed 500
            # rpm,"; a proposal, "Moving the class to 10am, would that work?"; no verb that
            # asserts, "A $1300 rent, would that be too much?", "The client wants Monday, …")
        k = i + 1
        head = word_at(tokens, k)
        wh = head[:-2] if head.endswith("'s") else head  # ("what's my BMI?")
        asks = (head in cues.QUESTION_AUX and interrogative(list(tokens), k, len(tokens))) or (
            wh in cues.WH - {"which", "whose"} and word_at(tokens, k + 1) != "if")
        if asks and (wh in cues.WH or len(tokens) - k > _TAG or  # (a wh-question is no tag)
                     any(t.value for t in tokens[k:]) or _judged(tokens, k)):
            return first if _named(tokens, first, i) & _named(tokens, k, len(tokens)) else k
    return first


def _named(tokens: Sequence[Tok], a: int, b: int) -> set[str]:
    """The values (and bare numbers) of ``tokens[a:b]``: a question that names a value of
    the clause before it weighs that clause ("WhatsApp also accepts port 443 - would there
    be any downside in switching to port 443?"), so all of the sentence asks."""
    return {t.value[2].lower() if t.value else t.word for t in tokens[a:b]
            if t.value or t.word[:1].isdecimal()}



# Verbs bare after "did a NOUN" only in a question ("did a colleague move it", "did a 4.3.0
# release go out"); none a noun of a diary's "did a …" ("did a 10k run", "a night shift").
_ASKED_VERBS = frozenset(("move", "go", "happen", "come", "arrive", "leave", "send",
                          "reschedule", "cancel", "push", "change"))


def _bare_verb_after(tokens: list[Tok], at: int, b: int) -> bool:
    """A bare verb a word or two after "did a" marks the question ("did a colleague move the
    meeting", "did a 4.3.0 release go out"); the diary's "did a ramp test today" has none."""
    for j in range(at + 1, min(at + 4, b)):
        if not tokens[j].word[:1].isalnum():
            return False
        if tokens[j].word in _ASKED_VERBS:
            return True
    return False
