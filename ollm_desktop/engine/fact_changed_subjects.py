"""A key named by a leading clause that says it changed (issue 28, stop 54).

"the number plate's changed, I got a private one: K4 TSY", "the gate code has changed, new
one is 4471", "wifi password got updated - it's tulip99 now": the first clause names the
key and says only that its value changed (no value of its own); the value comes after it in
a clause that names no noun phrase of its own, only pronouns and "one" ("a private one",
"new one", "it's"). The value is the first clause's key, as "the clinic has a new phone
number: X" is the clinic's phone number (``fact_clauses.has_new``, which is asked first).

Closed classes only: the first clause is [determiner] one to three plain words, then "'s",
"has", "have", "got" or "was" (or the noun's own "'s"), an optional "been" / "just", and a
participle of a change of value (``_CHANGED``); the words between it and the value are
pronouns, auxiliaries, "new" / "one" and at most one adjective before "one". Its own module:
``fact_clauses`` and ``fact_keys`` are full.
"""

from __future__ import annotations

from collections.abc import Sequence

from ollm_desktop.engine.fact_words import (
    BOUNDARY,
    DETERMINERS,
    NOT_NP,
    PREPOSITIONS,
    Tok,
    closed,
)

# (not "replaced", "renewed", "reset": "the fob got replaced" says the thing is new, not
# its value; its new value is then the old thing's key's)
_CHANGED = closed("changed updated")
_HAVE = closed("has have got was 's")
_FILL = closed("been just")
_ANOTHERS = closed("his her their your")  # another's possessive: the key is not the user's
# What the value's own clause may say besides it: pronouns, auxiliaries, "new one".
_BETWEEN = closed("i we it it's its it’s they i've we've got have has is are now the a an "
                  "new one that's this so")


def changed_subject(tokens: Sequence[Tok], i: int, first: int) -> list[str]:
    """The words of the first clause's noun phrase where it says only that its value
    changed and the clauses up to the value at ``i`` name no noun phrase; else []
    (``fact_contact_relatives.changed_key`` reads its key: ``fact_leads`` asks this, and
    ``fact_keys`` imports ``fact_leads``)."""
    end = next((k for k in range(first, i) if tokens[k].word in BOUNDARY), i)
    if end >= i or any(t.value is not None for t in tokens[first:i]):
        return []
    words = [t.word for t in tokens[first:end]]
    if len(words) < 2 or words[-1] not in _CHANGED:
        return []
    words = words[:-1]
    while words and words[-1] in _FILL:
        words = words[:-1]
    if words and words[-1] in _HAVE:
        words = words[:-1]
    elif words and words[-1].endswith("'s") and len(words[-1]) > 2:
        words[-1] = words[-1][:-2]  # "the number plate's changed"
    else:
        return []
    if words and words[0] in _ANOTHERS:
        return []  # ("his flight has changed": another's key, never the user's flight)
    if words and words[0] in DETERMINERS:
        words = words[1:]
    if not 1 <= len(words) <= 3 or not all(
            w.isalpha() and w not in NOT_NP and w not in PREPOSITIONS and w not in DETERMINERS
            for w in words):
        return []
    between = [t.word for t in tokens[end:i] if t.word not in BOUNDARY]
    odd = [k for k, w in enumerate(between) if w not in _BETWEEN]
    if len(odd) > 1 or (odd and (odd[0] + 1 >= len(between) or between[odd[0] + 1] != "one"
                                 or not between[odd[0]].isalpha())):
        return []  # (one adjective before "one": "a private one")
    return words


def changed_lead(tokens: Sequence[Tok]) -> bool:
    """The sentence opens with such a clause and the words after it up to a value name no
    noun phrase (``changed_subject``): the value is that key's new one, a correction
    (``fact_leads``, which reads leads before values are found: the value is the first word
    past the closed class, with a digit or after a colon, "is" or "it's")."""
    end = next((k for k, t in enumerate(tokens) if t.word in BOUNDARY), len(tokens))
    i = end
    while i < len(tokens) and (tokens[i].word in BOUNDARY or tokens[i].word in _BETWEEN or (
            i + 1 < len(tokens) and tokens[i + 1].word == "one")):
        i += 1
    if i >= len(tokens) or not (any(c.isdigit() for c in tokens[i].word) or
                                tokens[i - 1].word in (":", "is", "it's")):
        return False
    return bool(changed_subject(tokens, i, 0))
