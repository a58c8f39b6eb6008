"""Changes asked for, proposed or wished, not made (issue 28, mood of a plan not yet made).

Three structures name a new value that no one has set yet:

- a **request to someone else**: a request verb with an object that is not the speaker
  ("the parties have asked the judge to delay the deadline until Friday", "the market has
  asked for an extra hour", "they requested to move it to May"). The request is reported,
  not granted. An instruction the speaker follows ("Security asked us to cut it to 7 days",
  "my boss asked me to move it") or a reminder to the listener ("I asked you to set it to
  9443") holds, as "Legal told us to ..." does. Its mandative subjunctive too: "Finance
  requested (that) the budget be cut to $4,000", "the client demanded that it be moved".
  A grant anywhere in the request's segment makes it a decision ("..., and the board
  agreed"; not "but it hasn't agreed");
- a **proposal's noun before its infinitive** (or "the plan / idea / goal is to"): "a
  proposal to increase the rates to $2.50", "the plan is to tag v3.3 next Friday", or
  before "about / of / for" and its value ("that idea about 5434", "the proposal for $50"),
  "a petition to move the first day to September", "a motion to shift the meeting to
  Monday", "I motion to approve moving ...": what the proposal would do is not done;
- a **wish or plan of a change**: a wish or intention verb before "to" and a change verb
  whose target is a value ("We want to migrate from MySQL to Postgres", "we plan to move the
  retro to Friday", "my wife wants to move the party to Sunday"), or another's "wants" before
  an object and a change's participle ("my boss wants the deadline moved to March 3"). The
  value the change goes to is the plan's, not the current one. The speaker's own "I want to
  raise the budget to $6,000" / "we want to move the standup to 10:00" tells the assistant
  what is decided, as "I want the port changed to 9443" does, unless it is put off
  ("Eventually we want to migrate to Postgres"). "I want to move $500 into the
  fund" (the value is what is moved, no target), "we want the port to be 9443" (no change
  verb) and "I want the port changed to 9443" (the speaker's directive) state what the
  speaker wants done.

- an **opinion of what should be done**: a first-person verb of opinion before a deontic
  modal and a verb of action ("I think we should move it to Friday", "I believe the pools
  should stay open until 9 PM"). "I think it should be 9443" (a copula: what the value is)
  is not read here, and a bare "we should use Postgres" is advice (``fact_mood_stance``).
- a **subject a participle of proposing qualifies**: "the proposed date is Friday", "the
  latest time proposed is 11:15 CET" (a determiner, the participle in its noun phrase, a
  copula after): the subject names a proposal, and its value is the proposal's.
- a **change argued for** by what it would do: a change verb's gerund as a clause's subject
  before a modal ("Switching to Postgres should solve most problems", "moving it to 10 would
  help"): the change is weighed, not made.
- a **change made possible**: a present verb of enabling before its object, "to" and a
  change verb ("This feature allows administrators to change port 80 to other ports", "the
  new plan enables you to raise the quota to 50GB") tells what can be done, as "can" does.
- a **plan with its later time** (``fact_mood_planned``): "we're going to switch to gpt-4.1
  tomorrow".
- a **motion moved**: "moved (on July 15) that the commission shift its meeting to Monday"
  (the verb of a meeting's motion, its complement clause opening with "that" and a
  determiner or a name; "we moved that meeting to Friday" has no clause after "that").

Each is marked from its verb or noun to its clause's end. The words are closed classes:
request verbs, the nouns of a proposal, the verbs of wishing, intending and opinion.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ollm_desktop.engine.fact_mood_effort import effort_marks, may_strive
from ollm_desktop.engine.fact_mood_planned import GOING, LATER, MONTHS, WILL, planned
from ollm_desktop.engine.fact_verbs import changes
from ollm_desktop.engine.fact_words import DETERMINERS, PREPOSITIONS, Tok, closed

ProposedMark = tuple[int, int, Literal["reported", "tentative"]]

REQUEST = closed("ask asks asked asking request requests requested requesting petition "
                 "petitions petitioned petitioning demanded")  # (not the noun "demand")
PROPOSAL_NOUNS = closed("proposal proposals petition petitions motion motions suggestion "
                        "suggestions request requests plan plans bid bids idea goal intention")
DEFERRED = closed("eventually someday ultimately")  # a wish put off to a time not named
WISH = closed("want wants wanted wanting plan plans planned planning intend intends intended "
              "intending aim aims aiming")
# A proposal or request that was granted is a decision ("the plan to move it was approved").
GRANTED = closed("approved accepted adopted passed ratified granted agreed carried signed")
SPEAKER = closed("me us you")  # an instruction the speaker follows, a reminder to the listener
WANTS = closed("want wants wanted")
WISHERS = closed("i we we're i'm we've i've i'd we'd")
_AUXILIARY = closed("have has had also already just then 've")
_EDGE = closed(", ; : — – but so because")
REACH = 6  # words between a request verb and its "to", or a wish's "to" and its target
OPINION = closed("think believe feel")  # ("I guess it should be": a guess at a fact)
DEONTIC = closed("should ought")
PREDICTING = closed("should would could might")  # ("will help": a change announced)
ENABLING = closed("allow allows allowing enable enables enabling permit permits permitting")
MOVED = closed("move moves moved")
# A participle of proposing inside a subject ("the proposed date is", "the time suggested was")
PROPOSING = closed("proposed suggested requested")
_COPULA = closed("is was are were")
_ALL = REQUEST | PROPOSAL_NOUNS | WISH | OPINION | ENABLING | MOVED | PROPOSING


def may_propose(tokens: Sequence[Tok], first: int) -> bool:
    """Whether a sentence holds any word these structures begin with (a cheap pre-check)."""
    return any(t.word in _ALL or t.word in GOING or t.word in WILL or t.word in LATER
               or _gerund(t.word) or (t.value is not None and t.value[2].lower() in MONTHS)
               for t in tokens[first:]) or \
        may_strive({t.word for t in tokens[first:]})  # (MONTHS: a plan's "… in September")


def _gerund(word: str) -> bool:
    return word.endswith("ing") and changes(word)


def _argued(tokens: Sequence[Tok], a: int, i: int, b: int) -> bool:
    """A change verb's gerund at ``i`` opening its clause, before a modal."""
    if i > a and tokens[i - 1].word not in _EDGE | {"and"}:
        return False
    for j in range(i + 1, min(b, i + 1 + REACH)):
        if tokens[j].word in PREDICTING:
            return True
        if tokens[j].word in _EDGE:
            return False
    return False


def _end(tokens: Sequence[Tok], i: int, b: int) -> int:
    """The clause's end; an appositive after a comma goes with it (", an increase of $1")."""
    return next((x for x in range(i, b) if tokens[x].word in _EDGE and not (
        tokens[x].word == "," and x + 1 < b and tokens[x + 1].word in ("a", "an"))), b)


def _others(tokens: Sequence[Tok], a: int, i: int) -> bool:
    """A subject before ``i`` that is not the speaker ("the parties have asked"; "I asked",
    "Asked the bank to ...", with its subject dropped, are the speaker's own request)."""
    j = i - 1
    while j >= a and tokens[j].word in _AUXILIARY:
        j -= 1
    return j >= a and tokens[j].word[:1].isalpha() and tokens[j].word not in WISHERS


def _requested(tokens: Sequence[Tok], i: int, b: int, *, anyone: bool = False) -> bool:
    """A request verb at ``i`` with another's object before its "to" or with "for" (with
    ``anyone``, an enabling verb with any object before its "to")."""
    nxt = tokens[i + 1].word if i + 1 < b else ""
    if nxt == "for" and not anyone:
        return tokens[i - 1].word not in ("a", "the") if i > 0 else True  # ("a request for")
    for j in range(i + 1, min(b, i + 1 + REACH)):
        word = tokens[j].word
        if word == "to" or (word == "be" and not anyone and j > i + 1):
            # "asked the judge to delay it"; "requested (that) the budget be cut to $4,000":
            # a mandative subjunctive, the change's participle after "be"
            verb = tokens[j + 1].word if j + 1 < b else ""
            object_ = [t.word for t in tokens[i + 1:j]]
            return changes(verb) and (anyone or not set(object_) & SPEAKER) and (
                i == 0 or tokens[i - 1].word not in ("a", "the", "your", "my", "our"))
        if tokens[j].value is not None or word in _EDGE:
            return False
    return False


def _proposed(tokens: Sequence[Tok], i: int, b: int) -> bool:
    """A proposal's noun at ``i`` before "to" and a verb ("a proposal to increase"), or after
    a determiner and before "is/was to" and a verb ("the plan is to tag v3.3 next Friday")."""
    if i > 0 and tokens[i - 1].word in DETERMINERS and i + 3 < b and \
            tokens[i + 1].word in ("is", "was") and tokens[i + 2].word == "to":
        i += 1
    if i > 0 and tokens[i - 1].word in DETERMINERS and i + 2 < b and \
            tokens[i + 1].word in ("about", "of", "for") and (
                tokens[i + 2].value is not None or tokens[i + 2].word[:1].isdigit()):
        return True  # "that idea about 5434", "the request for 20 GB": the proposal's value
    return i + 2 < b and tokens[i + 1].word == "to" and tokens[i + 2].word.isalpha() and \
        tokens[i + 2].value is None


def _wished(tokens: Sequence[Tok], a: int, i: int, b: int) -> bool:
    """A wish at ``i`` (the speaker's, or another's: "my boss wants ...") before "to" and a
    change verb, or before its object and a change verb's participle ("wants the deadline
    moved to March 3"), with a target "to X"."""
    if i + 2 < b and tokens[i + 1].word == "to" and changes(tokens[i + 2].word):
        if tokens[i].word in WANTS and i > a and tokens[i - 1].word in ("i", "we") and \
                not any(t.word in DEFERRED for t in tokens[a:b]):
            return False  # the speaker's "I want to raise it to $6,000" tells the assistant
            # (not "Eventually we want to migrate to Postgres": a wish put off)
        verb = i + 2
    elif tokens[i].word in WANTS:
        verb = next((j for j in range(i + 2, min(b, i + 2 + REACH)) if tokens[j].word.endswith(
            "ed") and changes(tokens[j].word)), -1)
        if verb < 0 or tokens[i + 1].word not in DETERMINERS or any(
                t.word in WISHERS for t in tokens[max(a, i - 3):i]):
            return False  # ("I want the port changed to 9443": the speaker's directive)
    else:
        return False
    return tokens[verb].word.startswith("renam") or any(  # ("wants to rename the cat Mochi")
        tokens[j].word in ("to", "until") and j + 1 < b and (  # (a name the grammar
        tokens[j + 1].value is not None or tokens[j + 1].word[:1].isalnum())  # reads later)
        for j in range(verb + 1, min(b, verb + 1 + REACH)))


def _opined(tokens: Sequence[Tok], a: int, i: int, b: int) -> bool:
    """A first-person opinion verb at ``i`` before "should" and a verb other than "be"."""
    if not (i > a and tokens[i - 1].word in ("i", "we")):
        return False
    for j in range(i + 1, min(b - 1, i + 1 + REACH)):
        if tokens[j].word in DEONTIC:
            verb = tokens[j + 1].word if tokens[j + 1].word != "to" else \
                (tokens[j + 2].word if j + 2 < b else "")
            return verb.isalpha() and verb not in ("be", "have", "not")
        if tokens[j].value is not None or tokens[j].word in _EDGE:
            return False
    return False


def _proposal_subject(tokens: Sequence[Tok], a: int, i: int, b: int) -> int:
    """Where a subject opens whose noun a participle of proposing at ``i`` qualifies ("the
    proposed date is Friday", "the latest time proposed is 11:15 CET"): a determiner before it
    and a copula after it, no verb, value or break between (-1: none). What the subject names
    is the proposal's value, not the one in force."""
    det = next((j for j in range(i - 1, max(a, i - 4) - 1, -1)
                if tokens[j].word in DETERMINERS), -1)
    if det < 0 or any(tokens[j].value is not None or tokens[j].word in _EDGE
                      for j in range(det, i)):
        return -1
    for j in range(i + 1, min(b, i + 4)):
        if tokens[j].word in _COPULA:
            return det
        if tokens[j].value is not None or tokens[j].word in _EDGE or not tokens[j].word.isalpha():
            return -1
    return -1


def _motion(sentence_tokens: Sequence[Tok], i: int, b: int) -> int:
    """Where a motion's "that" clause opens after "moved" at ``i`` (-1: none)."""
    for j in range(i + 1, min(b - 1, i + 1 + REACH)):
        token = sentence_tokens[j]
        if token.word == "that":
            nxt = sentence_tokens[j + 1]
            named = nxt.value is not None or nxt.word in DETERMINERS
            return j if named and (j == i + 1 or sentence_tokens[i + 1].word in PREPOSITIONS) \
                else -1
        if token.word in _EDGE or token.word == "to":
            return -1
    return -1


def _granted(tokens: Sequence[Tok], a: int, b: int) -> bool:
    """A verb of granting in the request's segment, not negated ("the plan to move it was
    approved", "requested it be moved to March 10, and the board agreed"; not "but the board
    has not agreed")."""
    return any(tokens[k].word in GRANTED and not any(
        t.word in ("not", "never") or t.word.endswith("n't") for t in tokens[max(a, k - 3):k])
        for k in range(a, b))


def proposed_marks(tokens: Sequence[Tok], a: int, b: int) -> list[ProposedMark]:
    """The ranges of a segment ``(a, b)`` that a request, a proposal or a wish leaves unset
    (a parenthesis inside it goes with it: "asked for an extra hour (until 2 p.m.)")."""
    out: list[ProposedMark] = list(effort_marks(tokens, a, b))  # "help … get it changed to X"
    if (plan := planned(tokens, a, b)) >= 0:  # "we're going to switch to it tomorrow"
        out.append((plan, b, "tentative"))
    i = a
    while i < b:
        word = tokens[i].word
        mood: Literal["reported", "tentative"] | None = None
        if word in REQUEST and _others(tokens, a, i) and _requested(tokens, i, b):
            mood = "reported"
        elif (word in PROPOSAL_NOUNS and _proposed(tokens, i, b)) or (
                word in WISH and _wished(tokens, a, i, b)) or (
                word in OPINION and _opined(tokens, a, i, b)) or (
                _gerund(word) and _argued(tokens, a, i, b)) or (
                word in ENABLING and _requested(tokens, i, b, anyone=True)):
            mood = "tentative"
        if mood is None and word in PROPOSING and (subject := _proposal_subject(
                tokens, a, i, b)) >= 0:
            i, mood = subject, "tentative"  # "the proposed date is Friday"
        if mood is None and word in MOVED and (motion := _motion(tokens, i, b)) > 0:
            i, mood = motion, "tentative"  # (from its "that": the motion's date is stated)
        end = _end(tokens, i + 1, b)
        opens = max((x + 1 for x in range(a, i) if tokens[x].word in _EDGE), default=a)
        if mood is None or _granted(tokens, opens, b):
            i += 1
            continue
        out.append((i, end, mood))
        i = end
    return out
