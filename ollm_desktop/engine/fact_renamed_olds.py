"""A name renamed to another: "we renamed billing-svc to ledger last week" (issue 28, names).

"rename Y to X" gives the thing named Y the name X: Y is the old value, X the new one, as
"X instead of Y" would make them. The finders read X only where it ends its clause and
leave Y a key's word ("billing-svc"), so the ledger kept Y current beside X.

Structure only: a form of "rename" (``fact_for_key.RENAMING``), then Y, one word that is a
name (capitalised, or a code with a hyphen or a digit: "billing-svc", "web-01"), "to", and
X, one word that ends its clause or stands before a time of the past ("last week",
"yesterday"). A determiner or a pronoun after the verb ("renamed the repo to ...") leaves the
reading to ``fact_for_key`` and the key readers. It is read only in a user's statement, never
in a question, a condition or a suggestion ("should we rename billing-svc to ledger?",
"maybe rename it ..."), nor in another's message.

"renamed it / this / that to X" (stop 50): the pronoun points back at what the user named
before, so X has no key of its own (it refers back, ``fact_keyless``), whoever renamed it
("platform team renamed it to identity-api": not the platform team's name).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ollm_desktop.engine.fact_failed_olds import UNASSERTED
from ollm_desktop.engine.fact_message_lines import said_sentences
from ollm_desktop.engine.fact_types import join_key
from ollm_desktop.engine.fact_words import DETERMINERS, closed
from ollm_desktop.engine.provenance import Found

_WORD = r"[A-Za-z][\w.'’-]*"
_RENAMED = re.compile(
    rf"\brenam(?:e|es|ed|ing)\s+(?P<old>{_WORD})\s+to\s+(?P<new>{_WORD})"
    r"(?=\s*(?:[,;.!—–-]|$|\s(?:last|yesterday|today|this|earlier|recently|and|but|so)\b))")
_NO_NAME = DETERMINERS | closed("it them him everything")  # (a determiner or a pronoun)
# "renamed it to identity-api": the pronoun points back at what the user named before, so
# the new name's key is that one's, whoever did the renaming ("platform team renamed it").
_RENAMED_IT = re.compile(r"\brenam(?:e|es|ed|ing)\s+(?:it|this|that)\s+(?:to\s+)?(?P<new>\S+)")


def _named(word: str) -> bool:
    """A word that is a name: capitalised, or a code ("billing-svc", "web-01")."""
    return word.lower() not in _NO_NAME and (word[:1].isupper() or "-" in word or any(
        c.isdigit() for c in word))


def renamed_olds(found: Sequence[Found], content: str, role: str) -> tuple[Found, ...]:
    """The message's facts with each renamed name added as the old value of its new name
    (and the new name as a value where the finders left it a word)."""
    if role != "user" or "renam" not in content.lower():
        return tuple(found)
    out = list(found)
    for number, sentence in enumerate(said_sentences(content)):
        for match in _RENAMED_IT.finditer(sentence):
            if "?" in sentence[match.end():] or UNASSERTED.search(sentence[:match.start()]):
                continue
            out = [replace(f, key="||name", subject="") if f.sentence == number and not f.old
                   and f.correction and f.kind == "name" and match.group("new").startswith(
                       f.value) and f.key.endswith("|name") else f for f in out]
        for match in _RENAMED.finditer(sentence):
            old, new = match.group("old"), match.group("new").rstrip(".")
            if not _named(old) or new.lower() in _NO_NAME or old.lower() == new.lower() or \
                    "?" in sentence[match.end():] or UNASSERTED.search(sentence[:match.start()]):
                continue
            said = [f for f in out if f.sentence == number and f.value == new and not f.old]
            if any(f.old and f.value == old for f in out):
                continue
            if not said:  # (the sentence is no longer a correction without a value)
                out = [f for f in out if f.sentence != number or f.kind != "correction"]
                out.append(Found("name", new, old.lower(), "name", True, sentence=number,
                                 key=join_key("", old.lower(), "name")))
            out.append(Found("name", old, "", "name", True, old=True, sentence=number,
                             key=said[0].key if said else f"|{old.lower()}|name"))
    return tuple(out)
