"""An old value named beside its new one: in a parenthesis after it ("K: X (was Y)", "$45
(up from $40)", "Friday, May 27 (changed from Wednesday, June 1)", "25 students (previously
30)", "8pm this year (7pm before)"), or as "the current Y" in a sentence that changes its
key to a new value ("switch the default model to gpt-4o-mini, which is cheaper than the
current default gpt-3.5-turbo").

Notices and changelogs write the change beside the value it made, in brackets: the value in
the brackets is the one it left. Only a change's words open the bracket (a closed class: a
past copula, an adverb of earlier, or a verb of change or "up"/"down" with "from"), or an
adverb of earlier closes it after Y alone ("(7pm before)"); and a value of the same kind
must stand before the bracket, so "(from Lisbon)" after a name or "(was 3 in the draft)"
with nothing before it retire nothing.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_words import DETERMINERS, Tok, closed, is_change, is_replace

# Words of a bracket that names what was before: "(was Y)", "(previously Y)", "(formerly Y)".
_EARLIER = closed("was were previously formerly originally prior before")
# The adverbs of earlier that may follow the old value instead: "(7pm before)".
_EARLIER_AFTER = closed("previously formerly originally before earlier")
# The direction of a figure's move before "from": "(up from Y)", "(down from Y)".
_DIRECTIONS = closed("up down")


def bracketed_old(tokens: list[Tok], i: int) -> bool:
    """Whether the value at ``i`` is the old one named in a bracket after its new value."""
    value = tokens[i].value
    if value is None:
        return False
    opening = next((k for k in range(i - 1, max(-1, i - 6), -1) if tokens[k].word == "("), None)
    if opening == i - 1 and _earlier_after(tokens, i):  # "8pm this year (7pm before)"
        return _kind_before(tokens, opening, value[3])
    if opening is None:
        return False
    words = [t.word for t in tokens[opening + 1:i] if t.word not in DETERMINERS]
    if not words or any(t.value is not None for t in tokens[opening + 1:i]):
        return False
    if words == ["was"]:  # "Retries: 5 (was 3)": a setting's list writes only the value
        return True
    earlier = words[0] in _EARLIER and (len(words) == 1 or words[1:] == ["from"] or
                                        words[-1] in ("at", "on", "in"))
    moved = words[-1] == "from" and len(words) == 2 and (
        words[0] in _DIRECTIONS or is_change(words[0]))
    if not (earlier or moved):
        return False
    return _kind_before(tokens, opening, value[3])


def _kind_before(tokens: list[Tok], opening: int, kind: str) -> bool:
    """A value of ``kind`` in the words before the bracket at ``opening``."""
    return any(t.value is not None and _same_kind(t.value[3], kind)
               for t in tokens[max(0, opening - 8):opening])


def _earlier_after(tokens: list[Tok], i: int) -> bool:
    """The value at ``i`` is a bracket's only value, with an adverb of earlier after it and
    the bracket's end: "(7pm before)", "(£40 previously)"."""
    return i + 2 < len(tokens) and tokens[i + 1].word in _EARLIER_AFTER and \
        tokens[i + 2].word == ")"


def _same_kind(one: str, other: str) -> bool:
    """A weekday's date and a calendar date are one kind here, as a port and the bare number
    of a bracket ("port 8080 (changed from 3000)": 3000 is read as a number)."""
    dates, ports = ("date", "weekday"), ("port", "number")
    return one == other or (one in dates and other in dates) or (one in ports and other in ports)


# Words that say a value is the one in force before a change ("the current default Y", "our
# existing 2pm slot", "today's Y").
_IN_FORCE = closed("current existing present today's")


def current_old(tokens: list[Tok], i: int) -> bool:
    """Whether the value at ``i`` is "the current [noun] Y" of a sentence whose change verb
    moves to another value of its kind before it ("switch … to X, … than the current default
    Y", "move the standup to 10:00; the current 9:30 slot clashes"): the value left."""
    value = tokens[i].value
    if value is None or not any(t.word in _IN_FORCE for t in tokens[max(0, i - 3):i]):
        return False
    at = next(k for k in range(i - 1, max(-1, i - 4), -1) if tokens[k].word in _IN_FORCE)
    if any(t.value is not None or t.word in ("of", "for", "to") for t in tokens[at + 1:i]):
        return False
    for k in range(at - 1, 0, -1):
        target = _to_value(tokens, k) if tokens[k].word == "to" else None
        if target is not None and _same_kind(target[3], value[3]) and any(
                is_change(t.word) or is_replace(t.word) for t in tokens[:k]):
            return True
    return False


def _to_value(tokens: list[Tok], k: int) -> tuple[int, int, str, str] | None:
    """The value "to" at ``k`` takes, past a determiner and "new" ("to the new gpt-4o-mini")."""
    for token in tokens[k + 1:k + 4]:
        if token.value is not None:
            return token.value
        if token.word not in DETERMINERS and token.word != "new":
            return None
    return None
