"""The facts ledger: what the app keeps by code, who stated it, and what replaced what.

Facts come from ``provenance`` on compaction, and at once from a message that may correct one.

- **Supersession is by key.** A correction's value replaces the current values of the same key
  stated before it (the gateway's port), whatever words it uses; a value the correction names as
  old ("port 7443 is no longer used") is replaced too. The replaced value stays visible, beside its
  replacement, never as current; a correction back to it makes it current again
  (``fact_supersession``).
- **Two values that are not a correction of one another are two entries** (no correction's shape,
  no supersession; the older is marked "possibly replaced"), except a ``NAME=value`` setting, which
  a new assignment replaces.
- **The ledger is the user's** (issue 28). It sends what the user stated, typed, edited or pinned,
  and an assistant's value once adopted (the user used it in a later message, pinned its reply, or
  kept it in the panel: ``Fact.users``). An assistant-only value is kept (the panel's "Suggested by
  the assistant", recall) but never sent, never replaces the user's, and goes first when
  ``MAX_FACTS`` is short. Pinned and typed entries are never evicted.
- **Identity is the key** (``fact_grammar``: entity, attribute, unit class), never a shared
  word; a key that is only possibly the same keeps both values, the older marked "possibly
  replaced by X (turn N)". A question or a suggestion replaces nothing.
- **It renders from its entries alone**, in creation order: bytes change only when a fact does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ollm_desktop.engine import fact_patterns
from ollm_desktop.engine.fact_day_names import names_by_day, one_date_by_day
from ollm_desktop.engine.fact_day_times import split_pair
from ollm_desktop.engine.fact_ended_values import ended  # "Sold it.": the one value it ends
from ollm_desktop.engine.fact_key_match import family
from ollm_desktop.engine.fact_keyless import other_changes
from ollm_desktop.engine.fact_known_entries import Known
from ollm_desktop.engine.fact_labelled_numbers import labelled_for
from ollm_desktop.engine.fact_mood_accepted import accepted
from ollm_desktop.engine.fact_named_olds import keyed_by_named_olds, names_an_absent_old
from ollm_desktop.engine.fact_named_only import begins_or_ends, same_value
from ollm_desktop.engine.fact_named_parts import one_part, other_setting, part_named, unstopped
from ollm_desktop.engine.fact_old_subjects import olds_and_echoes
from ollm_desktop.engine.fact_pairing import nearest
from ollm_desktop.engine.fact_restatement import one_port_taken_back, restated, restated_as_is
from ollm_desktop.engine.fact_said_again import live_beside
from ollm_desktop.engine.fact_settings_lists import settings_named
from ollm_desktop.engine.fact_supersession import (
    chain_ends,
    dispute,
    replace_or_dispute,
    replaced_by_later,
    supersede,
    users_stand,
)
from ollm_desktop.engine.fact_topics import topics
from ollm_desktop.engine.fact_types import SENTENCE_KINDS, Fact
from ollm_desktop.engine.fact_unit_alone import timed
from ollm_desktop.engine.fact_value_classes import spelled_number
from ollm_desktop.engine.fact_words import DETERMINERS
from ollm_desktop.engine.facts_extract import extract
from ollm_desktop.engine.models import Message
from ollm_desktop.engine.provenance import Found
from ollm_desktop.engine.references import locate, occurs_in

HEADER = "Facts of this conversation (exact, kept by code; a later value replaces an earlier one):"
USER_SECTION = "Stated by the user:"
MAX_FACTS = 600  # stored; what is sent is bounded by the budget
MAX_REPLACED_SHOWN = 6  # replaced values listed beside their replacement (the newest)


@dataclass
class Absorbed:
    added: int = 0
    replaced: int = 0
    confirmed: int = 0
    disputed: int = 0  # facts whose reply's claim came or went (``disputed_by``)

    @property
    def changed(self) -> bool:
        return bool(self.added or self.replaced or self.confirmed or self.disputed)

    @property
    def shows(self) -> bool:
        """The request must be laid out anew: a value it shows is replaced or disputed."""
        return bool(self.replaced or self.disputed)


def absorb(facts: list[Fact], message: Message, turn: int) -> Absorbed:
    """Fold one message's facts into ``facts`` (in place, idempotent)."""
    result = Absorbed()
    if message.role not in ("user", "assistant"):
        return result
    found = keyed_by_named_olds(extract(message.role, message.content), facts, message.content)
    found = ended(accepted(found, facts, message), facts, message.content, message.role)
    if not found and message.role != "user":
        return result  # nothing stated, nothing used
    claims: dict[str, str] = {f.id: f.disputed_by for f in facts if f.disputed_by is not None}
    if message.role == "user":
        result.confirmed = _confirm(facts, message.content, found)
    if not found:
        if result.confirmed:
            users_stand(facts)
        return _disputes(result, facts, claims)
    known = Known(facts, message.id)
    topic: list[str] = []  # each value's statement's words (read when a value is new)
    sequence = max((f.sequence for f in facts), default=0)
    made: list[tuple[Found, Fact]] = []
    adopted: set[str] = set()  # a reply's value this user message states as its own
    for index, item in enumerate(found):
        if item.old:
            continue
        fact = known.get(item)
        if fact is None:
            topic = topic or topics(message.content, found)
            sequence += 1
            fact = Fact(kind=item.kind, value=item.value, subject=item.subject,
                        ref_kind=item.ref_kind, source=message.role, message_id=message.id,
                        turn=turn, sequence=sequence, from_correction=item.correction,
                        key=item.key, topic=topic[index])
            split_pair(fact, facts)  # "Monday 4pm", then "moved to Wednesday": two values
            facts.append(fact)
            known.add_fact(fact, own=True, item=item)
            result.added += 1
            result.replaced += replaced_by_later(facts, fact)
        elif message.role == "user" and fact.source == "assistant" and not fact.confirmed:
            fact.confirmed = True
            result.confirmed += 1
        if message.role == "user" and fact.source == "assistant":
            adopted.add(fact.id)
        elif message.role == "user" and fact.disputed_by is not None \
                and fact.message_id != message.id and _after_claim(facts, fact, turn):
            fact.disputed_by = None  # the user states it again: the reply's claim is gone
            result.confirmed += 1
        made.append((item, fact))
    for item, fact in made:
        if item.correction and names_an_absent_old(item, found, facts):
            continue  # "X, not Y" with Y not read yet: it meets Y when Y is read
        if item.correction or item.kind == "setting":
            beside = {f.id for i, f in made if i.sentence == item.sentence and f is not fact
                      and (f.message_id == message.id or restated_as_is(i.key, f.key, item))}
            beside |= other_changes(item, fact, made, found)  # "… at 4pm. The 7pm one, 8pm"
            result.replaced += supersede(facts, fact, item, beside=beside, said=message.content)
            one_port_taken_back(fact, facts, beside)  # "3000 should be 5000"
        elif fact.message_id == message.id or fact.id in adopted:
            # (a value a reply named first, "not in room X any more", is the user's now:
            # what the user said of its key before is possibly replaced by it)
            live = live_beside(made, item, fact, facts, message.content, message.id)  # "map
            # port 5000 to 2000", no change: both hold; "box 17 freezer B": freezer B holds
            result.replaced += restated(facts, fact, single=item.single, live=live,
                                        when=timed(message.content, item.sentence, fact.value))
    for item in (i for i in found if i.old):
        near = [(i, f) for i, f in made if i.sentence == item.sentence]
        # a value of its own kind (the nearest time before a date: "the Sunday game moves from
        # 4:15pm to 4:25pm"), else any value (a version for a name: "Postgres 16
        # instead of MySQL"), else the user's own sentence ("Not Paul but Greta reviews
        # this one": a name it holds the finder missed), never a reply's sentence nor a
        # question ("... a confound we did not control" is no correction of "control")
        text = message.content  # (fact_pairing: the nearest in its own conjunct first)
        replacement = nearest(item, found, [(i, f) for i, f in near if item.ref_kind in (
            "time", "date") and i.ref_kind == item.ref_kind], text) or \
            nearest(item, found, [(i, f) for i, f in near if family(i) == family(item) and
                                  not other_setting(item, i)], text) or \
            nearest(item, found, [(i, f) for i, f in near
                                  if family(i) not in ("sentence", "question")], text) or \
            next((f for i, f in near if message.role == "user" and family(i) == "sentence"),
                 None)
        if replacement is None:
            continue
        # what was stated up to this message (a later return to this value is not undone);
        # a bare name replaces every value it begins ("instead of MySQL": "MySQL 8.0" too)
        olds = [f for f in facts if (f.turn or 0) <= turn and f is not replacement and (
            (f.value in (item.value, unstopped(item.value)) and family(f) == family(item))
            or _names(item, f, replacement))]
        olds = one_date_by_day(unstopped(item.value), olds)  # "not the 20th": which one?
        olds = one_part(settings_named(olds, replacement.key), item.value, item.ref_kind,
                        replacement)  # "alpha is 32 not 16": not rank 16; "gym from 6pm"
        if not olds and item.guessed:  # a name said to have failed ("Steve quit") that
            continue  # the user never stated: no old value of this key
        if not olds:  # stated earlier but not taken yet: it is replaced when it is
            sequence += 1
            olds = [Fact(kind=item.kind, value=item.value, subject=item.subject,
                         ref_kind=item.ref_kind, source=message.role, message_id=message.id,
                         turn=turn, sequence=sequence, status="current", key=item.key)]
            facts.append(olds[0])
        elif replacement.ref_kind in ("name", "class") and replacement.message_id == message.id:
            keyed = next((f for f in olds if f.key and f.ref_kind != "name"), olds[0])
            replacement.key, replacement.subject = keyed.key, keyed.subject  # its key now
        for old in olds:  # named as old: this correction replaces it (over a guess by subject)
            if old.status != "forgotten" and old is not replacement \
                    and old.replaced_by != replacement.id:
                result.replaced += replace_or_dispute(replacement, old, facts, named=True)
    result.replaced += olds_and_echoes(facts, message.id, message.content, turn)
    if result.confirmed:
        users_stand(facts)
    evict(facts)
    return _disputes(result, facts, claims)


def _names(item: Found, fact: Fact, replacement: Fact) -> bool:
    """A bare name or number (``item``, the old value of ``replacement``) names ``fact``'s
    value ("instead of MySQL": "MySQL 8.0"; "from 3 to 5": "3 replicas")."""
    said, value = unstopped(item.value).lower(), fact.value.lower()
    if fact.kind == "decision" and item.ref_kind == "name":  # "we chose Firebase 10 for
        return occurs_in(item.value, fact.value)  # auth": the decision named the old value
    numeral = any(c.isdigit() for c in said) or spelled_number(said)  # ("ninety")
    return fact.kind not in SENTENCE_KINDS and fact.kind != "question" and (
        same_value(value, said) or names_by_day(said, fact, replacement)  # "not the 20th":
        or (item.ref_kind in ("name", "class") and  # "2027-01-20"; "Malpensa" of "Milan
            begins_or_ends(value, said))  # Malpensa"
        or (numeral and value.startswith(said + " "))  # "3" of "3 jobs", "1.5%" of "1.5% per
        or (numeral and "." in said and value.endswith(" " + said))  # month"; "PostgreSQL 14.9"
        or part_named(said, value, item.ref_kind, replacement.key)  # "Thursdays at 4:30"
        or (numeral and value.endswith(" " + said) and  # "16" of "accumulation 16" (the
            labelled_for(fact.value, fact.key, replacement.key)))  # label its key names)


def _disputes(result: Absorbed, facts: list[Fact], claims: dict[str, str]) -> Absorbed:
    """``result`` with the facts whose claim changed since ``claims`` was taken counted."""
    now: dict[str, str] = {f.id: f.disputed_by for f in facts if f.disputed_by is not None}
    result.disputed = len({i for i in now.keys() | claims.keys() if now.get(i) != claims.get(i)})
    return result


def _after_claim(facts: list[Fact], fact: Fact, turn: int) -> bool:
    claim = next((f for f in facts if f.id == fact.disputed_by), None)
    return claim is None or (claim.turn or 0) < turn


# (the user's, replaced) -> the order of eviction
_EVICTION_RANK = {(False, False): 0, (False, True): 1, (True, True): 2, (True, False): 3}


def evict(facts: list[Fact]) -> None:
    """Over ``MAX_FACTS``: the assistant's current entries go first, then its replaced ones,
    then the user's replaced ones, then the user's (oldest first); pinned, typed, edited and
    forgotten ones never (a forgotten value stays masked). A replaced value is what marks
    its old quotes "replaced by X" (kept turns, recall): a reply's invented values, hundreds
    in a long chat, never push it out."""
    excess = len(facts) - MAX_FACTS
    if excess <= 0:
        return
    order = sorted((_EVICTION_RANK[f.users, f.status == "replaced"], i)
                   for i, f in enumerate(facts) if not (f.pinned or f.source == "manual"
                                                        or f.edited or f.status == "forgotten"))
    gone = {i for _, i in order[:excess]}
    facts[:] = [f for i, f in enumerate(facts) if i not in gone]


def _confirm(facts: list[Fact], content: str, found: list[Found]) -> int:
    """The user used a reply's value: it is theirs now (not one they ask of, weigh or pass on)."""
    count, held = 0, {f.value for f in found if f.kind == "question"}  # ("maybe 20 mg")
    for fact in facts:
        if fact.source == "assistant" and not fact.confirmed and fact.value in content and \
                fact.value not in held and fact.kind not in (*SENTENCE_KINDS, "question") and \
                len(fact.value) >= 3 and _used_as_value(fact.value, content):
            fact.confirmed = True
            count += 1
    return count


def _used_as_value(value: str, content: str) -> bool:
    """The user names ``value`` as a value, not as a word of their own sentence: a lower-case
    word ("read", "server") is English anyone writes, and an acronym after a determiner ("the
    CLI", "the API") is a common noun. Either adopted a reply's misread value by mere mention."""
    at = locate(value, content)
    if at < 0 or re.fullmatch(r"[a-z]+", value):
        return False
    if re.fullmatch(r"[A-Z]{2,5}s?", value):
        before = content[:at].split()
        return not (before and before[-1].lower() in DETERMINERS)
    return True


# ------------------------------------------------------------------ what others show
def value_notes(facts: Iterable[Fact]) -> dict[str, str | None]:
    """Text to mark wherever an old value is quoted outside the recent turns: a replaced
    value -> its note (with the current value), an edited one -> the user's value, a
    forgotten one -> None (masked). A value that is current again (the user went back to it)
    is not marked."""
    by_id = {f.id: f for f in facts}
    disputed = {f.id: note for f in by_id.values()
                if (note := dispute_note(by_id, f)) is not None}
    live = {f.value for f in by_id.values() if f.status == "current" and f.id not in disputed}
    notes: dict[str, str | None] = {}
    ends = chain_ends(by_id)
    for fact in by_id.values():
        if fact.kind in SENTENCE_KINDS or len(fact.value) < 2 or fact.value in live:
            continue
        if fact.id in disputed:
            notes[fact.value] = disputed[fact.id]
            continue
        if fact.status == "forgotten":
            notes[fact.value] = None
        elif fact.status == "replaced" and fact.replaced_by in by_id:
            current = ends[fact.id]
            direct = by_id[fact.replaced_by]
            if current is not None and current.status != "forgotten":
                notes[fact.value] = f"replaced by {current.value}" if direct is current else \
                    f"replaced by {direct.value}, now {current.value}"
        if fact.edited and fact.original and fact.original != fact.value:
            notes.setdefault(fact.original, f"the user corrected this to {fact.value}")
    for value, note in list(notes.items()):  # "48 hours" marks "a 48-hour window" too
        for form in quantity_forms(value):
            if form not in live:
                notes.setdefault(form, note)
    return notes


_QUANTITY = re.compile(r"(\d[\d.,]*)([ -])([^\W\d_]+)")


def quantity_forms(value: str) -> list[str]:
    """The other ways a quantity is written: counted after a space ("48 hours") or as a
    compound before its noun, with a hyphen and the unit in the singular ("a 48-hour
    window"). An abbreviation (GB, ms) has no plural."""
    match = _QUANTITY.fullmatch(value) if value[:1].isdigit() else None
    if match is None:
        return []
    number, joint, unit = match.groups()
    plural = len(unit) > 3 and unit.endswith("s")
    single = unit[:-1] if plural else unit
    if joint == " ":
        forms = [f"{number}-{single}", f"{number} {single}"]
    else:
        counted = unit.islower() and len(unit) >= 3 and not plural  # "5-day": "5 days"
        forms = [f"{number} {unit}s" if counted else f"{number} {unit}", f"{number} {single}"]
    return [form for form in dict.fromkeys(forms) if form != value]


def dispute_note(by_id: dict[str, Fact], fact: Fact) -> str | None:
    """The claim of a reply's correction beside the user's value it may not replace."""
    found = dispute(by_id, fact)
    if found is None:
        return None
    claim, head = found
    now = "" if head is claim else f", now {head.value}"
    said = claim.value if claim.kind not in SENTENCE_KINDS else head.value
    return f"a reply said replaced by {said}{now}; unconfirmed"


def annotate(text: str, notes: dict[str, str | None]) -> str:
    """``text`` with every bounded occurrence of an old value marked (or masked), in one pass
    over the original text: a value named inside a note (its replacement's chain) or inside a
    mark already there is left as it is."""
    if not notes or not text:
        return text
    found: list[tuple[int, int, str]] = []
    for old in sorted(notes, key=len, reverse=True):
        start = 0
        while (at := locate(old, text[start:])) >= 0:
            at += start
            start = at + len(old)
            found.append((at, start, old))
    marked = [(end, end + len(f" ({notes[old]})")) for _, end, old in found
              if notes[old] is not None and text.startswith(f" ({notes[old]})", end)]
    spans: list[tuple[int, int, str]] = []
    for at, end, old in found:
        if not any(a < end and at < b for a, b in marked) and \
                not any(a < end and at < b for a, b, _ in spans):
            spans.append((at, end, old))
    out, position = [], 0
    for at, end, old in sorted(spans):
        note = notes[old]
        out.append(text[position:at])
        if note is None:
            out.append("[forgotten]")
        elif text.startswith(f" ({note})", end):
            out.append(old)  # already marked
        else:
            out.append(f"{old} ({note})")
        position = end
    return "".join(out) + text[position:]


@dataclass(frozen=True, slots=True)
class Correction:
    """A correction stated as a sentence (no value of its own to mark): what it is about."""

    words: frozenset[str]
    turn: int
    sentence: str


_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])(\s+)")


def _content_words(text: str) -> frozenset[str]:
    return frozenset(w.lower() for w in fact_patterns.WORD.findall(text)
                     if len(w) > 2 and w.lower() not in fact_patterns.STOP)


def corrections(facts: Iterable[Fact]) -> list[Correction]:
    """Every correction sentence (replaced ones too: each is the direct correction of what
    came before it), in turn order."""
    found = [Correction(_content_words(f.value), f.turn or 0, f.value) for f in facts
             if f.kind == "correction" and f.status != "forgotten"]
    return sorted(found, key=lambda c: c.turn)


def mark_corrected(text: str, found: Sequence[Correction], turn: int) -> str:
    """Sentences of ``text`` (stated at ``turn``) that a later correction is about, with that
    correction beside them ("the meeting is in room A" -> "... (later corrected: ...)")."""
    if not found or not text:
        return text
    parts = _SENTENCE_SPLIT.split(text)
    for index in range(0, len(parts), 2):
        sentence = parts[index]
        words = _content_words(sentence)
        if len(words) < 2:
            continue
        later = [c for c in found if c.turn > turn and c.sentence not in sentence
                 and len(words & c.words) >= 2 and len(words & c.words) * 2 >= len(words)]
        if later:  # the direct correction, and the newest one when it changed again
            note = f"later corrected: {later[0].sentence}"
            if len(later) > 1:
                note += f"; most recently: {later[-1].sentence}"
            end = len(sentence.rstrip(".!?")) if sentence.rstrip()[-1:] in ".!?" else \
                len(sentence)  # inside the sentence: it goes wherever the sentence goes
            parts[index] = f"{sentence[:end]} ({note}){sentence[end:]}"
    return "".join(parts)
