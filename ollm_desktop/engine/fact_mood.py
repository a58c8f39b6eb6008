"""The mood of each clause of a sentence: whether it asserts a current value (issue 28).

A value is stated only by a declarative main clause. A clause asserts nothing when it is:

- under a **question**: its sentence ends with "?", its segment opens with an auxiliary
  before its subject ("should we ...", "isn't the port ...") or a wh-word before one ("how
  do I ...", ``fact_mood_asked``), or a tag follows it ("..., doesn't it");
- a **conditional** subordinate ("if", "unless", "in case", "provided", "suppose", "let's
  say", a leading "say" that supposes: "Say the 7th") with its consequent: the clauses after
  a leading one ("If the vendor slips, we go to May 20"), the clause before a trailing one
  with no comma between ("we stay in if it pours"). A concessive ("whether", "even if")
  holds only itself, and so does a conditional about the listener ("if anyone asks, the
  deadline is Friday"). A clause that opens with "but", "either way" or "anyway" leaves
  the consequent;
- the complement of a **belief verb** of someone else ("Dana thinks ...", "a guy on the forum
  claims ..."), or of a hearsay or proposal verb whoever speaks ("I heard ...", "my mum
  suggested ..."). A plain report ("the airline says departure is 07:25") is the speaker
  relaying a value: it states, unless its own words hedge ("Dana said it might be 8210");
- under a **modal** or **tentative** verb phrase ("might", "could", "would", "may", "we'd";
  "considering", "leaning towards", "tempted"), a hedge ("maybe", "perhaps"), or a bare
  **doubt** beside it ("..., not sure yet", "..., no decision yet", "TBD", "apparently"),
  or "seems" in a clause with a value ("so Python 3.10 seems like a good one");
- a **past** state with an explicit before-time ("we used to use MySQL", "back in 2019", "last
  time we flew ...", "the previous owners were ..."). A past change ("we moved it to 10") and
  a correction's shape ("now", "not", "instead") still hold;
- a **suggestion** ("how about", "what if", "why not").

The words named (``fact_mood_words``) are closed classes (modals, auxiliaries, subordinating
conjunctions, pronouns, reporting verbs, tense and time markers): grammar that a new phrasing
does not add to. Clauses are cut at ";", dashes and ":", at a comma before a new subject, a
conjunction or a subordinator, and at a subordinator; "X, not Y" and "not Y but X" stay one
clause.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

from ollm_desktop.engine import fact_mood_words as cues
from ollm_desktop.engine.fact_mood_asides import aside_marks
from ollm_desktop.engine.fact_mood_asked import asked_end, asked_from
from ollm_desktop.engine.fact_mood_asked import interrogative as _interrogative
from ollm_desktop.engine.fact_mood_asked import supposed as _supposed
from ollm_desktop.engine.fact_mood_asked import word_at as _word
from ollm_desktop.engine.fact_mood_open import may_open, open_marks, opening_mood
from ollm_desktop.engine.fact_mood_others import may_decline, others_marks
from ollm_desktop.engine.fact_mood_proposed import may_propose, proposed_marks
from ollm_desktop.engine.fact_mood_stance import possible_change, stance_marks
from ollm_desktop.engine.fact_mood_then import may_then, now_opens, then_marks
from ollm_desktop.engine.fact_mood_words import clause_head as _head
from ollm_desktop.engine.fact_mood_words import conditional_phrase, hyphen
from ollm_desktop.engine.fact_name_runs import named_now
from ollm_desktop.engine.fact_tense import held_for, is_year, past_words
from ollm_desktop.engine.fact_tense_ended import TRIGGERS
from ollm_desktop.engine.fact_words import (
    COPULAS,
    DETERMINERS,
    HEDGES,
    PREPOSITIONS,
    Tok,
    is_change,
)

Mood = Literal["statement", "question", "suggestion"]
ClauseMood = Literal["statement", "question", "suggestion", "conditional", "reported",
                     "tentative", "past", "negated"]
Clause = tuple[int, int, bool]  # token range, and whether it opens a segment
Mark = Callable[[int, int, ClauseMood], None]


class Placed(Protocol):
    @property
    def start(self) -> int: ...

    @property
    def old(self) -> bool: ...

    @property
    def ref_kind(self) -> str: ...

    @property
    def value(self) -> str: ...


S = TypeVar("S", bound=Placed)


@dataclass(frozen=True, slots=True)
class Moods:
    """A sentence's mood, and the spans (characters) of its clauses that assert nothing."""

    mood: Mood  # "statement" when a clause with a value asserts
    unasserted: tuple[tuple[int, int, ClauseMood], ...]
    known: frozenset[int] = frozenset()  # the starts of the values found before the grammar

    def mood_at(self, start: int) -> ClauseMood:
        return next((m for a, b, m in self.unasserted if a <= start < b), "statement")

    def held(self, slots: Sequence[S], mood: Mood) -> tuple[list[S], Mood]:
        """The values a sentence keeps, and its mood: a value of an asserting clause makes
        it a statement and keeps only those; else it keeps its values as open questions
        (a question's, a supposition's), but never a past one (it says nothing now) unless
        it is the value a correction retires ("the earlier figure of 5,489 EUR was wrong")."""
        moods: list[ClauseMood] = [self.mood_at(slot.start) for slot in slots]
        moods = ["statement" if m == "past" and slot.old else m
                 for slot, m in zip(slots, moods, strict=True)]  # (ClauseMood)
        pairs = list(zip(slots, moods, strict=True))
        # a bare name the grammar found ("the tests are thin, so I would not ...") does not
        # make a sentence a statement; a lower-case label's figure ("age 10") does
        if any(m == "statement" and (self.mood == "statement" or slot.ref_kind != "name" or
                                     slot.start in self.known or cues.labelled(slot.value))
               for slot, m in pairs):
            return [slot for slot, m in pairs if m == "statement"], "statement"
        if not slots:
            return [], mood
        open_ = [(slot, m) for slot, m in pairs if m != "past"]
        first = open_[0][1] if open_ else "suggestion"
        said: Mood = mood if mood != "statement" else (
            "question" if first == "question" else "suggestion")
        return [slot for slot, _ in open_], said


def _starts_clause(tokens: list[Tok], i: int) -> bool:
    """Does a new clause begin at ``i`` with no comma before it?"""
    word, nxt = tokens[i].word, _word(tokens, i + 1)
    if word in cues.ALWAYS_CUT and _word(tokens, i - 1) not in ("what", "even", "as"):
        return True  # ("what if", "even if", "as if" are one subordinator)
    if (word == "in" and nxt == "which") or conditional_phrase([t.word for t in tokens[i:i + 3]]):
        return True
    if word in ("but", "so", "and", "or"):  # "not Y but X", "Redis and Postgres": one clause
        return nxt in cues.SUBJECTS or nxt in DETERMINERS or (  # "but right now it's 2"
            word != "or" and bool(now_opens([t.word for t in tokens[i + 1:i + 4]], 0)))
    return False


def _opens_after_comma(tokens: list[Tok], i: int) -> bool:
    word, nxt = tokens[i].word, _word(tokens, i + 1)
    if tokens[i].value or (word.isdigit() and nxt in COPULAS):  # ("X, not Y", "9443, sorry":
        return nxt in COPULAS  # a value goes on the clause; before a copula it is a subject)
    if word in cues.NEGATION:  # ", not 8443" goes on; ", not sure yet" is a clause of its own
        return not any(t.value for t in tokens[i + 1:i + 4])
    if word in cues.QUESTION_AUX and (nxt in cues.SUBJECTS or nxt == "not"):
        return True  # ", can you ...", ", doesn't it"
    return word in cues.OPENERS or _starts_clause(tokens, i) or \
        bool(now_opens([t.word for t in tokens[i:i + 3]], 0))  # ", these days it's …"


def clauses(tokens: list[Tok], first: int) -> list[Clause]:
    """The clauses from ``first``: (start, end, opens a segment) token ranges."""
    out: list[Clause] = []
    start, strong = first, True
    for i in range(first, len(tokens)):
        word = tokens[i].word
        dash = word == "-" and _word(tokens, i + 1) != ">" and not (0 < i < len(tokens) - 1 and
                                                                  hyphen(tokens, i))
        if word in cues.STRONG or dash or word in ("(", ")"):
            if i > start:
                out.append((start, i, strong))
            strong = word in cues.STRONG or dash or (strong and i == start)
            start = i + 1
        elif i > start and ((_opens_after_comma(tokens, i) or _subordinate(tokens, start))
                            if tokens[i - 1].word == "," else _starts_clause(tokens, i)):
            out.append((start, i, strong))
            start, strong = i, False
    if start < len(tokens):
        out.append((start, len(tokens), strong))
    return out


def _subordinate(tokens: list[Tok], start: int) -> bool:
    """The clause from ``start`` is a fronted subordinate ("if X,", "so if X,", "in case X,")
    or a self-repair's value meant ("I mean X,"): it ends at its first comma."""
    words = [t.word for t in tokens[start:start + 6]]
    k = _head(words)
    pair = " ".join(words[k:k + 2])
    return (k < len(words) and words[k] in cues.SUBORDINATE) or pair == "even if" or \
        bool(conditional_phrase(words[k:]) or conditional_phrase(words)) or cues.repair_only(words)


def _doubt(words: list[str]) -> tuple[bool, bool]:
    """(a doubt, bare): "not sure yet", "no decision yet", "TBD", "she wasn't sure",
    "apparently". Bare: no subject of its own but a pronoun, so it doubts its segment."""
    rest = [w for w in words[_head(words):] if w != ","]
    negated = any(w in cues.NEGATION or w.endswith("n't") for w in rest)
    sure = next((i for i, w in enumerate(rest) if w in cues.DOUBTED), None)
    after = rest[sure + 1] if sure is not None and sure + 1 < len(rest) else ""
    if after in cues.WH or after in ("about", "of", "if", "whether"):
        return False, False  # "not sure why it moved": a doubt about something else
    doubt = (negated and (sure is not None or ("yet" in rest and len(rest) <= 4))) or \
        bool((cues.UNDECIDED | cues.EVIDENTIAL) & set(rest)) or \
        bool(cues.SEEMING & set(rest) and "" in rest)  # ("" is a value's word)
    if cues.EVIDENTIAL & set(rest) and cues.FIRST_PERSON & set(rest) and not negated:
        return False, False  # "apparently I mistyped": the speaker's own slip
    bare = not rest or rest[0] in cues.NEGATION | cues.SUBJECTS | cues.UNDECIDED | \
        cues.EVIDENTIAL
    return doubt, doubt and bare and not cues.SEEMING & set(rest)


def _tentative(sentence: str, tokens: list[Tok], i: int, role: str) -> bool:
    """A modal, a hedge or a tentative verb at ``i``."""
    word, nxt = tokens[i].word, _word(tokens, i + 1)
    if word == "may" and i > 0 and sentence[tokens[i].start:tokens[i].start + 1] == "M":
        return False  # "in May": the month
    if word.endswith("'d") and (nxt in cues.PERFECT or nxt.endswith("ed")) and \
            nxt not in cues.BASE_EED:
        return False  # "we'd already moved", "I'd mixed them up": had
    if role == "assistant" and word in ("should", "let's"):
        return True
    if word == "looking" and nxt in ("at", "into") and _word(tokens, i - 1) in cues.BE:
        return True  # "we're looking at Hetzner": considering
    return word in cues.MODAL or word in HEDGES or word in cues.TENTATIVE or \
        possible_change(tokens, i)  # (fact_mood_stance) "we can put it to 500"


def _own_marks(sentence: str, tokens: list[Tok], a: int, b: int, role: str,
               ) -> list[tuple[int, int, ClauseMood]]:
    """The token ranges a clause's own words leave unasserted (-1: the clause before)."""
    words = [t.word for t in tokens[a:b]]
    k = _head(words)
    out: list[tuple[int, int, ClauseMood]] = []
    past = past_words(tokens[a:b])
    if past:
        out.append((a, a + past, "past"))
    if " ".join(words[k:k + 2]) in ("how about", "what about", "what if", "why not"):
        out.append((a, b, "suggestion"))
    for j in range(a, b):
        word = tokens[j].word
        before = [t.word for t in tokens[a:j] if t.word not in cues.SKIPPED] \
            if word in cues.BELIEF or word in cues.HEARSAY else []
        if cues.reports(word, before, _word(tokens, j + 1)):
            said = [t for t in tokens[j + 1:b] if t.value or t.word[:1].isalnum()]
            if said:  # its complement ("the shuttle leaves at 16:50")
                out.append((j + 1, b, "reported"))
            comma = max((x for x in range(a, j) if tokens[x].word == ","), default=a)
            if not said and j - comma <= 3:  # "the port is 9443, Dana thinks"
                out.append((a, comma, "reported") if comma > a else (-1, -1, "reported"))
            break
        if _tentative(sentence, tokens, j, role):
            back = j  # its subject: "2 seconds would ...", "the other place might ..."
            while back > a and tokens[back - 1].word not in (",", "and", "or", "is", "are") \
                    and tokens[back - 1].word not in cues.BELIEF:
                back -= 1
            if back - 1 > a and tokens[back - 1].word == "," and _adjunct(tokens, a, back - 1):
                back = a  # "with a 45 s timeout, the retries would vanish": its adjunct too
            stop = b
            if word in cues.TENTATIVE and not any(t.word in cues.SUBJECTS or t.word in cues.BE
                                             for t in tokens[a:j]):
                # an adjunct with no subject: "Thinking about it, the port is 9443"
                stop = next((x for x in range(j, b) if tokens[x].word == ","), b)
            out.append((back, stop, "tentative"))
            break
    return out


def _conditional(tokens: list[Tok], segment: list[Clause], n: int, mark: Mark) -> None:
    """A conditional clause and its consequent."""
    a, b, _ = segment[n]
    end = segment[-1][1]
    words = [t.word for t in tokens[a:b]]
    k = _head(words)
    head, pair = (words[k] if k < len(words) else ""), " ".join(words[k:k + 2])
    if head == "let's" and words[k + 1:k + 2] and words[k + 1] in cues.CONDITIONAL | {"say"}:
        head = "suppose"  # "let's say", "let's imagine"
    if head == "whether" or pair == "even if":
        mark(a, b, "conditional")  # concessive: the consequent holds either way
        return
    nxt = words[k + 1] if k + 1 < len(words) else ""
    phrase = conditional_phrase(words[k:]) or conditional_phrase(words)  # ("so" is skipped)
    if not phrase and (not (head in cues.CONDITIONAL or pair in ("in which", "what if") or
                            (head == "once" and n == 0 and nxt not in cues.ONCE_NOT) or
                            (head == "say" and _supposed(tokens, a + k + 1))) or
                        nxt in PREPOSITIONS - {"to"}):
        return  # "provided by the vendor", "once a week", "in case of rain": no condition
    if "only" not in (_word(tokens, a - 1), words[k - 1] if k else ""):  # ("shown only if
        mark(a, b, "conditional")  # under 180 days are left": a rule's threshold is stated)
    leading = all(not any(t.value for t in tokens[x:y]) and y - x <= 4
                  for x, y, _ in segment[:n])  # after an aside: "Hypothetically, if ..."
    if leading or pair == "in which":  # a leading conditional: to its consequent's end
        if leading and (cues.LISTENER & set(words) or cues.relevance(words)):
            return  # "if anyone asks, ...": about the listener, the consequent holds
        stop = next((s[0] for s in segment[n + 1:] if _leaves(tokens, s)), end)
        mark(b, stop, "conditional")
    elif tokens[a - 1].word != "," and not _complement(tokens, a) and head != "unless" and \
            not cues.LISTENER & set(words) and not cues.relevance(words):  # (a trailing
        mark(segment[n - 1][0], segment[n - 1][1], "conditional")  # "unless" excepts: X holds)


def _leaves(tokens: list[Tok], clause: Clause) -> bool:
    """A clause that opens with "but", "either way", "anyway": it leaves the consequent."""
    words = [t.word for t in tokens[clause[0]:clause[1]] if t.word != ","]
    return bool(words) and words[0] in cues.LEAVES


def _complement(tokens: list[Tok], a: int) -> bool:
    """A trailing "if" that is a verb's object ("to see if", "wonder if"), not a condition."""
    before = _word(tokens, a - 1)
    verb = _word(tokens, a - 2) == "to" and before.isalpha()  # not "to 1 TB if"
    return verb or before in cues.BELIEF | cues.HEARSAY | cues.TENTATIVE | cues.DOUBTED or \
        before in ("wonder", "ask", "know", "see")


def _segment(sentence: str, tokens: list[Tok], segment: list[Clause], role: str,
             mark: Mark) -> None:
    """Marks one segment's clauses (between strong breaks)."""
    start, end = segment[0][0], segment[-1][1]
    if _interrogative(tokens, start, segment[0][1]):
        # a yes/no question asks about its segment; a wh-question with no "?" ends at its
        # comma ("How did I miss this, the meeting moved to 4pm": the second clause states)
        mark(start, asked_end(tokens, start, end), "question")
    for n, (a, b, _) in enumerate(segment):
        _conditional(tokens, segment, n, mark)
        doubt, bare = _doubt([t.word for t in tokens[a:b]])
        if doubt:
            whole = bare and not any(t.value for t in tokens[a:b])
            mark(start if whole else a, end if whole else b, "tentative")
        if n and _interrogative(tokens, a, b):  # a tag asks about the clauses before it
            tag = b - a <= 4 and n == len(segment) - 1 and not any(t.value for t in tokens[a:b])
            mark(start if tag else a, b, "question")  # "..., doesn't it"
        for x, y, mood in _own_marks(sentence, tokens, a, b, role):
            if x < 0 and n:
                mark(segment[n - 1][0], segment[n - 1][1], mood)
            elif x >= 0:
                mark(x, y, mood)
    for x, y, open_mood in open_marks(tokens, segment):  # (fact_mood_open) "under review"
        mark(x, y, open_mood)
    for x, y, asked in proposed_marks(tokens, start, end):  # "asked the judge to delay it"
        mark(x, y, asked)
    for x, y, theirs in others_marks(tokens, start, end):  # "Security wants 30 days"
        mark(x, y, theirs)


def _adjunct(tokens: list[Tok], a: int, b: int) -> bool:
    """A fronted prepositional phrase with no verb of its own ("even with a 45 s timeout,",
    "at 20 workers,", "instead of MySQL,"): it belongs to the clause it precedes, and shares
    its mood."""
    words = [t.word for t in tokens[a:b] if t.word != ","]
    k = _head(words)
    k += words[k:k + 1] == ["even"]
    fronted = k < len(words) and (words[k] in PREPOSITIONS or words[k:k + 2] in (
        ["instead", "of"], ["rather", "than"]))
    return fronted and len(words) <= 10 and not any(
        w in COPULAS or w in cues.QUESTION_AUX or w in cues.MODAL or w in cues.SUBJECTS or
        is_change(w) for w in words)


def _plain(tokens: list[Tok], first: int) -> bool:
    """No word of any mood and no auxiliary opening a clause: a plain statement (most
    sentences), read without cutting clauses."""
    for i in range(first, len(tokens)):
        word = tokens[i].word
        if word in _MOODED or is_year(tokens[i]) or held_for(tokens, i) or (
                word in cues.QUESTION_AUX and (
                    i == first or tokens[i - 1].word in cues.CLAUSE_EDGE)) or (
                word in _PHRASE_HEADS and conditional_phrase([t.word for t in tokens[i:i + 3]])):
            return False
    return True


_PHRASE_HEADS = frozenset(phrase[0] for phrase in cues.CONDITIONAL_PHRASES)
_MOODED = cues.ANY_MOOD | {"had", "started", "began", "gone"} | TRIGGERS  # ("had been 30",
# "started with", "days gone by": ``fact_tense``; "until March": ``fact_tense_ended``)


def read_moods(sentence: str, tokens: list[Tok], first: int, role: str) -> Moods:
    """Each clause's mood, and the sentence's: a statement when a value is asserted."""
    stance = stance_marks(sentence, tokens, first)  # (fact_mood_stance) "I hope", "Bob said"
    if _plain(tokens, first) and not may_open(tokens, first) and not stance and \
            not may_propose(tokens, first) and not may_decline(tokens, first) and \
            not may_then(tokens, first):
        return Moods("statement", ())
    moods: list[ClauseMood] = ["statement"] * len(tokens)

    def mark(a: int, b: int, mood: ClauseMood) -> None:
        for i in range(max(a, first), min(b, len(tokens))):
            if moods[i] == "statement" or mood == "past":
                moods[i] = mood

    segments: list[list[Clause]] = []
    for part in clauses(tokens, first):
        if part[2] or not segments:
            segments.append([])
        segments[-1].append(part)
    for segment in segments:
        _segment(sentence, tokens, segment, role, mark)
        for (a, b, _), (c, _d, _) in itertools.pairwise(segment):
            head = next((i for i in range(c, _d) if tokens[i].word[:1].isalnum()), None)
            if head is not None and moods[head] == "tentative" and _adjunct(tokens, a, b):
                mark(a, b, "tentative")  # "(even) with a 45 s timeout, it would fail"
    for x, y, stance_mood in stance:
        mark(x, y, stance_mood)
    then = then_marks(tokens, [c for part in segments for c in part])  # (fact_mood_then)
    for x, y in then:  # "lived in Bristol for years, but now I'm in Glasgow"
        mark(x, y, "past")
    for x, y, host in aside_marks(tokens, first, moods):  # "would rise — from $1 to $2 —"
        mark(x, y, host)
    if "?" in [t.word for t in tokens[-3:]]:  # a question asks about its sentence, or
        mark(asked_from(tokens, first), len(tokens), "question")  # from a comma on
    spans: list[tuple[int, int, ClauseMood]] = []
    for i in range(first, len(tokens)):
        if moods[i] != "statement":
            if spans and i > first and moods[i - 1] == moods[i]:
                spans[-1] = (spans[-1][0], tokens[i].end, moods[i])
            else:
                spans.append((tokens[i].start, tokens[i].end, moods[i]))
    values = [i for i in range(first, len(tokens)) if tokens[i].value]
    known = frozenset(tokens[i].start for i in values) | named_now(sentence, tokens, first)
    if any(moods[i] == "statement" for i in values) or (then and {
            m for m in moods[first:] if m != "statement"} == {"past"}):  # (its clause of now)
        return Moods("statement", tuple(spans), known)
    # with no value found yet, any clause that asserts nothing makes the sentence tentative
    # (a value the grammar finds later in an asserting clause makes it a statement: held)
    marked = [moods[i] for i in range(first, len(tokens))
              if moods[i] != "statement" and tokens[i].word[:1].isalnum()]
    mood = moods[values[0]] if values else opening_mood(marked, moods, tokens, first, sentence)
    said: Mood = "statement" if mood == "statement" else (
        "question" if mood == "question" else "suggestion")
    return Moods(said, tuple(spans), known)
