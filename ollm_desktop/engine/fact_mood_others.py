"""Values the user passes on from others, or declines (issue 28: someone else's proposal
never supersedes; ``fact_mood`` reads them with the other moods of a segment).

- **Another's wish or push**: a subject other than the speaker before a verb of pressing
  for ("Marketing is pushing for March 10", "the kids beg for 9 pm", "the client lobbied for
  Friday"), or a bare name or team before "wants" ("Security wants 30 days", "Support wants
  100 MB", "Dana wants Friday"), or any other subject before "hopes" ("their marketing
  guy hopes we'll do it for €12,000": a hope decides nothing): the value is theirs, not the
  user's, from the verb to its clause's end, and through a "because" clause after it (the
  reason given for the wish: "lobbying for midnight because everyone else has midnight").
  The speaker's own "we want 30 days", a pronoun that is no person ("it wants 8 GB": a
  requirement) and a clause with a correction's shape ("now", "instead", "in place of",
  "not") are read as before, and so is a wish of a party named by its role ("the client
  wants …", "my landlord wants …": the party who decides; read as a wish, it cost a held-out
  correction at stop 45), unless the speaker's own clause with a value answers it ("my
  mother-in-law wants it at 2pm 🙄 we're doing 4", or a clause of now: "my boss wants
  10:00, for now it stays 9:30": the wish up to that clause is theirs).
- **Another's "should"**: a verb of saying after a subject other than the speaker, with a
  deontic modal in its complement ("the new hire keeps saying we should be on React 19",
  "Bob says we should move it"): a proposal reported. An instruction ("Legal told us to")
  and a plain report ("the airline says 07:25") are read as before.
- **A quote**: another's "quoted" / "estimates" with a figure after it ("the garage quoted
  800 EUR for the clutch", "roofer B quotes 12,900"): an offer, not what the user pays.
- **An unnamed source**: "someone (somebody) … said / mentioned / posted X" is hearsay.
- **A change called off**: a value that opens its clause before "got / was / has been
  cancelled (scrapped, shelved, abandoned)" ("v3.3 got cancelled"), a change's gerund
  after "against" ("we decided against moving it to August 29"), and what was weighed
  before "but … decided against it" ("We thought about the 27th but decided against it"):
  the value was never set.
- **What the user keeps**: a last clause after "but" in which the speaker keeps or stays on
  a value that ends it ("…, but we're keeping Saturday", "…, but we're staying on 3.11")
  leaves the values of the clauses before it, whose subject is not the speaker, as
  another's ("The tutorial was bumped to Python 3.13, but we're staying on 3.11"). A kept
  object with its own noun ("we keep the retro at 15:00") or a key after it ("we keep 8443
  for admin") is a second key: nothing is marked. Without "but" ("…, ours stays £45", "…, we
  keep 5432") it cost a held-out correction (another's key changed beside the user's own).

- **A report the user sets against**: "they say 8444 but our port is 8443" (a report with
  its value, then "but" and the speaker's own clause, or a written source's report: "my
  friend said to use 2 cups but the recipe says 3 cups", "… but nope the manual says …"):
  the first report's value is not current.
- **A change for others**: a value before "for other …" / "for others" / "for everyone
  else" ("The bus company pushed its price to £60 for other schools") is not the user's.
- **A text not yet set right**: "still" before a verb of saying ("the runbook still says
  20 s", "the site still shows $45"): what the text says is no longer what holds.
- **A value that names a report's source**: "Changelog for v3.1 mentions the fix too" (the
  value says which changelog, and the report gives none).

The words are closed classes: verbs of wanting, pressing, saying, keeping and calling off,
the indefinite pronouns of a person, the first person.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ollm_desktop.engine.fact_mood_keen import keen_marks, may_lean
from ollm_desktop.engine.fact_mood_offered import OFFER_NOUNS, offered_marks
from ollm_desktop.engine.fact_mood_pressed import KIN, PETITIONING, pressed_for
from ollm_desktop.engine.fact_mood_refused import may_refuse, refused_marks
from ollm_desktop.engine.fact_mood_some import some_of
from ollm_desktop.engine.fact_mood_then import now_opens
from ollm_desktop.engine.fact_mood_words import FIRST_PERSON
from ollm_desktop.engine.fact_tense_ended import named_old
from ollm_desktop.engine.fact_verbs import changes
from ollm_desktop.engine.fact_words import DETERMINERS, REPORTING, Tok, closed, is_change

OthersMark = tuple[int, int, Literal["reported", "negated", "past"]]

WANTING = closed("wants wanted want")
PREFERRING = closed("prefers prefer preferred likes loves favours favors")  # a taste, a wish
PRESSING = closed("push pushes pushing pushed lobby lobbies lobbying lobbied beg begs begging "
                  "begged campaign campaigns campaigning campaigned plead pleads pleading "
                  "pleaded angling angled") | PETITIONING  # before "for" (or a person and "for")
_HARD = closed("hard really so strongly loudly still again")  # "campaigning hard for"
SAYING = REPORTING | closed("saying keeps keep")  # ("keeps saying": the verb after "keeps")
DEONTIC = closed("should ought")
UNNAMED = closed("someone somebody")
CALLED_OFF = closed("cancelled canceled scrapped shelved abandoned")
KEEPING = closed("keep keeps keeping stay stays staying stick sticks sticking remain remains")
OWN = closed("our my ours mine")  # the speaker's own after "but"
_DENIED = closed("not no never nope")  # "… but that's not happening"
_FILLERS = closed("nope no nah actually honestly , well")  # after "but", before its clause
NO_PERSON = closed("it this that which who what there")
_ALONG = closed("is are was were 's keeps keep still also really just has have had been "
                "always")
_PASSIVE = closed("is are was were be been being")
_GOT = closed("got get gets")
_SHAPE = closed("now instead rather place not")  # a correction's shape ("in place of")
_EDGE = closed(", ; : — – but so because and")
HOPING = closed("hopes hoped hoping")  # "their marketing guy hopes we'll do it for €12,000"
_WISHING = WANTING | PREFERRING | PRESSING | HOPING
QUOTING = closed("quoted quotes estimated estimates")  # a price offered, not paid
_ALWAYS = _WISHING | UNNAMED | CALLED_OFF | QUOTING | OFFER_NOUNS | {"against"}
_PAIRED = closed("but for of")  # a report set against, a report's source
DECIDED = closed("decided decide decides voted vote ruled")  # "… but decided against it"
_BACK = closed("it that this them")  # what "against" points back to


def may_decline(tokens: Sequence[Tok], first: int) -> bool:
    """The words each structure needs (a cheap pre-check: "for" and "says" alone are common,
    so they count only with the word their structure pairs them with)."""
    words = {t.word for t in tokens[first:]}
    if words & _ALWAYS or may_refuse(words) or may_lean(words):
        return True
    if words & SAYING and words & (DEONTIC | _PAIRED | {"still"}):
        return True
    if "for" in words and words & {"other", "others", "everyone"}:
        return True
    return bool(words & KEEPING) and "but" in words


def _clause_end(tokens: Sequence[Tok], i: int, b: int) -> int:
    return next((x for x in range(i, b) if tokens[x].word in _EDGE), b)


def _clause_start(tokens: Sequence[Tok], a: int, i: int) -> int:
    return max((x + 1 for x in range(a, i) if tokens[x].word in _EDGE), default=a)


def _subject_at(tokens: Sequence[Tok], a: int, i: int) -> int:
    """Where the word before the verb at ``i`` stands, past its auxiliaries (``a - 1``: none)."""
    j = i - 1
    while j >= a and tokens[j].word in _ALONG:
        j -= 1
    return j


def _subject(tokens: Sequence[Tok], a: int, i: int) -> str:
    """The word before the verb at ``i`` past its auxiliaries ("Marketing is pushing")."""
    j = _subject_at(tokens, a, i)
    return tokens[j].word if j >= a and tokens[j].value is None else ""


def _another(subject: str) -> bool:
    return subject[:1].isalpha() and subject not in FIRST_PERSON and \
        subject not in NO_PERSON and subject not in DETERMINERS


def _wish(tokens: Sequence[Tok], a: int, i: int, b: int) -> bool:
    word = tokens[i].word
    nxt = tokens[i + 1].word if i + 1 < b else ""
    if word in WANTING or word in PREFERRING or word in HOPING:
        wanted = nxt != "to" and i + 1 < b and nxt not in _EDGE
        if nxt == "to" and word in WANTING and i + 2 < b:  # "the drummer wants to play it at
            verb = tokens[i + 2].word  # 140 bpm" (a change wished: fact_mood_proposed)
            wanted = verb.isalpha() and verb not in _PASSIVE and not changes(verb) and any(
                t.value is not None or t.word[:1].isdigit()  # (a value in it: "Ana wants to
                for t in tokens[i + 3:_clause_end(tokens, i, b)])  # play for a while" asks
            # nothing of a sentence stating "Kwame is DMing")
    else:
        if nxt in _HARD and i + 2 < b:
            nxt = tokens[i + 2].word
        wanted = word in PRESSING and (nxt == "for" or pressed_for(tokens, i, b))
    if word in PRESSING and word.endswith("ed") and i > a and \
            tokens[i - 1].word in _PASSIVE | _GOT:
        return False  # "The launch got pushed for March 10": a change made, no one's push
    stop = _clause_end(tokens, i, b)
    subject = _subject(tokens, a, i)
    j = _subject_at(tokens, a, i)
    if (word in WANTING or word in PREFERRING) and j > a and subject not in KIN and \
            tokens[j - 1].word[:1].isalpha() and _answered(tokens, i, b) < 0 and \
            not some_of(tokens, a, j):
        return False  # "the client wants …", "my boss wants …": the party who decides
    return wanted and _another(subject) and \
        not any(t.word in _SHAPE for t in tokens[i:stop])


def _answered(tokens: Sequence[Tok], i: int, b: int) -> int:
    """Where the speaker's own clause with a value opens after another's wish at ``i`` ("my
    mother-in-law wants it at 2pm, we're doing 4": the wish is answered), or a "but" that
    sets the speaker or a negation against it ("The PM wants Tuesdays but that's not
    happening", "… but we're staying on Thursdays"; -1: none)."""
    for j in range(i + 2, b):
        if tokens[j].word in FIRST_PERSON and not tokens[j - 1].word[:1].isalnum() and any(
                t.value is not None or t.word[:1].isdigit() for t in tokens[j + 1:j + 4]):
            return j
        if tokens[j].word == "but" and _set_against(tokens, j + 1, b):
            return j
        if not tokens[j - 1].word[:1].isalnum() and _kept_answer(tokens, i, j, b):
            return j  # "…, I told them it stays €80/h", "…, it stays 40 kg"
        size = now_opens([t.word for t in tokens[j:j + 3]], 0)  # "…, for now it stays 9:30"
        if size and not tokens[j - 1].word[:1].isalnum() and any(
                t.value is not None for t in tokens[j + size:j + size + 4]):
            return j
    return -1


def _kept_answer(tokens: Sequence[Tok], i: int, j: int, b: int) -> bool:
    """A clause at ``j`` of the speaker's, or of "it", that keeps a value of the kind of the
    one wished after ``i``: a verb of keeping in its first words, such a value right after it
    ("I told them it stays €80/h", "it stays 40 kg", "we're sticking with 40 kg"; "the client
    wants May 3, it stays 2 phases" keeps another attribute and answers nothing)."""
    if tokens[j].word not in FIRST_PERSON and tokens[j].word not in ("it", "it's"):
        return False
    keep = next((k for k in range(j + 1, min(b, j + 5)) if tokens[k].word in KEEPING), -1)
    wished = next((_kind(tokens, k, b) for k in range(i + 1, j) if tokens[k].value), None)
    return keep > 0 and wished is not None and any(
        _alike(wished, _kind(tokens, k, b)) for k in range(keep + 1, min(b, keep + 4))
        if tokens[k].value is not None or tokens[k].word[:1].isdigit())


def _kind(tokens: Sequence[Tok], k: int, b: int) -> tuple[str, str]:
    """A value's ref kind and its unit word ("" when none): "45 kg" ("number", "kg"), a bare
    count before its noun, "2 phases", ("number", "phases")."""
    value = tokens[k].value
    if value is not None:
        last = value[2].split()[-1].lower()
        return value[3], last if last.isalpha() and " " in value[2] else ""
    nxt = tokens[k + 1].word if k + 1 < b else ""
    return "number", nxt if nxt.isalpha() else ""


def _alike(one: tuple[str, str], other: tuple[str, str]) -> bool:
    return one[0] == other[0] and (one[1] == other[1] or not one[1] or not other[1])


def _set_against(tokens: Sequence[Tok], j: int, b: int) -> bool:
    """The clause after a "but" at ``j - 1`` is the speaker's own or denies: a first person
    or a possessive of it opens it, or a negation stands in its first words ("but that's
    not happening", "but no way", "but it won't")."""
    words = [t.word for t in tokens[j:min(b, j + 4)]]
    return bool(words) and (words[0] in FIRST_PERSON or words[0] in OWN or any(
        w in _DENIED or w.endswith("n't") for w in words))


def _should(tokens: Sequence[Tok], a: int, i: int, b: int) -> bool:
    if tokens[i].word not in SAYING or tokens[i].word in ("keeps", "keep") or \
            (i > a and tokens[i - 1].word in _PASSIVE):
        return False  # ("is listed as March 3 (should be March 5)": a passive, no speaker)
    subject = _subject(tokens, a, i)
    stop = _clause_end(tokens, i, b)
    return _another(subject) and any(t.word in DEONTIC for t in tokens[i:min(stop, i + 5)]) \
        and not any(t.word in _SHAPE for t in tokens[i:stop])


def _unnamed(tokens: Sequence[Tok], a: int, i: int) -> bool:
    start = _clause_start(tokens, a, i)
    return tokens[i].word in REPORTING and i - start <= 8 and \
        tokens[start].word in UNNAMED


def _called_off(tokens: Sequence[Tok], a: int, i: int) -> int:
    """The value that opens its clause before "got / was cancelled" (-1: none)."""
    j = i - 1
    while j >= a and tokens[j].word in ("got", "was", "is", "been", "has", "had", "officially"):
        j -= 1
    start = _clause_start(tokens, a, i)
    return j if j == start and j < i - 1 and tokens[j].value is not None else -1


def _against(tokens: Sequence[Tok], i: int, b: int) -> int:
    """The end of a change's gerund after "against" up to its value (-1: none)."""
    if i + 1 >= b or not (tokens[i + 1].word.endswith("ing") and changes(tokens[i + 1].word)):
        return -1
    for j in range(i + 2, min(b, i + 8)):
        if tokens[j].value is not None and tokens[j - 1].word == "to":
            return j + 1
        if tokens[j].word in _EDGE:
            return -1
    return -1


def _against_it(tokens: Sequence[Tok], a: int, i: int, b: int) -> int:
    """"against" at ``i`` after a verb of deciding, before a pronoun that points back past
    "but" ("We thought about the 27th but decided against it"): where that "but" is (-1:
    none); what was weighed before it was never set."""
    if not (i > a and tokens[i - 1].word in DECIDED and i + 1 < b and
            tokens[i + 1].word in _BACK):
        return -1
    return max((x for x in range(a, i - 1) if tokens[x].word == "but"), default=-1)


def _for_others(tokens: Sequence[Tok], i: int, b: int) -> bool:
    """"for" at ``i`` after a value, before others ("£60 for other schools", "for
    everyone else"): a change that is not the user's own."""
    after = [t.word for t in tokens[i + 1:min(b, i + 3)]]
    return i > 0 and tokens[i - 1].value is not None and bool(after) and (
        after[0] in ("other", "others") or after[:2] == ["everyone", "else"])


def _named_source(tokens: Sequence[Tok], a: int, i: int, b: int) -> int:
    """A value that names the source of a report ("the changelog for v3.1 mentions the
    fix": which changelog), when the report itself gives no value (-1: none)."""
    start = _clause_start(tokens, a, i)
    if any(t.value is not None or t.word[:1].isdigit() for t in tokens[i + 1:_clause_end(
            tokens, i, b)]):
        return -1
    j = i - 1  # (the source's value is right before the verb)
    return j if j > start and tokens[j].value is not None and \
        tokens[j - 1].word in ("for", "of") else -1


def _report_but_ours(tokens: Sequence[Tok], a: int, i: int, b: int) -> int:
    """A report whose value the speaker's own clause after "but" sets against ("they say
    8444 but our port is 8443"): where the "but" stands (-1: none)."""
    subject = _subject(tokens, a, i)
    if subject in FIRST_PERSON or not subject[:1].isalpha() or \
            not any(t.value is not None or t.word[:1].isdigit() for t in tokens[i + 1:i + 4]):
        return -1
    but = next((j for j in range(i + 1, b) if tokens[j].word == "but"), -1)
    k = but + 1
    while 0 < k < b - 1 and tokens[k].word in _FILLERS:
        k += 1  # "but nope, …", "but actually …"
    own = tokens[k].word if 0 < but < b - 1 else ""
    # or a written source of the user's set against it: "my friend said 2 cups but the
    # recipe says 3 cups" (a determiner, its noun, a verb of saying and a value after)
    source = own in ("the", "this", "that") and any(
        tokens[j].word in REPORTING and tokens[j - 1].word[:1].isalpha() and any(
            t.value is not None or t.word[:1].isdigit() for t in tokens[j + 1:j + 4])
        for j in range(k + 2, min(b, k + 4)))
    return but if own in FIRST_PERSON or own in OWN or source else -1


def _kept(tokens: Sequence[Tok], a: int, i: int, b: int) -> int:
    """Where the clause of a keeping verb at ``i`` opens, when it is the segment's last and
    keeps a value that ends it ("…, but we're keeping Saturday"; -1: none)."""
    start = _clause_start(tokens, a, i)
    if start <= a or tokens[start - 1].word != "but" or \
            _subject(tokens, start, i) not in FIRST_PERSON:
        return -1
    rest = [t for t in tokens[i + 1:b] if t.word not in (".", "!", "…")]
    if rest and rest[0].word in ("on", "with", "at"):
        rest = rest[1:]
    if not 1 <= len(rest) <= 2 or any(t.word in DETERMINERS or t.word in _EDGE for t in rest):
        return -1
    return start if rest[0].value is not None or rest[0].word[:1].isalnum() else -1


def others_marks(tokens: Sequence[Tok], a: int, b: int) -> list[OthersMark]:
    """The ranges of a segment ``(a, b)`` that are another's word or a change called off."""
    out: list[OthersMark] = [*refused_marks(tokens, a, b),  # "… and we refused",
                             *offered_marks(tokens, a, b),  # "Comcast has a $30 promo"
                             *named_old(tokens, a, b),  # "the old 555-0123 is dead"
                             *keen_marks(tokens, a, b)]  # (fact_mood_keen) "is keen on X"
    for i in range(a, b):
        word = tokens[i].word
        wished = word in _WISHING and _wish(tokens, a, i, b)
        if wished or (word in SAYING and (_should(tokens, a, i, b) or _unnamed(tokens, a, i))):
            end = _clause_end(tokens, i, b)
            if wished and (own := _answered(tokens, i, end)) > 0:
                end = own  # (the speaker's answer states: "…, we're doing 4")
            if wished and end < b and tokens[end].word == "because":  # the wish's reason is
                end = _clause_end(tokens, end + 1, b)  # theirs ("… because everyone has X")
            out.append((i + 1, end, "reported"))
        elif word in QUOTING and (end := _quoted(tokens, a, i, b)) > 0:  # "the garage
            out.append((i + 1, end, "reported"))  # quoted 800 EUR", "…, roofer B 12,900"
        elif word in REPORTING and i > a and tokens[i - 1].word == "still" and \
                (i - 2 < a or tokens[i - 2].word not in FIRST_PERSON):  # ("I still say")
            out.append((i + 1, _clause_end(tokens, i, b), "reported"))  # "it still says 20 s"
        elif word in CALLED_OFF and (at := _called_off(tokens, a, i)) >= 0:
            out.append((at, i + 1, "negated"))
        elif word == "against" and (end := _against(tokens, i, b)) > 0:
            out.append((i, end, "negated"))
        elif word == "against" and (but := _against_it(tokens, a, i, b)) > a:
            out.append((a, but, "negated"))
        elif word == "for" and _for_others(tokens, i, b):
            out.append((_clause_start(tokens, a, i), _clause_end(tokens, i, b), "reported"))
        elif word in REPORTING and (at := _named_source(tokens, a, i, b)) >= 0:
            out.append((at, at + 1, "reported"))
        elif word in REPORTING and (but := _report_but_ours(tokens, a, i, b)) > 0:
            out.append((i + 1, but, "reported"))
        elif word in KEEPING and (start := _kept(tokens, a, i, b)) > 0:
            before = start - 1 if tokens[start - 1].word in _EDGE else start
            head = next((t.word for t in tokens[a:before] if t.word[:1].isalnum()), "")
            if head not in FIRST_PERSON and not _verb_first(head) and any(
                    t.value is not None or t.word[:1].isdigit() for t in tokens[a:before]):
                out.append((a, before, "reported"))
    return out


def _quoted(tokens: Sequence[Tok], a: int, i: int, b: int) -> int:
    """The end of another's quote or estimate at ``i`` with its figure right after it
    ("the garage quoted 800 EUR", "roofer A quoted 14,200 and roofer B 12,900", "the
    mechanic estimates 800"), through the gapped quotes that follow it ("…, the other guy
    2,100": a subject and a figure, no verb); -1: none ("they quoted less" has no figure,
    "the quoted price is" is a noun phrase, "I estimated 3 weeks" is the user's own)."""
    j = _subject_at(tokens, a, i)
    subject = tokens[j].word if j >= a else ""
    lettered = subject == "a" and j > a and tokens[j - 1].word.isalpha() and \
        tokens[j - 1].word not in DETERMINERS  # "roofer A quoted": a letter names it
    k = i + 1 + (i + 1 < b and tokens[i + 1].word in ("us", "me", "them", "him", "her"))
    if not (_another(subject) or lettered) or k >= b or not (
            tokens[k].value is not None or tokens[k].word[:1].isdigit()):
        return -1  # (its figure right after it: "the laptop quote dropped from …" is a noun)
    end = _clause_end(tokens, i, b)
    while end < b - 1 and tokens[end].word in (",", "and"):
        k = end + 1 + (tokens[end + 1].word == "and")
        n = next((x for x in range(k, min(b, k + 5)) if tokens[x].value is not None or
                  tokens[x].word[:1].isdigit()), -1)
        if n < 0 or n - k > 3 or not all(_gapped(t.word) for t in tokens[k:n]) or (
                n + 1 < b and tokens[n + 1].word not in _EDGE | {"."}):
            break
        end = n + 1  # "…, the other guy 2,100", "… and roofer B 12,900"
    return end


def _gapped(word: str) -> bool:
    """A word of a gapped clause's subject ("the other guy", "roofer B"): no verb, no
    pronoun ("and we paid 750" has its own verb)."""
    return word.isalpha() and not is_change(word) and word not in FIRST_PERSON and \
        word not in _SUBJECT_PRONOUNS and word not in _ALONG and not word.endswith("ed")


_SUBJECT_PRONOUNS = closed("he she they you it")


def _verb_first(head: str) -> bool:
    """A clause that opens with its verb, its subject (the speaker) dropped ("Moved the
    standup to 10:00, but we are keeping Friday"): the speaker's own change (stop 45's
    review)."""
    return is_change(head) or (head.endswith("ed") and len(head) > 4)
