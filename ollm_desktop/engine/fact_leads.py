"""What opens a sentence before its clause: discourse words, a correction's lead, a time from
which the clause holds, and a retraction of an earlier value ("ignore what I said about Y").

Part of ``fact_grammar``'s reading. Each is a shape, not a cue list:

- **A lead** ("actually", "scratch that", "correction:", "wait, no"): the closed set in
  ``fact_words.LEADS``.
- **A time from which the clause holds**: "from <deictic or next/this + noun> on / onward(s)
  [out]" ("from now on", "from today on", "from next week onward", "from here on out"), a
  participle with "forward" ("going forward", "moving forward"), or one of the closed class of
  adverbs that say it ("henceforth", "hereafter").
- **A clause that says the earlier word was wrong**: a leading clause without a value whose
  words include one of the closed class ``ERROR`` ("I got that wrong:", "my mistake —", "I
  misread the PDF,"), or a retraction verb with a pronoun ("strike that", "scrap it"), the
  negated "never mind [that]", a pause ("hold on,") and "let me correct/fix that".
- **A retraction**: an imperative of a verb that takes back what was said (the closed class
  ``RETRACT``: scratch, forget, ignore, disregard) opening the sentence; the values of its
  object, up to the clause's end, are the replaced ones ("Ignore what I said about Hertz — we
  booked with Sixt": Hertz is old, the clause after it states the new value).
"""

from __future__ import annotations

import re
from itertools import pairwise

from ollm_desktop.engine.fact_change_leads import redone_lead
from ollm_desktop.engine.fact_changed_subjects import changed_lead
from ollm_desktop.engine.fact_words import (
    BOUNDARY,
    COPULAS,
    DEICTIC,
    FILLER,
    LEADS,
    REPAIRS,
    Tok,
    closed,
    joined,
)

# Verbs and auxiliaries that follow a subject (closed classes) and the object pronouns and
# determiners that follow a verb with no subject ("booked it").
SUBJECT_VERBS = closed("is was are were has had looks looked seems seemed sounds sounded "
                       "feels felt will would can could does did")
_OBJECTS = closed("it them him her the a an that this")
# The verbs whose imperative takes back what was said (a closed class).
RETRACT = closed("scratch strike forget ignore disregard scrap")
# The verbs of "let me correct that" (a closed class: what a speaker does to their own word).
AMEND = closed("correct fix amend rephrase revise restate retract redo")
# The verbs of a pause before a correction, with their particle ("hold on", "hang on").
PAUSE = closed("hold hang")
# The verbs that end what the user had, in their forms ("drop the tiramisu", "we ditched
# Jira", "cancelled PureGym"): their object is the old value (a closed class).
ENDING = closed("drop drops dropped dropping ditch ditches ditched ditching cancel cancels "
                "cancelled canceled cancelling scrap scraps scrapped scrapping")
# "give up on Y" ends Y too (the verb's forms; its particles follow it).
GIVE_UP = closed("give gives gave given giving")
# The speakers before such a verb ("we dropped", "I cancelled").
_SPEAKERS = closed("we i")
# Words that say what was said was wrong (a closed class of predicates of error).
# ("error" is left out: it is a noun in most sentences, "the error analysis is fine")
ERROR = closed("wrong mistake mistaken misspoke misspoken typo typos incorrect misread "
               "misremembered")
# "mix up", in its forms: the phrasal verb of confusing two values ("I always mix those up",
# "I mixed up the dates").
MIXED = closed("mix mixes mixed mixing")
_ERRING = ERROR | MIXED


def admits(said: set[str] | frozenset[str]) -> bool:
    """A clause's words say the speaker's word was wrong: a predicate of error ("wrong",
    "typo", "misread") or "mix ... up"."""
    return bool(said & ERROR) or (bool(said & MIXED) and "up" in said)


MAX_LEAD_WORDS = 10
_SHORT_ERROR = 4  # words of a clause about an error that names no speaker
# The speaker of such a clause (it says the user's own word was wrong: "I misread", "my
# mistake", "that was wrong"), not a value ("set the log level to error").
SPEAKER = closed("i my we our i'm i've we've that this it")
# Adverbs of time that say "from now on" in one word (a closed class).
FROM_NOW = closed("henceforth hereafter thenceforth")
ONWARD = closed("on onward onwards")


_LEAD_HEADS = frozenset(lead.split()[0] for lead in LEADS)


def squeezed(word: str) -> str:
    """A word with each run of one letter squeezed to one ("ahh" -> "ah", "hmmm" -> "hm",
    "errr" -> "er"): how an interjection is drawn out in chat."""
    return re.sub(r"(.)\1+", r"\1", word) if word.isalpha() else word


# Hesitations of ``REPAIRS`` are read squeezed ("errr"); "um" and "uh" hesitate without
# repairing (fillers).
_FILLERS = frozenset(squeezed(word) for word in FILLER) | {"um", "uh"}


def _repair(tokens: list[Tok], index: int) -> bool:
    """A hesitation of ``REPAIRS`` as its own clause ("err, 40 s", "nvm - 4 am"): a lead.
    Before a colon it is a label ("er: 4 nurses", the ER's), never a hesitation."""
    after = tokens[index + 1].word if index + 1 < len(tokens) else ""
    return squeezed(tokens[index].word) in REPAIRS and after != ":" and (
        after in BOUNDARY or after == "")


def strip_lead(tokens: list[Tok]) -> tuple[int, bool]:
    """Index of the first token after discourse words, and whether a correction lead was."""
    index, correction = 0, False
    erring = any(t.word in _ERRING for t in tokens)  # (most sentences say nothing was wrong)
    while index < len(tokens):
        lead = None
        if tokens[index].word in _LEAD_HEADS:
            text = joined(tokens[index:index + 4])  # (a lead is at most three words)
            lead = next((lead for lead in LEADS if text == lead or
                         text.startswith(lead + " ")), None)
            if lead == "i mean the" and _clause_subject(tokens, index + 3):
                lead = None  # "I mean the Hilton, honestly, looked nicer": a clause
            if lead == "no" and (_no_noun(tokens, index + 1) or _no_way(tokens, index + 1)):
                lead = None  # "no meat please": a determiner, nothing taken back
        span = from_now(tokens, index) or _taken_back(tokens, index) or (
            erring and _error_clause(tokens, index)) or _repair(tokens, index) or (
            index == 0 and redone_lead(tokens, index))  # ("we rebuilt it, hostname is X")
        if lead is not None or span:
            index += span or len(lead.split() if lead else ())
            correction = True
        elif squeezed(tokens[index].word) in _FILLERS or tokens[index].word in BOUNDARY - {"("}:
            index += 1
        else:
            break
    return index, correction or (index == 0 and (redone_lead(tokens, 0, named=True) > 0 or
                                                 changed_lead(tokens)))  # ("the PIN's changed, …")


def _no_noun(tokens: list[Tok], at: int) -> bool:
    """A plain lower-case noun right after "no", no value and no closed-class word, and no
    value after it: "no" is its determiner ("no meat please", "no sugar in mine"), where "no
    it's Tuesday", "no wait", "no, 40", "no hang on, 7:40" take a word back."""
    word = tokens[at].word if at < len(tokens) else ""
    return word.isalpha() and word.islower() and tokens[at].value is None and \
        word not in _NOT_NOUN and not word.endswith("ly") and \
        not any(t.value for t in tokens[at:])  # (none meant after it: "no hang on, 7:40")


def _no_way(tokens: list[Tok], at: int) -> bool:
    """"no way" / "no chance" with no value after it: a refusal (``fact_mood_dismissed``:
    "the PM wants Linear, no way"), not a word taken back ("no wait, 7:40")."""
    word = tokens[at].word if at < len(tokens) else ""
    return word in ("way", "chance") and not any(t.value for t in tokens[at:])


_NOT_NOUN = FILLER | REPAIRS | DEICTIC | SUBJECT_VERBS | closed(
    "i we you he she it they the a an this that these those my our your his her their wait "
    "sorry actually not never more less longer way worries problem hang hold scratch forget "
    "make ignore strike cancel delete change correction")


# Adverbs that may stand between a subject and its verb in chat ("the Hilton, honestly,
# looked nicer"): a closed class.
_ASIDE = closed("honestly really frankly actually just also definitely tbh imo")


def _clause_subject(tokens: list[Tok], at: int) -> bool:
    """The name at ``at`` is a subject: a verb follows it (past, present or an auxiliary),
    past commas and asides; "I mean the Hilton, honestly, looked nicer" says what the
    speaker thinks of the Hilton, where "I mean the Hilton" repairs a word."""
    j = at
    while j < len(tokens) and j - at < 3 and tokens[j].word not in BOUNDARY and \
            tokens[j].word not in SUBJECT_VERBS and not tokens[j].word.endswith("ed"):
        j += 1  # (the name: at most three words)
    if j == at:
        return False
    while j < len(tokens) and (tokens[j].word == "," or tokens[j].word in _ASIDE):
        j += 1
    word = tokens[j].word if j < len(tokens) else ""
    after = tokens[j + 1].word if j + 1 < len(tokens) else ""
    return word in SUBJECT_VERBS or (word.endswith("ed") and len(word) > 4 and
                                      after not in _OBJECTS)


def _taken_back(tokens: list[Tok], index: int) -> int:
    """A retraction with a pronoun for what was said: the length of the lead, 0 if none.
    Its shapes: a retraction verb's imperative ("strike that", "scrap it", "disregard
    this"); the negated imperative of "mind" ("never mind [that]", "don't mind that"); a
    pause verb with its particle, then the clause's end ("hold on,", "hang on —"); "let me"
    with a verb of amending one's word and a pronoun ("let me correct that")."""
    words = [t.word for t in tokens[index:index + 4]] + ["", "", ""]
    end = words[2] in BOUNDARY or words[2] == ""  # (the lead is its own clause)
    if words[0] in RETRACT and words[1] in _SAID:
        return 2
    if words[0] in RETRACT and words[1] in ("my", "the") and words[2] in _LAST and \
            words[3] in _MESSAGE and _closes(tokens, index + 4) and (
            words[1] == "my" or words[3] not in _REPLY):  # "ignore my last message -",
        return 4  # "disregard the previous msg,": what was just said, as "that" is ("the
    # previous reply", "the last answer" are the assistant's: what it said is no user's value)
    if words[0] in ("never", "don't") and words[1] == "mind":
        return 3 if words[2] in _SAID else 2 if end else 0
    if words[0] in PAUSE and words[1] == "on" and end:
        return 2
    if words[:2] == ["let", "me"] and words[2] in AMEND and words[3] in _SAID:
        return 4
    return 0


_SAID = frozenset({"that", "this", "it"})  # what was just said, as a pronoun


def _closes(tokens: list[Tok], at: int) -> bool:
    """A break or the end at ``at``: the lead is its own clause."""
    return at >= len(tokens) or tokens[at].word in BOUNDARY or tokens[at].word == "-"
_LAST = closed("last previous earlier prior")
_MESSAGE = closed("message msg text reply answer comment post response")  # (what was just said)
_REPLY = closed("reply answer comment response")  # (what the user was told, after "the")


def _error_clause(tokens: list[Tok], index: int) -> int:
    """A leading clause with no value that says the user's word was wrong ("I got that wrong:",
    "my mistake —", "I misspoke earlier,", "I looked at the wrong column."): its length with
    the boundary after it, 0 if none."""
    for k in range(index, min(len(tokens), index + MAX_LEAD_WORDS + 1)):
        token = tokens[k]
        if token.value:
            return 0
        if token.word in BOUNDARY and token.word != "(":
            said = {t.word for t in tokens[index:k]}  # (a short one needs no speaker: "Wrong
            short = k - index <= _SHORT_ERROR and not said & _DOUBT  # ticket," "K was wrong:")
            return k + 1 - index if admits(said) and (said & SPEAKER or short) else 0
    return 0


# Words that make a clause about being wrong a doubt, not an admission ("unless I'm
# mistaken", "if I'm not wrong", "correct me if I'm wrong"): a closed class.
_DOUBT = closed("if unless whether not never though correct")


def erred_after(tokens: list[Tok], first: int) -> bool:
    """A clause after the sentence's value that says the user's word was wrong ("The port is
    7100, I got that wrong before.", "…, my mistake earlier."): the sentence corrects as
    with a leading "I got that wrong:". A doubt ("unless I'm mistaken") admits nothing."""
    if not any(t.word in _ERRING for t in tokens[first:]):
        return False
    valued = next((k for k in range(len(tokens) - 1, first - 1, -1) if tokens[k].value), -1)
    cuts = [k for k in range(valued + 1, len(tokens)) if tokens[k].word in BOUNDARY - {"("}]
    for cut, end in pairwise([*cuts, len(tokens)]):  # (no cut: nothing after the value)
        said = {t.word for t in tokens[cut + 1:end]}
        if valued >= 0 and admits(said) and said & SPEAKER and not said & _DOUBT and \
                end - cut - 1 <= MAX_LEAD_WORDS:
            return True
    return False


def from_now(tokens: list[Tok], index: int) -> int:
    """The length of a leading time from which the clause holds ("from now on", "from next
    week onward", "going forward", "henceforth"), 0 if none."""
    head = tokens[index].word
    if head in FROM_NOW:
        return 1
    if head != "from" and not head.endswith("ing"):
        return 0
    words = [t.word for t in tokens[index:index + 5]]
    if len(words) >= 2 and words[1] == "forward" and words[0].endswith("ing"):
        return 2  # "going forward", "moving forward"
    if words[:1] != ["from"]:
        return 0
    for size in (3, 4):
        between = words[1:size - 1]
        if words[size - 1:size] and words[size - 1] in ONWARD and (
                all(w in DEICTIC for w in between) or
                (len(between) == 2 and between[0] in ("next", "this") and between[1].isalpha())):
            return size + (words[size:size + 1] == ["out"])  # "from here on out"
    return 0


def gave_up(tokens: list[Tok], at: int) -> int:
    """2 where "give up on" begins at ``at`` ("Gave up on Word and …"): the index of its "on"
    is then read as an ending verb's place; 0 otherwise."""
    words = [t.word for t in tokens[at:at + 3]]
    return 2 if len(words) == 3 and words[0] in GIVE_UP and words[1:] == ["up", "on"] else 0


# What follows such a verb where it takes no object: "that" (a lead), a copula ("drop is 41
# Mill Lane", "the cancel was ...": the word is a noun, its clause's subject).
_NO_OBJECT = COPULAS | {"that", "'s"}


def retraction(tokens: list[Tok], first: int) -> tuple[int, frozenset[int]]:
    """A leading "ignore/forget/scratch [what I said about] Y" (not "scratch that", a lead),
    or "[we/I] drop/ditch/cancel Y" (not "drop K to X", a change): (the index after its
    clause, the indices of the values it takes back); (first, {}) if the sentence opens
    otherwise. The clause ends at a boundary, or at "and" after a verb that ends a value
    ("We dropped Jira and track issues in Linear"). Read after the bare values are marked."""
    at = first + (first < len(tokens) and tokens[first].word in _SPEAKERS)
    up = gave_up(tokens, at)  # "gave up on Word": its "on" ends like "dropped"
    at += up
    if at >= len(tokens) or ((tokens[at].word not in RETRACT or at != first) and
                             tokens[at].word not in ENDING and not up) or \
            (tokens[at + 1:at + 2] and tokens[at + 1].word in _NO_OBJECT):
        return first, frozenset()  # ("drop is 41 Mill Lane": a noun, the copula's subject)
    ending = tokens[at].word in ENDING or bool(up)
    end = next((k for k in range(at + 1, len(tokens)) if tokens[k].word in BOUNDARY or (
        ending and tokens[k].word == "and") or (  # "dropped Y for X": X is taken up
        ending and tokens[k].word == "for" and tokens[k + 1:k + 2] and tokens[k + 1].value)),
        len(tokens))
    if ending and any(t.word in ("to", "from", "by") for t in tokens[at + 1:end]):
        return first, frozenset()  # "drop the price to 5": a change, not an end
    taken = frozenset(k for k in range(at + 1, end) if tokens[k].value)
    return (end + 1, taken) if taken and end < len(tokens) else (first, frozenset())
