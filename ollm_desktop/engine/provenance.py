"""Who stated what, and where: the facts of one message, found by code.

Each fact records its source (the user, the assistant), the message id and the turn, so that
what the user stated outranks what a small model made up. Found per sentence:

- identifiers and numbers with units (``references``), plus ``NAME=value`` settings with their
  value and bare numbers after "is" ("the port is 8443");
- names the user defines ("let's call the staging server bluefin");
- decisions ("we decided", "let's go with", "switch to") and corrections ("actually", "not X
  but Y", "moved to", "is superseded") without a value of their own, as their sentence.

In a correction, a value marked as the old one ("port 7443 is no longer used", "instead of
v2.1") is returned as ``old``: what the sentence replaces, no fact itself. Pure, no model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ollm_desktop.engine import fact_grammar, fact_new_roles, fact_refused_after, fact_shouted
from ollm_desktop.engine import fact_patterns as P
from ollm_desktop.engine.fact_change_olds import moved_olds, restated_subject_olds
from ollm_desktop.engine.fact_clause_openings import names_which_at
from ollm_desktop.engine.fact_designators import coded
from ollm_desktop.engine.fact_lead_sentences import leads_on
from ollm_desktop.engine.fact_message_lines import MAX_FACT_TEXT, proposal_lines, said_sentences
from ollm_desktop.engine.fact_quoted_errata import errata
from ollm_desktop.engine.fact_rate_tails import rated
from ollm_desktop.engine.fact_sibling_marks import marked_owner
from ollm_desktop.engine.fact_span_olds import span_olds
from ollm_desktop.engine.fact_types import FactKind, join_key
from ollm_desktop.engine.fact_version_owners import version_owners
from ollm_desktop.engine.fact_words import DETERMINERS
from ollm_desktop.engine.fact_written_errata import bare_errata
from ollm_desktop.engine.references import find_references

NUMBER_KINDS = frozenset({"number", "date", "time"})


@dataclass(frozen=True, slots=True)
class Found:
    """One fact of a sentence, before it becomes a ledger entry."""

    kind: FactKind
    value: str
    subject: str
    ref_kind: str  # the finder's kind, or the sentence kind for sentences
    correction: bool  # its sentence corrects something
    old: bool = False  # in a correction: the value being replaced (not a fact itself)
    sentence: int = 0  # which sentence of the message it came from
    key: str = ""  # entity|attribute|unit class (``fact_grammar``); "" for sentences
    single: bool = False  # stated as the one value of a definite key ("the K is X")
    guessed: bool = False  # an old value read from why it failed ("Steve quit"): if stated


def _values(sentence: str) -> list[tuple[int, int, str, str]]:
    """(start, end, value, ref kind) of the sentence's values, in order, settings first-class."""
    found: list[tuple[int, int, str, str]] = []
    taken: list[tuple[int, int]] = []
    for match in P.SETTING.finditer(sentence):
        value = match.group(0).rstrip(".,:;!?)")  # the sentence's end is not the value's
        found.append((match.start(), match.start() + len(value), value, "setting"))
        taken.append((match.start(), match.start() + len(value)))
    for match in P.ADDRESS.finditer(sentence):  # (its house number is no count of its own)
        if P.ADDRESS_OWNER.search(sentence[:match.start()]) and \
                P.ADDRESS_VERB.match(sentence, match.end()):
            continue
        found.append((match.start(), match.end(), match.group(0), "address"))
        taken.append(match.span())
    found += coded(sentence, taken)  # "from B12 to C4", "Courtroom 4A": before the references
    cursor, settings = 0, len(found)
    for ref, kind in find_references(sentence):
        start = _find_whole(sentence, ref.rstrip("()") if ref.endswith("()") else ref, cursor)
        if start < 0:
            start = _find_whole(sentence, ref.rstrip("()"), 0)
        if start < 0:
            continue
        end = start + len(ref)
        cursor = start
        if any(a <= start < b or a < end <= b for a, b in taken):
            continue  # the NAME of a NAME=value
        found.append((start, end, ref, kind))
        taken.append((start, end))
    for _, end, ref, kind in found[settings:]:  # (after every reference has its first place: "2
        again = _find_whole(sentence, ref, end)  # cups" again inside "1 1/2 cups" is none)
        while again >= 0 and not ref.endswith("()"):  # a reference is listed once; each place
            if not any(a <= again < b or a < again + len(ref) <= b for a, b in taken):  # it is
                found.append((again, again + len(ref), ref, kind))  # said is a value ("prefers
                taken.append((again, again + len(ref)))  # November 21 instead, so … is")
            again = _find_whole(sentence, ref, again + len(ref))
    found = rated(sentence, [_period(sentence, value) for value in found])  # "5:20 per km"
    for match in P.RATIO.finditer(sentence):
        if not any(a <= match.start() < b for a, b in taken):
            found.append((match.start(), match.end(), match.group(0), "ratio"))
            taken.append(match.span())
    for match in P.BARE_VALUE.finditer(sentence):
        start, end = match.span(1)
        if not any(a <= start < b for a, b in taken):
            port = P.subject_words(sentence[:start]).endswith("port")
            found.append((start, end, match.group(1), "port" if port else "number"))
            taken.append((start, end))
    return sorted(found)


def _period(sentence: str, value: tuple[int, int, str, str]) -> tuple[int, int, str, str]:
    """A duration after "every" is a period, the value with its "every" ("the retro is every
    2 weeks": a cadence, not a length of time)."""
    start, end, text, kind = value
    if kind == "number" and sentence[max(0, start - 6):start].lower() == "every " and \
            P.DURATION_TEXT.fullmatch(text):
        return start - 6, end, sentence[start - 6:end], kind
    return value


def _find_whole(sentence: str, ref: str, at: int) -> int:
    """Where ``ref`` is said from ``at`` on as a whole, not inside a longer word or number
    ("5 seconds" is no place in "15 seconds", "8080" none in "18080" or "8080.5"), or -1."""
    start = sentence.find(ref, at)
    while start >= 0:
        end = start + len(ref)
        before = sentence[start - 1] if start > 0 else " "
        after = sentence[end:end + 2]
        inside = (ref[:1].isalnum() and (before.isalnum() or before in "_" or (
            before in ".,-" and start > 1 and sentence[start - 2].isdigit()))) or (
            ref[-1:].isalnum() and after[:1].isalnum()) or (
            ref[-1:].isdigit() and after[:1] in ".," and after[1:2].isdigit())
        if not inside:
            return start
        start = sentence.find(ref, start + 1)
    return -1


def _blank(sentence: str, values: list[tuple[int, int, str, str]]) -> str:
    """The sentence with its values blanked out (they are no subject words)."""
    chars = list(sentence)
    for start, end, _, _ in values:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _kind(ref_kind: str) -> FactKind:
    if ref_kind == "setting":
        return "setting"
    if ref_kind in ("name", "address"):
        return "name"
    return "number" if ref_kind in NUMBER_KINDS else "identifier"


# "on Tuesdays"; "monday" (chat is often in lower case)
WEEKDAY = re.compile(r"\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?\b", re.IGNORECASE)


def _key(slot: fact_grammar.Slot) -> str:
    if slot.ref_kind == "setting":
        return f"|{slot.value.split('=', 1)[0].lower()}|setting"
    return slot.key


SUBJECT_WORDS = 3


def sentence_facts(sentence: str, role: str = "user", *, led: bool = False) -> list[Found]:
    """The facts of one sentence, read by ``fact_grammar``: a question or a suggestion gives
    open questions only (it replaces nothing), a correction marks the values it replaces."""
    values = _values(sentence)
    taken = [(a, b) for a, b, _, _ in values]
    values += [(m.start(), m.end(), m.group(0), "date") for m in WEEKDAY.finditer(sentence)
               if not any(a <= m.start() < b for a, b in taken)]
    reading = fact_grammar.read(sentence, values, role, led=led)
    correction = reading.correction
    out: list[Found] = []
    for slot in reading.slots:
        # the ledger's label: the key's words in the clause, at most three (its identity
        # keeps a topic phrase's owner too; a long label costs the ledger room at 2K)
        words = slot.label or " ".join(w for w in (slot.entity, slot.attribute) if w)
        subject = (slot.value.split("=", 1)[0].lower() if slot.ref_kind == "setting"
                   else " ".join(marked_owner(words.split(), SUBJECT_WORDS)))
        ref_kind = "port" if slot.unit == "port" and slot.value.isdigit() else slot.ref_kind
        kind: FactKind = _kind(ref_kind) if reading.mood == "statement" else "question"
        out.append(Found(kind, slot.value, subject, ref_kind, correction,
                         slot.old and correction, key=_key(slot), single=slot.single))
    if reading.mood != "statement":
        return [f for f in out if not f.old]
    out = version_owners(sentence, out)  # "the version of Python": Python's, no value
    framed = span_olds(sentence, [(s.start, s.end, s.ref_kind, s.unit) for s in reading.slots])
    if framed:  # "fix 6GB RAM to 16GB RAM", "$15 to $30 — 100% increase" (fact_span_olds)
        correction = True
        out = [replace(f, correction=True, old=f.old or k in framed) for k, f in enumerate(out)]
    if correction:  # "the launch on March 3 has been moved to March 10": March 3 is old
        spans = [(slot.start, slot.end, slot.ref_kind) for slot in reading.slots]
        olds = moved_olds(sentence, spans) or (  # "the planned 3pm departure will instead
            set() if any(f.old for f in out) else restated_subject_olds(sentence, spans))
        # (leave at 4pm": 3pm is old too, where the sentence names no old value of its own;
        # "Registration for the May 3 race has been moved": May 3 says which race, no old)
        olds = {k for k in olds if not names_which_at(sentence, *spans[k][:2])}
        out = [replace(f, old=True) if k in olds else f for k, f in enumerate(out)]
    if role == "user":
        out = _new_holder(sentence, reading, out)
    plain = _blank(sentence, values)
    decided = P.DECISION.search(sentence)
    decision = bool(decided)
    # the name a decision's verb takes ("we picked Redis for the queue") is the decision's
    # own object: the decision is the clause, as before such objects were values
    chosen = {slot.value for slot in reading.slots if decided is not None and
              slot.ref_kind == "name" and not sentence[decided.end():slot.start].strip(
                  " ").lower().removeprefix("the ").strip()}
    keyed = [f for f in out if f.key.split("|")[1:2] not in ([""], ["use"], [])
             and f.value not in chosen]
    if decision and not correction and keyed:  # the decision is its values, with their keys
        return [_decided(sentence, slot, found) if found in keyed else found
                for slot, found in zip(reading.slots, out, strict=True)]
    if decision and not correction:  # the decision is the clause, not a name inside it
        clipped = P.clip_words(sentence)
        kept = [f for f in out if f.kind == "setting" or f.value not in clipped]
        return [Found("decision", clipped, P.subject_words(plain), "decision", False), *kept]
    if correction and not any(not f.old for f in out):
        out.append(Found("correction", P.clip_words(sentence), P.subject_words(plain),
                         "correction", correction))
    return out


def _new_holder(sentence: str, reading: fact_grammar.Reading, out: list[Found],
                ) -> list[Found]:
    """"Newark Showground will be the new venue for The Big Weekend 2024": the subject is the
    value of the predicate's key, and it takes the key over (a correction of it,
    ``fact_new_roles``); a value inside the predicate is the key's words, no value."""
    slots = reading.slots
    role = fact_new_roles.new_role(sentence, [(slot.start, slot.end) for slot in slots],
                                   reading.unasserted)
    if role is None:
        return out
    kept: list[Found] = []
    holder: Found | None = None
    for slot, found in zip(slots, out, strict=True):
        if slot.start == role.start:
            holder = found
            continue
        if role.start <= slot.start < role.phrase_end:
            continue  # "The Big Weekend 2024" names the key's owner
        kept.append(found)
    if not role.takes_over and holder is not None and holder.ref_kind != "name":
        return out  # "Thursday is the darts league", "48 MB is your build size": a day or
    # an amount as the subject says when or how much, no one holding a role
    value = holder.value if holder is not None else sentence[role.start:role.end]
    ref_kind = holder.ref_kind if holder is not None else "name"
    unit = holder.key.split("|")[-1] if holder is not None and holder.key.count("|") == 2 \
        else "name"
    kind: FactKind = holder.kind if holder is not None else "name"
    key = join_key(role.entity, role.attribute, unit)
    subject = " ".join(f"{role.entity} {role.attribute}".split()[-SUBJECT_WORDS:])
    corrects = role.takes_over or any(f.correction for f in out)  # ("actually X is the K")
    made = [Found(kind, value, subject, ref_kind, corrects, key=key, single=True), *kept]
    if role.old is not None:  # "Jane Doe replaces Bob Smith as treasurer": Bob Smith's gone
        made = [f for f in made if f.value != sentence[role.old[0]:role.old[1]]]
        made.append(Found(kind, sentence[role.old[0]:role.old[1]], subject, ref_kind, True,
                          old=True, key=key))
    return made


_DECIDED_START = re.compile(r":\s|\b(?:is|are|will be)\s", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[,;]\s|[.!?]?\s*$")
# What a decided noun phrase begins with, when words precede its value: a determiner or a
# quantifier (a closed class: "the Wilcoxon test", "no deploys on Fridays").
_PHRASE_HEADS = DETERMINERS | frozenset({"no", "every", "all", "only", "each", "both"})
_OWNER_AFTER = re.compile(r"\s(?:for|of|as|in|on|at|to|with|from)\s", re.IGNORECASE)
MAX_DECIDED_WORDS = 6


def _decided(sentence: str, slot: fact_grammar.Slot, found: Found) -> Found:
    """A decision's value as the object phrase the user decided, when the value is a word of
    it: "we go with no deploys on Fridays" is "no deploys on Fridays", not "Fridays"; "the
    API style is JSON over gRPC-Web" is "JSON over gRPC-Web". The phrase runs from the last
    decision verb, colon or copula before the value to the end of its clause (at most six
    words); it is a name of the same key."""
    if slot.ref_kind not in ("name", "date"):  # a version, a number: their own unit
        return found
    before = sentence[:slot.start]
    starts = [m.end() for m in P.DECISION.finditer(before)]
    starts += [m.end() for m in _DECIDED_START.finditer(before)]
    if not starts:
        return found
    end = _CLAUSE_END.search(sentence, slot.end)
    tail = sentence[slot.end:end.start() if end else len(sentence)]
    owner = _OWNER_AFTER.search(tail)  # "Redis for the queue": the key, not the decision
    phrase = (sentence[max(starts):slot.end] + tail[:owner.start() if owner else None]
              ).strip(" .!?:")
    prefix = phrase[:phrase.find(found.value)].split() if found.value in phrase else ["?"]
    if phrase == found.value or not 1 < len(phrase.split()) <= MAX_DECIDED_WORDS or (
            prefix and prefix[0].lower() not in _PHRASE_HEADS):  # "(to) use Redis": a verb
        return found
    entity, attribute, _ = [*found.key.split("|"), "", "", ""][:3]
    return replace(found, value=phrase, ref_kind="name", kind="name",
                   key=join_key(entity, attribute, "name"))


# Facts are read from a message's first MAX_FACT_TEXT characters (fact_message_lines) and
# from each sentence's first MAX_SENTENCE_CHARS (no stated fact is a thousand characters long).
MAX_SENTENCE_CHARS = 1_000
# A lead alone is a short sentence ("Scratch that.", "The portfolio address I gave you was
# wrong."): up to ten words of a clause that says the user's word was wrong
# (``fact_leads.MAX_LEAD_WORDS``), so about a hundred characters.
MAX_LEAD_CHARS = 100


def message_facts(content: str, role: str = "user") -> list[Found]:
    """Every fact of a message's text, in order (sentences without a fact give none)."""
    out: list[Found] = []
    led = starred(content)  # "Scratch that. The deadline is Friday.": the lead corrects the
    # next one; "*50 MB", chat's star before the word meant, corrects the first
    taken: list[Found] = []  # a sentence that only takes values back ("Forget October 2.")
    proposing = proposal_lines(content[:MAX_FACT_TEXT])  # (fact_message_lines) a title, items
    said = said_sentences(content)
    for number, sentence in enumerate(said):
        low = fact_shouted.folded(sentence)  # all in capitals: read in lower case
        text = low or sentence
        if len(text) < MAX_LEAD_CHARS and fact_grammar.lead_only(text, said[number + 1:]) \
                and not _valued(text):
            led = True
            continue
        found = [replace(f, sentence=number, value=fact_shouted.as_written(f.value, sentence, low)
                         if low else f.value)
                 for f in sentence_facts(text[:MAX_SENTENCE_CHARS], role, led=led)]
        found = _quoted_errata(found, sentence, number, role)  # "“Patt 6” should be “Patt 4”"
        if sentence.strip() and any(sentence.strip() in line for line in proposing):
            found = [replace(f, kind="question", correction=False) for f in found
                     if not f.old and f.kind not in ("correction", "decision")]
        out, found = fact_refused_after.read_back(out, found, said, number)  # ("I said no.")
        if taken:
            out.extend(_taken_back(taken, found, out, number))
            taken = []
        if _only_taken_back(found):
            taken, led = found, True
            continue
        out.extend(found)
        led = False
    if taken:
        out.extend(_taken_back(taken, [], out, -1))
    return out


def _valued(sentence: str) -> bool:
    """A value in the sentence: no lead alone ("the cleaner's coming Friday, I got it wrong")."""
    return bool(_values(sentence)) or WEEKDAY.search(sentence) is not None


def starred(content: str) -> bool:
    """A message that opens with a star glued to its first word and has no other star
    ("*50 MB", "*Thursday"): chat's mark of a correction of what was just typed (a list
    item's star has a space after it; emphasis closes its star)."""
    text = content.lstrip()
    return text[:1] == "*" and text[1:2] not in ("", "*", " ", "\t", "\n") and \
        text.count("*") == 1


def _quoted_errata(found: list[Found], sentence: str, number: int, role: str) -> list[Found]:
    """A correction between two quoted texts (``fact_quoted_errata``): the quotes are the two
    values whole, in place of the pieces the finder read of them; the key is the grammar's
    where it read the new value as a name of a key, else none (the held old value keys it).
    The grammar's mood reader reads the sentence with the quotes as its values first: another's
    suggestion, proposal or request ('Mia suggested "Spring Fling" instead of "Spring Gala"')
    is no correction (stop 44's review)."""
    pair = errata(sentence)
    if pair is None:  # or said in words of bare figures: "listed as Y instead of X"
        return bare_errata(found, sentence, number)
    quoted = sorted((q.start, q.end, q.text, "name") for q in pair)
    if fact_grammar.read(sentence, quoted, role).mood != "statement":
        return found
    old, new = (q.text for q in pair)
    if any(f.old and f.value == old for f in found) and \
            any(not f.old and f.value == new for f in found):
        return found  # the grammar read it whole
    keyed = next((f for f in found if not f.old and f.value == new and f.key.endswith("|name")
                  and f.key.split("|")[1]), None)
    key, subject = (keyed.key, keyed.subject) if keyed else ("||name", "")
    rest = [f for f in found if not any(_overlap(f.value, q) for q in (old, new))]
    return [*rest, Found("name", old, subject, "name", True, old=True, sentence=number, key=key),
            Found("name", new, subject, "name", True, sentence=number, key=key)]


def _overlap(value: str, quoted: str) -> bool:
    a, b = value.lower().strip(" '\"“”‘’"), quoted.lower()
    return bool(a) and (a in b or b in a)


def _stated(found: list[Found]) -> bool:
    return any(not f.old and f.kind not in ("correction", "decision", "question") for f in found)


def _only_taken_back(found: list[Found]) -> bool:
    """A sentence whose values are all replaced ones ("Forget October 2, legal needs another
    review.", "8765 is the old one"), or a lead's that takes back and says only why
    ("scratch that, they gave B4 away.": ``fact_lead_sentences``): its replacement is a
    neighbouring sentence's value."""
    return (any(f.old for f in found) or leads_on(found)) and not _stated(found)


def _taken_back(taken: list[Found], after: list[Found], before: list[Found],
                number: int) -> list[Found]:
    """The old values of a sentence that only takes back, paired with the next sentence's
    new values (``number``), else with the previous sentence's; with neither, as read."""
    previous = before[-1].sentence if before else -1
    if _stated(after):
        return [replace(f, sentence=number) for f in taken if f.old]
    if before and _stated([f for f in before if f.sentence == previous]):
        return [replace(f, sentence=previous) for f in taken if f.old]
    return taken


def may_correct(content: str, role: str = "user") -> bool:
    """Could this message replace a fact already kept? Read from its stored facts (one
    extraction per message version, ``facts_extract``): a correction, a setting, or the
    user's value of a key that names its owner (a restatement replaces that key's value)."""
    from ollm_desktop.engine.fact_supersession import certain_key
    from ollm_desktop.engine.facts_extract import extract

    return any(f.correction or f.kind == "setting" or (role == "user" and certain_key(
        f, single=f.single))
               for f in extract(role, content))
