"""One thing's two names in a key: a closed class of head nouns and their short forms that
name the same attribute or owner ("the db port" / "the database listens on"; "home internet
plan" / "our fiber's 1 Gbps now"). Not "pay" (a verb in most chat: "we pay $1,400 now"),
"wage" ("the minimum wage"), "iteration" or "repo" (other things too): stop 49's review.
Keys compare word stems through it, so a correction phrased in the other word meets its
key; two words that may name two things ("doctor" and "GP", "budget" and "cost") are never
in it: a false supersession is worse than a missed one.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_keys import stem

# Each group: words that name one thing wherever a key uses them. The first is the name
# the group's stems are compared as.
_GROUPS = (
    "database db",
    "extension ext",
    "configuration config conf cfg",
    "environment env",
    "production prod",
    "directory dir",
    "password passwd pwd",
    "address addr",
    "salary paycheck",  # (not "pay" or "wage": "we pay $1,400 now", "the minimum wage")
    "internet broadband fiber fibre",
    # stop 51: general names of one thing in everyday keys (never "cell": a spreadsheet's;
    # never "flight" and "plane", "mail" and "email", "host" and "hostname": two things)
    "temperature temp",
    "postcode zipcode",
    "birthday birthdate dob",
    "mother mum mom",
    "father dad",
    "telephone phone tel",
    "mobile cellphone",
    "email e-mail",
    "apartment apt",
    "appointment appt",
    "veterinarian vet",
    "medication meds",
    "administrator admin",
    "maximum max",
    # stop 53: a verb and its event noun, one time of one event ("arrive 14:06", then "the
    # arrival is 14:11"; not "land": a staircase's too; not "rent": money, "rental": a hire)
    "arrival arrive",
    "departure depart",
    "renewal renew",
    # stop 54: a vehicle's registration and its short form ("my car reg is X", "the
    # registration is now Y"); never "plate" alone (a dinner's too)
    "registration reg",
)

# One word that names a whole phrase of another key's end (stop 51): "the SSID is now X"
# after "home wifi network: Y". The phrase must end the other key (its owner's words
# before it are the thing's: "home"); "wifi password" ends in no such phrase.
_WHOLE = {
    "ssid": ("wifi network", "wifi name", "network name", "wifi"),
    "hostname": ("host name", "server name"),
    "eta": ("arrival time", "arrival"),
    "dob": ("date of birth", "birth date"),
    # stop 54: the plate that shows a vehicle's registration names it ("car reg: X", then
    # "the number plate is now Y")
    "registration": ("number plate", "licence plate", "license plate", "registration plate",
                     "plate number"),
}

# The owners a whole phrase with none of its own may stand for: "the number plate" is a
# vehicle's ("my car reg", "the van's registration"), never "the conference registration".
_OWNERS = {"registration": frozenset({"car", "van", "vehicle", "bike", "motorbike", "truck",
                                      "lorry", "motorhome", "campervan", "scooter", "my"})}

_CANON: dict[str, str] = {}
for _group in _GROUPS:
    _words = _group.split()
    for _word in _words:
        _CANON[stem(_word)] = stem(_words[0])


def canon(stemmed: str) -> str:
    """The stem a key compares ``stemmed`` (a word's stem) as: its group's first word's."""
    return _CANON.get(stemmed, stemmed)


def key_stem(word: str) -> str:
    """A key word's stem, one for each group of names of one thing."""
    return canon(stem(word))


def phrase_named(phrase: str) -> str:
    """A key's owner or attribute phrase with each word of a group written as its group's
    first word ("db" as "database"); every other word as it is."""
    words = phrase.split()
    if not any(stem(w) in _CANON for w in words):
        return phrase
    return " ".join(_FIRST[_CANON[stem(w)]] if stem(w) in _CANON else w for w in words)


_FIRST = {stem(group.split()[0]): group.split()[0] for group in _GROUPS}


def whole_named(entity_a: str, attribute_a: str, entity_b: str, attribute_b: str) -> bool:
    """A key whose attribute is one word for a phrase (``_WHOLE``: "ssid") and names no
    owner the other does not, beside a key whose owner and attribute end with that phrase
    ("home wifi network"): one thing named two ways."""
    for (ent, att), (other_ent, other_att) in (((entity_a, attribute_a), (entity_b, attribute_b)),
                                               ((entity_b, attribute_b), (entity_a, attribute_a))):
        other = f"{other_ent} {other_att}".split()
        for phrase in _WHOLE.get(att, ()):
            words = phrase.split()
            if other[-len(words):] == words and (set(ent.split()) <= set(
                    other[:-len(words)]) or (len(other) == len(words) and set(
                        ent.split()) <= _OWNERS.get(att, set()))):  # (one names no owner)
                return True
    return False
