"""A user's statement that names a value the user gave before, beside a new value of the
same written shape: the new value possibly replaces the old one.

The grammar reads a change by its structure ("X, not Y", "from Y to X", "K is now X"). People
also write changes the grammar has no structure for: "Port 8443 is out, we are on 9443",
"Replace 8443 with 9443 in the config", "8443 was wrong, use 9443". What these share is not a
cue word but two facts any reader sees: the sentence names a value the user stated earlier
(the ledger holds it as current), and it names one new value written the same way (digits
where it has digits, its unit, its separators). Measured on the corrections corpus
(stop 40): of the held-out halves' failed corrections, about four in ten named the replaced
value in the correcting message and still left it current.

So where the grammar changed nothing, that new value takes the earlier value's key and the
earlier value is marked "possibly replaced" by it (never replaced silently: the issue's rule
for a key that is likely but not certain). It stays out of the way of every other reading:
- the sentence asserts (``fact_mood``: no question, condition, suggestion or report);
- exactly one earlier value is named and exactly one new value of its shape;
- the new value is no value of another key (the ledger's, or the grammar's reading of this
  sentence: "the API stays on 8443, the admin UI moves to 9443"), nor one the grammar reads
  as taken back or asked about ("24 is too many, so we keep 16");
- the two stand in clauses of their own or as the objects of a verb of replacing, not joined
  as a list or range ("8443 and 9443", "8443-9443"), not linked in one clause ("8443 forwards
  to 9443"), not in parallel ("March 3 is a Sunday, March 4 a Monday"), not negated, not
  after a condition or a time ("When 8443 is busy, ...");
- the grammar does not read the earlier value again as a value of a named owner;
- the earlier value is the user's, current, and nothing replaced or marked it yet.
Reads only the message's own sentences, once, when the message is absorbed.

Known misreading (the stop-40 review: 231 probe chats, 11 marked right, 5 wrongly): a clause
that keeps or rates the old value beside another person's or plan's new one ("3pm works,
I'll be done by 4pm", "94110 is where I live, I work in 94105") is marked too; nothing in
the structure tells it from "3pm got bumped, it's 4pm". It stays a mark, never a replacement.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ollm_desktop.engine.fact_dotted_initials import sentences
from ollm_desktop.engine.fact_leads import strip_lead
from ollm_desktop.engine.fact_mood import read_moods
from ollm_desktop.engine.fact_supersession import mark_possible
from ollm_desktop.engine.fact_types import SENTENCE_KINDS, Fact
from ollm_desktop.engine.fact_value_forms import value_form
from ollm_desktop.engine.fact_words import tokens_of
from ollm_desktop.engine.models import Message
from ollm_desktop.engine.provenance import Found

# what may stand between two values that a sentence states together (a list, a range, a
# choice, a mapping): then neither takes the other back
_JOINED = re.compile(r"^(?:,|and|or|&|/|-|–|—|to|vs\.?|versus|and/or|through|thru|until|"
                     r"till|x|by|\+|plus)$")
# a clause break between two values: each has a clause of its own
_CLAUSE_BREAK = re.compile(r"[,;:–—]|\s-\s|\b(?:so|but|and now|now)\b", re.IGNORECASE)
# the new value opening its own clause, parallel to the old value's ("…, March 4 is …")
_HEADS_CLAUSE = re.compile(r"(?:[,;:]|\bthen\b|\band\b)\s*(?:the\s+|a\s+|an\s+)?$",
                           re.IGNORECASE)
_REPLACING = re.compile(r"\b(?:replac|swap|switch|chang)\w*", re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:not|never|no)\b|n't", re.IGNORECASE)
_OPENS_CONDITION = re.compile(r"\s*(?:when|whenever|while|if|unless|once|until|before|after)\b",
                              re.IGNORECASE)
_MAX_VALUE = 24  # longer values are sentences or links, never retyped as another


@lru_cache(maxsize=512)
def _shape(value: str) -> re.Pattern[str] | None:
    """How a value is written, with any digits: "8443" -> digits; "9:15am" -> digits:digits
    am; "$5,000" -> $digits,digits. None for a value without digits (names: no shape)."""
    value = value.strip().rstrip(".")
    if not any(c.isdigit() for c in value) or len(value) > _MAX_VALUE or "/" in value:
        return None
    parts = []
    for piece in re.findall(r"\d+|\s+|.", value):
        parts.append(r"\d+" if piece.isdigit() else r"\s*" if piece.isspace()
                     else re.escape(piece))
    return re.compile(r"(?<![\w.:/$€£-])" + "".join(parts) + r"(?![\w]|[.,:/-]\d)",
                      re.IGNORECASE)


def _earlier(facts: Sequence[Fact], message_id: str | None, turn: int) -> list[Fact]:
    """The user's current values stated in an earlier exchange (a message read again, as a
    compaction does, never meets the values stated after it)."""
    return [f for f in facts if f.status == "current" and f.users and not f.pinned
            and (f.turn or 0) < turn
            and f.source != "manual" and not f.edited and f.message_id != message_id
            and f.possibly_replaced_by is None and f.kind not in SENTENCE_KINDS
            and f.kind != "question" and len(f.key.split("|")) == 3]


def _asserted(sentence: str, spans: Sequence[tuple[int, int]]) -> bool:
    values = [(a, b, sentence[a:b], "number") for a, b in sorted(spans)]
    tokens = tokens_of(sentence, values)
    first, _ = strip_lead(tokens)
    moods = read_moods(sentence, tokens, first, "user")
    return moods.mood == "statement" and all(moods.mood_at(a) == "statement" for a, _ in spans)


def _spoken_for(form: str, fact: Fact, facts: Sequence[Fact], found: Sequence[Found]) -> bool:
    """The new value is a value of another key (the ledger holds it so, or the grammar read
    it in this message with an owner or attribute of its own, or it names another value's
    key: "9443 is for Grafana"), or the grammar read it as taken back or only asked about:
    it is no new value of ``fact``'s key."""
    owner, attribute = fact.key.split("|")[:2]

    def another(key: str) -> bool:  # another attribute, or another named owner
        parts = key.split("|")
        return len(parts) == 3 and bool(parts[0] or parts[1]) and (
            parts[1] != attribute or bool(parts[0] and owner and parts[0] != owner))

    if any(other.status == "current" and other.key != fact.key and other.kind not in
           SENTENCE_KINDS and value_form(other.value) == form and another(other.key)
           for other in facts):
        return True
    for item in found:
        if not item.old and item.subject and form in value_form(item.subject).split():
            return True
        if value_form(item.value) != form:
            continue
        if item.old or item.kind == "question" or another(item.key):
            return True  # "24 is too many, so we keep 16": taken back, not a new value
    return False


def _owned_again(fact: Fact, found: Sequence[Found]) -> bool:
    """The grammar reads the earlier value in this message as a current value of a named
    owner ("the API stays on 8443 and ..."): the message states it again, it does not take
    it back."""
    form = value_form(fact.value.rstrip("."))
    return any(not item.old and item.key.split("|")[0] and value_form(item.value) == form
               for item in found)


def swapped(facts: list[Fact], found: Sequence[Found], message: Message, turn: int) -> int:
    """Mark each earlier value a sentence of this user message swaps for a new value of its
    shape "possibly replaced" (see the module's docstring). Returns how many it marked."""
    message_id, content = message.id, message.content
    earlier = _earlier(facts, message_id, turn) if message.role == "user" else []
    if not earlier:
        return 0
    marked = 0
    for sentence in sentences(content):
        if sentence.rstrip().endswith("?"):
            continue
        named: list[tuple[Fact, tuple[int, int]]] = []
        new: dict[str, tuple[str, tuple[int, int]]] = {}
        for fact in earlier:
            shape = _shape(fact.value)
            if shape is None:
                continue
            form = value_form(fact.value.rstrip("."))
            for match in shape.finditer(sentence):
                said = value_form(match.group(0))
                if said == form:
                    named.append((fact, match.span()))
                else:
                    new.setdefault(said, (match.group(0), match.span()))
        if len({id(f) for f, _ in named}) != 1 or not named:
            continue
        fact, at = named[0]
        shape = _shape(fact.value)
        olds = {value_form(f.value) for f in facts if f.message_id != message_id}
        fresh = {k: v for k, v in new.items() if shape is not None and shape.fullmatch(v[0])
                 and k not in olds}
        if len(fresh) != 1:
            continue
        form, (text, span) = next(iter(fresh.items()))
        if not _two_clauses(sentence, fact.value, at, text, span, found) \
                or _spoken_for(form, fact, facts, found) or _owned_again(fact, found) \
                or not _asserted(sentence, [at, span]):
            continue
        marked += _take(facts, fact, text, message_id, turn)
    return marked


def _two_clauses(sentence: str, old: str, at: tuple[int, int], text: str,
                 span: tuple[int, int], found: Sequence[Found]) -> bool:
    """The earlier value and the new one stand as a change does: in clauses of their own,
    the new one not heading a clause parallel to the old one's ("March 3 is a Sunday, March 4
    a Monday"), or as the objects of a verb of replacing ("Replace 8443 with 9443"), not
    negated. One clause that links them is a relation, no change ("8443 forwards to 9443",
    "8443 served 9443 requests"); a number that counts a noun is another quantity ("8443 runs
    in 3 containers"); a sentence opened by a condition or a time ("When 8443 is busy, ...")
    tells when, not what holds."""
    gap = sentence[min(at[1], span[1]):max(at[0], span[0])]
    if _JOINED.match(gap.strip().lower()) or _OPENS_CONDITION.match(sentence):
        return False
    if text.isdigit() and len(text) != len(old.strip().rstrip(".")):
        return False  # "3" beside "8443": a count, not a port retyped
    if any(not item.old and item.value != text and item.value.startswith(text + " ")
           for item in found):
        return False  # read as part of a longer value of its own ("3 containers")
    if span[0] > at[0] and _HEADS_CLAUSE.search(sentence[at[1]:span[0]]):
        return False
    if _REPLACING.search(sentence):
        return not _NEGATED.search(sentence)
    return _CLAUSE_BREAK.search(gap) is not None


def _take(facts: list[Fact], old: Fact, text: str, message_id: str | None, turn: int) -> int:
    """The new value as a value of ``old``'s key (this message's reading of it, else a new
    entry), and ``old`` possibly replaced by it."""
    form = value_form(text)
    new = next((f for f in facts if f.message_id == message_id and f.status == "current"
                and value_form(f.value) == form and f.kind not in SENTENCE_KINDS), None)
    if new is None:
        new = Fact(kind=old.kind, value=text, subject=old.subject, ref_kind=old.ref_kind,
                   source="user", message_id=message_id, turn=turn,
                   sequence=max((f.sequence for f in facts), default=0) + 1, key=old.key,
                   topic=old.topic)
        facts.append(new)
    elif any(f.possibly_replaced_by == new.id or f.replaced_by == new.id for f in facts):
        return 0  # this message's value already took something back: the grammar's reading
    else:
        new.key, new.subject = old.key, old.subject
    mark_possible(new, [old])
    if old.possibly_replaced_by != new.id:
        return 0
    # the same words read before as a correction's text or a name of their own ("8443 was
    # wrong, use 9443." kept as its sentence, "Replace 8443" as a name) say it again: the
    # reading that names both values and the key is kept (a decision or a note stays; the
    # message itself is kept whole)
    facts[:] = [f for f in facts if f.message_id != message_id or f is new
                or old.value not in f.value or not (f.ref_kind == "name" or (
                    f.kind == "correction" and text in f.value))]
    return 1
