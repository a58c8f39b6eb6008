"""What replaces what in the facts ledger (``facts.absorb`` applies these rules).

A correction (or a new ``NAME=value``) replaces the earlier current values of its subject and
family; a value absorbed after a later correction of its subject is replaced at once; a value
the user goes back to by a correction is a new entry that replaces the one in between. An
assistant-only value never replaces one the user stands behind: both stay current and the
user's ranks first (a small model's guess must not overrule the user). Its claim is noted
beside the user's value (``disputed_by``), which then never reads as current without it; the
user using the new value makes the claim theirs, and the correction replaces at once.
"""

from __future__ import annotations

from collections.abc import Set

from ollm_desktop.engine.fact_day_times import (
    day_taken_later,
    kept_day,
    split_before_later,
    taken_day,
)
from ollm_desktop.engine.fact_grammar import MANY
from ollm_desktop.engine.fact_kept_clauses import kept_by, kept_words
from ollm_desktop.engine.fact_key_labels import two_labels
from ollm_desktop.engine.fact_key_match import (
    ANY_KIND,
    family,
    key_match,
    kinds_differ,
    listed_unit,
    subjects_meet,
)
from ollm_desktop.engine.fact_keyless import (
    class_named,
    kept_unknown,
    keyless,
    persons_alike,
    possibly_meant,
    referred_back,
    referred_back_among,
)
from ollm_desktop.engine.fact_labelled_numbers import owners_port, same_number
from ollm_desktop.engine.fact_named_only import names_another_old, names_its_old
from ollm_desktop.engine.fact_ordinals import meant_by_place
from ollm_desktop.engine.fact_reported_keys import reported_key
from ollm_desktop.engine.fact_restated_olds import restated_by
from ollm_desktop.engine.fact_side_by_side import beside_taken, side_by_side
from ollm_desktop.engine.fact_topics import key_words as _key_words
from ollm_desktop.engine.fact_topics import same_topic, two_owners, unrelated
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.fact_unit_alone import (
    another_thing,
    echoes_left_out,
    measured,
    sentence_at,
)
from ollm_desktop.engine.fact_value_forms import value_form
from ollm_desktop.engine.provenance import Found


def _same_key(new: Fact, candidates: list[Fact]) -> tuple[list[Fact], list[Fact]]:
    """(certainly the same key, possibly the same key) among ``candidates``: a "maybe" that
    is the only value of its attribute is the same (one port named so far)."""
    match = {f.id: key_match(new, f) for f in candidates}
    same = [f for f in candidates if match[f.id] == "same"]
    maybe = [f for f in candidates if match[f.id] == "maybe"]
    maybe = possibly_meant(new, maybe, same, candidates)  # (a value of no noun phrase)
    keyless = bool(maybe) and maybe[0].key.split("|")[1:2] == [""]
    if not same and len({f.key for f in maybe}) == 1 and (len(maybe) == 1 or not keyless):
        return maybe, []  # several values with no noun phrase at all: which one is uncertain
    return same, maybe


def may_replace(new: Fact, old: Fact) -> bool:
    """An assistant-only value never replaces one the user stands behind (both stay)."""
    return new.users or not old.users


def users_stand(facts: list[Fact]) -> None:
    """A fact the user confirmed after an assistant-only value replaced it is current again;
    a correction the user confirmed (used its value) replaces what it disputed."""
    by_id = {f.id: f for f in facts}
    for fact in facts:
        if fact.status == "replaced" and fact.users and fact.replaced_by in by_id \
                and not may_replace(by_id[fact.replaced_by], fact):
            replacement = by_id[fact.replaced_by]
            fact.status, fact.replaced_by, fact.replaced_turn = "current", None, None
            if _corrects(replacement):
                fact.disputed_by = fact.disputed_by or replacement.id
        claim = by_id.get(fact.disputed_by or "")
        if claim is not None and fact.status == "current" and claim.users \
                and claim.status == "current" and not fact.pinned and fact.source != "manual":
            fact.status, fact.replaced_by, fact.disputed_by = "replaced", claim.id, None
            fact.replaced_turn = claim.turn


def _corrects(fact: Fact) -> bool:
    """Stated by a correction: only such a claim is noted beside the user's value."""
    return fact.from_correction or fact.kind == "correction"


def replace_or_dispute(new: Fact, old: Fact, facts: list[Fact], *, named: bool = False) -> int:
    """``new`` (a correction) replaces ``old`` when it may (1); an assistant-only one is
    noted beside the user's value instead (0). The first live claim stays (the note names it,
    and the value it has become since), unless this correction ``named`` the value as old."""
    if may_replace(new, old):
        old.status, old.replaced_by, old.disputed_by = "replaced", new.id, None
        old.replaced_turn, old.possibly_replaced_by = new.turn, None
        kept_day(new, old, facts)  # "Thursday 9pm", then "9:30pm": Thursday holds
        taken_day(new, old, facts)  # "10:15 on Monday", then "Tuesday 10:15": Monday goes
        if (restated := restated_by(old, facts)) is not None:  # "7 days", "7-day retention"
            replace_or_dispute(new, restated, facts)
        return 1
    live = any(f.id == old.disputed_by and f.status != "forgotten" for f in facts)
    if _corrects(new) and (named or not live):
        old.disputed_by = new.id
    return 0


def dispute(by_id: dict[str, Fact], fact: Fact) -> tuple[Fact, Fact] | None:
    """(the reply's correction, its value now) when an assistant-only correction still
    disputes ``fact``; None when none does (or it was deleted or forgotten)."""
    claim = by_id.get(fact.disputed_by or "")
    if fact.status != "current" or claim is None or claim.status == "forgotten":
        return None
    head = chain_end(by_id, claim)
    if head is None or head.status != "current" or head.value == fact.value:
        return None
    return claim, head


def chain_end(by_id: dict[str, Fact], fact: Fact) -> Fact | None:
    """The end of a replacement chain (None: the chain goes round)."""
    seen = {fact.id}
    while fact.status == "replaced" and fact.replaced_by in by_id:
        fact = by_id[fact.replaced_by]
        if fact.id in seen:
            return None
        seen.add(fact.id)
    return fact


def chain_ends(by_id: dict[str, Fact]) -> dict[str, Fact | None]:
    """``chain_end`` of every fact, each link followed once: a ledger read whole asks it of
    every replaced value, and a noisy chat's chains run to hundreds of links (issue 28,
    point 7: 0.3 ms a call at 32K, 260 calls a compaction)."""
    ends: dict[str, Fact | None] = {}
    for start in by_id.values():
        path: list[str] = []
        on_path: set[str] = set()
        fact = start
        while fact.id not in ends:
            if fact.id in on_path:  # the chain goes round: no end for any link on it
                end: Fact | None = None
                break
            if fact.status != "replaced" or fact.replaced_by not in by_id:
                end = fact
                ends[fact.id] = fact
                break
            path.append(fact.id)
            on_path.add(fact.id)
            fact = by_id[fact.replaced_by or ""]
        else:
            end = ends[fact.id]
        for link in path:
            ends[link] = end
    return ends


def stated_before(a: Fact, b: Fact) -> bool:
    """``a`` was stated before ``b`` (turn order; the same turn: creation order)."""
    return (a.turn or 0, a.sequence) < (b.turn or 0, b.sequence)


def supersede(facts: list[Fact], new: Fact, item: Found, *, beside: Set[str] = frozenset(),
              said: str = "") -> int:
    """A correction (or a new NAME=value) replaces the same key's earlier values; where the
    key is only possibly the same, both stay and the older is marked. The values its own
    sentence states as new (``beside``) are never what it replaces: one sentence says both
    ("changed from Ms. Harding to Mr. Bello (on leave till Easter)"; what it takes back it
    names as old)."""
    if said and reported_key(new, said):  # "vet says 1.5 cups": who said it, not the key
        new.key, new.subject = "||" + new.key.rpartition("|")[2], ""
    kind, keeps = family(new), kept_by(new, kept_words(said), facts)  # (counted once: linear)
    candidates = [old for old in facts if not (  # (the cheap tests first: issue 28, point 7)
        old.status != "current" or old is new or old.id in beside or old.pinned
        or old.source == "manual" or not stated_before(old, new) or family(old) != kind
        or (old.message_id == new.message_id and not new.from_correction)
        or same_number(old, new) or keeps(old))]  # ("admin untouched")
    # (a plain statement's value a correction restates, "Fridays unchanged": its own
    # message's values were stated beside it, never replaced by it)
    if kind == "sentence":
        return sum(replace_or_dispute(new, old, facts) for old in candidates
                   if subjects_meet(old.subject, new.subject, kind))
    # what it replaced when first read still counts ("the support band's set" read again:
    # "our set", possibly the same key, stays only marked; idempotent)
    done = [old for old in facts if old.replaced_by == new.id and family(old) == kind]
    same, maybe = _same_key(new, candidates + done)
    same = [old for old in same if old not in done]
    same, maybe = side_by_side(same, maybe, new, done)  # "ferry out at 7:40, ferry back …"
    maybe = [old for old in maybe if old not in done]
    count = sum(replace_or_dispute(new, old, facts) for old in same)
    found = same or maybe or any(f.replaced_by == new.id for f in facts)  # (read again)
    placed = None if found else meant_by_place(new, candidates)
    if placed is not None:  # "the second one is 2026-12-20": the list's second date
        return count + replace_or_dispute(new, placed, facts)
    # a correction that gives one link of its kind is that key's one link ("from now on
    # invoices go to X" after "send invoices to Y"), though links are lists when stated
    single = item.single or (new.ref_kind in MANY and new.users and not any(
        f.ref_kind == new.ref_kind and f.message_id == new.message_id and f.value != new.value
        for f in facts))
    meant = [] if found else named_otherwise(facts, new, single=single)
    if len(meant) == 1:  # "set the closing time to 23:00" after "the gym closes at 22:00"
        return count + replace_or_dispute(new, meant[0], facts)
    if meant:  # several statements it may mean: none is replaced silently
        mark_possible(new, meant)
        return count
    alike = [] if found else _only_of_its_unit(new, candidates, single=single)
    if keyless(new) and new.key.endswith("|name") and any(
            f.message_id == new.message_id and f is not new and f.key.split("|")[1:2] != [""]
            and any(f.value == o.value and f.key != o.key for o in alike) for f in facts):
        alike = []  # "The restaurant at Granvia closed, we eat at Nobu now": Granvia is said
        # again, another key's, so the name it refers back to is not Granvia
    if (keyless(new) or class_named(new)) and len(alike) == 1 and (_other_activity(
            new, alike[0]) or kept_unknown(new, facts, said)):  # ("…, same firm")
        mark_possible(new, alike)  # "I go to yoga three times a week now" after "I swim
        return count  # twice a week": how often is an activity's, another's only possibly
    if (keyless(new) or class_named(new)) and len(alike) == 1:  # "no wait, make that 12
        return count + replace_or_dispute(new, alike[0], facts)  # people", "change the time
    # to 4pm": the one value it can only mean
    if alike and _phrased_otherwise(new, alike[0]) and not (item.single and _two_posts(
            new, alike[0])):  # "the release cadence is now ..."; not a post beside a post
        return count + sum(replace_or_dispute(new, old, facts) for old in alike)
    back = None if found or alike else (referred_back(new, facts)
                                            or owners_port(new, users_earlier(facts, new)))
    if back is not None:  # "correction: it is 8080" after "the dev server listens on 8081";
        # "the admin UI moved to 9001": the admin UI's port (its key is the one meant)
        new.key, new.subject = back.key, back.subject
        return count + replace_or_dispute(new, back, facts)
    sentence = sentence_at(said, item.sentence)
    if alike and another_thing(new, sentence):  # "since the update my phone lasts 20 hours
        alike = []  # now": the user's phone, not the laptop's battery
    keeps = kept_by(new, kept_words(said), facts)  # (anew: what it replaced is no key now)
    mark_possible(new, maybe or [old for old in alike if not two_owners(new, old) and not (
        unrelated(new, old) and not (old.users and measured(new, sentence)))]  # (68 m², 72 m²)
                  or referred_back_among(new, [f for f in facts if not keeps(f)])  # ("admin
                  # untouched": not the admin's)
                  or ([] if found else persons_alike(new, candidates)))  # "it's Funmi
    # Adeyemi now": possibly the one person's name beside a firm's (a guess by its shape)
    return count


def users_earlier(facts: list[Fact], new: Fact) -> list[Fact]:
    """The user's current values stated before ``new`` that a later value may take back:
    never a pinned one nor one the user entered by hand (those change only by hand)."""
    return [old for old in facts if old.status == "current" and old is not new and old.users
            and stated_before(old, new) and not old.pinned and old.source != "manual"]


def named_otherwise(facts: list[Fact], new: Fact, *, single: bool = False) -> list[Fact]:
    """The earlier current values of the user's that the user's value ``new`` names in
    other words (``fact_topics``), where no earlier value has a key that meets its own
    (``single``: ``new`` is the one value of a definite key, a link or path too)."""
    if new.source != "user" or family(new) in ("sentence", "question"):
        return []
    earlier = [old for old in users_earlier(facts, new) if old.value != new.value
               and old.message_id != new.message_id
               and family(old) not in ("sentence", "question")]
    meant = same_topic(new, earlier, single=single)
    if meant and any(key_match(new, old) for old in earlier):
        return []  # a key that meets: the rules of keys decide
    return meant


def _phrased_otherwise(new: Fact, old: Fact) -> bool:
    """One key phrased two ways: a correction's key and the one key of its unit so far share
    a word's stem ("the release cadence" / "the release train leaves every") and name no two
    different owners ("the API port" / "the admin port" do; "eval batch" / "train batch")."""
    return not two_owners(new, old) and bool(_key_words(new) & _key_words(old))


def _two_posts(new: Fact, old: Fact) -> bool:
    """Two names held as two posts of one owner ("the billing revamp PM", "QA lead on the
    billing revamp": the post's own words differ, "qa lead" and "pm"): the owner's words they
    share do not make the posts one key ("guest wifi pw", "guest wifi password" are one)."""
    keys = [f.key.split("|") for f in (new, old)]
    return all(len(k) == 3 and k[0] and k[1] and k[2] == "name" for k in keys) and \
        keys[0][1] != keys[1][1] and keys[0][0] != keys[1][0] and \
        keys[0][1] in _POSTS and keys[1][1] in _POSTS


# The nouns of a post in a team or a project (a closed class): "lead", "pm", "owner".
_POSTS = frozenset({"lead", "pm", "owner", "manager", "coordinator", "head", "chair", "cto",
                    "ceo", "cfo", "coo", "director", "captain", "coach", "secretary",
                    "treasurer", "president", "reviewer", "tester", "designer", "qa"})


def _only_of_its_unit(new: Fact, candidates: list[Fact], *, single: bool = False,
                      ) -> list[Fact]:
    """A correction whose key meets none: the one earlier value of its unit class (one
    date so far, one percentage) is possibly what it corrects. It stays current but is
    marked, so a key phrased two ways ("we poll the feed every", "the polling interval")
    never leaves an old value reading as current beside its correction (the caller leaves
    out another owner's key and a statement that shares no word with it)."""
    unit = new.key.split("|")[-1] if new.key else ""
    listed = listed_unit(new) and not (single and unit == "url")
    if not unit or (listed and not keyless(new)):
        return []  # (a list; an address is one, where a correction gives only it: a path,
        # a file, a function a message names are a list however few; "7 tickets" is a count)
    alike = echoes_left_out([f for f in candidates if f.key and f.key.split("|")[-1] == unit
                             and not kinds_differ(new, f) and not two_labels(new.key, f.key)])
    alike = alike or [f for f in candidates if f.key and f.key.split("|")[-1] == unit and
                      _products(new, f) and not two_labels(new.key, f.key)]  # (GitBook)
    if keyless(new) and new.users and any(f.users for f in alike):  # "it's now X" takes
        alike = [f for f in alike if f.users]  # back what the user said, not a reply's word
    if keyless(new) and unit == "name" and any(  # ("at The Copper Kettle on Main St": a
            _street(f.value) == _street(new.value) for f in alike):  # place's street is no
        alike = [f for f in alike if _street(f.value) == _street(new.value)]  # name, nor back)
    if listed:  # "sorry, INV-2213": a bare item of a list unit means the one such value,
        # where it was stated as the value of a key that names its owner and attribute
        return alike if len(alike) == 1 and (certain_key(alike[0], single=True) or _products(
            new, alike[0])) else []
    if unit in ANY_KIND:  # "dropout 0.1" and "learning rate 1e-3": the unit says nothing
        alike = [f for f in alike if keyless(new) or class_named(new) or _share_a_word(new, f)]
    elif len({f.key for f in alike}) > 1 and not keyless(new):  # several keys of its unit:
        alike = [f for f in alike if _share_a_word(new, f)]  # the one its words name
    return alike if len({f.key for f in alike}) == 1 else []


# The kinds of street a name ends with (a closed class): an address's part, not a thing.
_STREETS = frozenset({"st", "st.", "street", "rd", "rd.", "road", "ave", "ave.", "avenue",
                      "blvd", "boulevard", "lane", "ln"})


def _street(value: str) -> bool:
    return len(value.split()) > 1 and value.split()[-1].lower() in _STREETS


def _products(new: Fact, old: Fact) -> bool:
    """Two names, one at least in capitals inside a word ("SQLite", "MySQL": the finders'
    class shape), that a keyless correction of a name meets: products in prose, one
    replacing the one before ("Switched to MySQL" after "We use SQLite", "it's GitBook now"
    after "in WordPress"), not items of a list of code."""
    return keyless(new) and {new.ref_kind, old.ref_kind} <= {"class", "name"} and \
        "class" in (new.ref_kind, old.ref_kind) and new.key.endswith("|name") and \
        old.key.endswith("|name") and all(v.replace(" ", "").isalnum() for v in (
            new.value, old.value))  # (words, not "Foo.bar" nor "foo_bar")


def _other_activity(new: Fact, old: Fact) -> bool:
    """How often (a frequency) is always some activity's: a keyless one whose statement
    shares no content word with the one earlier frequency's ("I go to yoga three times a
    week" / "I swim twice a week") may be another activity's, not its correction."""
    return new.key.rpartition("|")[2] == "frequency" and unrelated(new, old)


def _share_a_word(a: Fact, b: Fact) -> bool:
    """Two keys' noun phrases share a word's stem ("the pool" and "the worker pool")."""
    return bool(_key_words(a) & _key_words(b))


def mark_possible(new: Fact, olds: list[Fact]) -> None:
    """Older values that ``new`` may have replaced: kept current, marked (user's values only
    by the user's)."""
    for old in olds:
        if old.status == "current" and may_replace(new, old) and old.value != new.value:
            old.possibly_replaced_by = new.id


def certain_key(fact: Fact | Found, *, single: bool = False) -> bool:
    """A key that names its owner and attribute ("the parameter sweep", "the API port") of a
    single-valued unit (or stated as the one value of a definite key, ``single``: "the last
    good build is commit X"): a restatement of it with another value is a new value of one
    thing."""
    parts = fact.key.split("|")
    return len(parts) == 3 and bool(parts[0]) and bool(parts[1]) and family(fact) not in (
        "sentence", "question") and (single or not listed_unit(fact))


def _one_form(a: Fact, b: Fact) -> bool:
    """One value written two ways ("the 3rd" and "3rd", "11 o'clock" and "11:00")."""
    return a.value == b.value or value_form(a.value) == value_form(b.value)


def replaced_by_later(facts: list[Fact], new: Fact) -> int:
    """A fact absorbed after a later correction of its key was: it is replaced at once."""
    kind = family(new)
    if kind in ("sentence", "question"):
        return 0
    for day in split_before_later(facts, new):  # "Thursday 2 pm", read after "on Friday"
        return replaced_by_later(facts, day)
    if day_taken_later(facts, new):  # "10:15 on Monday", read after "Moved: Tuesday 10:15."
        return 1
    later = [f for f in facts if f.from_correction and f.status == "current"
             and not _one_form(f, new) and stated_before(new, f) and (family(f) == kind or
                                                                     names_its_old(facts, f, new))
             # (of another family where it named it: a port named as a number, "REDIS_DB=2")
             and not names_another_old(facts, f, new)]
    same, _ = _same_key(new, later)
    same += [f for f in later if f not in same and names_its_old(facts, f, new)]
    same += [f for f in facts if f.status == "current" and not _one_form(f, new)  # restated
             and certain_key(f) and f.key == new.key and f.users and stated_before(new, f)
             and family(f) == kind and f not in same]
    for fact in same:
        if beside_taken(facts, new, fact):  # "ferry out at 7:40, ferry back at 18:10"
            return 0
        if replace_or_dispute(fact, new, facts):
            return 1
    return 0
