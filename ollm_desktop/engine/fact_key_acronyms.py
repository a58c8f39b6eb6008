"""A key's attribute written as the initials of another key's last words ("BP" of "blood
pressure", "RRP" of "recommended retail price", "the scope's FL" of "the scope's focal
length", "PB" of "personal best"): the same words, so the two keys compare as one phrase
(``fact_key_match`` asks it; their unit classes must still be alike). Apart from
``fact_key_match`` (at its size limit) and from ``fact_key_synonyms`` (a closed list of
names): initials are read by their shape. An initialism is written with no vowel ("bp",
"rrp", "fl") or in two letters that are no word ("ac" is; "am", "it", "us" are words).
"""

from __future__ import annotations

# Two-letter words a key may hold that are no initials.
_WORDS = frozenset({"am", "an", "as", "at", "be", "by", "do", "go", "he", "hi", "if", "in",
                    "is", "it", "me", "my", "no", "of", "oh", "ok", "on", "or", "ox", "so",
                    "to", "up", "us", "we", "yo"})


def spelled_out(entity: str, attribute: str, other_entity: str,
                other_attribute: str) -> tuple[str, str]:
    """``entity`` and ``attribute`` with an initialism ``attribute`` written out in the other
    key's words ("" , "bp" beside "blood", "pressure": "blood", "pressure"); as they are
    where ``attribute`` is no initialism of the other's last words."""
    if not _initialism(attribute) or not other_attribute:
        return entity, attribute
    words = f"{other_entity} {other_attribute}".split()
    covered = words[-len(attribute):]
    if len(covered) != len(attribute) or "".join(w[0] for w in covered) != attribute:
        return entity, attribute
    owner = entity.split() + covered[:len(covered) - len(other_attribute.split())]
    return " ".join(owner), other_attribute


def initials_meet(entity_a: str, attribute_a: str, entity_b: str,
                  attribute_b: str) -> str | None:
    """None where neither attribute is the initials of the other's last words; else, written
    out: "same" for one owner named and one attribute ("the scope's FL", "the scope's focal
    length"), "maybe" for one attribute and no owner ("my HR", "hourly rate": initials stand
    for many phrases), and "" where the owners differ ("my resting HR" is no hourly rate;
    review of stop 53)."""
    spelled_a = spelled_out(entity_a, attribute_a, entity_b, attribute_b)
    spelled_b = spelled_out(entity_b, attribute_b, entity_a, attribute_a)
    if (spelled_a, spelled_b) == ((entity_a, attribute_a), (entity_b, attribute_b)):
        return None
    if spelled_a != spelled_b:
        return ""
    return "same" if spelled_a[0] else "maybe"


def _initialism(word: str) -> bool:
    return 2 <= len(word) <= 4 and word.isalpha() and word.isascii() and (
        not set(word) & set("aeiou") or (len(word) == 2 and word not in _WORDS))
