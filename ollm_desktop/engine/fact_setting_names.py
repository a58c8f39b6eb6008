"""A setting named by its env var's name (issue 28, stop 51 review).

"Set MAX_CONN to 100", then "Set MAX_CONN to 200": the name before "to X" (or "is X", ": X")
is the setting's key, not a value of it. Its value is keyed by the name (``setting_key``), so
a later value of that name replaces the earlier one; and where a change's "NAME to X" reads
the name as its old value (``fact_old_values.is_old``: "bump MAX_CONN to 80" retires
``MAX_CONN=50``), the bare name the user said before is no value it retires
(``not_the_name``): the name stays, its value goes. Kept apart from ``fact_keys`` (full) and
from ``fact_named_parts`` (parts of values), which ask here.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.fact_words import Tok, Value

# the words between a setting's name and its value: "MAX_CONN to 100", "API_URL is X",
# "MAX_CONN is now 100", "LOG_LEVEL: warn", "POOL_SIZE = 8"
_BETWEEN = frozenset({"to", "is", "now", ":", "=", "at"})


def setting_key(tokens: list[Tok], i: int, keyed: tuple[str, str]) -> tuple[str, str]:
    """``keyed`` (the key ``fact_keys.key_of`` read) where it has an attribute ("Dana set
    MAX_CONN to 200": Dana's); else ("", the name) of the value at ``i`` where an env var's
    name stands right before it, with only "to" / "is" / "now" / ":" / "=" / "at" between
    ("Set MAX_CONN to 100", "API_URL is https://a.io"), and of that name itself (so that
    "RETRIES_MAX" of "set TIMEOUT_MS to 5000 and RETRIES_MAX to 3" takes no other's key);
    not for a name of a name ("rename OLD_VAR to NEW_VAR": a renaming, no setting)."""
    value = tokens[i].value
    if keyed[1] or value is None:
        return keyed
    if value[3] == "env":
        valued = _name_of(tokens, i, 1)
        return ("", _bare(value[2])) if valued is not None and valued[3] != "env" else keyed
    name = _name_of(tokens, i, -1)
    return ("", _bare(name[2])) if name is not None and name[3] == "env" else keyed


def _name_of(tokens: list[Tok], i: int, step: int) -> Value | None:
    """The value one or two of ``_BETWEEN``'s words away from ``i`` (before it: -1; after
    it: 1), with at least one such word between."""
    j, gap = i + step, 0
    while 0 <= j < len(tokens) and tokens[j].value is None and tokens[j].word in _BETWEEN \
            and gap < 2:
        j, gap = j + step, gap + 1
    return tokens[j].value if gap and 0 <= j < len(tokens) else None


def _bare(name: str) -> str:
    """An env var's name as a key's word: "max_conn" of "MAX_CONN", "home" of "$HOME"."""
    return name.strip("${}").lower()


def named_setting(fact: Fact, said: str) -> bool:
    """``fact`` is a value of the setting whose name is ``said`` (lower case): keyed by it
    ("100" of "Set MAX_CONN to 100")."""
    parts = fact.key.split("|")
    return "_" in said and len(parts) == 3 and parts[1] == said and fact.ref_kind != "env"


def not_the_name(olds: list[Fact], said: str, kind: str, replacement: Fact) -> list[Fact]:
    """``olds`` less the bare name of a setting (``said``, an env var's name, the old value
    of a change to a value of another kind): "Set MAX_CONN to 200" retires the value the
    user gave MAX_CONN, not the name they said with it."""
    if kind != "env" or replacement.ref_kind == "env":
        return olds
    return [f for f in olds if not (f.ref_kind == "env" and f.value.lower() == said.lower())]

