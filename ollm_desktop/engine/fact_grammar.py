"""One sentence read as structure: its mood, the key each value belongs to, what it replaces.

A small hand grammar over tokens (words, punctuation, the values ``provenance`` found), chosen
over a library: spaCy's ``Matcher`` needs a downloaded model for parts of speech (nothing
downloads at run time here), and a correction's shapes are few and closed. It reads, in order:

1. **Mood.** A question ("?", "should we", "isn't it"), a hypothetical ("what if", "suppose") or
   a suggestion ("maybe", "could", "might", "I'd") states nothing and replaces nothing.
2. **The key of each value**: the noun phrase it attaches to, as (entity, attribute, unit
   class). "the API port is 8443", "the port of the API is 8443", "the API's port is 8443" and
   "the API listens on port 8443" are all (api, port, port); "set the request timeout to 60 s"
   is (request, timeout, duration). One shared word ("port") is never a key by itself.
3. **Corrections by shape**: "X, not Y", "not Y but X", "from Y to X", "K is now X", a change
   verb with "K to X" (set, bump, move, switch, rename...), "X instead of Y", "rather than Y",
   "Y is no longer ...", a self-repair ("16 GB, sorry, 32 GB"), and a leading "scratch that",
   "from now on", "actually". Y is marked old; the rest replace the same key's values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ollm_desktop.engine import fact_surface as surface
from ollm_desktop.engine.fact_change_leads import rescheduled_only, value_follows
from ollm_desktop.engine.fact_clauses import clause_key, has_new
from ollm_desktop.engine.fact_comparatives import replaced_value, than_usual
from ollm_desktop.engine.fact_elliptic import elliptic_values, gapped_numbers
from ollm_desktop.engine.fact_for_key import RENAMING, values_for_keys
from ollm_desktop.engine.fact_header_lists import header_items
from ollm_desktop.engine.fact_hour_places import timed_hours
from ollm_desktop.engine.fact_keys import key_of, noun_phrase, object_before, singular, unit_class
from ollm_desktop.engine.fact_kind_words import kind_values
from ollm_desktop.engine.fact_leads import ONWARD, erred_after, retraction, strip_lead
from ollm_desktop.engine.fact_mood import read_moods
from ollm_desktop.engine.fact_mood_refused import standing_change
from ollm_desktop.engine.fact_name_runs import keyed_now, stated_now
from ollm_desktop.engine.fact_phrase_forms import named_phrases, sized_names
from ollm_desktop.engine.fact_phrases import phrase_values
from ollm_desktop.engine.fact_product_versions import product_version
from ollm_desktop.engine.fact_self_repairs import actually_after, self_repaired
from ollm_desktop.engine.fact_setting_names import setting_key
from ollm_desktop.engine.fact_settings_lists import listed_setting
from ollm_desktop.engine.fact_since import held_since
from ollm_desktop.engine.fact_types import join_key
from ollm_desktop.engine.fact_values import bare_values, compound_numbers, ends_clause
from ollm_desktop.engine.fact_verbs import moved_to, verb_group
from ollm_desktop.engine.fact_words import (
    BOUNDARY,
    CONJUNCTIONS,
    COPULAS,
    DEICTIC,
    DETERMINERS,
    MANY,
    NAMING,
    NOT_NP,
    PREPOSITIONS,
    PRONOUNS,
    Tok,
    Value,
    contracted,
    is_change,
    joined,
    names_joined,
    particles_split,
    tokens_of,
)

__all__ = ["MANY", "Mood", "Reading", "Slot", "lead_only", "read"]
Mood = Literal["statement", "question", "suggestion"]

@dataclass(frozen=True, slots=True)
class Slot:
    """A value of the sentence with its key and role."""

    start: int
    end: int
    value: str
    ref_kind: str
    entity: str
    attribute: str
    unit: str
    old: bool  # the replaced value ("not Y", "instead of Y", "from Y")
    single: bool = False  # "the K is X": one value of a definite K, whatever its unit
    label: str = ""  # the key's words in the clause itself, without a topic phrase's owner

    @property
    def key(self) -> str:
        return join_key(self.entity, self.attribute, self.unit)


@dataclass(frozen=True, slots=True)
class Reading:
    mood: Mood
    correction: bool
    slots: tuple[Slot, ...]
    unasserted: tuple[tuple[int, int], ...] = ()  # (fact_mood) characters asserting nothing


def mood_of(sentence: str, tokens: list[Tok], first: int, role: str) -> Mood:
    return read_moods(sentence, tokens, first, role).mood  # each clause's mood: fact_mood


def lead_only(sentence: str, rest: list[str] | tuple[str, ...] = ()) -> bool:
    """A correction's lead alone ("Scratch that.", "band postponed. 17 March"): the next one
    (of ``rest``, the message's sentences after it) corrects."""
    tokens = tokens_of(sentence, [])
    first, lead = strip_lead(tokens)
    if not lead and (header := surface.header_end(tokens, first)) > first:  # "hey, scratch that"
        more, lead = strip_lead(tokens[header:])
        first = header + more
    return (lead and first >= len(tokens)) or (rescheduled_only(tokens) and value_follows(rest))


def read(sentence: str, values: list[Value], role: str = "user", *,
         led: bool = False) -> Reading:
    """The sentence's mood, whether it corrects, and each value with its key and role."""
    tokens = tokens_of(sentence, values)
    for i, token in enumerate(tokens[:-1]):  # "the MySQL host": a name inside a noun phrase
        nxt = tokens[i + 1]
        named = token.value is not None and (token.value[3] == "class" or (
            token.value[3] == "name" and i > 0 and tokens[i - 1].word in DETERMINERS and
            nxt.word not in DETERMINERS))  # "the HTTP client": a name as a noun's modifier
        if named and token.value and not nxt.value and nxt.word[:1].isalpha() \
                and nxt.word not in COPULAS and nxt.word not in PREPOSITIONS \
                and nxt.word not in CONJUNCTIONS and nxt.word != "instead":
            token.word, token.value = token.value[2].lower(), None
    tokens = surface.normalised(sentence, contracted(names_joined(sentence, tokens)))  # "Y -> X"
    split = particles_split(tokens)  # "put the rent up to X": the particle says it changed
    directed = len(split) < len(tokens) and bool(
        ({t.word for t in tokens} - {t.word for t in split}) & {"up", "down", "back"})
    tokens = compound_numbers(surface.spelled_is(sentence, split))  # "Standup's", "twenty five"
    first, lead = strip_lead(tokens)
    headed = ""  # the mood of a header ("Idea: ...", "Question: ...")
    if not lead and (header := surface.header_end(tokens, first)) > first:  # "quick update:"
        headed = surface.header_mood(tokens, first, header)
        more, lead = strip_lead(tokens[header:])  # (or a clause of its own: "heads up: the K is")
        own = tokens[header - 1].word == ":" and surface.clause_follows(tokens, header + more)
        first = header + more if lead or own else first
    lead = lead or led or erred_after(tokens, first)  # (or "Scratch that." before it)
    first, owner = _topic(tokens, first)
    if owner:
        more, again = strip_lead(tokens[first:])
        first, lead = first + more, lead or again
    moods = read_moods(sentence, tokens, first, role)  # (fact_mood) each clause's mood
    mood = moods.mood
    words = [t.word for t in tokens]
    shaped = lead or (any(is_change(w) for w in words[first:]) and "to" in words) or \
        "not" in words or "instead" in words or "rather" in words or "longer" in words
    sized_names(sentence, tokens)  # (fact_phrase_forms) "Mistral 7B": one name
    implied = phrase_values(sentence, tokens, first, role, shaped=bool(shaped), lead=lead)
    bare_values(sentence, tokens, first, bool(shaped), lead)
    timed_hours(tokens, first)  # (fact_hour_places) "opens at 11 today": a time of day
    kind_values(sentence, tokens, first, role)  # (fact_kind_words) "a 2015 Prius", "by bike"
    named_phrases(sentence, tokens, first, role)  # (fact_phrases) "Chicago author-date"
    itemised = elliptic_values(sentence, tokens, first)  # "…, bibliography with biber"
    itemised |= values_for_keys(sentence, tokens, first)  # "it's Wessex Mill for flour"
    itemised |= header_items(sentence, tokens, first)  # "Fees: £40 adults, £15 children"
    gapped = gapped_numbers(sentence, tokens, first)  # "on 8080, the admin panel on 9090"
    first, taken = retraction(tokens, first)  # "Ignore what I said about Y — ..."
    repaired = self_repaired(sentence, tokens, first)  # "16 GB, sorry, 32 GB": 16 GB old
    lead = lead or bool(taken) or erred_after(tokens, first) or actually_after(tokens, first)
    words = [t.word for t in tokens]  # (as the passes above left them: "·", "so" -> "now")
    slots: list[Slot] = []
    keys: dict[int, tuple[str, str]] = {}  # each value's key, by its index
    listed: set[int] = set()  # a settings list's numbers: one per setting, equal or not
    renewed = False
    for i, token in enumerate(tokens):
        if token.value is None:
            continue
        start, end, text, kind = token.value
        entity, attribute = ("", "") if i in taken else itemised.get(i) or \
            clause_key(tokens, i, first) or setting_key(tokens, i, key_of(tokens, i, first))
        if i in gapped and gapped[i][1] in keys:  # the first value's attribute, if it had
            had, attribute = keys[gapped[i][1]]  # an owner ("the API's port"); else the
            entity, attribute = (gapped[i][0], attribute) if had else \
                noun_phrase(gapped[i][0].split())  # item's NP ("the kids at 5:30, the adults")
        stated = entity  # (before "the right one" loses "right" as a renewal)
        if i > 0 and tokens[i - 1].word in COPULAS and not owner:  # "New room: C3", "the
            entity, fresh = surface.unrenewed(entity, tokens, i)  # actual version is 3.6": replaced
            renewed = renewed or (fresh and bool(attribute))
        if attribute in ("one", "ones") and stated and \
                set(stated.lower().split()) <= surface.RIGHT_ONE:
            entity, attribute = "", ""  # "the correct one is X": a pro-form that names only
            # its correctness refers back (keyless: its unit's value); "the bathroom one",
            # "the second one", "the one in Porto" keep their owner, place or neighbour
        if i in implied.labels:  # "track 5": the track's; "Track 3 is for demos": theirs
            label = implied.labels[i]
            entity, attribute = _purpose(tokens, i, label) or (
                " ".join(w for w in (entity, attribute) if w and w != label), label)
            if listed_setting(tokens, i, implied.labels):  # "rank 16, alpha 32": settings
                start, text, kind = end - len(text.split()[-1]), text.split()[-1], "number"
                listed.add(start)
        unit = implied.units.get(i) or unit_class(text, kind, attribute)
        entity, attribute, unit = product_version(sentence, tokens, i, entity, attribute, unit,
                                                   first)
        label = " ".join(w for w in (entity, attribute) if w)
        if owner:  # "For the billing worker: the tool is pinned to v4": the worker's tool
            entity, attribute = (f"{owner} {entity}".strip(), attribute) if attribute else \
                noun_phrase(owner.split())
        kind = "version" if unit == "version" else kind
        entity, attribute, label = entity.lower(), attribute.lower(), label.lower()  # "IT"
        keys[i] = (entity, attribute)
        slots.append(Slot(start, end, text, kind, entity, attribute, unit,
                          i in taken or i in repaired or replaced_value(tokens, i),
                          _definite_copula(tokens, i, first), label if attribute else ""))
    slots = _scratched(tokens, slots)
    since = _from_value_on(tokens) | held_since(tokens, first)  # "from May on", "since May"
    slots = [s for s in slots if s.start not in since]
    slots, mood = moods.held(slots, mood)  # (fact_mood) a clause asserting nothing states none
    mood = "question" if headed == "question" else "suggestion" if headed else mood
    olds = [s for s in slots if s.old]
    news = [s for s in slots if not s.old]
    # the old value of "X, not Y" / "from Y to X" is a value of X's key (and back)
    if olds and news:  # (X is the new value nearest Y: "Bob says the venue is X, not Y")
        donor = min(news, key=lambda s: (abs(s.start - olds[0].start), s.start))
        slots = [s if s.attribute or s is donor or _verbs_subject(tokens, s) else
                 _with_key(s, donor) for s in slots]  # ("Bob says ...": no value of X's key)
        if not donor.attribute and olds[0].attribute:
            slots = [_with_key(s, olds[0]) if s is donor else s for s in slots]
    verb_to = moved_to(tokens, first) or (standing_change(tokens, first, moods.mood_at) and any(
        w in ("to", "from") for w in words[first:]))  # "bump the pool to 12", "went up to X"
    changed = directed or surface.directed_to(tokens, first) or verb_to or (
        first < len(words) and is_change(words[first])) or bool(RENAMING & set(words)) or any(
        t.value and _imperative_to(tokens, _label_start(tokens, i), first)  # "make the K X"
        for i, t in enumerate(tokens)) or any(  # any verb's "V the K to X": "scale the ..."
        w in ("was", "were", "got") and is_change(words[k + 1]) and words[k + 1].endswith("ed")
        for k, w in enumerate(words[:-1]) if k >= first)  # "the allowance was raised; it's X"
    now = any(w == "now" and (i == first or words[i - 1] in COPULAS or (i + 1 < len(tokens) and (
        tokens[i + 1].value is not None or words[i + 1] in COPULAS or words[i + 1] in NAMING))
        or (_after_value(tokens, i) and (ends_clause(tokens, i) or (
            i + 1 < len(tokens) and words[i + 1] in PREPOSITIONS)))  # "X now before an offer"
        or (i > first and _now_before_verb(tokens, i))
        or (i > first and ends_clause(tokens, i) and _value_earlier(tokens, i))
        or (i == first + 1 and tokens[first].value is not None))  # "Tomasz now approves"
        for i, w in enumerate(words) if i >= first)  # "K is now X", "K is X now"
    gone = any(w in ("longer", "anymore") and moods.mood_at(tokens[k].start) == "statement"
               for k, w in enumerate(words)) or "any more" in joined(tokens) or \
        [w for w in words if w and w not in BOUNDARY][-3:] == ["from", "now", "on"] or any(
            w == "from" and words[k + 1:k + 2] and (words[k + 1] in DEICTIC or
                                                   words[k + 1] == "next")  # "from next
            and "to" not in words[k:] for k, w in enumerate(words) if k > first) or \
        bool(since)  # week", "from tomorrow", "from Monday on": it holds from then on
    instead = "instead" in words[first:]  # "put it in X instead": X replaces the key's value
    instead = instead or any(t.value and has_new(tokens, k, first)  # "X has a new K: V"
                             for k, t in enumerate(tokens))
    now = now or than_usual(tokens, first)  # "at 4pm, an hour earlier than usual"
    correction = bool(lead or olds or changed or now or gone or instead or renewed)
    def said(s: Slot) -> tuple[str, str]:  # ("batch 16, rank 16": two settings, not one)
        keyed = s.start in listed or (s.ref_kind == "number" and bool(s.attribute))
        return s.value, f"{s.entity}|{s.attribute}" if keyed else ""  # (a count's own key)
    last = {said(s): s for s in slots if not s.old}  # a value said twice is one value, keyed
    slots = [s for s in slots if s.old or last[said(s)] is s]  # where it is said last ("X
    taken_back = {s.value for s in slots if s.old}  # instead, so the defense is X")
    if correction and taken_back:  # "Thursday instead of Friday, half the panel is out
        slots = [s for s in slots if s.old or s.value not in taken_back]  # Friday": still old
    if correction and any(s.attribute and not s.old for s in slots) and (lead or not repaired):
        # a keyless value beside a keyed one is a mention ("Flooding at the Old Mill, so the venue
        # is now X"), unless its own clause says it now or it is in the clause of a replaced one
        cuts = [t.start for t in tokens if t.word in BOUNDARY]
        olds_at = {sum(c < s.start for c in cuts) for s in slots if s.old}
        slots = keyed_now(slots, stated_now(tokens, first, lead), cuts, olds_at)  # ("it's X now")
    if mood != "statement":  # an open question keeps the values it names, not bare words
        given = {value[2] for value in values}
        slots = [slot for slot in slots if slot.ref_kind != "name" or slot.value in given]
    return Reading(mood, correction and mood == "statement", tuple(slots),
                   tuple((a, b) for a, b, _ in moods.unasserted))


def _from_value_on(tokens: list[Tok]) -> set[int]:
    """The start offsets of the values in "from VALUE on/onward(s)" ("from Monday on"): the
    time from which the clause holds."""
    out: set[int] = set()
    for k, token in enumerate(tokens[1:-1], start=1):
        if token.value is None or tokens[k - 1].word != "from":
            continue
        after = k + 1
        while after < len(tokens) and tokens[after].word == "·":
            after += 1
        if after < len(tokens) and tokens[after].word in ONWARD:
            out.add(token.value[0])
    return out


def _purpose(tokens: list[Tok], i: int, label: str) -> tuple[str, str] | None:
    """"Track 3 is for demos": a "noun number" value that is its clause's subject, with a
    copula and "for NP" after it, is the NP's (its purpose), not the key the noun names
    alone."""
    at = i + 1
    while at < len(tokens) and tokens[at].word == "·":  # the value's own words
        at += 1
    if at + 2 >= len(tokens) or tokens[at].word not in COPULAS or tokens[at + 1].word != "for":
        return None
    words = [t.word for t in tokens[at + 2:at + 6] if t.word]
    end = next((k for k, w in enumerate(words) if w in BOUNDARY or w in PREPOSITIONS),
               len(words))
    named = [w for w in words[:end] if w not in DETERMINERS]
    return (" ".join(singular(w) for w in named), label) if named else None


def _value_earlier(tokens: list[Tok], i: int) -> bool:
    """"we're 8 for dinner now": a clause-final "now" with a value earlier in its clause
    (not "for now", "until now", "right now": a preposition's or an adverb's "now")."""
    prev = tokens[i - 1].word
    if prev in PREPOSITIONS or prev in ("right", "just", "even", "until", "till", "by"):
        return False
    for token in reversed(tokens[:i]):
        if token.word in BOUNDARY:
            return False
        if token.value:
            return True
    return False


def _after_value(tokens: list[Tok], i: int) -> bool:
    """The word before ``i`` ends a value (past its counted noun: "2 interview rounds now")."""
    k = i - 1
    while k > 0 and tokens[k].word == "·":
        k -= 1
    return k >= 0 and tokens[k].value is not None


def _topic(tokens: list[Tok], first: int) -> tuple[int, str]:
    """A leading "For the billing worker:" / "For the API," names what the clause's values
    belong to (a topic phrase): (the index after it, its noun phrase's words). A phrase with a
    value in it ("For 3 days, ...") or a verb-like word is no topic."""
    if first >= len(tokens) or tokens[first].word not in ("for", "regarding", "about", "re"):
        return first, ""
    words: list[str] = []
    for index in range(first + 1, min(len(tokens), first + 7)):
        token = tokens[index]
        if token.word in (":", ","):
            named = [w for w in words if w not in DETERMINERS]
            if not named or len(named) > 4:
                return first, ""
            return index + 1, " ".join(singular(w) for w in named[-3:])
        if token.value or not token.word[:1].isalpha() or token.word in NOT_NP or \
                token.word in PREPOSITIONS or token.word in COPULAS or is_change(token.word):
            return first, ""
        words.append(token.word)
    return first, ""


def _imperative_to(tokens: list[Tok], i: int, first: int) -> bool:
    """An imperative "V the K to X" ("scale the cluster to 5 nodes"): the verb opens the
    clause. A narrative "we pinned the tool to v4" states, it changes nothing."""
    if i <= first + 1 or tokens[i - 1].word != "to":
        return False
    moved = object_before(tokens, i - 1, first)
    verb = i - 1 - len(moved) - 2  # the verb, before the object's determiner
    return bool(moved) and verb >= first and (verb == first or tokens[verb - 1].word in (
        "let's", "please", ",")) and tokens[verb].word not in PRONOUNS


def _label_start(tokens: list[Tok], i: int) -> int:
    """The index a value starts at, with its label noun ("room" of "room 204")."""
    while i > 0 and tokens[i - 1].word == "·":
        i -= 1
    return i


def _definite_copula(tokens: list[Tok], i: int, first: int) -> bool:
    """The value is what "the K is" names ("the last good build is commit e5fb1bec"): one
    value of K, even of a unit that is usually a list (a commit, a path)."""
    j = i - 1
    while j > first and (tokens[j].word in DETERMINERS or tokens[j].word in ("now", "·") or
                         (tokens[j].word.isalpha() and tokens[j - 1].word in COPULAS and
                          tokens[j].word not in PREPOSITIONS)):
        j -= 1  # "is now", "is the", "is commit"
    if j <= first or tokens[j].word not in ("is", "was", "becomes", "remains"):
        return False
    clause = [t.word for t in tokens[first:j]]
    start = max((k + 1 for k, w in enumerate(clause) if w in BOUNDARY), default=0)
    return clause[start:start + 1] == ["the"] and len(clause) - start >= 2


def _now_before_verb(tokens: list[Tok], i: int) -> bool:
    """"The reading group now meets in room C3", "we now use X": "now" after the subject and
    before its verb, a value in the clause after it (not "for now", "until now", "right now")."""
    prev = tokens[i - 1].word
    if not prev or prev in PREPOSITIONS or prev in BOUNDARY or prev in ("right", "just"):
        return False
    for token in tokens[i + 1:i + 7]:
        if token.word in BOUNDARY:
            return False
        if token.value:
            return True
    return False


def _verbs_subject(tokens: list[Tok], slot: Slot) -> bool:
    """The value is the subject of a verb of its own ("Bob says the venue is X, not Y"): it
    is who says or does it, no value of the key the clause after it names."""
    at = next((k for k, t in enumerate(tokens) if t.value and t.value[0] == slot.start), None)
    return at is not None and at + 1 < len(tokens) and \
        tokens[at + 1].word not in COPULAS and verb_group(tokens, at + 1) is not None


def _scratched(tokens: list[Tok], slots: list[Slot]) -> list[Slot]:
    """"at 3 pm on Thursday, scratch that, 4 pm": the value taken back is the last one before
    "scratch that" of the unit class of the first one after it."""
    words = [t.word for t in tokens]
    at = next((i for i in range(1, len(tokens) - 1)
               if words[i:i + 2] == ["scratch", "that"]), None)
    if at is None:
        return slots
    cut = tokens[at].start
    after = [s for s in slots if s.start > cut]
    before = [s for s in slots if s.end <= cut]
    if not after:
        return slots
    taken = next((s for s in reversed(before) if s.unit == after[0].unit), None)
    return [Slot(s.start, s.end, s.value, s.ref_kind, after[0].entity, after[0].attribute,
                 s.unit, True) if s is taken else s for s in slots]


def _with_key(slot: Slot, donor: Slot) -> Slot:
    return Slot(slot.start, slot.end, slot.value, slot.ref_kind, donor.entity, donor.attribute,
                unit_class(slot.value, slot.ref_kind, donor.attribute) if slot.ref_kind !=
                "name" else donor.unit, slot.old)
