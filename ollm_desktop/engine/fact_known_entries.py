"""Which ledger entry a value read from a message is (``facts.absorb`` asks for each value).

A message read again must find its own entries, not add them twice; a value the user states
again is the current entry of that value; a value the user goes back to by a correction is a
new entry. Equal numbers of one sentence under different keys ("Grad accum 16, batch 16,
rank 16") are different entries, each found again by its key.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_key_match import family
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.provenance import Found


class Known:
    """Which entry a stated value is: this message's own (read again), else the current one;
    a replaced value is that entry again unless a correction or assignment restates it (then
    it is a new entry that replaces what replaced it: the user went back to it)."""

    def __init__(self, facts: list[Fact], message_id: str) -> None:
        self.mine: dict[tuple[str, str], Fact] = {}
        self.keyed: dict[tuple[str, str, str], Fact] = {}  # (and by key: "batch 16, rank 16")
        self.told: dict[str, tuple[int, str]] = {}  # each entry's sentence and key this read
        # (this message's own values by text alone: a replacement that took its old value's
        # key, "from Sphinx to MkDocs", has another family when read again)
        self.mine_by_value: dict[str, Fact] = {}
        self.current: dict[tuple[str, str], Fact] = {}
        self.current_keyed: dict[tuple[str, str, str], Fact] = {}  # "worker count 4", then
        # "replica count 4": an equal number of another key is another entry
        self.past: dict[tuple[str, str], Fact] = {}
        for fact in facts:
            self.add_fact(fact, own=fact.message_id == message_id)
            if fact.message_id == message_id:  # (a former read's: never two of this read
                self.mine_by_value.setdefault(fact.value, fact)  # of one text and kinds)

    def add_fact(self, fact: Fact, *, own: bool, item: Found | None = None) -> None:
        key = (fact.value, family(fact))
        if own:
            self.mine.setdefault(key, fact)
            self.keyed.setdefault((*key, fact.key), fact)
        if item is not None:
            self.told[fact.id] = (item.sentence, item.key)
        if fact.status == "current":
            self.current[key] = fact
            self.current_keyed[(*key, fact.key)] = fact
        elif fact.status == "forgotten" or key not in self.past:
            self.past[key] = fact  # a forgotten value stays forgotten

    def get(self, item: Found) -> Fact | None:
        key = (item.value, family(item))
        mine = self.mine.get(key)
        told = self.told.get(mine.id) if mine is not None else None
        if told is not None and told[0] == item.sentence and told[1] != item.key:
            return self._tell(item, self.keyed.get((*key, item.key)))  # one sentence's
        mine = _same_key(item, mine, self.keyed.get((*key, item.key)))
        now = _same_key(item, self.current.get(key), self.current_keyed.get((*key, item.key)))
        found = mine or now or self._same_sentence(item) or (  # two keys
            self.mine_by_value.get(item.value)
            if family(item) != "sentence" and not _a_role(item) else None)
        if found is not None:
            return self._tell(item, found)
        past = self.past.get(key)
        if past is not None and (past.status == "forgotten" or not (
                item.correction or item.kind == "setting") or self._retired_here(past)):
            return past
        return None

    def _tell(self, item: Found, fact: Fact | None) -> Fact | None:
        """``fact`` is ``item``'s entry: an equal number of another key in its sentence is
        another setting ("Grad accum 16, batch 16": two entries, each read again as itself)."""
        if fact is not None:
            self.told.setdefault(fact.id, (item.sentence, item.key))
        return fact

    def _retired_here(self, past: Fact) -> bool:
        """Replaced by a value of this very message (read again): the message named it as it
        stood then ("I meant Friday for the quiz night, Thursday is the darts league"), not
        as a value it goes back to; reading the message again changes nothing."""
        return any(fact.id == past.replaced_by for fact in self.mine.values())

    def _same_sentence(self, item: Found) -> Fact | None:
        """A current sentence this one repeats, cut or extended at a clause ("... to write,"
        and "... to write, but I'll put it here."): the same statement, not a correction of
        it (a small model repeats itself, and each repeat flipped the ledger's line)."""
        if family(item) != "sentence":
            return None
        stem = _stem(item.value)
        for (value, kind), fact in self.current.items():
            other = _stem(value)
            short, long = sorted((stem, other), key=len)
            if kind == "sentence" and len(short) >= 20 and long.startswith(short) and (
                    len(long) == len(short) or long[len(short)] in ",;:.!?"):
                return fact  # cut at a clause: "Redis" -> "Redis Streams" is no repeat
        return None


def _stem(sentence: str) -> str:
    return " ".join(sentence.split()).rstrip(" .,;:!?").lower()


def _same_key(item: Found, fact: Fact | None, keyed: Fact | None) -> Fact | None:
    """``fact`` (the entry of ``item``'s value) if it is ``item``'s: an equal number under
    another key with an attribute ("batch: 16, rank: 16") is another entry, so only the
    entry of ``item``'s own key (``keyed``) is; a number keyed by no attribute matches any."""
    if fact is None or (item.ref_kind != "number" and not _a_role(item)) or \
            _named(item.key) == _named(fact.key) or \
            not _named(item.key).split("|")[-1] or not _named(fact.key).split("|")[-1]:
        return fact
    return keyed


def _a_role(item: Found) -> bool:
    """A name said to hold a keyed role ("Lisa is the captain", ``fact_new_roles``): one
    person holds several roles, each its own entry (the goalkeeper and the captain)."""
    return item.single and item.ref_kind == "name" and bool(_named(item.key).split("|")[-1])


def _named(key: str) -> str:
    """The key without its unit: ``entity|attribute``."""
    return key.rsplit("|", 1)[0]
