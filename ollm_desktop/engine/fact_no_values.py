"""Words and numbers in the places a bare value goes that are no value (``fact_values``
asks; its own module because ``fact_values`` is full).

Words that say a value stayed as it was ("hers is unchanged", "the time is untouched", "the
room is the same"): ``fact_values`` read a plain word at the end of "K is W" in a correction
as K's new value, so "they moved me to seat 44, hers is unchanged" gave "her: unchanged", and
that keyed value made the keyless "seat 44" beside it a mere mention: the move was lost. A
word of sameness names no value; what it keeps is the ledger's (``fact_restatement``,
``fact_keyless``).

A titled name and its number as a clause's subject, its verb right after: "Act 1 runs 55
minutes, Act 2 runs 48 minutes", "Phase 2 costs £650", "Stage 3 takes 4 days". A capitalised
noun opening its clause before a number is a name with it ("Year 8 reports are", "Ward 3
is": ``fact_values._titled``) only where a copula or an auxiliary followed; before any other
verb the number counted the verb as a plural noun ("1 runs", "2 costs"), so each item of
such a list gave a count of "runs" and a value of "act", the two acts met as one key, and a
later "Act 1 runs 50 minutes now" found no key of its own. A word ending in "s" right after
the number, with a value right after that word, is the name's verb, not a counted noun: the
number stays a word of the name, the key's. Structure only: ``_titled``'s capitalised noun
opening its clause, its number, one word ending in "s" (not "ss"), a value.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_words import Tok, closed

# Words that say the value stayed: a participle of no change, or "same".
KEPT = closed("unchanged untouched unaltered unmodified same")

# The heads of the set phrases of refusal ("no way", "not happening", "no chance",
# ``fact_mood_dismissed``): "the PM wants Linear, no way" gave a new value "way", and
# "Not happening, we're staying put" an old value "happening". They name no value.
REFUSAL_HEADS = closed("way happening happen chance")

# Plain words that are never a bare value: links, comparison, naming, and the words above.
NOT_BARE = closed("instead rather than but and or called named now use") | KEPT | \
    REFUSAL_HEADS

# Abbreviations in capitals that name a key, never its value ("Staff ID N-30818", "Passport
# ID X1234567": ``fact_labelled_values.in_label``, ``fact_values._proper_name``).
KEY_CAPITALS = closed("id ssid vin iban imei sku")


def titled_verb(tokens: list[Tok], at: int) -> bool:
    """The word after the number after ``at`` is a verb: a value follows it."""
    if at + 3 >= len(tokens):
        return False
    verb, after = tokens[at + 2], tokens[at + 3]
    return verb.value is None and verb.word.isalpha() and len(verb.word) > 2 and \
        verb.word.endswith("s") and not verb.word.endswith("ss") and after.value is not None
