"""Which value of a sentence is the old one a correction retires: "not Y", "instead of Y",
"rather than Y", "from Y to X", "Y is no longer…", "Y → X", "K: X (was Y)", "replace Y with X",
"X over Y", a value the subject of a past copula ("10% was underfitting"). Split from
``fact_grammar``, which reads the rest of a sentence's structure and asks this module of each
value it finds."""

from __future__ import annotations

from ollm_desktop.engine.fact_words import (
    ARROWS,
    BOUNDARY,
    DETERMINERS,
    Tok,
    is_replace,
)


def is_old(tokens: list[Tok], i: int) -> bool:
    """Whether the value at ``i`` is the one being replaced."""
    words = [t.word for t in tokens]
    j = i
    while j > 0 and words[j - 1] == "·":  # past the value's own words ("the library seminar
        j -= 1  # room": the value on its last word)
    before = [w for w in words[max(0, j - 4):j] if w not in DETERMINERS]  # "instead of the Y"
    if before[-1:] == ["not"] or (before[-2:-1] == ["not"] and before[-1] not in (
            "", "only", "just")) or \
            before[-2:] == ["instead", "of"] or before[-1:] == ["than"] \
            or before[-2:] == ["place", "of"] or _over(tokens, i):
        return True
    if _not_verb_but(tokens, j, i):
        return True
    if before[-1:] == ["from"] and any(t.value and t.word == "" for t in tokens[i + 1:]) and \
            "to" in words[i + 1:]:
        return True
    after = " ".join(w for w in words[i + 1:i + 5] if w)
    if after.startswith(("no longer", "anymore", "any more")):
        return True
    if words[i + 1:i + 2] and words[i + 1] in ARROWS:
        return True  # "django 4.2 → 5.0"
    if words[max(0, i - 2):i] == ["(", "was"]:
        return True  # "Retries: 5 (was 3)"
    verb = next((w for w in reversed(words[max(0, i - 6):i]) if w not in DETERMINERS
                 and w != "·"), "")  # (past the words of a value: "the old Netgear router")
    if is_replace(verb) and words[i + 1:i + 2] in (["with"], ["by"], ["for"]) and (
            words[i + 1] != "for" or verb.startswith("swap")):
        return True  # "replace WordPress with Ghost", "swap the butter for oil": it goes
    verb, _, rest = after.partition(" ")  # "Y is superseded", "Y was wrong", "Y is the old one"
    said = [w for w in rest.split(" ") if w not in DETERMINERS]
    if verb in ("was", "were") and said and i == _clause_first(tokens, i):
        return True  # a value the subject of a past copula: "10% was underfitting"
    return verb in ("is", "was", "are", "were") and said[:1] != [] and said[0] in _RETIRED


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
