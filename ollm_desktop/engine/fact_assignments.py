"""A setting written as an assignment, "tabSize=4", "volume = 7", "retries=3": the number
after "=" is the value of the name before it, however short.

``fact_values`` reads a bare number after "=" only when it has two digits or more (a lone
digit after a copula is as often a count or prose), and ``code_label`` reads a code name's
number only one space after it ("maxRetries 5"), so in "editor.fontSize=13\\neditor.tabSize=4"
or "volume=7, brightness=40" the short settings were lost and a later "tabSize untouched" had
no value to keep. An "=" written between a name and a number is a setting's own syntax:
no prose uses it for anything else. (Its own module: ``fact_values`` and
``fact_value_spans`` are full.)

Structure only: a name (a plain word, or a code or path value of letters) right before "=",
the number right after it, the number ending its clause.

The same assignment said as an imperative, "make the night one 18", "make the spare room
19": "make" opening its clause, a determiner, one to three plain words (the key, "one" after
them or not), and a bare number that ends the clause, is the key's new number (only "make
that 12" and "make it 3 rooms" were read, so once a list's night value was read, "make the
night one 18" left it current beside the correction's bare sentence).
"""

from __future__ import annotations

from ollm_desktop.engine.fact_mood_pressed import KIN
from ollm_desktop.engine.fact_mood_words import BELIEF, HEARSAY, PRESENT
from ollm_desktop.engine.fact_phrase_words import plain_word
from ollm_desktop.engine.fact_value_spans import code_label, ends_clause
from ollm_desktop.engine.fact_words import (
    BOUNDARY,
    DETERMINERS,
    FILLER,
    REPORTING,
    Tok,
    closed,
    numeric,
)


def assigned(tokens: list[Tok], i: int, first: int) -> bool:
    """The bare number at ``i`` is assigned to the word before its "=" ("volume=7")."""
    if i - 2 < first or tokens[i - 1].word != "=" or not numeric(tokens[i].word):
        return False
    name = tokens[i - 2]
    named = name.word.replace("_", "").isalpha() if name.value is None else \
        name.value[3] in ("code", "path") and name.value[2].replace("_", "").replace(
            ".", "").isalpha()
    return named and len(name.value[2] if name.value else name.word) > 1 and \
        ends_clause(tokens, i)  # (one letter is a
    # formula's variable, "a=2, b=3 gives 13", no setting's name)


def labelled_number(sentence: str, tokens: list[Tok], i: int) -> int:
    """Where the number of the code name at ``i`` stands ("versionCode 4120": the next token;
    "tabSize=4": after the "="), 0 where the code name labels no number."""
    if code_label(sentence, tokens, i):
        return i + 1
    value = tokens[i].value
    if value is None or value[3] != "code" or i + 2 >= len(tokens) or \
            tokens[i + 1].word != "=" or tokens[i + 2].value is not None:
        return 0
    return i + 2 if assigned(tokens, i + 2, i) else 0


def made_to(tokens: list[Tok], i: int, first: int) -> bool:
    """The bare number at ``i`` ends "make the K [one] N" ("make the night one 18")."""
    if not numeric(tokens[i].word) or not ends_clause(tokens, i):
        return False
    k = i - 1 - (i - 1 >= first and tokens[i - 1].word in ("one", "ones"))
    words = 0
    while k >= first and words < 3 and plain_word(tokens[k]):
        k, words = k - 1, words + 1
    if not words or k - 1 < first or tokens[k].word not in DETERMINERS or \
            tokens[k - 1].word != "make":
        return False
    return (k - 1 == first or tokens[k - 2].word in BOUNDARY or tokens[k - 2].word in FILLER) \
        and not any(_voiced(t.word) for t in tokens[:k - 1])


def _voiced(word: str) -> bool:
    """A word that frames what follows as another's words: a verb of saying, hearing or
    believing, a kin word, another's possessive ("her text:", "the designer's note:")."""
    return word in _VOICES or (word.endswith("'s") and word not in PRESENT and
                               word not in _NOT_OWNED)


_VOICES = REPORTING | BELIEF | HEARSAY | KIN | closed(
    "saying keeps keep wrote writes written texted emailed messaged told tells asked asks "
    "wants wanted his her their your boss")
_NOT_OWNED = closed("let's what's here's who's where's how's")
