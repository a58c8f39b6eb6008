"""Which value of a sentence is the old one a correction retires: "not Y", "instead of Y",
"rather than Y", "from Y to X", "X, up from Y", "Y is no longer…", "Y → X", "K: X (was Y)",
"replace Y with X", "X over Y", a past copula's subject ("10% was underfitting")."""

from __future__ import annotations

from ollm_desktop.engine.fact_aside_olds import bracketed_old, current_old
from ollm_desktop.engine.fact_change_olds import moved_subject, renamed_subject
from ollm_desktop.engine.fact_clause_openings import names_which
from ollm_desktop.engine.fact_leads import ENDING
from ollm_desktop.engine.fact_mood_words import (
    ANTERIOR_ADJ,
    BELIEF,
    CONDITIONAL,
    FIRST_PERSON,
    HEARSAY,
    JUDGED,
    MODAL,
    TENTATIVE,
)
from ollm_desktop.engine.fact_spans import BEFORE_A_FIGURE, at_value, left_for, spanned
from ollm_desktop.engine.fact_value_spans import changes_its_object
from ollm_desktop.engine.fact_verbs import finite_verb, plain
from ollm_desktop.engine.fact_words import (
    ARROWS,
    BOUNDARY,
    DETERMINERS,
    HEDGES,
    MODALS,
    Tok,
    Value,
    closed,
    is_change,
    is_replace,
    unitless,
)


def is_old(tokens: list[Tok], i: int) -> bool:
    """Whether the value at ``i`` is the one being replaced."""
    words = [t.word for t in tokens]
    j = i
    while j > 0 and words[j - 1] == "·":  # past the value's own words ("the library seminar
        j -= 1  # room": the value on its last word)
    before = [w for w in words[max(0, j - 4):j] if w not in BEFORE_A_FIGURE]  # "of the Y"
    if _text_has(tokens, i) or _reported_then_contrasted(tokens, i):
        return True  # "you have the date as 2014, not 2015", "the README states Y, but … X"
    if before[-1:] == ["not"] and _right_of_text_has(tokens, j):
        return False  # (2015 above: what the text should have had)
    bound = (tokens[i].value or (0, 0, "", ""))[2].lower().split(" ")[0] in ("before", "after")
    if before[-1:] == ["not"] or (before[-2:-1] == ["not"] and before[-1] not in (
            "", "only", "just") and not bound) or \
            before[-2:] == ["instead", "of"] or before[-1:] == ["than"] \
            or before[-2:] == ["place", "of"] or _over(tokens, i):
        return True
    if _not_verb_but(tokens, j, i) or _should_be_after(tokens, i) or left_for(tokens, j, i) or (
            at_value(tokens, i) and is_old(tokens, i - 2)):  # ("from Monday at 10 to …")
        return True
    if before[-1:] == ["from"] and any(t.value and t.word == "" for t in tokens[i + 1:]) and \
            "to" in words[i + 1:] and not spanned(tokens, i):  # ("I sleep from 11:30 to 7")
        return True
    if [w for w in before if w not in ANTERIOR_ADJ and w not in ("current", "usual")][-2:] in (
            ["up", "from"], ["down", "from"]) and _kind_before(tokens, i) and \
            _figure_before(tokens, j):
        return True  # "$2.00 for adults, up from the current $1.50": the figure it left
    if [w for w in before if w not in ANTERIOR_ADJ][-1:] == ["from"] and \
            _moved_to_before(tokens, j):  # ("to 10:00 a.m. from its original noon")
        return True  # "switch to MySQL from MongoDB": the change's "to X" came first
    if before[-2:] == ["support", "for"] and len(before) > 2 and before[-3] in ENDING and \
            not any(w in ("not", "never") or w.endswith("n't")
                    for w in words[_clause_first(tokens, i):i]):
        return True  # "Drop support for Node v20" ("won't drop support for …" keeps it)
    if before[-1:] != ["from"] and not names_which(tokens, i) and (  # ("… for the May 3
            moved_subject(tokens, i) or renamed_subject(tokens, i)):  # race": which race)
        return True  # "the 3pm meeting has been moved to 4pm", "Y, which …, is now X"
    value, target = tokens[i].value, tokens[i + 2].value if i + 2 < len(tokens) else None
    if words[i + 1:i + 2] == ["to"] and value is not None and target is not None and \
            value[3] in (target[3], "env") and changes_its_object(tokens, j, i + 2, 0):
        return True  # "updated the port 8080 to 8090"; "bump MAX_CONN to 80": its setting
    after = " ".join(w for w in words[i + 1:i + 5] if w)
    if after.startswith(("no longer", "anymore", "any more")):
        return True
    if words[i + 1:i + 2] and (words[i + 1] in ARROWS or _split_arrow(tokens, i + 1)):
        return True  # "django 4.2 → 5.0", "rename `master` => `mainline`"
    if bracketed_old(tokens, i) or current_old(tokens, i):
        return True  # "Retries: 5 (was 3)", "$45 (up from $40)", "… than the current Y"
    verb = next((w for w in reversed(words[max(0, i - 6):i]) if w not in DETERMINERS
                 and w != "·"), "")  # (past the words of a value: "the old Netgear router")
    if is_replace(verb) and words[i + 1:i + 2] in (["with"], ["by"], ["for"]) and (
            words[i + 1] != "for" or verb.startswith("swap")):
        return True  # "replace WordPress with Ghost", "swap the butter for oil": it goes
    if verb in ENDING and words[i + 1:i + 2] == ["for"] and j > 0 and (
            tokens[j - 1].word == verb or tokens[j - 1].word in DETERMINERS) and \
            _own_change_for(tokens, i, verb):
        return True  # "we dropped Crashlytics for Sentry": the verb's own object goes
    verb, _, rest = after.partition(" ")  # "Y is superseded", "Y was wrong", "Y is the old one"
    said = [w for w in rest.split(" ") if w not in DETERMINERS]
    if verb in ("was", "were") and said and said[0] not in JUDGED and i == _clause_first(tokens, i):
        return True  # a value the subject of a past copula: "10% was underfitting"
    return verb in ("is", "was", "are", "were") and said[:1] != [] and said[0] in _RETIRED


def _kind_before(tokens: list[Tok], i: int) -> bool:
    """A value of the same kind earlier: the X of "X, up from Y" ("is up from 40" has none)."""
    value = tokens[i].value
    return value is not None and any(t.value is not None and t.value[3] == value[3]
                                     for t in tokens[:i])


def _figure_before(tokens: list[Tok], j: int) -> bool:
    """The "up" / "down" before "from" at ``j`` follows a comma, a copula or a move ("$2.00,
    up from $1.50", "is down from", "moved up from"): a figure's change, not a particle of
    another verb ("pick Ana up from the 5:40 train")."""
    at = next((k for k in range(j - 1, -1, -1) if tokens[k].word in ("up", "down")), 0)
    return at > 0 and tokens[at - 1].word in (",", "is", "are", "was", "were", "moved", "went",
                                              "it's", "now", "been")


def _own_change_for(tokens: list[Tok], i: int, verb: str) -> bool:
    """Whether "<verb> Y for X" at ``i`` is the speaker's own asserted change with X of Y's
    kind: "we dropped Crashlytics for Sentry", not "Dana dropped React for Vue" (another
    person's), "I wish we dropped Jenkins for GitHub Actions" (a wish) nor "we cancelled Zoom
    for Friday" (X a date: when, not what instead)."""
    value, successor = tokens[i].value, tokens[i + 2].value if i + 2 < len(tokens) else None
    if value is None or successor is None or value[3] not in _THINGS or \
            successor[3] not in _THINGS:
        return False
    at = next(k for k in range(i - 1, -1, -1) if tokens[k].word == verb)
    opening = tokens[_clause_first(tokens, at):at]
    subject = [t.word for t in opening if t.word not in _ADVERBS]
    return subject[-1:] != [] and subject[-1] in FIRST_PERSON and not any(
        t.word in _UNREAL for t in opening)


def _not_verb_but(tokens: list[Tok], j: int, i: int) -> bool:
    """Y of "not V [P] Y but [P] X" with a verb between "not" and Y ("isn't going to Y but
    to X", "isn't going to be the Y but X"): "not", then at most four words that are no
    value and no boundary, then Y, then a "but" in the same clause with a value after it
    ("not only Y but also X" keeps both: "only", "just" are no verb)."""
    k = next((k for k in range(j - 1, max(-1, j - 6), -1) if tokens[k].word == "not"), -1)
    if k < 0 or any(t.value or t.word in BOUNDARY or t.word in ("only", "just", "merely")
                    for t in tokens[k + 1:j]):
        return False
    for m in range(i + 1, len(tokens)):
        if tokens[m].word == "but":
            return any(t.value for t in tokens[m + 1:m + 4]) and not any(
                t.word in ("also", "too") for t in tokens[m + 1:m + 3])
        if tokens[m].word in BOUNDARY and tokens[m].word != ",":
            return False
    return False


def _split_arrow(tokens: list[Tok], at: int) -> bool:
    """An arrow held as two marks side by side: "–>" ("->" with an en dash; "->" is one)."""
    return at + 1 < len(tokens) and tokens[at].word == "–" and \
        tokens[at + 1].word == ">" and tokens[at].end == tokens[at + 1].start


def _moved_to_before(tokens: list[Tok], j: int) -> bool:
    """Whether "from" at ``j - 1`` follows a change verb's "to X" in the same clause ("switch
    to MySQL from MongoDB", "moved the standup to 10:00 from 9:30"): where it started."""
    for k in range(j - 2, 0, -1):
        if tokens[k].word in BOUNDARY:
            return False
        at = k + 1
        while at < j - 1 and tokens[at].word in DETERMINERS:
            at += 1
        if tokens[k].word == "to" and tokens[at].value is not None:
            # the change verb anywhere in the clause before "to": "Change the default port
            # for the Proxy recorder to 8888 from 8080"
            edge = max((x for x in range(k) if tokens[x].word in BOUNDARY), default=-1)
            return any(is_change(t.word) or is_replace(t.word) for t in tokens[edge + 1:k])
    return False


def _should_be_after(tokens: list[Tok], i: int) -> bool:
    """Y of "… Y …, [but / while] it should be X" ("the date is listed as Y but the year is
    wrong, it should be X", "states that the port is Y, while it should be X", "lists Y
    (should read X)"): a later clause whose subject is a pronoun that points back, or none
    right after a mark, says with a modal of obligation ("should", "must", "ought to",
    "needs to", "is supposed to") and "(have) be(en)" / "read" / "say" what the value ought
    to be; a value of Y's kind right after it (past a determiner) is the right one, Y the
    wrong one. "It should be fine", "it should be ready by X" name no value there.

    A right value followed by when, for what or on what condition it must hold ("€950 from
    January", "50 GB for the upgrade", "2 days if Bob helps") is a requirement, and a clause
    joined by "so" / "and" infers or adds ("lands at 14:00, so it should be 15:30"): both
    leave Y current."""
    value = tokens[i].value
    if value is None:
        return False
    words = [t.word for t in tokens]
    for k in range(i + 1, len(tokens) - 2):
        at = _obliged(words, k)
        if not at or (words[k] not in _BACK_BE and words[k - 1] not in _BACK
                      and words[k - 1] not in _MARKS):
            continue
        subject = k if words[k] in _BACK_BE or words[k - 1] not in _BACK else k - 1
        at += words[at:at + 1] == ["have"]
        if words[at:at + 1] not in (["be"], ["been"], ["read"], ["say"]):
            continue
        at += 1
        while at < len(tokens) and words[at] in DETERMINERS:
            at += 1
        right = tokens[at].value if at < len(tokens) else None
        return right is not None and right[2] != value[2] and (
            _same_kind(right, value)) and \
            not set(words[at + 1:at + 2]) & _WHEN_HOLDS and \
            words[subject - 1] not in _THEREFORE
    return False


def obligation_value_at(words: list[str], k: int) -> int:
    """The index of the value-to-be after "<modal of obligation> (have) be(en)/read/say
    [determiner]" at ``k`` ("should have been X", "must read X"), or 0."""
    at = _obliged(words, k) if k < len(words) else 0
    if not at:
        return 0
    at += words[at:at + 1] == ["have"]
    if words[at:at + 1] not in (["be"], ["been"], ["read"], ["say"]):
        return 0
    at += 1
    while at < len(words) and words[at] in DETERMINERS:
        at += 1
    return at if at < len(words) and words[at - 1:at] != ["."] else 0


def _obliged(words: list[str], k: int) -> int:
    """The index after a modal of obligation at ``k`` ("should", "must", "ought to", "needs
    to", "is supposed to", "it's supposed to"), or 0."""
    if words[k] in ("should", "must"):
        return k + 1
    if words[k] in ("ought", "needs") and words[k + 1:k + 2] == ["to"]:
        return k + 2
    if (words[k] in ("is", "are") or words[k] in _BACK_BE) and \
            words[k + 1:k + 3] == ["supposed", "to"]:
        return k + 3
    return 0


# The pronouns a later clause points back with ("it should be", "this should have been").
_BACK = frozenset({"it", "this", "that", "they", "these", "those"})
# The same pronouns with their copula in one word, as written or as ``fact_surface`` joins them.
_BACK_BE = frozenset({"it's", "that's", "they're"})
# What joins a clause that infers or adds rather than corrects ("so it should be X").
_THEREFORE = frozenset({"so", "then", "therefore", "hence", "thus", "and"})
# What after the right value says when, for what or on what condition it holds.
_WHEN_HOLDS = closed("if from by for next when until till once after before unless starting as")
# The marks after which the obligation's subject is left out ("Y (should be X)", "Y, must be X").
_MARKS = frozenset({"(", ",", ";", "—", "–", "-"})


def _clause_first(tokens: list[Tok], i: int) -> int:
    """The index a clause begins at (after the last boundary before ``i``)."""
    return next((k + 1 for k in range(i - 1, -1, -1) if tokens[k].word in BOUNDARY), 0)


def _over(tokens: list[Tok], i: int) -> bool:
    """Y of a choice "X over Y" ("we went with AWS over Azure"): a name right after a name
    and "over" is the one passed over (a number after "over" is a quantity: "over 5 GB")."""
    value, chosen = tokens[i].value, tokens[i - 2].value if i >= 2 else None
    return tokens[i - 1].word == "over" and value is not None and value[3] == "name" and \
        chosen is not None and chosen[3] in ("name", "version")


# What a copula says of a value that no longer holds (a closed set of predicates).
_RETIRED = frozenset({"no", "gone", "obsolete", "wrong", "superseded", "replaced", "outdated",
                      "deprecated", "retired", "dropped", "old", "incorrect", "stale"})


def _text_has(tokens: list[Tok], i: int) -> bool:
    """Y of "[a text] has K as Y, not X" ("you have the date as being 2014, not 2015", "the
    summary lists the total as 412, not 421"): said to the one who wrote the text, the frame
    says what it holds, and "not X" says what it should hold, so Y is the error. The holder is
    the second person ("you", "your notes"): a document or a person the user relays ("the
    schedule shows the start as 9:00, not 10:00", "Dana has the total as 412, not 421") says
    what holds, and so does the speaker ("my notes have the total as 412, not 421")."""
    value = tokens[i].value
    k = i - 1
    while k > 0 and tokens[k].word in ("being", "·"):
        k -= 1
    if value is None or k < 2 or tokens[k].word != "as":
        return False
    verb = next((v for v in range(k - 1, max(-1, k - 7), -1)
                 if tokens[v].word in _HOLDS or tokens[v].word in BOUNDARY), -1)
    if verb < 1 or tokens[verb].word in BOUNDARY or not any(
            t.word in _SECOND_PERSON for t in tokens[_clause_first(tokens, verb):verb]):
        return False
    at = i + 1 + (tokens[i + 1].word == "," if i + 1 < len(tokens) else 0)
    right = tokens[at + 1].value if at + 1 < len(tokens) and tokens[at].word == "not" else None
    return right is not None and right[2] != value[2] and (
        _same_kind(right, value))


def _right_of_text_has(tokens: list[Tok], j: int) -> bool:
    """Whether the value after "not" at ``j - 1`` is the X of "[a text] has K as Y, not X"."""
    k = j - 2 - (j >= 2 and tokens[j - 2].word == ",")
    return k >= 0 and tokens[k].value is not None and _text_has(tokens, k)


def _reported_then_contrasted(tokens: list[Tok], i: int) -> bool:
    """Y of "[a source] states/says/lists … K Y, but/while … K X" ("The README states the
    server runs on port 5173, but the config sets port 3070"): a text's report of a value,
    then, in the same sentence, a contrast that states a value of the same kind with the same
    label noun. The report is the error the contrast points at. A contrast that reports,
    hedges, asks, wishes or looks back ("but the docs say 3070", "but we could use 3070", "but
    it was 3070 last year") states nothing of its own, and a contrast about another label ("the
    tour is 3 hours, but the drive is 2 hours") is another key: Y stays current."""
    value = tokens[i].value
    label = _label(tokens, i)
    if value is None or not label:
        return False
    reported = False
    for k in range(i - 1, -1, -1):
        word = tokens[k].word
        if word in _STRONG or word in _CONTRAST_JOIN:
            break
        reported = reported or word in _REPORTING
    if not reported:
        return False
    joined = next((m for m in range(i + 1, len(tokens)) if tokens[m].word in _CONTRAST_JOIN
                   or tokens[m].word in _STRONG), -1)
    if joined < 0 or tokens[joined].word not in _CONTRAST_JOIN or \
            _scoped_elsewhere(tokens, joined + 1):
        return False
    for q in range(joined + 1, len(tokens)):
        word = tokens[q].word
        if word in _STRONG or word in _CONTRAST_JOIN or word in _REPORTING or \
                word in MODALS or word in _UNASSERTED:
            return False
        right = tokens[q].value  # (past a value of another kind: "but vite.config.ts sets")
        if right is not None and _same_kind(right, value):
            return _same_key(tokens, i, q) and right[2] != value[2]
    return False


def _scoped_elsewhere(tokens: list[Tok], j: int) -> bool:
    """Whether the contrast clause opening at ``j`` is fronted by a prepositional phrase ("but
    in production we use port 80", "but on staging it uses 8088", "while for the admin panel
    the limit is 200 MB"): it states the value of another setting or place, so the report
    stays true where it was said. The idioms of actuality ("but in fact", "in reality", "in
    truth") are no place: they assert the contrast against the report."""
    j += j < len(tokens) and tokens[j].word == ","
    if j + 1 >= len(tokens) or tokens[j].word not in _PLACES or tokens[j + 1].value:
        return False  # ("but since March", "but in 2025": a time, which the report may miss)
    return not (tokens[j].word == "in" and tokens[j + 1].word in _ACTUALITY)


def _label(tokens: list[Tok], i: int) -> str:
    """The noun phrase a value is said of, nearest before it past a copula, a preposition or a
    determiner ("port 5173", "the adult ticket is €12", "a price of €15"): its modifiers and
    its head ("adult ticket", not "ticket"), so "the adult ticket is €12, but the child ticket
    is €6" names two keys. A verb there ("the free plan costs $10") is no label: "". When the
    phrase follows a preposition after a verb ("the frontend runs on port 5173"), ``_doer``
    tells whose it is."""
    k = i - 1
    while k >= 0 and k > i - 5 and (tokens[k].word in _NOT_LABEL or
                                    tokens[k].word in DETERMINERS or tokens[k].word == "·"):
        k -= 1
    words: list[str] = []
    while k >= 0 and plain(tokens[k]) and tokens[k].word.isalpha() and \
            not finite_verb(tokens[k]):
        words.insert(0, tokens[k].word)
        k -= 1
    return " ".join(words)


def _doer(tokens: list[Tok], i: int) -> tuple[str, str]:
    """The verb and its subject when the value's label follows "<subject> <verb> <preposition>"
    ("the frontend runs on port 5173": ("runs", "frontend")), else ("", "")."""
    k = i - 1
    while k >= 1 and tokens[k].word not in _PLACES and tokens[k].word not in BOUNDARY and \
            k > i - 6:
        k -= 1
    if k < 1 or tokens[k].word not in _PLACES or not finite_verb(tokens[k - 1]):
        return "", ""
    subject = [t.word for t in tokens[_clause_first(tokens, k - 1):k - 1] if plain(t)]
    return tokens[k - 1].word, " ".join(subject)


def _same_key(tokens: list[Tok], i: int, q: int) -> bool:
    """Whether the values at ``i`` and ``q`` are said of one key: one label, and, when both
    are what one verb does ("the frontend runs on port 5173, while the backend runs on port
    8000"), one subject (a text that sets it, "but the config sets port 3070", is no such
    verb: the same key)."""
    if _label(tokens, q) != _label(tokens, i):
        return False
    (verb, subject), (other, whose) = _doer(tokens, i), _doer(tokens, q)
    return not (verb and verb == other and subject != whose)


# The verbs by which a text shows a value, said of a text and of a person alike.
_SHOWS = closed("states stated state lists listed list shows showed show")
# Verbs of what a text holds: "[the changelog] has / lists / shows K as Y".
_HOLDS = _SHOWS | closed("has have had gives give gave records recorded puts put")
# Verbs by which a text or a person relays a value (not a belief: "thinks", "claims" are an
# opinion, which ``fact_mood`` leaves unasserted).
_REPORTING = _SHOWS | closed("says said say mentions mentioned mention reads read specifies "
                             "specified documents documented describes described")
# Adverbs between a subject and its verb ("we finally dropped"); the verbs of a wish.
_ADVERBS = closed("just finally also already recently eventually then")
_THINGS = frozenset({"name", "class", "version"})  # what one uses (no date, time or count)
_WISHED = closed("wish wished hope hoped want wanted")
_UNREAL = MODAL | HEDGES | TENTATIVE | BELIEF | HEARSAY | CONDITIONAL | _WISHED
_CONTRAST_JOIN = closed("but while whereas however")
_ACTUALITY = closed("fact reality truth actuality")
# The prepositions of a place or a setting (not of a time: "since", "after", "until").
_PLACES = closed("in on for at under within inside behind via")
_STRONG = closed("; . ? ! : — –")
_SECOND_PERSON = closed("you your you've you'd")
# What leaves a contrast clause's value unasserted: condition, wish, hedge, question, past.
_UNASSERTED = HEDGES | CONDITIONAL | _WISHED | closed(
    "prefer rather should was were had used yesterday ago")
# Words before a value that are no label noun of it.
_NOT_LABEL = closed("is are was were be been being to from of at on in as not now than")


def _same_kind(a: Value, b: Value) -> bool:
    """Two values of one kind: the same finder's kind, or both bare numbers."""
    return a[3] == b[3] or (unitless(a[2]) and unitless(b[2]))
