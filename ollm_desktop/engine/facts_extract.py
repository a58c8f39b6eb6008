"""Each message's facts, extracted once per version of its text and read afterwards.

A message's facts depend only on its role and its text, so they are kept keyed by a hash of
both: an edit (new text) extracts again, a compaction, a ledger pass or a re-read of the same
message never does. ``EXTRACTIONS`` counts the real extractions in this process (the memory
benchmark checks "at most one per message version" with it); ``extraction_count()`` reads it.

A reading that raises on some odd text (a bug of the rules, never of the message) costs that
message version its facts, not the message, the compaction or the chat: ``extract`` logs it,
counts it (``extraction_failures()``; the probes and the matrix report it) and keeps
"no facts" for that version. Storage records a message's facts in the transaction that
inserts it, so an exception here would otherwise lose the message itself.

``current_values`` is the scorer's view: the current value of each key after a list of
(role, text) messages, by the same rules the ledger follows.
"""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict
from collections.abc import Sequence

from ollm_desktop.engine.fact_failed_olds import failed_olds
from ollm_desktop.engine.fact_kept_clauses import kept_subjects
from ollm_desktop.engine.fact_renamed_olds import renamed_olds
from ollm_desktop.engine.provenance import Found, message_facts
from ollm_desktop.engine.references import message_references, remember_references

EXTRACTIONS = 0  # extractions made in this process (cache misses)
FAILURES = 0  # extractions that raised (each logged; the message keeps no facts)
log = logging.getLogger(__name__)
_CACHE_SIZE = 8192  # message versions kept (a few MB at most)
_cache: OrderedDict[str, tuple[Found, ...]] = OrderedDict()


# The grammar's version: a stored extraction of an older grammar is no longer this one's
# reading (its key does not match, so the message is extracted anew, once). Raise it whenever
# ``fact_grammar``, ``fact_keys``, ``fact_words`` or ``provenance`` read a sentence otherwise.
GRAMMAR_VERSION = 26  # (2: issue 28; 3: clause keys, a decision's phrase; 4: mood per clause;
# 5: noun-phrase values, fact_phrases; 6: surface variants, fact_surface; 7: shouted sentences;
# 8: equal numbers of a settings list stay apart; 9: "a.m."/"p.m." ends no sentence that goes
# on, a moved thing's own value is old; 10: stop 40's review: a connective names no key, the
# head before "for" owns a change, header lists of names, compound numbers in words;
# 11: stop 41's value shapes read whole, money's words and the cents sign are money, a value
# right after "to" is a change's target, never the subject another change moves; 12: stop 41's
# review: a negated bound in time is no old value, a plain fraction's unit; 13: stop 42: a
# bare number after a reporting verb, "is actually X" as "is now X", old values a message
# states first, fact_named_changes; a change requested of others, proposed or wished is not
# made; a wrapped line goes on; a proposal's title; a measured value's noun, model names,
# olds beside their new value; 14: stop 43: a dash aside takes its host clause's mood, a
# mandative subjunctive after another's request, "RFC:", a plan with its later time, a title
# over a question of the listener's opinion; a time's day or "local time" goes on after
# "a.m.", a change's own object and a bare "Y to X — increase" are old, fact_span_olds;
# 15: stop 44: errata between quoted texts; 16: stop 45: bare self-repairs ("err"/"nvm" as
# leads, drawn-out fillers, a starred message, a count after a lead, "7 tickets" a count);
# others' wishes, pushes and "should", an unnamed source, a change called off, what the user
# keeps after "but": fact_mood_others;
# a negated move to a value, plans whose verb takes the value, "the plan is to", a wish put
# off, a doubted memory, a value still to be checked, a fronted place of before; a plain
# noun at a sentence's start is no product, a count given as a result; 17: stop 46: street
# addresses, "every N weeks", a self-repair mid-sentence, a question after a stated clause,
# codes a change joins, "since / as of", "it's X" after words, advice, goals and plans;
# 18: no key is a function word; 19: stop 47: names after "it's" and naming verbs, refusals
# and trials given up, errata in words, rates, a number a verb places with "on", a count
# after a copula, past movements "went from N to M", a terse label's head, an owner alone;
# 20: stop 48: units of pressure, tempo and dose, dilutions, sizes, images, how often;
# 21: stop 49: strengths, last digits, sets, paces, options, servings; "should have been X",
# "er" / "make that" repairs; refused offers, others' tastes, plans waiting; key synonyms;
# 22: stop 50: rates, spelled numbers, weekday-times read whole; leavers, posts taken over,
# title names; clauses of now, statements before a question, quotes; fronted adverbials;
# 23: stop 51: keys of three parts; named parts, ranges; new-NP keys, leads; values whole,
# word classes, endings; pushes, offers, refusals, past states; bare hours as times;
# 24: stop 52: owners' generic heads, numbered places, reported keys; listed counts, codes and
# colours, values said again; groups' wishes, choices not made, places, dated history;
# repairs with units, emoji as commas, gerund changes, old subjects, month days; a stated
# clause before a question after a dash; phrases after a label's colon, time phrases end a
# clause; sibling marks, letters naming one of several, weekday owners; opening full names,
# findings as leads; 25: stop 53: sentences numbered as read (said_sentences), o'clock hours,
# dotted titles, terse label lists, area as a unit class, initials of a key, admitted errors,
# weighed values adopt no reply, "for now" clauses, past periods, declined offers, "never
# mind Y", hesitation repairs, "it's now platform 12", lead sentences that take back;
# designators read whole ("Courtroom 4A", "IC 2043"), a measure's head left out ("sparge at
# 78 °C"), a trailing "unless", "the recommended 4GB", a belief contrasted, too much and too
# little); 26: stop 54: digit groups joined by hyphens or spaced, dates and times in words,
# two capital codes side by side, rates' periods, titles over small words; "K's X" before a
# time, a key's relative clause, a changed key's opening clause, a titled name alone; list
# items with their own labels, short settings, kept clauses; old and new in one sentence,
# hesitation and cited repairs, a decider's no, trials given up, "ignore my last message";
# a placed number before where it holds; a number retyped with two digits swapped; pending
# decisions, others' leanings, refusals no values; colon ratios, "E-77302", "Staff ID" as a
# key, "acc no N", lower-case codes; a review's fifteen narrowings)


def content_key(role: str, content: str) -> str:
    """What a message's facts are stored under: the grammar's version, its role and a hash
    of its text."""
    return hashlib.blake2b(f"{GRAMMAR_VERSION}\0{role}\0{content}".encode(),
                           digest_size=16).hexdigest()


def extract(role: str, content: str) -> tuple[Found, ...]:
    """The facts of one message version (extracted at most once while cached)."""
    global EXTRACTIONS, FAILURES
    key = content_key(role, content)
    found = _cache.get(key)
    if found is not None:
        _cache.move_to_end(key)
        return found
    EXTRACTIONS += 1
    try:
        found = _read(role, content)
    except Exception:  # a rule's bug on odd text: the message and the chat go on
        FAILURES += 1
        log.exception("facts of a %s message (%d characters) could not be read", role,
                      len(content))
        found = ()
    _cache[key] = found
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return found


def _read(role: str, content: str) -> tuple[Found, ...]:
    """The readings themselves (``extract`` guards them: a bug here costs no message)."""
    found = failed_olds(message_facts(content, role), content, role)  # "Granvia was full"
    found = renamed_olds(found, content, role)  # "we renamed billing-svc to ledger"
    found = kept_subjects(found, content)  # "tabSize untouched": no value "tabSize"
    if role in ("user", "assistant"):
        message_references(content)  # what a compaction's references read: now, once
    return tuple(found)


def remember(role: str, content: str, found: Sequence[Found],
             refs: Sequence[tuple[str, str]] | None = None) -> None:
    """Facts (and references) read back from storage for a message version: no extraction."""
    _cache[content_key(role, content)] = tuple(found)
    if refs is not None:
        remember_references(content, refs)


def references_of(content: str) -> list[list[str]]:
    """A message's references (cached with its facts), as stored (JSON pairs)."""
    return [[ref, kind] for ref, kind in message_references(content)]


def extraction_count() -> int:
    return EXTRACTIONS


def extraction_failures() -> int:
    """Extractions that raised in this process (``extract`` logged each; 0 is the goal)."""
    return FAILURES


def current_values(messages: Sequence[tuple[str, str]]) -> dict[str, list[str]]:
    """Per key (``entity|attribute|unit``), the values current after ``messages`` (oldest
    first), whoever stated them: what a scorer compares with its ground truth. Open questions
    and sentences (decisions, corrections without a value) have no key and are left out; a
    value marked "possibly replaced" is still current, beside the newer one."""
    from ollm_desktop.engine import facts as ledger
    from ollm_desktop.engine.fact_types import Fact
    from ollm_desktop.engine.models import Message

    kept: list[Fact] = []
    turn = 0
    for role, text in messages:
        turn += role == "user" or turn == 0  # an exchange is a user message and its reply
        if role in ("user", "assistant"):
            ledger.absorb(kept, Message(role=role, content=text), turn)  # type: ignore[arg-type]
    out: dict[str, list[str]] = {}
    for fact in kept:
        if fact.status == "current" and fact.key and fact.kind != "question":
            out.setdefault(fact.key, []).append(fact.value)
    return out
