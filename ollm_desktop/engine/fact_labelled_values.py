"""A lower-case value after a label's colon ("north bed: basil.", "log level: debug",
"favourite colour: teal"): the label opens its clause, the value ends it, and the label names
a thing, not a part of the message ("update: done", "edit: typo", "PS: ignore that").

A titled name in apposition to a name ("moved Max to Riverside Animal Hospital, Dr. Okafor."):
the person of the place named, a value too (a bare name there may be addressed, "Let's do 3pm,
Mark."; a title and a name after a place's name is its person).

Split from ``fact_values`` (full): its ``_statement_slot`` asks here for the ":" place, its
loop over bare words for an apposed title; ``fact_phrases`` asks here for a value of several
lower-case words after the colon ("loft insulation: mineral wool", "venue: the old tram
depot"), the noun phrase that is the whole clause after a label (stop 52).
"""

from __future__ import annotations

from ollm_desktop.engine.fact_keys import phrase_before
from ollm_desktop.engine.fact_no_values import KEY_CAPITALS
from ollm_desktop.engine.fact_words import BOUNDARY, PREPOSITIONS, TITLES, Tok, closed

# Labels of a message's parts, not of a thing.
_NO_LABELS = closed("update edit note ps p.s btw fyi q a question answer reminder tldr context "
                    "summary re subject warning caveat problem issue todo ok okay nb me you "
                    "him her them us user assistant bot ai human remember")
# Replies of a chat's turn, no thing's value ("Me: ok.").
_REPLIES = closed("ok okay thanks thx lol")


def labelled_phrase(tokens: list[Tok], start: int, first: int) -> bool:
    """The clause opening at ``start`` follows a label's colon that opens its own clause (a
    thing's label, not a message part's: "loft insulation: mineral wool", not "update: all
    done" or "edit: wrong day")."""
    if start - 1 <= first or tokens[start - 1].word != ":":
        return False
    phrase = phrase_before(tokens, start - 1, first)
    at = start - 2 - len(phrase)
    return 0 < len(phrase) <= 4 and phrase[0] not in _NO_LABELS and \
        phrase[-1] not in _NO_LABELS and (at < first or tokens[at].word in BOUNDARY)


def participle(word: str) -> bool:
    """A passive or progressive verb form ("tagged", "shipped", "running"), lower-case: what
    happens to K, not a name for it."""
    return word.islower() and len(word) > 4 and word.endswith(("ed", "ing"))


def labelled_value(tokens: list[Tok], i: int, first: int) -> bool:
    """The word at ``i`` (its clause's last) is the value of the label before its colon."""
    phrase = phrase_before(tokens, i - 1, first)
    at = i - 2 - len(phrase)
    return bool(phrase) and phrase[0] not in _NO_LABELS and phrase[-1] not in _NO_LABELS and \
        not participle(tokens[i].word) and tokens[i].word not in _REPLIES and (  # ("quick
        # update: data now lives in ...": a message's part, whatever word qualifies it)
        at < first or tokens[at].word in BOUNDARY) and not _dotted(tokens, i)


def _dotted(tokens: list[Tok], i: int) -> bool:
    """The word at ``i`` goes on past a dot with no space ("topic orders.v1: retention.ms = 7
    days"): a dotted name's first part, not a word that ends its clause."""
    return i + 2 < len(tokens) and tokens[i + 1].word == "." and \
        tokens[i].end == tokens[i + 1].start and tokens[i + 1].end == tokens[i + 2].start


def in_label(sentence: str, tokens: list[Tok], i: int) -> bool:
    """The word at ``i`` is inside a label whose colon a value follows ("OAuth client ID for
    dev: web-dev-01", "API key for staging: …"): a word of the key, no value of it (a name
    after a preposition there is a place or owner the label names: "order for Café Lume: 60
    croissants", a value of its own). A key's noun written as an abbreviation in capitals,
    right before a value, is one too ("Staff ID N-30818", "guest SSID Kestrel")."""
    if tokens[i].word in KEY_CAPITALS and i + 1 < len(tokens) and (
            tokens[i + 1].value is not None or sentence[tokens[i + 1].start:][:1].isupper()):
        return True
    if i == 0 or tokens[i - 1].word in PREPOSITIONS or tokens[i - 1].word == ":" or \
            not sentence[tokens[i].start].isalpha():  # (after a colon: a pasted "K: V / K2: V2")
        return False
    for k in range(i + 1, min(i + 6, len(tokens) - 1)):
        if tokens[k].value or tokens[k].word in BOUNDARY - {":"}:
            return False
        if tokens[k].word == ":":  # (a value there, or a code still bare: "web-dev-01")
            after = tokens[k + 1]
            return after.value is not None or after.word == "·" or \
                any(c.isdigit() for c in after.word)  # (or a phrase's first word: fact_phrases)
    return False


def apposed_title(tokens: list[Tok], i: int) -> bool:
    """The word at ``i`` is a titled name ("dr. okafor") after a comma and a name's value,
    ending its clause: that name's person."""
    title = tokens[i].word.split(".")[0]
    before = tokens[i - 2].value if i >= 2 else None
    return not tokens[i].value and title in TITLES and title != "st" and \
        tokens[i].word.startswith(f"{title}. ") and tokens[i - 1].word == "," and \
        before is not None and before[3] == "name" and \
        (i + 1 >= len(tokens) or tokens[i + 1].word in BOUNDARY)
